// Replay in the screen: import real 1m BTCUSDT klines (2021-05-16..18) through the
// Data dialog, open a replay from the Replay dialog (its checks first), land on the replay venue
// with its banner, pause, place a limit buy below the market that the history reaches within
// the next hour, play at speed and see it fill, the position, the report with its equity
// curve, and go back to the live market.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errors } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { zipPayload } from './support/zip-payload.ts';

const KLINES = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url),
);

interface Row {
  open: number;
  low: number;
  close: number;
}

function readKlines(): Row[] {
  return readFileSync(KLINES, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .map((c) => ({ open: Number(c[0]), low: Number(c[3]), close: Number(c[4]) }));
}

test('replay: open from the dialog, play at speed, a limit order fills when the history reaches it, position and report', async ({
  page,
  service,
}) => {
  test.setTimeout(120_000);
  const rows = readKlines();
  const screen = await openTrading(page, service.url, service.account);

  // 1. the data, through the Data dialog (USD-M, as a perpetual replay wants)
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  const data = page.getByRole('dialog', { name: 'Market data' });
  await data.getByRole('combobox', { name: 'Market of the files' }).selectOption('um');
  await data
    .getByTestId('data-file-picker')
    .setInputFiles([zipPayload('BTCUSDT-1m-2021-05-16.zip', readFileSync(KLINES, 'utf8'))]);
  await expect(data.getByTestId('data-import-results')).toContainText('4,320 rows');
  await page.keyboard.press('Escape');
  await expect(data).toHaveCount(0);

  // 2. the Replay dialog: coverage, and each bad field named before anything is sent
  await page.keyboard.press('Shift+R');
  const dialog = page.getByRole('dialog', { name: 'Replay' });
  await expect(dialog).toBeVisible();
  const symbols = dialog.getByTestId('replay-symbols');
  await expect(symbols.getByRole('row', { name: /BTCUSDT/ })).toContainText('2021-05-16 00:00 → 2021-05-19 00:00');
  await expect(symbols.getByRole('row', { name: /BTCUSDT/ })).toContainText('klines');
  // every column whole inside the drawer (the table was wider and cut "Made of" to "Mad")
  await expect(symbols.getByRole('columnheader', { name: 'Made of' })).toBeInViewport({ ratio: 1 });
  // (BTCUSDT's row: other specs on this service may have imported klines of other pairs)
  await expect(symbols.getByRole('row', { name: /BTCUSDT/ }).getByRole('cell', { name: 'klines' })).toBeInViewport({
    ratio: 1,
  });
  const [tableWidth, boxWidth] = await symbols.evaluate((t) => [t.scrollWidth, t.parentElement!.clientWidth]);
  expect(tableWidth).toBeLessThanOrEqual(boxWidth);
  await dialog.getByRole('button', { name: 'Start replay' }).click();
  await expect(dialog.getByText('Pick at least one symbol.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Replay BTCUSDT' }).check();
  await expect(dialog.getByRole('textbox', { name: 'Start', exact: true })).toHaveValue('2021-05-16 00:00');
  await dialog.getByRole('textbox', { name: 'Start', exact: true }).fill('2021-05-15 12:00');
  await dialog.getByRole('textbox', { name: 'End', exact: true }).fill('2021-05-15 06:00');
  await dialog.getByRole('button', { name: 'Start replay' }).click();
  await expect(
    dialog.getByText('Start is outside the data: it must be from 2021-05-16 00:00 to before 2021-05-19 00:00 UTC.'),
  ).toBeVisible();
  await expect(dialog.getByText('End must be after the start.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Start', exact: true }).fill('2021-05-16 00:00');
  await dialog.getByRole('textbox', { name: 'End', exact: true }).fill('2021-05-16 12:00');
  await dialog.getByLabel('Speed', { exact: true }).fill('100');
  await dialog.getByRole('textbox', { name: 'Starting balance' }).fill('25000');
  await dialog.getByRole('button', { name: 'Start replay' }).click();

  // 3. the replay venue: another address, the banner, the replayed pair
  await expect.poll(() => new URL(page.url()).origin, { timeout: 20_000 }).not.toBe(new URL(service.url).origin);
  const replayOrigin = new URL(page.url()).origin;
  const banner = page.getByTestId('replay-banner');
  await expect(banner).toContainText('REPLAY');
  await expect(banner.getByTestId('replay-symbols')).toHaveText('BTCUSDT');
  await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16');
  await expect(screen.topbar.symbolButton).toContainText('BTCUSDT');
  // the banner says whether the replay plays: the top bar does not call its clock "paused"
  // (a replay's clock is moved event by event, and reads paused to the time route all along)
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-paused', 'false');
  await expect(page.getByTestId('connection-status')).not.toContainText('paused');
  // pause to place the order at a known historical time
  const state = banner.getByTestId('replay-state');
  if ((await banner.getAttribute('data-state')) === 'playing')
    await banner.getByRole('button', { name: 'Pause' }).click();
  await expect(banner).toHaveAttribute('data-state', 'paused');
  await expect(state).toContainText('paused · 100x');
  await expect(page.getByTestId('account-compact')).toContainText('25,000');

  // a limit buy below the market that the history's lows reach within the next hour, and below
  // the low of the minute in progress (its path inside the candle may visit any price down to
  // its low, which would fill the order at once). Where the replay paused has no such price (a
  // minute that is the next hours' low), seek to the first minute that has one.
  const priceAt = (from: number): number | null => {
    const current = rows.find((r) => r.open <= from && from < r.open + 60_000)!;
    const ahead = rows.filter((r) => r.open > from && r.open <= from + 3_600_000);
    const price = Math.floor(Math.min(...ahead.map((r) => r.low)) + 10);
    return price < current.low - 10 ? price : null;
  };
  const status = (await (await page.request.get(`${replayOrigin}/api/v1/replay`)).json()) as { data: { time: number } };
  let price = priceAt(status.data.time);
  if (price === null) {
    const start = rows.find((r) => r.open > status.data.time && priceAt(r.open) !== null)!;
    const seek = await page.request.post(`${replayOrigin}/api/v1/replay`, {
      data: { action: 'seek', time: start.open },
    });
    expect(seek.ok()).toBe(true);
    await expect(banner.getByTestId('replay-time')).toContainText(new Date(start.open).toISOString().slice(11, 16));
    price = priceAt(start.open)!;
  }
  await screen.form.limit('Open long', String(price), '0.010');
  await screen.tabs.show('Open orders');
  await expect(screen.tabs.openOrders.getByRole('row', { name: /BTCUSDT/ })).toHaveCount(1);

  // 4. play at speed; the order fills when the history gets there
  await banner.getByRole('combobox', { name: 'Replay speed' }).selectOption('1000');
  await banner.getByRole('button', { name: 'Play' }).click();
  await expect(state).toContainText('▶ 1,000x');
  await expect(screen.toast('fill').first()).toContainText('Bought 0.010 BTCUSDT', { timeout: 30_000 });
  await page.keyboard.press('Space');
  await expect(banner).toHaveAttribute('data-state', 'paused');
  await screen.tabs.show('Positions');
  await expect(
    screen.tabs
      .position('BTCUSDT', 1)
      .or(page.getByTestId(/position-row-BTCUSDT/))
      .first(),
  ).toContainText('0.010');

  // step a minute with the keyboard, then seek two hours on with the seek field
  const clock = banner.getByTestId('replay-time');
  const shown = async (): Promise<number> =>
    Date.parse(`${((await clock.textContent()) ?? '').replace(' UTC', '').replace(' ', 'T')}Z`);
  const before = await shown();
  await page.keyboard.press('.');
  await expect.poll(shown).toBe(before + 60_000);
  const target = before + 60_000 + 2 * 3_600_000;
  await page.keyboard.press('g');
  await page.keyboard.type(new Date(target).toISOString().slice(0, 19).replace('T', ' '));
  await page.keyboard.press('Enter');
  await expect.poll(shown).toBe(target);
  await expect(banner).toHaveAttribute('data-state', 'paused');
  // a notice of the steps above may still be up: dismiss it if one shows within 2 s
  await page
    .getByRole('button', { name: 'Dismiss' })
    .first()
    .click({ timeout: 2000 })
    .catch((e: unknown) => {
      if (!(e instanceof errors.TimeoutError)) throw e;
    });

  // 5. the report: one fill, the fee, an equity curve, the downloads
  await page.keyboard.press('Shift+R');
  const report = page.getByTestId('replay-report');
  await expect(report.getByTestId('report-fills')).toHaveText('1');
  await expect(report.getByTestId('report-fees')).not.toHaveText('0.00');
  await expect
    .poll(async () => Number(await report.getByTestId('replay-equity').getAttribute('data-points')))
    .toBeGreaterThan(1);
  const csv = await page.request.get(
    await report
      .getByTestId('replay-report-csv')
      .getAttribute('href')
      .then((h) => h!),
  );
  expect(csv.ok()).toBe(true);
  // the two downloads named alike: replay-BTCUSDT-summary.csv (the service's) and replay-BTCUSDT-report.json
  expect(csv.headers()['content-disposition']).toContain('filename="replay-BTCUSDT-summary.csv"');
  const [json] = await Promise.all([page.waitForEvent('download'), report.getByTestId('replay-report-json').click()]);
  expect(json.suggestedFilename()).toBe('replay-BTCUSDT-report.json');
  await page.screenshot({ path: test.info().outputPath('replay-screen.png') });

  // 6. back to the live market
  await banner.getByRole('button', { name: 'Back to live' }).click();
  await expect.poll(() => new URL(page.url()).origin).toBe(new URL(service.url).origin);
  await expect(page.getByTestId('replay-banner')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Replay', exact: true })).toBeVisible();
  // the replay is still running, listed in the dialog, and closes from there
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const running = page.getByRole('dialog', { name: 'Replay' }).getByTestId('replay-running');
  await expect(running).toContainText('BTCUSDT');
  await running.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-16 00:00' }).click();
  await running.getByTestId('replay-close-confirm').getByRole('button', { name: 'Close replay' }).click();
  await expect(running).toHaveCount(0);
});
