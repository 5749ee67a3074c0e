// The Replay dialog and a depth dataset without a book snapshot (docs/replay.md "The historical
// book"): the spot TRXUSDT recording of 2025-03-04 is a diff stream and a trade stream alone. The
// dialog's Automatic named its depth as the pair's data, and Start was refused (1001) with the
// venue's reason in the footer; Automatic and the depth option now say it is refused, a note says
// why and which dataset to choose, and the trades chosen with the keyboard start the replay.
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

const SPOT_TRX = fileURLToPath(
  new URL('../test/fixtures/binance/depth/binance_spot_TRXUSDT_2025-03-04_lasota/', import.meta.url),
);

test('a depth dataset without a snapshot is not offered as the source: the dialog says why and what to choose', async ({
  page,
  service,
}) => {
  const ids: Record<string, number> = {};
  for (const file of ['diff_depth_stream.csv', 'trade_stream.csv']) {
    const r = await page.request.post(`${service.url}/api/v1/datasets/import`, {
      data: { paths: [SPOT_TRX + file], symbol: 'TRXUSDT', market: 'spot' },
    });
    expect(r.status(), await r.text()).toBe(200);
    ids[file] = ((await r.json()) as { data: { results: Array<{ dataset_id: number }> } }).data.results[0].dataset_id;
  }
  const depth = ids['diff_depth_stream.csv'];
  const trades = ids['trade_stream.csv'];
  let replayUrl: string | null = null;
  try {
    const screen = new TradingPage(page);
    await screen.open(service.url);
    await page.keyboard.press('Shift+R');
    const dialog = page.getByRole('dialog', { name: 'Replay' });
    await dialog.getByRole('checkbox', { name: 'Replay TRXUSDT' }).check();
    await expect(dialog.getByRole('textbox', { name: 'Start', exact: true })).toHaveValue('2025-03-04 00:00');
    const select = dialog.getByRole('combobox', { name: 'Data of TRXUSDT' });
    await expect(select.locator('option').first()).toHaveText(
      `Automatic (Spot depth · 2025-03-04 00:00:00.562 → 2025-03-04 00:00:02.162 · #${depth} · no book snapshot, refused)`,
    );
    await expect(select.locator(`option[value="${depth}"]`)).toHaveText(/no book snapshot, refused$/);
    const trLabel = `Spot trades · 2025-03-04 00:00:01.271 → 2025-03-04 00:00:11.750 · #${trades}`;
    await expect(select.locator(`option[value="${trades}"]`)).toHaveText(trLabel);
    const note = dialog.getByTestId('replay-bookless-TRXUSDT');
    await expect(select).toHaveAccessibleDescription(/holds no order book snapshot/);
    await expect(note).toHaveText(
      `Automatic reads TRXUSDT from Spot depth #${depth}, which holds no order book snapshot up to ` +
        '2025-03-04 00:00:02.162: its diffs alone cannot build the book, so the venue refuses it. ' +
        `Choose ${trLabel} in TRXUSDT data instead.`,
    );
    await page.screenshot({ path: test.info().outputPath('bookless.png') });

    // the trades chosen with the keyboard: the note goes, and the replay starts
    await select.focus();
    await select.selectOption(String(trades));
    await expect(note).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect(page.getByTestId('replay-banner')).toContainText('REPLAY');
    replayUrl = new URL(page.url()).origin;
    const status = await (await page.request.get(`${replayUrl}/api/v1/replay`)).json();
    expect(status.data).toMatchObject({ symbols: ['TRXUSDT'], sources: { TRXUSDT: 'trades' } });
  } finally {
    // the replay started reads the trades: closed before they are deleted
    const list = (await (await page.request.get(`${service.url}/api/v1/replays`)).json()) as {
      data: Array<{ id: string; url: string }>;
    };
    for (const r of list.data.filter((x) => x.url === replayUrl))
      await page.request.delete(`${service.url}/api/v1/replays/${r.id}`);
    for (const id of [depth, trades]) await page.request.delete(`${service.url}/api/v1/datasets/${id}`);
  }
});

test('a Start refused by the service leaves the keyboard focus on Start replay, beside the reason', async ({
  page,
  service,
}) => {
  const ids: number[] = [];
  for (const file of ['diff_depth_stream.csv', 'trade_stream.csv']) {
    const r = await page.request.post(`${service.url}/api/v1/datasets/import`, {
      data: { paths: [SPOT_TRX + file], symbol: 'TRXUSDT', market: 'spot' },
    });
    expect(r.status(), await r.text()).toBe(200);
    ids.push(((await r.json()) as { data: { results: Array<{ dataset_id: number }> } }).data.results[0].dataset_id);
  }
  try {
    const screen = new TradingPage(page);
    await screen.open(service.url);
    await page.keyboard.press('Shift+R');
    const dialog = page.getByRole('dialog', { name: 'Replay' });
    await dialog.getByRole('checkbox', { name: 'Replay TRXUSDT' }).check();
    // the depth dataset chosen anyway: the service refuses it (1001)
    await dialog.getByRole('combobox', { name: 'Data of TRXUSDT' }).selectOption(String(ids[0]));
    const start = dialog.getByRole('button', { name: 'Start replay' });
    await start.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toContainText(
      `The replay did not start: Cannot replay: the dataset ${ids[0]} (spot depth of TRXUSDT) holds no order book snapshot`,
    );
    await expect(start).toBeEnabled();
    // it was on the page's body (the button disabled while the request ran)
    await expect(start).toBeFocused();
    await page.screenshot({ path: test.info().outputPath('refused.png') });
  } finally {
    for (const id of ids) await page.request.delete(`${service.url}/api/v1/datasets/${id}`);
  }
});
