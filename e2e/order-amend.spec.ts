// Modify on the Open orders tab: ✎ beside a limit order's price opens the Modify dialog, which
// starts from the order's price and amount, owns the keyboard (Esc backs out, the focus back on
// ✎; Enter in a field saves), refuses a change of nothing itself, shows the service's refusal
// with the order left as it was, and sends a new price and amount that the row and the API then
// show, under the same order id. As typed, it says under each field what the venue will refuse
// (the tick, the step, what is not a number above 0) and warns of a price that crosses the book,
// naming the best price (the live book of the pair on screen, a depth read for another pair); sent
// anyway, the venue's refusal shows with its code.
import { test, expect } from './support/fixtures.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';
import { onStep } from './support/bot-market.ts';

const SYMBOL = 'BTCUSDT';

const figure = (text: string): number => Number(text.replace(/,/g, ''));

/** A price as the screen writes it: grouped, with the pair's decimals. */
const shown = (x: string | number, decimals: number): string =>
  Number(x).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

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

test('the Modify dialog says as typed what the venue will refuse and a price that crosses the book; sent anyway, the refusal has its code', async ({
  page,
  service,
  trader,
  market,
}) => {
  const OTHER = 'ETHUSDT';
  await market.ensureBook(SYMBOL, 15);
  await market.ensureBook(OTHER, 15);
  // the book stands still, so the best prices the dialog names are the API's
  await setPaused(service.url, true);
  const s = await market.symbol(SYMBOL);
  const price = onTick((await market.mid(SYMBOL)) * 0.9, s.price_step);
  const order = await restingBuy(trader.api, SYMBOL, price, '0.010');
  const eth = await market.symbol(OTHER);
  const ethPrice = onTick((await market.mid(OTHER)) * 0.9, eth.price_step);
  // worth twice the pair's minimum notional
  const ethQty = onStep(
    Math.ceil((2 * Number(eth.min_notional)) / Number(ethPrice) / Number(eth.qty_step)),
    eth.qty_step,
  );
  const ethOrder = await restingBuy(trader.api, OTHER, ethPrice, ethQty);
  const screen = await openTrading(page, service.url, trader, SYMBOL, { live: true });
  await screen.tabs.show('Open orders');
  const dialog = page.getByRole('dialog', { name: 'Modify order' });
  const priceField = dialog.getByRole('textbox', { name: 'New price' });
  const amountField = dialog.getByRole('textbox', { name: 'New amount' });
  const priceCheck = dialog.getByTestId('amend-price-check');
  const qtyCheck = dialog.getByTestId('amend-qty-check');
  const crosses = dialog.getByTestId('amend-crosses');
  await screen.tabs.openOrders
    .getByTestId(`order-row-${order.order_id}`)
    .getByRole('button', { name: new RegExp(`^Modify order ${order.order_id}:`) })
    .click();
  await expect(priceField).toBeFocused();
  // the order's own values: nothing said, nothing marked
  await expect(priceCheck).toHaveCount(0);
  await expect(qtyCheck).toHaveCount(0);
  await expect(crosses).toHaveCount(0);
  await expect(priceField).toHaveAttribute('aria-invalid', 'false');

  // off the tick and off the step: said under each field as typed, the fields marked
  const offTick = `${price}5`;
  await priceField.fill(offTick);
  await amountField.fill('0.0105');
  await expect(priceCheck).toHaveText(`Not on the tick: the venue takes multiples of ${s.price_step}.`);
  await expect(qtyCheck).toHaveText(`Not on the step: the venue takes multiples of ${s.qty_step}.`);
  await expect(priceField).toHaveAttribute('aria-invalid', 'true');
  await expect(amountField).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: test.info().outputPath('order-modify-checks.png') });
  // not a number, not above 0
  await priceField.fill('abc');
  await amountField.fill('-1');
  await expect(priceCheck).toContainText('Not a price: use digits and a decimal point');
  await expect(qtyCheck).toHaveText('Amount must be above 0: to cancel the order, use its Cancel.');
  await priceField.fill('0');
  await amountField.fill('x');
  await expect(priceCheck).toHaveText('A price is above 0.');
  await expect(qtyCheck).toContainText('Not an amount');
  // fixed: nothing said, nothing marked
  await priceField.fill(price);
  await amountField.fill('0.020');
  await expect(priceCheck).toHaveCount(0);
  await expect(qtyCheck).toHaveCount(0);
  await expect(amountField).toHaveAttribute('aria-invalid', 'false');

  // said, not enforced: sent off the tick, the venue refuses it, with its code; the order as it was
  await priceField.fill(offTick);
  await priceField.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText(
    `(3003) price ${offTick} is not a multiple of the tick ${s.price_step}`,
  );
  expect((await trader.api.openOrders(SYMBOL)).map((o) => [o.id, Number(o.price), o.qty])).toEqual([
    [order.order_id, Number(price), '0.010'],
  ]);

  // at or above the best ask it would take at once: said before it is sent, naming the ask
  const book = await trader.api.depth(SYMBOL, 5);
  const ask = book.asks[0][0];
  await priceField.fill(onTick(Number(ask) * 1.01, s.price_step));
  await expect(crosses).toHaveText(
    `At or above the best ask (${shown(ask, s.price_precision)}): it would trade at once, as a taker.`,
  );
  await page.screenshot({ path: test.info().outputPath('order-modify-crosses.png') });
  await priceField.fill(ask);
  await expect(crosses).toBeVisible();
  await priceField.fill(onTick(Number(ask) - Number(s.price_step), s.price_step));
  await expect(crosses).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // an order of a pair not on screen: its best ask read from the venue
  const ethAsk = (await trader.api.depth(OTHER, 5)).asks[0][0];
  await screen.tabs.openOrders
    .getByTestId(`order-row-${ethOrder.order_id}`)
    .getByRole('button', { name: new RegExp(`^Modify order ${ethOrder.order_id}:`) })
    .click();
  await expect(dialog).toContainText(`Modify order · ${OTHER}`);
  await priceField.fill(onTick(Number(ethAsk) * 1.02, eth.price_step));
  await expect(crosses).toHaveText(
    `At or above the best ask (${shown(ethAsk, eth.price_precision)}): it would trade at once, as a taker.`,
  );
  await page.keyboard.press('Escape');
  for (const [sym, id] of [
    [SYMBOL, order.order_id],
    [OTHER, ethOrder.order_id],
  ] as const)
    await trader.api.cancelOrder(sym, id);
});
