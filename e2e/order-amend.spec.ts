// Modify on the Open orders tab: ✎ beside a limit order's price opens the Modify dialog, which
// starts from the order's price and amount, owns the keyboard (Esc backs out, the focus back on
// ✎; Enter in a field saves), refuses a change of nothing itself, shows the service's refusal
// with the order left as it was, and sends a new price and amount that the row and the API then
// show, under the same order id.
import { test, expect } from './support/fixtures.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';

const SYMBOL = 'BTCUSDT';

const figure = (text: string): number => Number(text.replace(/,/g, ''));

test('a limit order is modified from its row; a refusal shows and changes nothing; Esc backs out', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  const mid = await market.mid(SYMBOL);
  const price = onTick(mid * 0.9, s.price_step);
  const order = await restingBuy(trader.api, SYMBOL, price, '0.010');
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await screen.tabs.show('Open orders');
  const row = screen.tabs.openOrders.getByTestId(`order-row-${order.order_id}`);
  const edit = row.getByRole('button', {
    name: new RegExp(`^Modify order ${order.order_id}: ${SYMBOL} Open long 0\\.010 at [\\d,]+\\.\\d+$`),
  });
  const dialog = page.getByRole('dialog', { name: 'Modify order' });
  const priceField = dialog.getByRole('textbox', { name: 'New price' });
  const amountField = dialog.getByRole('textbox', { name: 'New amount' });

  // the fields start from the order; Esc backs out and the focus is back on ✎
  await edit.click();
  await expect(priceField).toBeFocused();
  expect(figure(await priceField.inputValue())).toBe(Number(price));
  await expect(amountField).toHaveValue('0.010');
  // the price selected: what is typed replaces it
  expect(
    await priceField.evaluate((el) => {
      const input = el as unknown as { selectionStart: number | null; selectionEnd: number | null };
      return [input.selectionStart, input.selectionEnd];
    }),
  ).toEqual([0, (await priceField.inputValue()).length]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();

  // Enter on ✎ opens it again; Enter in a field with nothing changed is refused in the dialog
  await page.keyboard.press('Enter');
  await expect(priceField).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('nothing to change');

  // more than the 10,000 USDT account can hold: the service's refusal, the order as it was
  await amountField.fill('5');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText(/margin/i);
  expect((await trader.api.openOrders(SYMBOL)).map((o) => [o.id, Number(o.price), o.qty])).toEqual([
    [order.order_id, Number(price), '0.010'],
  ]);

  // a new price and amount: saved with Enter, shown in the row and by the API, the same order
  const next = onTick(mid * 0.89, s.price_step);
  await priceField.fill(next);
  await amountField.fill('0.020');
  await amountField.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Order #${order.order_id} modified: 0.020 BTC at`)).toBeVisible();
  await expect
    .poll(async () => (await trader.api.openOrders(SYMBOL)).map((o) => [o.id, Number(o.price), o.qty]))
    .toEqual([[order.order_id, Number(next), '0.020']]);
  await expect(row).toContainText('0.020');
  await expect(edit).toHaveCount(0);
  await expect(
    row.getByRole('button', { name: new RegExp(`^Modify order ${order.order_id}: ${SYMBOL} Open long 0\\.020 at `) }),
  ).toBeVisible();
  await trader.api.cancelOrder(SYMBOL, order.order_id);
});
