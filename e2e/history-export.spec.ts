// A history tab's Export CSV saves every record its filters select as a CSV file of the API's
// records (docs/trading-screen.md): the trade history of a round trip holds both fills, field for
// field as GET /fapi/v1/myTrades answers them, with a UTC time beside each ms; and the button sits
// in the tab's tool row at the smallest window without pushing the table out of its panel.
import { readFileSync } from 'node:fs';
import { TRADE_RECORD_FIELDS } from '../src-shared/types.ts';
import { test, expect } from './support/fixtures.ts';
import { openTrading, roundTrip } from './support/desk.ts';

test('Export CSV of the trade history: both fills of a round trip, as the API answers them', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = '1000PEPEUSDT';
  const { open, close } = await roundTrip(market, trader.api, symbol);
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 640 } });
  await screen.tabs.show('Trade history');
  await expect(screen.tabs.tradeHistory.locator('tbody tr').first()).toBeVisible();
  // this pair's trades (the trader may have others from earlier specs)
  await page.getByRole('combobox', { name: 'Symbol filter' }).selectOption(symbol);
  const button = page.getByRole('button', { name: 'Export CSV' });
  await expect(button).toBeInViewport({ ratio: 1 });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^perpdesk-trades-\d{8}-\d{6}\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  await expect(page.getByTestId('export-status')).toHaveText(
    `${lines.length - 1} records saved to ${download.suggestedFilename()}`,
  );

  await page.screenshot({ path: test.info().outputPath('history-export.png') });
  const api = await trader.api.myTrades({ symbol, limit: 500 });
  expect(lines[0]).toBe([...TRADE_RECORD_FIELDS, 'created_at_utc'].join(','));
  expect(lines).toHaveLength(api.items.length + 1);
  const rows = lines.slice(1).map((l) => l.split(','));
  const orderIds = rows.map((r) => r[TRADE_RECORD_FIELDS.indexOf('order_id')]);
  expect(orderIds).toContain(open.order_id);
  expect(orderIds).toContain(close.order_id);
  // field for field the API's record, newest first, and the time in UTC
  const first = api.items[0];
  expect(rows[0].slice(0, TRADE_RECORD_FIELDS.length)).toEqual(TRADE_RECORD_FIELDS.map((f) => String(first[f])));
  expect(rows[0][TRADE_RECORD_FIELDS.length]).toBe(new Date(first.created_at).toISOString());
});
