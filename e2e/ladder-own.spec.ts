// Your own resting orders are marked in the order book ladder (docs/trading-screen.md): a dot
// beside the level's price, their open size in the row's label, summed when several orders rest on
// one level, on the side the order rests on (a buy among the bids, a sell among the asks), and
// gone when the order is. Before, only the chart showed them.
import { test, expect } from './support/fixtures.ts';
import { setPaused } from './support/sim.ts';
import { openTrading, restingBuy } from './support/desk.ts';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** `n` steps of `step` (exact for the pairs' decimal steps). */
const times = (step: string, n: number): string => (Number(step) * n).toFixed(step.split('.')[1]?.length ?? 0);

test('your resting orders are marked on their levels, summed, on their side, and unmarked when cancelled', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const s = await market.symbol(symbol);
  await market.ensureBook(symbol, 20);
  await setPaused(service.url, true);
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  // the finest grouping, so a row is a price
  await screen.ladder.grouping.selectOption(s.price_merges[0]);
  await expect(screen.ladder.root).toHaveAttribute('data-step', s.price_merges[0]);
  const bids = await screen.ladder.levels('bid');
  const asks = await screen.ladder.levels('ask');
  const [near, far] = [bids[2][0], bids[4][0]];
  const sellAt = asks[3][0];
  // each order worth a little over the minimum notional
  const qty = times(s.qty_step, Math.ceil(Number(s.min_notional) / Number(near) / Number(s.qty_step)) + 1);
  const buy = (price: string) => restingBuy(trader.api, symbol, price, qty);
  const a = await buy(near);
  await buy(near);
  const b = await buy(far);
  await trader.api.placeOrder({
    symbol,
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: sellAt,
    qty,
    time_in_force: 1,
  });

  const two = times(s.qty_step, 2 * Math.round(Number(qty) / Number(s.qty_step)));
  await expect(screen.ladder.row('bid', near)).toHaveAttribute('data-own', String(Number(two)));
  await expect(screen.ladder.row('bid', near).getByTestId('ladder-own')).toBeVisible();
  await expect(screen.ladder.row('bid', near)).toHaveAccessibleName(/, yours [\d.,]+: use the price$/);
  await expect(screen.ladder.row('bid', far)).toHaveAttribute('data-own', String(Number(qty)));
  await expect(screen.ladder.row('ask', sellAt)).toHaveAttribute('data-own', String(Number(qty)));
  // the levels with no order of yours are not marked
  await expect(screen.ladder.root.locator('[data-own]')).toHaveCount(3);
  await expect(screen.ladder.bids.filter({ has: page.getByTestId('ladder-own') })).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('ladder-own.png') });

  await trader.api.cancelOrder(symbol, a.order_id);
  await trader.api.cancelOrder(symbol, b.order_id);
  await expect(screen.ladder.row('bid', near)).toHaveAttribute('data-own', String(Number(qty)));
  await expect(screen.ladder.row('bid', far)).not.toHaveAttribute('data-own');
  await expect(screen.ladder.root.locator('[data-own]')).toHaveCount(2);
  await trader.api.cancelAllOrders(symbol);
});
