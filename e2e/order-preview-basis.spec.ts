// The order form's figures as a one-way trader reads them: a reduce-only sell larger than the
// long is previewed trimmed to the long (no flip, no liquidation price), the size % names what
// it is a share of (each side's Max, or the position for reduce-only), and a limit order with a
// size but no price shows no cost rather than 0.00.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

test('one-way: reduce-only previews the trimmed order, the % says its basis, no price shows no cost', async ({
  page,
  service,
  trader,
  market,
}) => {
  test.slow();
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await trader.api.setPositionMode('one_way');
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  await screen.form.market('Buy / Long', '0.010');
  await expect(screen.form.notice).toContainText('filled');

  // each side's column, a list of figures or the line saying it has nothing to reduce (the buy
  // side of a reduce-only order against a long), so by place, not by kind
  const [buyPreview, sellPreview] = [
    screen.form.preview.locator(':scope > *').first(),
    screen.form.preview.locator(':scope > *').nth(1),
  ];
  const figure = (dl: typeof buyPreview, name: string) => dl.locator('div', { hasText: name }).locator('dd');

  // a limit with a size and no price: nothing to value it at (it read Cost 0.00)
  await screen.form.type('Limit').click();
  await screen.form.price.fill('');
  await screen.form.size.fill('0.030');
  await expect(figure(buyPreview, 'Cost')).toHaveText('—');
  await expect(figure(sellPreview, 'Margin')).toHaveText('—');

  // reduce-only sell of 0.030 against the long of 0.010: the venue keeps 0.010, no flip
  await screen.form.root.getByRole('button', { name: 'Use the last price' }).click();
  await screen.form.root.getByRole('checkbox', { name: 'Reduce-only' }).check();
  await expect(sellPreview.getByTestId('trimmed')).toContainText('0.010 BTC');
  await expect(figure(sellPreview, 'Est. liq. price')).toHaveText('—');
  await expect(figure(sellPreview, 'Cost')).toHaveText('0.00');

  // the % sizes: of the position for reduce-only, of each side's Max otherwise
  await screen.form.root.getByRole('button', { name: '50%' }).click();
  await expect(page.getByTestId('pct-qty')).toContainText('50% of position');
  await expect(page.getByTestId('pct-qty')).toContainText('0.005 BTC sell / short');
  await screen.form.root.getByRole('checkbox', { name: 'Reduce-only' }).uncheck();
  await expect(page.getByTestId('pct-qty')).toContainText('50% of Max');
  await expect(page.getByTestId('pct-qty')).not.toContainText('available margin');
});

test('a limit sell below the bid: the fee estimated is the one the fill pays, at the bid, not at the limit', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  // the market quiet: the book the preview reads is the one the order meets
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const tick = Number(s.price_step);
  // both read again each time: the ladder may still be catching up with the last move before the pause
  await expect
    .poll(async () => {
      const api = (await market.api.depth(symbol, 5)).bids[0]?.[0];
      return api !== undefined && api === (await screen.ladder.levels('bid'))[0]?.[0];
    })
    .toBe(true);
  const [[bid, size]] = (await market.api.depth(symbol, 5)).bids;
  const qty = Number(s.min_qty) * 2;
  expect(Number(size)).toBeGreaterThanOrEqual(qty);
  // 4% under the bid: the whole order takes the best bid
  const limit = (Math.round((Number(bid) * 0.96) / tick) * tick).toFixed(s.price_precision);
  await screen.form.type('Limit').click();
  await screen.form.price.fill(limit);
  await screen.form.size.fill(qty.toFixed(s.qty_precision));
  const sellPreview = screen.form.preview.locator(':scope > *').nth(1);
  const fee = sellPreview.locator('div', { hasText: 'Fee (est.)' }).locator('dd');
  const atBid = (qty * Number(bid) * Number(s.taker_fee_rate)).toFixed(4);
  expect(atBid, 'the limit price would give another figure').not.toBe(
    (qty * Number(limit) * Number(s.taker_fee_rate)).toFixed(4),
  );
  await expect(fee).toHaveText(atBid);
  await screen.form.button('Open short').click();
  await expect(screen.form.notice).toContainText('filled');
  const fills = (await trader.api.myTrades({ symbol })).items;
  expect(fills).toHaveLength(1);
  expect(Number(fills[0].fee).toFixed(4)).toBe(atBid);
});

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});
