// An open order's Margin before the account's position mode has loaded (GET /fapi/v1/account
// answers it): a one-way short's limit buy, which the short covers whole, holds no margin at the
// venue, but the column worked it out as a hedge order (all of it opens) until the account
// answered. Until the mode is known such an order's margin is "—" (order-margin.ts orderMargins).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';

test("one-way mode, the account's mode not loaded yet: a buy the short covers shows no margin figure, then 0.00", async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await trader.api.setPositionMode('one_way');
  await trader.api.placeOrder({ symbol, side: 2, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
  const [pos] = await trader.api.positions();
  const s = await market.symbol(symbol);
  // a plain buy (an open on the one-way side, not reduce-only): the short covers all of it
  const buy = await trader.api.placeOrder({
    symbol,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    time_in_force: 1,
    qty: '0.010',
    price: onTick(pos.mark_price * 0.99, s.price_step),
  });
  let release = (): void => undefined;
  const held = new Promise<void>((r) => (release = r));
  let asked = 0;
  await page.route('**/fapi/v1/account?*', async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  const screen = await openTrading(page, service.url, trader, symbol);
  await screen.tabs.show('Open orders');
  const row = screen.tabs.order(buy.order_id);
  await expect(row).toBeVisible();
  expect(asked).toBeGreaterThan(0);
  const margin = row.getByTestId('order-margin');
  await expect(margin).toHaveText('—');
  await expect(margin).toHaveAttribute('title', /depends on the account's position mode/);
  release();
  await expect(screen.form.root.getByRole('checkbox', { name: 'Reduce-only' })).toBeVisible();
  await expect(margin).toHaveText('0.00');
});
