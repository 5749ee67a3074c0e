// The Replay dialog picks the dataset a pair reads (docs/replay.md "Choosing the datasets"): a
// pair with USD-M 1h candles of 2021-05-16..18 and spot 15m ones of 2025-01-06..12 gets a select
// of its datasets (the venue alone reads the 1h ones from the start the dialog offers); the 15m
// ones chosen with the keyboard, the pair's coverage and start follow them, the replay reads them
// (its status and the banner's symbols say so) and its chart opens at 15m.
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../test/fixtures/binance/klines/${name}`, import.meta.url));

test('a pair with two datasets: the non-default one picked in the dialog is what the replay reads', async ({
  page,
  service,
}) => {
  // LINKUSDT: no other spec imports it
  const ids: Record<string, number> = {};
  for (const [file, market, interval] of [
    ['binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv', 'um', '1h'],
    ['binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv', 'spot', '15m'],
  ]) {
    const r = await page.request.post(`${service.url}/api/v1/datasets/import`, {
      data: { paths: [fixture(file)], symbol: 'LINKUSDT', market, kind: 'klines', interval },
    });
    expect(r.status(), await r.text()).toBe(200);
    ids[interval] = (
      (await r.json()) as { data: { results: Array<{ dataset_id: number }> } }
    ).data.results[0].dataset_id;
  }
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press('Shift+R');
  const dialog = page.getByRole('dialog', { name: 'Replay' });
  const row = dialog.getByTestId('replay-symbols').getByRole('row', { name: /LINKUSDT/ });
  await expect(row.locator('.piece')).toHaveText([
    '2021-05-16 00:00 → 2021-05-19 00:00',
    '2025-01-06 00:00 → 2025-01-13 00:00',
  ]);
  const check = dialog.getByRole('checkbox', { name: 'Replay LINKUSDT' });
  await check.check();
  const start = dialog.getByRole('textbox', { name: 'Start', exact: true });
  await expect(start).toHaveValue('2021-05-16 00:00');

  // the select: the venue's pick by default, then the candidates with market, kind, interval, span and id
  const select = dialog.getByRole('combobox', { name: 'Data of LINKUSDT' });
  await expect(select.locator('option')).toHaveText([
    // Automatic names the venue's pick for the start typed (the 1h candles of 2021)
    `Automatic (USD-M klines 1h · 2021-05-16 00:00 → 2021-05-19 00:00 · #${ids['1h']})`,
    `USD-M klines 1h · 2021-05-16 00:00 → 2021-05-19 00:00 · #${ids['1h']}`,
    `Spot klines 15m · 2025-01-06 00:00 → 2025-01-13 00:00 · #${ids['15m']}`,
  ]);
  await expect(select).toHaveValue('');
  // a start in 2025 (past the 1h candles): Automatic names the spot 15m ones, as the venue's plan would read
  await start.fill('2025-01-08 00:00');
  await expect(select.locator('option').first()).toHaveText(
    `Automatic (Spot klines 15m · 2025-01-06 00:00 → 2025-01-13 00:00 · #${ids['15m']})`,
  );
  await start.fill('2021-05-16 00:00');
  // the keyboard reaches it from the pair's checkbox
  await check.focus();
  for (let i = 0; i < 12; i++) {
    if (await select.evaluate((el) => el === el.ownerDocument.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(select).toBeFocused();
  await select.selectOption({ label: `Spot klines 15m · 2025-01-06 00:00 → 2025-01-13 00:00 · #${ids['15m']}` });

  // the pair's coverage and the start follow the chosen data
  await expect(row.locator('.piece')).toHaveText(['2025-01-06 00:00 → 2025-01-13 00:00']);
  await expect(start).toHaveValue('2025-01-06 00:00');
  // the table and the select still fit the drawer
  const [tableWidth, boxWidth] = await dialog
    .getByTestId('replay-symbols')
    .evaluate((t) => [t.scrollWidth, t.parentElement!.clientWidth]);
  expect(tableWidth).toBeLessThanOrEqual(boxWidth);
  await expect(dialog.getByRole('columnheader', { name: 'Made of' })).toBeInViewport({ ratio: 1 });
  await expect(select).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByTestId('replay-span')).toHaveText('Common data: 2025-01-06 00:00 → 2025-01-13 00:00 UTC');
  await dialog.getByRole('textbox', { name: 'End', exact: true }).fill('2025-01-07 00:00');
  await dialog.getByLabel('Speed', { exact: true }).fill('1');
  await page.screenshot({ path: test.info().outputPath('replay-pick-dialog.png') });
  // the replay's screen (its own origin, BTCUSDT the pair remembered there) asks only LINKUSDT:
  // it asked BTCUSDT's trades and ticker first, two 404s, before it knew it showed a replay
  const notFound: string[] = [];
  const tradesAsked: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) notFound.push(r.url());
    if (r.url().includes('/fapi/v1/trades?')) tradesAsked.push(new URL(r.url()).searchParams.get('symbol') ?? '');
  });
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/replays') && r.request().method() === 'POST'),
    dialog.getByRole('button', { name: 'Start replay' }).click(),
  ]);
  expect(answer.request().postDataJSON()).toMatchObject({ symbols: ['LINKUSDT'], datasets: [ids['15m']] });
  // the replay's screen: the banner's symbols say what it reads, the status too, the chart opens at 15m
  const banner = page.getByTestId('replay-banner');
  await expect(banner).toContainText('REPLAY');
  await expect(banner.getByTestId('replay-symbols')).toHaveAttribute(
    'title',
    `LINKUSDT: klines spot 15m #${ids['15m']}`,
  );
  // logged in with the one-time link (listing the replays below renews it)
  await expect(page.getByTestId('available-balance')).toHaveText('10,000.00');
  const replayUrl = new URL(page.url()).origin;
  const status = await (await page.request.get(`${replayUrl}/api/v1/replay`)).json();
  expect(status.data).toMatchObject({
    symbols: ['LINKUSDT'],
    start: Date.parse('2025-01-06T00:00:00Z'),
    sources: { LINKUSDT: 'klines' },
    datasets: { LINKUSDT: [{ role: 'klines', id: ids['15m'], market: 'spot', kind: 'klines', interval: '15m' }] },
  });
  await expect(screen.chart.interval('15m')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => tradesAsked).toContain('LINKUSDT');
  expect(tradesAsked).not.toContain('BTCUSDT');
  expect(notFound).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('replay-pick-screen.png') });
  const running = (await (await page.request.get(`${service.url}/api/v1/replays`)).json()) as {
    data: Array<{ id: string; url: string }>;
  };
  const id = running.data.find((r) => r.url === replayUrl)!.id;
  expect((await page.request.delete(`${service.url}/api/v1/replays/${id}`)).status()).toBe(200);
});
