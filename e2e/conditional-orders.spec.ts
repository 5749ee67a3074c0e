// Stops on the trading screen: the order form's Stop kind places a conditional order (its trigger
// direction taken from the watched price, the form saying what will happen, Price protection
// sent when ticked), the Stops tab lists
// it with a dashed line at its trigger on the chart, Cancel takes both away; a stop the market
// reaches fires, with a toast naming the order it placed, and its row and line go. ✎ on a stop's
// row modifies it in place (trigger and amount), what the venue will refuse said under each field as
// typed, the venue's refusal shown in the dialog with its code; a
// trailing stop has no ✎ and its line does not drag. Cancel all asks first, and keeps to the
// current pair when the filter says so.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';
import type { TradingPage } from './pages/trading-page.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** A price as the screen writes it: grouped, with the pair's decimals. */
const shown = (x: string, decimals: number): string =>
  Number(x).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

function stopsTab(page: Page) {
  return page.getByRole('tablist', { name: 'Account views' }).getByRole('tab', { name: /^Stops/ });
}

/** The Stop kind picked from the keyboard, as a trader would: the order-type row's arrow keys. */
async function pickStop(screen: TradingPage): Promise<void> {
  await screen.form.type('Limit').click();
  await screen.page.keyboard.press('ArrowRight');
  await screen.page.keyboard.press('ArrowRight');
  const stop = screen.form.type('Stop');
  await expect(stop).toBeFocused();
  await expect(stop).toHaveAttribute('aria-selected', 'true');
}

test('a stop from the form: said in words, listed in Stops with its line on the chart, cancelled', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { s, price: trigger } = await market.priceOffMid(SYMBOL, 1.05);
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await expect(screen.chart.box).toHaveAttribute('data-status', 'ready');
  await pickStop(screen);

  const triggerField = screen.form.root.getByRole('textbox', { name: 'Trigger price' });
  await expect(screen.form.root.getByRole('combobox', { name: 'Trigger watches' })).toHaveValue('1');
  // price protection: off unless ticked (the venue's default), sent when ticked
  const protect = screen.form.root.getByRole('checkbox', { name: 'Price protection' });
  await expect(protect).not.toBeChecked();
  await protect.check();
  await expect(screen.form.price).toHaveValue('');
  // off the tick: said under the field, as for a limit price
  await triggerField.fill((Number(trigger) + Number(s.price_step) / 2).toFixed(s.price_precision + 1));
  await expect(page.getByTestId('trigger-check')).toContainText('Not on the tick');
  // and the words say "—", not the trigger rounded to the pair's decimals (what is sent is refused)
  await expect(page.getByTestId('stop-sentence')).toHaveText('—');
  await triggerField.fill(trigger);
  await expect(page.getByTestId('trigger-check')).toHaveCount(0);
  // a size off the step, a limit price off the tick: "—" in each side's column, not 0.011 BTC
  await screen.form.size.fill('0.0105');
  await expect(page.getByTestId('stop-does')).toHaveText(['—', '—']);
  await screen.form.size.fill('0.010');
  await screen.form.price.fill((Number(trigger) + Number(s.price_step) / 2).toFixed(s.price_precision + 1));
  await expect(page.getByTestId('stop-does')).toHaveText(['—', '—']);
  await screen.form.price.fill('');
  await expect(page.getByTestId('stop-sentence')).toHaveText(
    `When the mark price rises to ${shown(trigger, s.price_precision)}:`,
  );
  await expect(page.getByTestId('stop-does').first()).toHaveText('buy 0.010 BTC at market');
  await expect(page.getByTestId('stop-does').last()).toHaveText('sell 0.010 BTC at market');

  // B arms the buy side, Enter sends it, as for the other kinds
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('0.010');
  await page.keyboard.press('Enter');
  await expect(screen.form.notice).toContainText(
    `placed. When the mark price rises to ${shown(trigger, s.price_precision)}: buy 0.010 BTC at market.`,
  );
  const [c] = await trader.api.conditionals.open(SYMBOL);
  expect(c).toMatchObject({
    type: 2,
    side: 1,
    qty: '0.010',
    trigger_direction: 1,
    working_type: 1,
    price_protect: true,
    status: 1,
  });
  expect(Number(c.trigger_price)).toBe(Number(trigger));
  // nothing rests in the book for it
  expect(await trader.api.openOrders(SYMBOL)).toEqual([]);

  await stopsTab(page).click();
  await expect(stopsTab(page)).toHaveText('Stops (1)');
  const row = page.getByTestId(`stop-row-${c.id}`);
  await expect(row).toContainText(`≥ ${shown(trigger, s.price_precision)}`);
  await expect(row).toContainText('Mark · protected');
  await expect(row).toContainText('Market');
  await expect(row).toContainText('Open long');
  await expect.poll(() => screen.chart.lines()).toContain(`stop:${c.id}`);

  await row.getByRole('button', { name: new RegExp(`^Cancel stop ${c.id}:`) }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No waiting stops.')).toBeVisible();
  expect(await trader.api.conditionals.open(SYMBOL)).toEqual([]);
  await expect.poll(() => screen.chart.lines()).not.toContain(`stop:${c.id}`);
});

test('a stop the last price reaches fires: a toast names its order, its row and line go', async ({
  page,
  service,
  trader,
  market,
}) => {
  // a still market: the last price moves only by the trades made here
  await setPaused(service.url, true);
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  // a sell at the bid: the last price is under the best ask, which a buy then reaches
  await market.take(SYMBOL, 2, 1);
  const ask = (await market.api.depth(SYMBOL, 5)).asks[0][0];
  const trigger = onTick(Number(ask), s.price_step);

  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.form.button('Open long')).toBeEnabled();
  // T picks the Stop kind from anywhere but a text field, as L and M pick theirs
  await page.keyboard.press('t');
  await expect(screen.form.type('Stop')).toHaveAttribute('aria-selected', 'true');
  await screen.form.root.getByRole('combobox', { name: 'Trigger watches' }).selectOption('2');
  await screen.form.root.getByRole('textbox', { name: 'Trigger price' }).fill(trigger);
  await screen.form.size.fill('0.010');
  await expect(page.getByTestId('stop-sentence')).toHaveText(
    `When the last price rises to ${shown(trigger, s.price_precision)}:`,
  );
  await screen.form.button('Open long').click();
  await expect(screen.form.notice).toContainText('placed.');
  const [c] = await trader.api.conditionals.open(SYMBOL);
  expect(c).toMatchObject({ working_type: 2, trigger_direction: 1 });
  await stopsTab(page).click();
  const row = page.getByTestId(`stop-row-${c.id}`);
  await expect(row).toContainText('Last');
  await expect.poll(() => screen.chart.lines()).toContain(`stop:${c.id}`);

  // a buy at the ask: the last price reaches the trigger
  await market.take(SYMBOL, 1, 1);
  const toast = page.getByTestId('toast-info').filter({ hasText: 'Stop triggered' });
  await expect(toast).toContainText(`Stop triggered: ${SYMBOL} Open long`);
  await expect(toast).toContainText(`The last price rose to ${shown(trigger, s.price_precision)}: order #`);
  await expect(row).toHaveCount(0);
  await expect.poll(() => screen.chart.lines()).not.toContain(`stop:${c.id}`);
  const fired = await trader.api.conditionals.get({ id: c.id });
  expect(fired.status).toBe(2);
  await expect(toast).toContainText(`order #${fired.order_id} placed, buy 0.010 BTC at market.`);
  // its order bought: the long it opened
  await expect
    .poll(async () => (await trader.api.positions()).map((p) => [p.position_side, p.quantity]))
    .toEqual([[1, 0.01]]);
});

test("Modify on a stop's row: the trigger and the amount in place; a trigger the mark has passed is refused in the dialog", async ({
  page,
  service,
  trader,
  market,
}) => {
  await setPaused(service.url, true);
  const s = await market.symbol(SYMBOL);
  const mark = Number((await trader.api.completePrice(SYMBOL)).mark_price);
  const order = { symbol: SYMBOL, side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' } as const;
  const trigger = onTick(mark * 1.003, s.price_step);
  const c = await trader.api.conditionals.place({ ...order, trigger_price: trigger, trigger_direction: 1 });
  // a trailing stop's trigger follows the price: the venue never modifies one, so it has no ✎
  const trail = await trader.api.conditionals.place({ ...order, callback_rate: '1.0' });
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.chart.box).toHaveAttribute('data-status', 'ready');
  await stopsTab(page).click();
  await expect(stopsTab(page)).toHaveText('Stops (2)');
  const modify = (id: string) =>
    page.getByTestId(`stop-row-${id}`).getByRole('button', { name: new RegExp(`^Modify stop ${id}:`) });
  await expect(page.getByTestId(`stop-row-${trail.id}`)).toContainText('trailing 1.0%');
  await expect(modify(trail.id)).toHaveCount(0);

  await modify(c.id).click();
  const dialog = page.getByRole('dialog', { name: 'Modify stop' });
  await expect(dialog).toContainText(`Modify stop · ${SYMBOL} Open long`);
  const field = dialog.getByRole('textbox', { name: 'New trigger price' });
  const amount = dialog.getByRole('textbox', { name: 'New amount' });
  // a stop-market: no limit price asked
  await expect(dialog.getByRole('textbox', { name: 'New limit price' })).toHaveCount(0);
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(shown(trigger, s.price_precision));
  await expect(amount).toHaveValue('0.010');
  await page.screenshot({ path: test.info().outputPath('stop-modify-dialog.png') });

  // typed over (the text was selected): under the mark, which this stop must stay above
  const under = onTick(mark * 0.997, s.price_step);
  await page.keyboard.type(under);
  await expect(field).toHaveValue(under);
  await expect(dialog.getByTestId('stop-amend-reached')).toContainText('this stop fires as it rises');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('(3026) The mark price');
  await expect(dialog).toBeVisible();
  expect(await trader.api.conditionals.get({ id: c.id })).toMatchObject({ trigger_price: trigger, qty: '0.010' });

  // what the venue will refuse is said under each field as typed, the field marked, and the stop is
  // not put in words: the sentence says only what would be sent, never a value rounded to the tick
  const sentence = dialog.getByTestId('stop-amend-sentence');
  const triggerCheck = dialog.getByTestId('stop-amend-trigger-check');
  const qtyCheck = dialog.getByTestId('stop-amend-qty-check');
  const offTick = `${onTick(mark * 1.004, s.price_step)}5`;
  await field.fill(offTick);
  await expect(triggerCheck).toHaveText(`Not on the tick: the venue takes multiples of ${s.price_step}.`);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(sentence).toHaveText('—');
  await amount.fill('0.0105');
  await expect(qtyCheck).toHaveText(`Not on the step: the venue takes multiples of ${s.qty_step}.`);
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: test.info().outputPath('stop-modify-checks.png') });
  for (const [typed, said] of [
    ['abc', /^Not a price: use digits/],
    ['0', 'A price is above 0.'],
    ['-1', 'A price is above 0.'],
  ] as const) {
    await field.fill(typed);
    await expect(triggerCheck).toHaveText(said);
    // not the stop's old trigger either
    await expect(sentence).toHaveText('—');
  }
  await amount.fill('0.010');
  await expect(qtyCheck).toHaveCount(0);
  await expect(amount).toHaveAttribute('aria-invalid', 'false');
  // said, not enforced: sent off the tick, the venue's refusal shows with its code
  await field.fill(offTick);
  await field.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText(
    `(3003) trigger_price ${offTick} is not a multiple of the tick ${s.price_step}`,
  );
  expect(await trader.api.conditionals.get({ id: c.id })).toMatchObject({ trigger_price: trigger, qty: '0.010' });

  // a trigger further up and twice the amount: sent, the dialog closes and the row follows
  const higher = onTick(mark * 1.004, s.price_step);
  await field.fill(higher);
  await amount.fill('0.020');
  await expect(dialog.getByTestId('stop-amend-reached')).toHaveCount(0);
  await expect(triggerCheck).toHaveCount(0);
  await expect(field).toHaveAttribute('aria-invalid', 'false');
  await expect(dialog.getByTestId('stop-amend-sentence')).toHaveText(
    `When the mark price rises to ${shown(higher, s.price_precision)}: buy 0.020 BTC at market.`,
  );
  await amount.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Stop ${SYMBOL} #${c.id} modified`)).toBeVisible();
  const row = page.getByTestId(`stop-row-${c.id}`);
  await expect(row).toContainText(`≥ ${shown(higher, s.price_precision)}`);
  await expect(row).toContainText('0.020');
  const moved = await trader.api.conditionals.get({ id: c.id });
  expect(moved).toMatchObject({ id: c.id, status: 1, trigger_direction: 1, qty: '0.020' });
  expect(Number(moved.trigger_price)).toBe(Number(higher));
  // the focus is back on the ✎ it was opened from
  await expect(modify(c.id)).toBeFocused();

  // the trailing stop's line alone on the chart: in view, but the cursor never takes it
  await trader.api.conditionals.cancel({ id: c.id });
  await expect.poll(() => screen.chart.lines()).not.toContain(`stop:${c.id}`);
  const line = `stop:${trail.id}`;
  for (let i = 0; i < 5 && !(await screen.chart.labelled()).includes(line); i++) {
    await screen.chart.widenPrices();
    await expect
      .poll(() => screen.chart.labelled(), { timeout: 1000 })
      .toContain(line)
      .catch(() => undefined);
  }
  await expect.poll(() => screen.chart.labelled()).toContain(line);
  const b = (await screen.chart.box.boundingBox())!;
  expect(await screen.chart.grabY(b.x + b.width * 0.6)).toBeNull();
});

test("Cancel all stops asks first, naming how many; with the pair filter it takes the current pair's only", async ({
  page,
  service,
  trader,
  market,
}) => {
  await setPaused(service.url, true);
  const other = 'ETHUSDT';
  // sizes worth more than the pairs' minimum notional at their triggers
  const qty: Record<string, string> = { [SYMBOL]: '0.010', [other]: '0.10' };
  const placeAbove = async (symbol: string, f: number) => {
    const s = await market.symbol(symbol);
    const mark = Number((await trader.api.completePrice(symbol)).mark_price);
    return trader.api.conditionals.place({
      symbol,
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: qty[symbol],
      trigger_price: onTick(mark * f, s.price_step),
      trigger_direction: 1,
    });
  };
  const mine = [await placeAbove(SYMBOL, 1.01), await placeAbove(SYMBOL, 1.02)];
  const theirs = await placeAbove(other, 1.01);
  await openTrading(page, service.url, trader, SYMBOL);
  await stopsTab(page).click();
  await expect(stopsTab(page)).toHaveText('Stops (3)');
  const confirm = page.getByTestId('cancel-all-stops-confirm');
  const cancelAll = page.getByRole('button', { name: 'Cancel all…' });

  // asked, then kept: nothing cancelled, the focus back on the button
  await cancelAll.click();
  await expect(confirm).toContainText('Cancel 3 waiting stops?');
  await confirm.getByRole('button', { name: 'Keep stops' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(cancelAll).toBeFocused();
  expect(await trader.api.conditionals.open()).toHaveLength(3);

  // this pair only: two asked for and cancelled, the other pair's stop still waits
  await page.getByRole('checkbox', { name: `${SYMBOL} only` }).check();
  await expect(page.getByTestId(`stop-row-${theirs.id}`)).toHaveCount(0);
  await cancelAll.click();
  await expect(confirm).toContainText(`Cancel 2 waiting stops on ${SYMBOL}?`);
  await confirm.getByRole('button', { name: 'Cancel 2 stops' }).click();
  await expect(page.getByText('2 stops cancelled')).toBeVisible();
  for (const c of mine) await expect(page.getByTestId(`stop-row-${c.id}`)).toHaveCount(0);
  expect((await trader.api.conditionals.open()).map((c) => c.id)).toEqual([theirs.id]);
  await page.getByRole('checkbox', { name: `${SYMBOL} only` }).uncheck();
  await expect(page.getByTestId(`stop-row-${theirs.id}`)).toBeVisible();
  await expect(stopsTab(page)).toHaveText('Stops (1)');
});
