// Positions and open orders: one-way shorts read as shorts and close from their row (a one-way
// sell of the long's size previews no cost); the
// TP/SL dialog owns the keyboard (shortcuts inert, focus trapped, Esc closes, Enter saves only
// from a field), takes thousands separators and says as typed what the venue will refuse (the
// tick, a trigger on the wrong side of the watched price); an isolated position's margin is added
// and removed from its row (the dialog's keys as TP/SL's, the most said as money, the API's refusal
// shown); Close all / Cancel all ask first.
import type { Page } from 'playwright/test';
import { test, expect, type Trader } from './support/fixtures.ts';
import type { BotMarket } from './support/bot-market.ts';
import { marketOrder, openTrading, restingBuy } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';
import { BottomTabs } from './pages/trading-page.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';

const fmtPx = (x: string, decimals: number): string =>
  Number(x).toLocaleString('en-US', { minimumFractionDigits: decimals });

/**
 * A long of 0.010 BTCUSDT at market (`isolated`: in isolated margin), the screen open on it as
 * `trader`: the pair, the position as the API had it before the screen opened, the screen, its
 * positions area and the long's row.
 */
async function openOnLong(page: Page, service: { url: string }, trader: Trader, market: BotMarket, isolated = false) {
  const symbol = 'BTCUSDT';
  if (isolated) await trader.api.setMarginMode(symbol, 1);
  const { s, pos } = await market.position(trader.api, symbol, 1, '0.010');
  const screen = await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  return { symbol, s, pos, screen, area, row: area.row(symbol, 1) };
}

test('one-way mode: a flipped long reads as a short of the right size and closes from its row', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await trader.api.setPositionMode('one_way');
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  const area = new PositionsArea(page);
  // the form knows the mode (reduce-only only exists in one-way)
  await expect(screen.form.root.getByRole('checkbox', { name: 'Reduce-only' })).toBeVisible();

  await screen.form.market('Buy / Long', '0.010');
  await expect(screen.form.notice).toContainText('filled');
  await expect(area.row(symbol, 1)).toContainText('Long');
  // a sell of the long's size only closes it: the venue holds nothing for it, nor does the preview
  // (it showed the margin of an open); the buy adds to the long and is margined
  await screen.form.size.fill('0.010');
  const [buyPreview, sellPreview] = [
    screen.form.preview.locator('dl').first(),
    screen.form.preview.locator('dl').nth(1),
  ];
  await expect(sellPreview.locator('div', { hasText: 'Cost' }).locator('dd')).toHaveText('0.00');
  await expect(sellPreview).toContainText('Est. PnL');
  await expect(buyPreview.locator('div', { hasText: 'Cost' }).locator('dd')).not.toHaveText('0.00');
  // a larger sell flips it: the net position is a short of 0.020
  await screen.form.market('Sell / Short', '0.030');
  await expect(screen.form.notice).toContainText(`Sell 0.030 ${symbol}: filled`);
  // what the API sends for a one-way short: side 2, positive quantity
  await expect
    .poll(async () => (await trader.api.positions()).map((p) => [p.symbol, p.position_side, p.quantity]))
    .toEqual([[symbol, 2, 0.02]]);
  const row = area.row(symbol, 2);
  await expect(row).toHaveAttribute('data-direction', 'short');
  await expect(row).toContainText('Short');
  await expect(row).not.toContainText('Long');
  await expect(row.getByTestId('position-size')).toHaveText('0.020');
  await expect(area.row(symbol, 1)).toHaveCount(0);

  await row.getByRole('button', { name: `Close ${symbol} short` }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('toast-error')).toHaveCount(0);
  await expect.poll(async () => (await trader.api.positions()).length).toBe(0);

  // order history names one-way orders by side, never "Open long" / "Close long"
  await screen.tabs.show('Order history');
  const history = screen.tabs.orderHistory.locator('tbody tr');
  await expect(history).toHaveCount(3);
  await expect(screen.tabs.orderHistory).not.toContainText('long');
  await expect(history.first()).toContainText('Buy (close)');
  await expect(history.nth(1)).toContainText('Sell');
});

test('the TP/SL dialog owns the keyboard: shortcuts inert, focus trapped, Esc closes, Enter saves only from a field', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { symbol, s, screen, area, row } = await openOnLong(page, service, trader, market);
  await expect(row).toBeVisible();
  await expect(screen.chart.box).toHaveAttribute('data-interval', '1m');
  const edit = row.getByRole('button', { name: `TP/SL ${symbol} long` });

  await edit.click();
  await expect(area.takeProfit).toBeFocused();
  // from a button inside the dialog and from the dialog itself (a click on its text), "3" and
  // "b" do nothing behind it
  await area.dialog
    .getByRole('group', { name: 'Take profit watches' })
    .getByRole('button', { name: 'Mark price' })
    .focus();
  await page.keyboard.press('3');
  await page.keyboard.press('b');
  await area.dialog.getByRole('heading').click();
  await page.keyboard.press('3');
  await page.keyboard.press('b');
  await expect(screen.chart.box).toHaveAttribute('data-interval', '1m');
  await expect(screen.form.size).not.toBeFocused();

  // Tab and Shift+Tab cycle inside: more Tabs than the dialog has stops never leave it
  await area.takeProfit.focus();
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    await expect(area.focusedInDialog()).toHaveCount(1);
  }
  await area.takeProfit.focus();
  await page.keyboard.press('Shift+Tab');
  await expect(area.dialog.getByRole('button', { name: 'Save' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(area.takeProfit).toBeFocused();
  // Esc from a button (after tabbing around) closes it
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Escape');
  await expect(area.dialog).toBeHidden();

  // Enter on the focused Cancel button cancels: nothing saved
  const [pos] = await trader.api.positions();
  const tp = onTick(pos.mark_price * 1.2, s.price_step);
  await edit.click();
  await area.takeProfit.fill(tp);
  await area.dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expect(area.dialog).toBeHidden();
  expect((await trader.api.tpslList()).filter((t) => t.take_profit_price !== null)).toEqual([]);

  // Enter in a field saves
  await edit.click();
  await area.takeProfit.fill(tp);
  await area.takeProfit.press('Enter');
  await expect(area.dialog).toBeHidden();
  await expect.poll(async () => (await trader.api.tpslList()).map((t) => t.take_profit_price)).toEqual([tp]);

  // with the dialog gone the same keys act again (the checks above could fail)
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('3');
  await expect(screen.chart.box).toHaveAttribute('data-interval', '15m');
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
});

test('TP/SL prices take thousands separators; a non-number is refused in the dialog', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { symbol, s, pos, area, row } = await openOnLong(page, service, trader, market);
  const tp = onTick(pos.mark_price * 1.2, s.price_step);
  await row.getByRole('button', { name: `TP/SL ${symbol} long` }).click();

  await area.takeProfit.fill(fmtPx(tp, s.price_precision));
  expect(await area.takeProfit.inputValue()).toContain(',');
  await expect(area.dialog.getByTestId('tp-pnl')).toHaveText(/^\+\d/);
  await area.stopLoss.fill('12,34.5');
  await expect(area.dialog.getByTestId('sl-pnl')).toHaveText('—');
  await area.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(area.dialog.getByRole('alert')).toContainText('Stop loss "12,34.5" is not a price');
  expect((await trader.api.tpslList()).filter((t) => t.take_profit_price !== null)).toEqual([]);

  await area.stopLoss.fill('');
  await area.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(area.dialog).toBeHidden();
  await expect.poll(async () => (await trader.api.tpslList()).map((t) => t.take_profit_price)).toEqual([tp]);
  await expect(row).toContainText(fmtPx(tp, s.price_precision));
});

test('the TP/SL dialog says as typed what the venue will refuse: the tick, each trigger on the wrong side of the watched price, both at once', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { symbol, s, area, row } = await openOnLong(page, service, trader, market);
  const edit = row.getByRole('button', { name: `TP/SL ${symbol} long` });
  await expect(edit).toBeVisible();
  // the mark stands still, so the dialog's figures are the API's
  await setPaused(service.url, true);
  try {
    const mark = Number((await trader.api.completePrice(symbol)).mark_price);
    const markShown = fmtPx(onTick(mark, s.price_step), s.price_precision);
    const tpCheck = area.dialog.getByTestId('tp-check');
    const slCheck = area.dialog.getByTestId('sl-check');
    await edit.click();
    await expect(area.takeProfit).toHaveAttribute('placeholder', 'above mark');
    await expect(area.stopLoss).toHaveAttribute('placeholder', 'below mark');
    await expect(tpCheck).toHaveCount(0);
    await expect(slCheck).toHaveCount(0);

    // a take profit under the mark and a stop loss over it: both said at once, with the mark's value
    await area.takeProfit.fill(onTick(mark * 0.95, s.price_step));
    await area.stopLoss.fill(onTick(mark * 1.05, s.price_step));
    await expect(tpCheck).toHaveText(`Not above the mark price (${markShown}): a long’s take profit must be above it.`);
    await expect(slCheck).toHaveText(`Not below the mark price (${markShown}): a long’s stop loss must be below it.`);
    await expect(area.takeProfit).toHaveAttribute('aria-invalid', 'true');
    await expect(area.stopLoss).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot({ path: test.info().outputPath('tpsl-checks.png') });

    // watching the last price: the placeholders and the messages name it
    for (const g of ['Take profit watches', 'Stop loss watches'])
      await area.dialog.getByRole('group', { name: g }).getByRole('button', { name: 'Last price' }).click();
    await expect(area.takeProfit).toHaveAttribute('placeholder', 'above last');
    await expect(area.stopLoss).toHaveAttribute('placeholder', 'below last');
    await expect(tpCheck).toContainText('Not above the last price (');
    await expect(slCheck).toContainText('Not below the last price (');
    // said, not enforced: Save sends, and the venue's refusal shows with its code
    await area.dialog.getByRole('button', { name: 'Save' }).click();
    await expect(area.dialog.getByRole('alert')).toHaveText(
      /^\(1001\) Invalid body parameter 'take_profit_price': must be above the last price [\d.]+ for a long \(got '[\d.]+'\)$/,
    );
    expect((await trader.api.tpslList()).filter((t) => t.take_profit_price !== null)).toEqual([]);

    // off the tick; what is not a price: Save names both fields
    const offTick = `${onTick(mark * 1.1, s.price_step)}5`;
    await area.takeProfit.fill(offTick);
    await expect(tpCheck).toHaveText(`Not on the tick: the venue takes multiples of ${s.price_step}.`);
    await area.takeProfit.fill('abc');
    await area.stopLoss.fill('-1');
    await expect(tpCheck).toContainText('Not a price');
    await expect(slCheck).toHaveText('A price is above 0.');
    await area.dialog.getByRole('button', { name: 'Save' }).click();
    await expect(area.dialog.getByRole('alert')).toContainText('Take profit "abc" is not a price');
    await expect(area.dialog.getByRole('alert')).toContainText('Stop loss "-1" is not a price');

    // both on their side of the price and on the tick: nothing said, and saved
    const tp = onTick(mark * 1.1, s.price_step);
    const sl = onTick(mark * 0.9, s.price_step);
    await area.takeProfit.fill(tp);
    await area.stopLoss.fill(sl);
    await expect(tpCheck).toHaveCount(0);
    await expect(slCheck).toHaveCount(0);
    await expect(area.takeProfit).toHaveAttribute('aria-invalid', 'false');
    await area.dialog.getByRole('button', { name: 'Save' }).click();
    await expect(area.dialog).toBeHidden();
    expect((await trader.api.tpslList()).map((t) => [t.take_profit_price, t.stop_loss_price])).toEqual([[tp, sl]]);
  } finally {
    await setPaused(service.url, false);
  }
});

test('the TP/SL dialog reads the triggers a bot just set, and will not overwrite triggers changed while it was open', async ({
  page,
  service,
  trader,
  market,
}) => {
  test.setTimeout(120_000);
  const { symbol, s, area, row } = await openOnLong(page, service, trader, market);
  const edit = row.getByRole('button', { name: `TP/SL ${symbol} long` });
  await expect(edit).toBeVisible();
  const [pos] = await trader.api.positions();
  const bot = { symbol, position_side: 1 as const, working_type: 1 as const };
  const tp = onTick(pos.mark_price * 1.2, s.price_step);
  const sl = onTick(pos.mark_price * 0.8, s.price_step);

  // 1. a bot sets the triggers just before the dialog opens, while the screen's own refresh (a
  // 5 s poll) is on its way: its reads of the triggers are held until the dialog is open
  let held = 0;
  let release = (): void => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/fapi/v1/position/tpsl?**', async (route) => {
    if (route.request().method() === 'GET') {
      held++;
      await gate;
    }
    await route.continue();
  });
  await expect.poll(() => held, { timeout: 15_000 }).toBeGreaterThan(0);
  await trader.api.setTpSl({ ...bot, take_profit_price: tp, stop_loss_price: sl });
  await edit.click();
  await expect(area.dialog).toBeVisible();
  release();
  await expect(area.takeProfit).toHaveValue(tp);
  await expect(area.stopLoss).toHaveValue(sl);
  await page.unrouteAll();
  await area.dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(area.dialog).toBeHidden();

  // 2. the bot changes them while the dialog is open: Save refuses, names them, keeps the bot's
  await edit.click();
  await expect(area.takeProfit).toHaveValue(tp);
  const tp2 = onTick(pos.mark_price * 1.3, s.price_step);
  await trader.api.setTpSl({ ...bot, take_profit_price: tp2, stop_loss_price: null });
  const mine = onTick(pos.mark_price * 0.7, s.price_step);
  await area.stopLoss.fill(mine);
  await area.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(area.dialog.getByRole('alert')).toContainText('changed since this dialog opened');
  await expect(area.dialog.getByRole('alert')).toContainText(`now TP ${fmtPx(tp2, s.price_precision)}, SL —`);
  expect((await trader.api.tpslList()).map((t) => [t.take_profit_price, t.stop_loss_price])).toEqual([[tp2, null]]);
  // a second Save replaces them with the fields, as the message says
  await area.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(area.dialog).toBeHidden();
  expect((await trader.api.tpslList()).map((t) => [t.take_profit_price, t.stop_loss_price])).toEqual([[tp, mine]]);
});

/** An isolated long of 0.010 BTCUSDT at market, the screen open on it: its row and its ± button. */
async function isolatedLong(page: Page, service: { url: string }, trader: Trader, market: BotMarket) {
  const { symbol, pos: before, screen, area, row } = await openOnLong(page, service, trader, market, true);
  await expect(row).toContainText('Isolated');
  return {
    symbol,
    before,
    screen,
    area,
    row,
    adjust: row.getByRole('button', { name: `Adjust margin ${symbol} long` }),
  };
}

test("an isolated position's margin dialog: keys inert behind it, Esc closes to ±, Enter in the amount adds", async ({
  page,
  service,
  trader,
  market,
}) => {
  test.setTimeout(120_000); // two openings of the dialog, each a few seconds on a loaded machine
  const { before, screen, area, row, adjust } = await isolatedLong(page, service, trader, market);
  await expect(screen.chart.box).toHaveAttribute('data-interval', '1m');

  // it opens with the focus in the amount; keys do nothing behind it; Esc closes, focus back on ±
  await adjust.click();
  await expect(area.marginAmount).toBeFocused();
  await expect(area.marginDialog.getByTestId('margin-max')).toContainText(/Available [\d,]+\.\d\d USDT/);
  await area.marginDialog.getByRole('button', { name: 'Remove' }).focus();
  await page.keyboard.press('3');
  await expect(screen.chart.box).toHaveAttribute('data-interval', '1m');
  await page.keyboard.press('Escape');
  await expect(area.marginDialog).toBeHidden();
  await expect(adjust).toBeFocused();

  // more than may move: the most said as the screen writes money, the figure shown beside Available
  await adjust.click();
  await area.marginAmount.fill('1000000');
  await expect(area.marginDialog.getByRole('alert')).toHaveText(/^At most \d{1,3}(,\d{3})*\.\d\d USDT can move now\.$/);
  const most = (await area.marginDialog.getByRole('alert').textContent())!.split(' ')[2];
  await expect(area.marginDialog.getByTestId('margin-max')).toHaveText(`Available ${most} USDT`);
  await page.screenshot({ path: test.info().outputPath('margin-most.png') });
  await page.keyboard.press('Escape');
  await expect(area.marginDialog).toBeHidden();

  // Add 25.5 with Enter in the field: the margin and the estimate follow as it is typed
  await adjust.click();
  await area.marginAmount.fill('25.5');
  await expect(area.marginDialog.getByTestId('margin-after')).toHaveText((before.margin + 25.5).toFixed(2));
  await expect(area.marginDialog.getByTestId('margin-liq-after')).toHaveText(/^≈ [\d,]+\.\d$/);
  await area.marginAmount.press('Enter');
  await expect(area.marginDialog).toBeHidden();
  await expect.poll(async () => (await trader.api.positions())[0].margin).toBeCloseTo(before.margin + 25.5, 6);
  const [added] = await trader.api.positions();
  expect(added.liquidation_price).toBeLessThan(before.liquidation_price);
  await expect(row).toContainText((before.margin + 25.5).toFixed(2));
});

test("an isolated position's margin dialog: Remove within the most, Max, and the API's refusal when it went stale", async ({
  page,
  service,
  trader,
  market,
}) => {
  test.setTimeout(180_000); // two openings of the dialog and three changes, each a few seconds on a loaded machine
  const { symbol, before, area, adjust } = await isolatedLong(page, service, trader, market);
  await trader.api.adjustMargin({ symbol, position_side: 1, type: 1, amount: '25.5' });

  // above the most is said at once; Max fills the most; 5 goes back
  await adjust.click();
  await area.marginDialog.getByRole('button', { name: 'Remove' }).click();
  await expect(area.marginDialog.getByTestId('margin-max')).toContainText(/Removable [\d,]+\.\d\d USDT/);
  await area.marginAmount.fill('1000');
  await expect(area.marginDialog.getByRole('alert')).toContainText('can move now');
  await area.marginDialog.getByRole('button', { name: 'Max' }).click();
  await expect.poll(async () => Number(await area.marginAmount.inputValue())).toBeGreaterThan(5);
  await area.marginAmount.fill('5');
  await area.marginDialog.getByRole('button', { name: 'Remove margin' }).click();
  await expect(area.marginDialog).toBeHidden();
  await expect.poll(async () => (await trader.api.positions())[0].margin).toBeCloseTo(before.margin + 20.5, 6);

  // the most it showed went stale (a bot removed nearly all of it): the API's refusal shows, nothing moves
  await adjust.click();
  await area.marginDialog.getByRole('button', { name: 'Remove' }).click();
  await expect(area.marginDialog.getByTestId('margin-max')).toContainText(/Removable [\d,]+\.\d\d USDT/);
  const limits = await trader.api.marginLimits(symbol, 1);
  await trader.api.adjustMargin({
    symbol,
    position_side: 1,
    type: 2,
    amount: (Number(limits.max_remove) - 1).toFixed(8),
  });
  const [left] = await trader.api.positions();
  await area.marginAmount.fill('5');
  await area.marginDialog.getByRole('button', { name: 'Remove margin' }).click();
  // the venue's refusal with its code, as every other dialog says one
  await expect(area.marginDialog.getByRole('alert')).toHaveText(
    /^\(\d+\) .*can be removed from the isolated long position/,
  );
  await expect(area.marginDialog).toBeVisible();
  expect((await trader.api.positions())[0].margin).toBe(left.margin);
  await area.marginDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(area.marginDialog).toBeHidden();
  expect((await trader.api.marginHistory({ symbol })).items.map((i) => i.type)).toEqual([2, 2, 1]);
});

test('Close all and Cancel all ask first, by mouse and by keyboard', async ({ page, service, trader, market }) => {
  const symbol = 'BTCUSDT';
  const { s } = await market.position(trader.api, symbol, 1, '0.010');
  await marketOrder(trader.api, symbol, 2, '0.020');
  const mid = await market.mid(symbol);
  for (const f of [0.9, 0.91]) {
    await restingBuy(trader.api, symbol, onTick(mid * f, s.price_step), '0.010');
  }
  const screen = await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  await expect(area.row(symbol, 1)).toBeVisible();
  await expect(area.row(symbol, 2)).toBeVisible();

  // a click only asks; Esc backs out and nothing closed
  await area.closeAll.click();
  await expect(area.closeAllConfirm).toContainText('Close 2 positions at market?');
  await expect(area.closeAllConfirm.getByRole('button', { name: 'Keep them' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(area.closeAllConfirm).toHaveCount(0);
  await expect(area.closeAll).toBeFocused();
  expect(await trader.api.positions()).toHaveLength(2);

  // keyboard: Enter asks, Tab reaches the action, Enter closes both
  await page.keyboard.press('Enter');
  await expect(area.closeAllConfirm).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(area.closeAllConfirm.getByRole('button', { name: 'Close 2 positions' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await trader.api.positions()).length).toBe(0);
  await expect(area.table.locator('tbody tr')).toHaveCount(0);

  await screen.tabs.show('Open orders');
  await expect(screen.tabs.openOrders.locator('tbody tr')).toHaveCount(2);
  await area.cancelAll.click();
  await expect(area.cancelAllConfirm).toContainText('Cancel 2 open orders?');
  await area.cancelAllConfirm.getByRole('button', { name: 'Keep orders' }).click();
  await expect(area.cancelAllConfirm).toHaveCount(0);
  expect(await trader.api.openOrders(symbol)).toHaveLength(2);
  await area.cancelAll.click();
  await area.cancelAllConfirm.getByRole('button', { name: 'Cancel 2 orders' }).click();
  await expect.poll(async () => (await trader.api.openOrders(symbol)).length).toBe(0);
  await expect(screen.tabs.openOrders.locator('tbody tr')).toHaveCount(0);
});

/** A row's limit close: its "Limit" button, its price field and the line under the field. */
function limitClose(page: Page, row: ReturnType<PositionsArea['row']>, symbol: string, side: 1 | 2) {
  const name = side === 1 ? 'long' : 'short';
  return {
    button: row.getByRole('button', { name: `Close at limit: ${symbol} ${name}` }),
    price: row.getByRole('textbox', { name: `Limit close price, ${symbol} ${name}, USDT` }),
    line: page.locator(`#limit-close-hint-${symbol}-${side}`),
  };
}

const openOrderTerms = async (trader: Trader, symbol: string) =>
  (await trader.api.openOrders(symbol)).map((o) => [
    o.side,
    o.position_side,
    o.position_action,
    o.type,
    o.price,
    o.qty,
  ]);

test('a position closes at a limit price from its row, keyboard only: price prefilled, Esc cancels, a bad price is said, Enter places it', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { symbol, s, pos, row } = await openOnLong(page, service, trader, market);
  const lc = limitClose(page, row, symbol, 1);
  await lc.button.focus();
  await page.keyboard.press('Enter');
  // the field takes the focus with the last (or mark) price on the pair's tick, selected
  await expect(lc.price).toBeFocused();
  await expect(lc.price).toHaveValue(/^\d+\.\d$/);
  const selected = await lc.price.evaluate(
    (el: { selectionStart: number | null; selectionEnd: number | null; value: string }) =>
      el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0),
  );
  expect(selected).toBe(await lc.price.inputValue());
  // Esc cancels: the field goes, the focus is back on Limit, nothing was sent
  await page.keyboard.press('Escape');
  await expect(lc.price).toHaveCount(0);
  await expect(lc.button).toBeFocused();

  // a price the venue cannot take is said beside the field, which stays open; nothing is sent
  await page.keyboard.press('Enter');
  await page.keyboard.type('abc');
  await page.keyboard.press('Enter');
  await expect(lc.line).toContainText('Not a price');
  await expect(lc.price).toHaveAttribute('aria-invalid', 'true');
  const above = onTick(pos.mark_price * 1.01, s.price_step);
  await lc.price.fill(`${above}5`);
  await page.keyboard.press('Enter');
  await expect(lc.line).toHaveText(`Not on the tick: the venue takes multiples of ${s.price_step}.`);
  expect(await trader.api.openOrders(symbol)).toEqual([]);

  // Enter places a reduce-only limit sell of the whole long at the price typed
  await lc.price.fill(above);
  await page.keyboard.press('Enter');
  await expect(lc.button).toBeFocused();
  await expect(page.getByTestId('toast-success')).toContainText(
    `Limit close placed: Sell 0.010 ${symbol} @ ${fmtPx(above, 1)}, reduce-only`,
  );
  await expect.poll(() => openOrderTerms(trader, symbol)).toEqual([[2, 1, 2, 1, above, '0.010']]);
  await expect(row).toBeVisible();
});

test("one-way mode: a short's limit close is a buy on the one-way side; the venue's refusal stays beside the field", async ({
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
  await openTrading(page, service.url, trader, symbol);
  const row = new PositionsArea(page).row(symbol, 2);
  const lc = limitClose(page, row, symbol, 2);
  await lc.button.click();
  // a buy far above the mark is outside the price band: the venue's code and message, the field kept
  await lc.price.fill(onTick(pos.mark_price * 1.5, s.price_step));
  await page.keyboard.press('Enter');
  await expect(lc.line).toContainText('Refused: (3008)');
  await expect(lc.price).toBeFocused();
  const below = onTick(pos.mark_price * 0.99, s.price_step);
  await lc.price.fill(below);
  await page.keyboard.press('Enter');
  await expect(lc.price).toHaveCount(0);
  await expect.poll(() => openOrderTerms(trader, symbol)).toEqual([[1, 1, 2, 1, below, '0.010']]);
  // both tables name the one-way close by its side, as docs/trading-screen.md says, never "Close long"
  const [placed] = await trader.api.openOrders(symbol);
  const tabs = new BottomTabs(page);
  await tabs.show('Open orders');
  await expect(tabs.openOrders).not.toContainText('Close long');
  await expect(tabs.order(placed.id).getByText('Buy (close)', { exact: true })).toBeVisible();
  await tabs.show('Order history');
  const inHistory = tabs.orderHistory.locator('tbody tr').filter({ hasText: fmtPx(below, 1) });
  await expect(inHistory.getByText('Buy (close)', { exact: true })).toBeVisible();
  await expect(tabs.orderHistory).not.toContainText('Close long');
});

test("a limit close that crosses the book says so under the field before Enter, which still sends it: a long's sell below the best bid fills at once", async ({
  page,
  service,
  trader,
  market,
}) => {
  const { symbol, s, pos, screen, row } = await openOnLong(page, service, trader, market);
  await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');
  const lc = limitClose(page, row, symbol, 1);
  await lc.button.click();
  // a sell that rests (far above the book) is not warned about
  await lc.price.fill(onTick(pos.mark_price * 1.01, s.price_step));
  await expect(lc.line).toHaveText('Enter places a reduce-only limit close of 0.010, Esc cancels');
  // a sell well under the best bid: the field says it trades at once as a taker, naming the bid
  await lc.price.fill(onTick(pos.mark_price * 0.99, s.price_step));
  await expect(lc.line).toBeVisible();
  await expect(lc.line).toHaveText(/^At or below the best bid \([\d,]+\.\d\): it would trade at once, as a taker\.$/);
  await expect(lc.price).toHaveAttribute('aria-invalid', 'false');
  // a warning, not a refusal: Enter sends it and the long is closed at once
  await page.keyboard.press('Enter');
  await expect(lc.price).toHaveCount(0);
  await expect.poll(async () => (await trader.api.positions()).length).toBe(0);
});
