// The Replay dialog shows a pair's data in pieces when it has a hole (2021 and 2025 candles, 3.5
// years apart, were shown as one span), and says so when the start typed falls in the hole.
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../test/fixtures/binance/klines/${name}`, import.meta.url));

test('a pair whose data has a hole: its coverage in two pieces, and a start in the hole said', async ({
  page,
  service,
}) => {
  // LTCUSDT (no other spec imports it): 1h candles of 2021-05-16..18 and 15m ones of 2025-01-06..12
  for (const [file, interval] of [
    ['binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv', '1h'],
    ['binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv', '15m'],
  ]) {
    const r = await page.request.post(`${service.url}/api/v1/datasets/import`, {
      data: { paths: [fixture(file)], symbol: 'LTCUSDT', market: 'um', kind: 'klines', interval },
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press('Shift+R');
  const dialog = page.getByRole('dialog', { name: 'Replay' });
  const row = dialog.getByTestId('replay-symbols').getByRole('row', { name: /LTCUSDT/ });
  // one line a piece
  await expect(row.locator('.piece')).toHaveText([
    '2021-05-16 00:00 → 2021-05-19 00:00',
    '2025-01-06 00:00 → 2025-01-13 00:00',
  ]);
  // the table still fits the drawer with the two pieces
  const symbols = dialog.getByTestId('replay-symbols');
  const [tableWidth, boxWidth] = await symbols.evaluate((t) => [t.scrollWidth, t.parentElement!.clientWidth]);
  expect(tableWidth).toBeLessThanOrEqual(boxWidth);

  await dialog.getByRole('checkbox', { name: 'Replay LTCUSDT' }).check();
  const start = dialog.getByRole('textbox', { name: 'Start', exact: true });
  await start.fill('2023-01-01 00:00');
  await expect(dialog.getByTestId('replay-hole')).toHaveText(
    'LTCUSDT has no data from 2021-05-19 00:00 to 2025-01-06 00:00 UTC: a start there waits in the hole, at the ' +
      'last price before it, until 2025-01-06 00:00.',
  );
  await page.screenshot({ path: test.info().outputPath('replay-hole.png') });
  await start.fill('2025-01-07 00:00');
  await expect(dialog.getByTestId('replay-hole')).toHaveCount(0);
});

test('a hole inside one dataset (its gaps): the coverage is cut there, and a start in it said', async ({
  page,
  service,
}) => {
  // ADAUSDT (no other spec imports it): the 2021 and the 2023 1h files in one dataset, 22 months
  // apart, the 2023 day with its missing 13:00 candle
  const r = await page.request.post(`${service.url}/api/v1/datasets/import`, {
    data: {
      paths: [
        fixture('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv'),
        fixture('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv'),
      ],
      symbol: 'ADAUSDT',
      market: 'spot',
      kind: 'klines',
      interval: '1h',
    },
  });
  expect(r.status(), await r.text()).toBe(200);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press('Shift+R');
  const dialog = page.getByRole('dialog', { name: 'Replay' });
  const row = dialog.getByTestId('replay-symbols').getByRole('row', { name: /ADAUSDT/ });
  await expect(row.locator('.piece')).toHaveText([
    '2021-05-16 00:00 → 2021-05-19 00:00',
    '2023-03-24 00:00 → 2023-03-24 13:00',
    '2023-03-24 14:00 → 2023-03-25 00:00',
  ]);
  await dialog.getByRole('checkbox', { name: 'Replay ADAUSDT' }).check();
  const start = dialog.getByRole('textbox', { name: 'Start', exact: true });
  await start.fill('2022-06-01 00:00');
  await expect(dialog.getByTestId('replay-hole')).toHaveText(
    'ADAUSDT has no data from 2021-05-19 00:00 to 2023-03-24 00:00 UTC: a start there waits in the hole, at the ' +
      'last price before it, until 2023-03-24 00:00.',
  );
  await start.fill('2021-05-17 00:00');
  await expect(dialog.getByTestId('replay-hole')).toHaveCount(0);
});
