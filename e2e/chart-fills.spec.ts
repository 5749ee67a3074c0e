// The account's fills on the chart (features/chart/fill-*.ts, chart-fills.ts): a buy is a "B" mark
// under its candle with its quantity, a sell an "S" over it, as soon as the user channel brings the
// fill; on another interval they are grouped on that interval's bars; the Indicators dialog turns
// them off (kept across a reload).
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading } from './support/desk.ts';

const SYMBOL = 'ETHUSDT';

test("the account's fills are marked on their candles, on every interval, and can be turned off", async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect(chart.box).toHaveAttribute('data-fills', '');

  await marketOrder(trader.api, SYMBOL, 1, '0.05');
  // the mark's bar is the one the fill's time falls in (1m bars: its minute)
  const [buy] = (await trader.api.myTrades({ symbol: SYMBOL })).items;
  const minute = Math.floor(buy.created_at / 60_000) * 60_000;
  await expect(chart.box).toHaveAttribute('data-fills', `B:${minute}:0.050`);

  await marketOrder(trader.api, SYMBOL, 2, '0.02');
  await expect(chart.box).toHaveAttribute('data-fills', new RegExp(`^B:${minute}:0\\.050 S:\\d+:0\\.020$`));

  // on 1h the fills of the hour share one bar per side
  await chart.interval('1h').click();
  await expect(chart.box).toHaveAttribute('data-interval', '1h');
  const hour = Math.floor(buy.created_at / 3_600_000) * 3_600_000;
  await expect(chart.box).toHaveAttribute('data-fills', new RegExp(`^B:${hour}:0\\.050 S:\\d+:0\\.020$`));

  // off in the Indicators dialog, and still off after a reload
  await page.getByTestId('indicators-button').click();
  const dialog = page.getByRole('dialog', { name: 'Indicators' });
  await dialog.getByRole('checkbox', { name: /My fills/ }).uncheck();
  await expect(chart.box).toHaveAttribute('data-fills', '');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await marketOrder(trader.api, SYMBOL, 1, '0.01');
  await expect(chart.box).toHaveAttribute('data-fills', '');
  await page.getByTestId('indicators-button').click();
  await dialog.getByRole('checkbox', { name: /My fills/ }).check();
  await expect(chart.box).toHaveAttribute('data-fills', /^B:.*0\.060 S:.*0\.020$|B:\d+:0\.050.*B:\d+:0\.010/);
});
