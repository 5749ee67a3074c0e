// An order's Direction before the account's position mode has loaded (GET /fapi/v1/account
// answers it): a one-way short's limit close, a buy on the one-way side, read "Close long" in
// Open orders, and in the Modify dialog's title, until the account answered, as the tables named
// every order in hedge mode while the mode was unknown (order-labels.ts orderDirection).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';

test("one-way mode, the account's mode not loaded yet: a short's limit close reads Buy (close), never Close long", async ({
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
  const close = await trader.api.placeOrder({
    symbol,
    side: 1,
    position_side: 1,
    position_action: 2,
    type: 1,
    time_in_force: 1,
    qty: '0.010',
    price: onTick(pos.mark_price * 0.99, s.price_step),
  });
  // the account's answer held until the order has been looked at
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
  const row = screen.tabs.order(close.order_id);
  await expect(row).toBeVisible();
  expect(asked).toBeGreaterThan(0);
  await expect(row.getByText('Buy (close)', { exact: true })).toBeVisible();
  await expect(screen.tabs.openOrders).not.toContainText('Close long');
  await row.getByRole('button', { name: /^Modify order/ }).click();
  const dialog = page.getByRole('dialog', { name: /Modify order/ });
  await expect(dialog).toContainText('Buy (close)');
  await expect(dialog).not.toContainText('Close long');
  await page.keyboard.press('Escape');
  // once the mode is read, the same name
  release();
  await expect(screen.form.root.getByRole('checkbox', { name: 'Reduce-only' })).toBeVisible();
  await expect(row.getByText('Buy (close)', { exact: true })).toBeVisible();
});
