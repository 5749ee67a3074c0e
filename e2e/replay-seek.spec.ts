// After a replay's seek, a position's row and the balance are of one instant: the liquidation
// price, margin, margin ratio and Available at the new mark, not at the one of the last 5 s poll
// (they lagged the new mark and PnL beside them by up to 5 s: minutes or hours of history). The
// data (real 1m BTCUSDT klines, 2021-05-16..18) are imported and the replay started and traded
// through the API; the seek is the banner's. A service of this spec's own: its replays count
// against the limit of 4 and must not meet another spec's.
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { test, expect } from './support/fixtures.ts';
import { PositionsArea } from './pages/positions-area.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';

test.use({ serviceOptions: { own: 'replay-seek' } });

const grouped = (x: number, decimals: number): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

test("after a seek the positions' liquidation price, margin, margin ratio and Available are at the new mark at once", async ({
  page,
  service,
}) => {
  test.setTimeout(150_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  try {
    const { banner } = await openPausedReplay(page, replay);
    // the screen's own account (the login link's), trading through the API: long 0.5, short 0.2, cross 20x
    const creds = (await page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.credentials') ?? 'null'))) as {
      apiKey: string;
      apiSecret: string;
    };
    const trader = new RestClient({ baseUrl: replay.url, apiKey: creds.apiKey, apiSecret: creds.apiSecret });
    await trader.syncTime();
    for (const [side, qty] of [
      [1, '0.5'],
      [2, '0.2'],
    ] as const)
      await trader.placeOrder({ symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 2, qty });
    const area = new PositionsArea(page);
    const long = area.row('BTCUSDT', 1);
    await expect(long).toBeVisible();
    await expect(area.row('BTCUSDT', 2)).toBeVisible();

    // the screen's 5 s refresh is held from here on (a read on its way never answers), so only
    // what the screen does on the seek itself can bring the new figures
    let held = 0;
    let seekAt = Infinity;
    await page.route('**/fapi/v1/position/list?**', async (route) => {
      if (Date.now() < seekAt) {
        held++;
        return; // never answered
      }
      await route.continue();
    });
    await expect.poll(() => held, { timeout: 15_000 }).toBeGreaterThan(0);

    // seek three hours on, from the banner (G, a time, Enter)
    seekAt = Date.now();
    await page.locator('body').press('g');
    await page.keyboard.type('2021-05-16 03:00');
    await page.keyboard.press('Enter');
    await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 03:00:00');
    const [pl, ps] = await trader.positions();
    const account = await trader.account();
    const mark = pl.mark_price;
    await expect(page.getByTestId('mark-price')).toHaveText(grouped(mark, 1));
    // the row: margin over margin ratio, mark over liquidation price, as the API has them now
    for (const [row, p] of [
      [long, pl],
      [area.row('BTCUSDT', 2), ps],
    ] as const) {
      await expect(row).toContainText(grouped(p.liquidation_price, 1), { timeout: 10_000 });
      await expect(row).toContainText(grouped(p.margin, 2));
      await expect(row).toContainText(`${grouped(p.margin_ratio * 100, 2)}%`);
    }
    // Available: the API's, to the cent (the screen's is computed at the live mark)
    const shown = async (): Promise<number> =>
      Number((await page.getByTestId('available-balance').textContent())!.replace(/,/g, ''));
    await expect.poll(shown).toBeCloseTo(Number(account.available_balance), 1);
    await page.screenshot({ path: test.info().outputPath('replay-after-seek.png') });
  } finally {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
