// The account's fills on the chart (features/chart/fill-*.ts, chart-fills.ts): a buy is a "B" mark
// under its candle with its quantity, a sell an "S" over it, as soon as the user channel brings the
// fill; on another interval they are grouped on that interval's bars, and the legend of a bar says
// what its marks hold; the Indicators dialog turns them off (kept across a reload).
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading } from './support/desk.ts';
import { Side } from '../src-shared/enums.ts';

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
  // the legend of the bar under the pointer says what its marks hold, each side's quantity at its
  // average price (a market order may take several levels): the pointer moved left from the
  // price axis to the newest bars, as a user looks for the marks
  const trades = (await trader.api.myTrades({ symbol: SYMBOL })).items;
  const avg = (side: Side) => {
    const mine = trades.filter((t) => t.side === side);
    const quote = mine.reduce((q, t) => q + Number(t.qty) * Number(t.price), 0);
    const qty = mine.reduce((q, t) => q + Number(t.qty), 0);
    return (quote / qty).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  };
  const legendFills = chart.legend.getByTestId('chart-legend-fill');
  await expect(legendFills).toHaveCount(0); // no pointer: the newest bar's figures alone
  const b = (await chart.box.boundingBox())!;
  for (let x = b.x + b.width - 75; x > b.x + b.width / 2; x -= 3) {
    await page.mouse.move(x, b.y + b.height / 2);
    if ((await legendFills.count()) > 0) break;
  }
  // both in the bar of the fills' hour; had the hour turned between the two orders, the newest
  // bar with a mark is the sell's alone
  if (Math.floor(trades[0].created_at / 3_600_000) * 3_600_000 === hour) {
    await expect(legendFills).toHaveText([`Bought 0.050 @ ${avg(Side.BUY)}`, `Sold 0.020 @ ${avg(Side.SELL)}`]);
  } else await expect(legendFills).toHaveText([`Sold 0.020 @ ${avg(Side.SELL)}`]);
  await page.mouse.move(b.x + b.width / 2, b.y - 40);

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
