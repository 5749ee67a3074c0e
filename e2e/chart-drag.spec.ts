// Dragging an open order's line on the chart moves the order (line-drag.ts, move-order.ts): the
// cursor says where a line can be taken, the line follows the mouse,
// and the drop sends Binance's modify (PUT /fapi/v1/order) with the new price on the pair's
// tick and the order's own amount: the same order id, at the new price, in the API and in Open
// orders; a double-click on it opens its Modify dialog. Escape while held, or a press that does
// not move, sends nothing. A take-profit's line
// dragged moves that trigger alone; one the venue refuses (beyond the mark) goes back; a
// double-click on it opens the TP/SL dialog. A waiting stop's line dragged moves its trigger in
// place (PUT /fapi/v1/conditional/order); across the mark, where it would fire at once, the venue
// refuses (3026) and it goes back; a double-click on it opens its Modify dialog. The "+" at
// the crosshair puts its price in the order form.
import { test, expect } from './support/fixtures.ts';
import { openChart, openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

test('an order line dragged down moves the order; Escape and a plain click leave it', async ({
  page,
  service,
  trader,
  market,
}) => {
  // just under the market: in the chart's price range, below where a bid would fill
  const { s, price } = await market.priceOffMid(SYMBOL, 0.999);
  const order = await restingBuy(trader.api, SYMBOL, price, '0.010');
  const line = `order:${order.order_id}`;
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  // room below the order's line for the drags, whatever the recent candles' range
  await chart.widenPrices();
  await expect.poll(() => chart.labelled()).toContain(line);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/fapi/v1/order')) puts.push(r.postData() ?? '');
  });
  const b = (await chart.box.boundingBox())!;
  // right of the middle: toasts sit over the chart's bottom-left corner
  const x = b.x + b.width * 0.6;
  const resting = async (): Promise<Array<[string, number, string]>> =>
    (await trader.api.openOrders(SYMBOL)).map((o) => [o.id, Number(o.price), o.qty]);

  // Escape while the line is held: it goes back, nothing is sent
  let y = await chart.grabY(x);
  expect(y, 'the cursor finds the order line').not.toBeNull();
  await expect(chart.box).toHaveAttribute('title', /^Drag to a new price/);
  await page.mouse.down();
  await expect(chart.box).toHaveClass(/line-dragging/);
  await page.mouse.move(x, y! + 30, { steps: 6 });
  await page.keyboard.press('Escape');
  await expect(chart.box).not.toHaveClass(/line-dragging/);
  await page.mouse.up();
  // a press that does not move is a click: nothing is sent either
  expect(await chart.grabY(x)).not.toBeNull();
  await page.mouse.down();
  await page.mouse.up();
  expect(puts).toEqual([]);
  expect(await resting()).toEqual([[order.order_id, Number(price), '0.010']]);

  // dragged 40 px down and dropped: the order moves there, under its id, with its amount
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, y! + 40, { steps: 8 });
  await page.screenshot({ path: test.info().outputPath('chart-line-held.png') });
  await page.mouse.up();
  await expect(page.getByText(`Order #${order.order_id} modified: 0.010 BTC at`)).toBeVisible();
  expect(puts).toHaveLength(1);
  const sent = JSON.parse(puts[0]) as { order_id: string | number; price: string; qty: string };
  expect(String(sent.order_id)).toBe(order.order_id);
  expect(sent.qty).toBe('0.010');
  const moved = Number(sent.price);
  expect(moved).toBeLessThan(Number(price));
  // on the tick, printed in the pair's decimals
  const steps = moved / Number(s.price_step);
  expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
  expect(sent.price.split('.')[1]?.length ?? 0).toBe((s.price_step.split('.')[1] ?? '').length);
  await expect.poll(resting).toEqual([[order.order_id, moved, '0.010']]);
  await expect.poll(() => chart.lines()).toContain(line);
  // a double-click on the line opens the order's Modify dialog, over the Open orders tab
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.dblclick(x, y!);
  const dialog = page.getByRole('dialog', { name: 'Modify order' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`#${order.order_id}`);
  expect(Number((await dialog.getByRole('textbox', { name: 'New price' }).inputValue()).replace(/,/g, ''))).toBe(moved);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(puts).toHaveLength(1);
  await expect(page.getByRole('tab', { name: /^Open orders/ })).toHaveAttribute('aria-selected', 'true');
  await expect(screen.tabs.openOrders.getByTestId(`order-row-${order.order_id}`)).toContainText(
    moved.toLocaleString('en-US', { minimumFractionDigits: sent.price.split('.')[1]?.length ?? 0 }),
  );

  // cancelled (by a bot, say) while its line is held: the line goes, and the drop sends nothing
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, y! + 30, { steps: 4 });
  await trader.api.cancelOrder(SYMBOL, order.order_id);
  await expect.poll(() => chart.lines()).not.toContain(line);
  await expect(chart.box).not.toHaveClass(/line-dragging/);
  await page.mouse.up();
  expect(puts).toHaveLength(1);
});

test('a take-profit line dragged up moves the take-profit alone; dragged past the mark it is refused and goes back', async ({
  page,
  service,
  trader,
  market,
}) => {
  const { s, pos } = await market.position(trader.api, SYMBOL, 1, '0.010');
  const tp = onTick(pos.mark_price * 1.004, s.price_step);
  const sl = onTick(pos.mark_price * 0.996, s.price_step);
  await trader.api.setTpSl({
    symbol: SYMBOL,
    position_side: 1,
    take_profit_price: tp,
    stop_loss_price: sl,
    working_type: 1,
  });
  const line = `tp:${SYMBOL}:1`;
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  // 0.4 % either side of the mark may be off a quiet hour's range: widen it until both are in view
  const inView = async (): Promise<boolean> => {
    const shown = await chart.labelled();
    return shown.includes(line) && shown.includes(`sl:${SYMBOL}:1`);
  };
  for (let i = 0; i < 5 && !(await inView()); i++) {
    await chart.widenPrices();
    // (the labels are judged four times a second)
    await expect
      .poll(inView, { timeout: 1000 })
      .toBe(true)
      .catch(() => undefined);
  }
  await expect.poll(inView).toBe(true);
  // once more: the take-profit, dragged 30 px up below, must not start at the pane's top edge
  // (dropped there it would be put back just out of view)
  await chart.widenPrices();
  await expect.poll(inView).toBe(true);
  const triggers = async (): Promise<Array<[number | null, number | null]>> =>
    (await trader.api.tpslList())
      .filter((t) => t.symbol === SYMBOL)
      .map((t) => [t.take_profit_price === null ? null : Number(t.take_profit_price), Number(t.stop_loss_price)]);
  const b = (await chart.box.boundingBox())!;
  // right of the middle: toasts sit over the chart's bottom-left corner
  const x = b.x + b.width * 0.6;

  // the take-profit is the higher line: the first the cursor meets going down
  let y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, y! - 30, { steps: 6 });
  await page.mouse.up();
  await expect(page.getByText(`Take-profit of ${SYMBOL} long moved to`)).toBeVisible();
  await expect.poll(async () => (await triggers())[0]?.[0]).toBeGreaterThan(Number(tp));
  const [[moved, keptSl]] = await triggers();
  expect(keptSl).toBe(Number(sl));

  // dropped near the bottom of the pane, far under the mark: refused, and nothing changes
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, b.y + b.height - 60, { steps: 10 });
  await page.mouse.up();
  const refusal = page.getByTestId('toast-error').filter({ hasText: `Take-profit move of ${SYMBOL} long refused` });
  await expect(refusal).toBeVisible();
  // the venue's refusal with its code, as the dialogs show it
  await expect(refusal).toContainText(/\(\d{4}\) /);
  expect(await triggers()).toEqual([[moved, Number(sl)]]);
  // the line is back where the venue has it: the cursor meets it there again
  await expect.poll(() => chart.labelled()).toContain(line);
  const back = await chart.grabY(x);
  expect(Math.abs(back! - y!)).toBeLessThan(40);

  // a double-click on it opens the position's TP/SL dialog, over the Positions tab, with the moved price
  await page.mouse.dblclick(x, back!);
  const dialog = page.getByRole('dialog', { name: 'Take profit / stop loss' });
  await expect(dialog).toBeVisible();
  await expect
    .poll(async () =>
      Number((await dialog.getByRole('textbox', { name: 'Take profit price' }).inputValue()).replace(/,/g, '')),
    )
    .toBe(moved);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await triggers()).toEqual([[moved, Number(sl)]]);
});

test('the "+" at the crosshair puts its price in the order form as a limit price', async ({
  page,
  service,
  market,
}) => {
  const { s, screen } = await openChart(page, service.url, market, SYMBOL);
  const chart = screen.chart;
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  // the market still: a trade between reading the "+"'s price and pressing it would rescale the
  // chart under the pointer (CI saw the form take a price 8 ticks off the label read)
  await setPaused(service.url, true);
  const plus = chart.box.getByTestId('chart-price-pick');
  const b = (await chart.box.boundingBox())!;
  const y = b.y + b.height * 0.3;
  // on the pane the "+" rides at the crosshair's height, at the pane's right edge
  await page.mouse.move(b.x + b.width * 0.3, y);
  await expect(plus).toHaveClass(/shown/);
  const at = (await plus.boundingBox())!;
  expect(Math.abs(at.y + at.height / 2 - y)).toBeLessThan(2);
  expect(at.x).toBeGreaterThan(b.x + b.width * 0.6);
  // over it, it says what it does; pressed, the form takes that price as a limit order
  await page.mouse.move(at.x + at.width - 9, y, { steps: 4 });
  await expect(plus.locator('b', { hasText: '+' })).toHaveClass(/hot/);
  const label = (await plus.textContent()) ?? '';
  const m = /^Limit price ([\d,]+(\.\d+)?)\+$/.exec(label);
  expect(m, label).not.toBeNull();
  const price = m![1].replace(/,/g, '');
  await page.mouse.down();
  await page.mouse.up();
  await expect.poll(async () => (await screen.form.price.inputValue()).replace(/,/g, '')).toBe(price);
  expect(Number.isInteger(Math.round((Number(price) / Number(s.price_step)) * 1e6) / 1e6)).toBe(true);
  // off the chart it goes
  await page.mouse.move(b.x + b.width / 2, b.y - 60);
  await expect(plus).not.toHaveClass(/shown/);
});

test("a stop's line dragged up moves its trigger in place; across the mark it is refused (3026) and goes back", async ({
  page,
  service,
  trader,
  market,
}) => {
  // a still market: the chart does not rescale under the pointer, and the mark stays where it is
  await setPaused(service.url, true);
  const s = await market.symbol(SYMBOL);
  const mark = Number((await trader.api.completePrice(SYMBOL)).mark_price);
  const trigger = onTick(mark * 1.002, s.price_step);
  // fires as the mark rises to it: it cannot be moved under the mark
  const c = await trader.api.conditionals.place({
    symbol: SYMBOL,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.010',
    trigger_price: trigger,
    trigger_direction: 1,
    working_type: 1,
  });
  const line = `stop:${c.id}`;
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  await expect.poll(() => chart.lines()).toContain(line);
  // 0.2 % over the mark may be off a quiet hour's range: widen it until the line is in view, and
  // once more so that the drag up below does not start at the pane's top edge
  for (let i = 0; i < 5 && !(await chart.labelled()).includes(line); i++) {
    await chart.widenPrices();
    await expect
      .poll(() => chart.labelled(), { timeout: 1000 })
      .toContain(line)
      .catch(() => undefined);
  }
  await chart.widenPrices();
  await expect.poll(() => chart.labelled()).toContain(line);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/fapi/v1/conditional/order')) puts.push(r.postData() ?? '');
  });
  const record = async (): Promise<[number, string | null, number]> => {
    const r = await trader.api.conditionals.get({ id: c.id });
    return [Number(r.trigger_price), r.qty, r.status];
  };
  const b = (await chart.box.boundingBox())!;
  // right of the middle: toasts sit over the chart's bottom-left corner
  const x = b.x + b.width * 0.6;

  // Escape while the line is held, and a press that does not move: it stays, nothing is sent
  let y = await chart.grabY(x);
  expect(y, "the cursor finds the stop's line").not.toBeNull();
  await expect(chart.box).toHaveAttribute('title', /^Drag to a new price/);
  await page.mouse.down();
  await expect(chart.box).toHaveClass(/line-dragging/);
  await page.mouse.move(x, y! - 30, { steps: 6 });
  await page.keyboard.press('Escape');
  await expect(chart.box).not.toHaveClass(/line-dragging/);
  await page.mouse.up();
  expect(await chart.grabY(x)).not.toBeNull();
  await page.mouse.down();
  await page.mouse.up();
  expect(puts).toEqual([]);
  expect(await record()).toEqual([Number(trigger), '0.010', 1]);

  // dragged 30 px up and dropped: the same stop, its new trigger on the tick, its amount kept
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, y! - 30, { steps: 8 });
  await page.screenshot({ path: test.info().outputPath('stop-line-held.png') });
  await page.mouse.up();
  await expect(page.getByText(`Stop ${SYMBOL} #${c.id} modified`)).toBeVisible();
  expect(puts).toHaveLength(1);
  const sent = JSON.parse(puts[0]) as Record<string, unknown>;
  expect(Object.keys(sent).sort()).toEqual(['id', 'trigger_price']);
  expect(String(sent.id)).toBe(c.id);
  const moved = Number(sent.trigger_price);
  expect(moved).toBeGreaterThan(Number(trigger));
  const steps = moved / Number(s.price_step);
  expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
  await expect.poll(record).toEqual([moved, '0.010', 1]);
  await expect(
    page.getByText(
      `When the mark price rises to ${moved.toLocaleString('en-US', {
        minimumFractionDigits: s.price_precision,
      })}: buy 0.010 BTC at market.`,
    ),
  ).toBeVisible();

  // dropped near the pane's bottom, far under the mark: the venue refuses (3026), the line goes back
  y = await chart.grabY(x);
  expect(y).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, b.y + b.height - 60, { steps: 10 });
  await page.mouse.up();
  const refused = page.getByTestId('toast-error').filter({ hasText: `Move of stop ${SYMBOL} #${c.id} refused` });
  await expect(refused).toContainText('(3026) The mark price');
  await expect(refused).toContainText('is already at or above the trigger');
  expect(puts).toHaveLength(2);
  expect(await record()).toEqual([moved, '0.010', 1]);
  await expect.poll(() => chart.labelled()).toContain(line);
  const back = await chart.grabY(x);
  expect(Math.abs(back! - y!)).toBeLessThan(10);

  // a double-click on it opens its Modify dialog over the Stops tab, the trigger's text selected
  await page.mouse.dblclick(x, back!);
  const dialog = page.getByRole('dialog', { name: 'Modify stop' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`#${c.id}`);
  const field = dialog.getByRole('textbox', { name: 'New trigger price' });
  await expect(field).toBeFocused();
  expect(Number((await field.inputValue()).replace(/,/g, ''))).toBe(moved);
  expect(
    await field.evaluate((el: { selectionStart: number | null; selectionEnd: number | null; value: string }) => [
      el.selectionStart,
      el.selectionEnd === el.value.length,
    ]),
  ).toEqual([0, true]);
  await expect(page.getByRole('tab', { name: /^Stops/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(puts).toHaveLength(2);
});
