// The screen's layout at the desktop window's sizes: at 1024x640 (the smallest window) nothing
// is wider than the window and the order book and the trades share a column under two tabs;
// the positions table fits its panel with TP/SL and its edit button uncovered, and so do the order
// tables with a long pair and a long client id; a long base asset
// (1000PEPEUSDT) keeps the headers, the spread, the top bar and the order form in shape; toasts
// cover none of what the trader checks; a narrow chart's legend keeps clear of the price lines.
// At 1024x640 a stop's answer is in view with nothing to scroll (the tallest stop forms, a trailing
// stop and a refused stop-limit, in hedge and one-way mode too), and a long API key wraps in the
// Account tab.
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright/test';
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { openTrading, roundTrip } from './support/desk.ts';
import { onTick } from './support/prices.ts';

/** Whether the element drawn at the centre of `l` is `l` or inside it (nothing covers it there). */
function uncovered(l: Locator): Promise<boolean> {
  return l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    // the e2e code is compiled without the DOM library: the page's document is typed here
    const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): typeof el | null } })
      .document;
    const top = doc.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
}

/** Expects `table` no wider than its tab's panel: nothing to scroll sideways. */
async function expectFitsPanel(table: Locator, what: string): Promise<void> {
  const [tableWidth, panelWidth] = await table.evaluate((t) => [
    t.scrollWidth,
    t.closest('[role="tabpanel"]')!.clientWidth,
  ]);
  expect(tableWidth, what).toBeLessThanOrEqual(panelWidth);
}

test('at 1024x640 the screen fits the window: the form whole, the top bar, every chart interval; book and trades as tabs', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, {
    size: { width: 1024, height: 640 },
    live: true,
  });

  // (the e2e code is compiled without the DOM library: the page's globals are typed here)
  const [scrollWidth, innerWidth] = await page.evaluate(() => {
    const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return [w.document.documentElement.scrollWidth, w.innerWidth];
  });
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  for (const l of [
    screen.form.button('Open long'),
    screen.form.button('Open short'),
    screen.form.tab('Close'),
    screen.form.root.getByRole('button', { name: 'Isolated' }),
    page.getByRole('button', { name: 'Replay' }),
    page.getByRole('button', { name: 'Settings' }),
    page.getByRole('button', { name: 'Keyboard shortcuts' }),
    screen.chart.interval('1s'),
    screen.chart.interval('1M'),
  ]) {
    await expect(l).toBeInViewport({ ratio: 1 });
  }

  // one column, two tabs: the trades replace the book in its place, and back
  const tabs = page.getByRole('tablist', { name: 'Order book or trades' });
  await expect(tabs).toHaveCount(1);
  const trades = page.getByTestId('trades');
  await expect(trades).toBeHidden();
  const bookBox = (await screen.ladder.root.boundingBox())!;
  await tabs.getByRole('tab', { name: 'Trades' }).click();
  await expect(trades).toBeVisible();
  await expect(screen.ladder.root).toBeHidden();
  await expect(page.getByTestId('trade-row').first()).toBeInViewport();
  expect(await trades.boundingBox()).toEqual(bookBox);
  await expect(tabs.getByRole('tab', { name: 'Trades' })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Order book' }).click();
  await expect(screen.ladder.root).toBeVisible();
  await expect(trades).toBeHidden();

  // a wide window shows both side by side, under their names
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(trades).toBeVisible();
  await expect(screen.ladder.root).toBeVisible();
  await expect(tabs).toHaveCount(0);
  expect((await trades.boundingBox())!.x).toBeGreaterThan((await screen.ladder.root.boundingBox())!.x);
});

/** The height and width `selector`'s first element overflows by (0, 0: it scrolls in neither). */
function overflow(page: Page, selector: string): Promise<[number, number]> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => [el.scrollHeight - el.clientHeight, el.scrollWidth - el.clientWidth]);
}

test('at 1024x640 a stop order and its answer fit the form, nothing scrolls; a long API key wraps in the Account tab, whole', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'SOLUSDT';
  await market.ensureBook(symbol, 15);
  // a key as long as the desktop app's own ("local_" and 26 hex digits), and longer
  const apiKey = `local_${randomBytes(16).toString('hex')}`;
  const apiSecret = randomBytes(24).toString('hex');
  await new RestClient({ baseUrl: service.url }).call('POST', '/admin/v1/accounts', {
    body: { api_key: apiKey, api_secret: apiSecret, balance: '10000' },
  });
  const screen = await openTrading(page, service.url, { apiKey, apiSecret }, symbol, {
    size: { width: 1024, height: 640 },
    live: true,
  });
  const trigger = onTick((await market.mid(symbol)) * 1.05, (await market.symbol(symbol)).price_step);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await page.keyboard.press('t');
  await screen.form.root.getByRole('textbox', { name: 'Trigger price' }).fill(trigger);
  await screen.form.size.fill('1');
  await page.keyboard.press('s');
  await page.keyboard.press('Enter');
  await expect(screen.form.notice).toContainText(`Stop ${symbol} #`);
  await expect(screen.form.notice).toBeInViewport({ ratio: 1 });
  expect(await overflow(page, '.form-area'), 'the form area scrolls').toEqual([0, 0]);
  await page.screenshot({ path: test.info().outputPath('stop-answer-1024x640.png') });

  // a refusal lands in the same place, in view (a size under the minimum)
  await screen.form.size.fill('0.001');
  await page.keyboard.press('s');
  await page.keyboard.press('Enter');
  await expect(screen.form.error).toBeVisible();
  await expect(screen.form.error).toBeInViewport({ ratio: 1 });
  expect(await overflow(page, '.form-area'), 'the form area scrolls').toEqual([0, 0]);

  await screen.tabs.show('Account');
  const key = page.getByRole('tabpanel').getByText(apiKey, { exact: true });
  await expect(key).toBeInViewport({ ratio: 1 });
  expect(await overflow(page, '.tab-body'), 'the Account tab scrolls').toEqual([0, 0]);
  const [keyWidth, keyScroll] = await key.evaluate((el) => [el.clientWidth, el.scrollWidth]);
  expect(keyScroll).toBeLessThanOrEqual(keyWidth);
  await page.screenshot({ path: test.info().outputPath('account-key-1024x640.png') });
});

/**
 * Expects `answer` whole in the window and the form panel not scrolling as the answer comes (no
 * retrying until the form changes; soft: every case is looked at); a screenshot as `name`.
 */
async function expectAnswerInView(page: Page, answer: Locator, name: string): Promise<void> {
  const [top, bottom, windowHeight] = await answer.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return [r.top, r.bottom, (globalThis as unknown as { innerHeight: number }).innerHeight];
  });
  const scrolls = await overflow(page, '.form-area');
  await page.screenshot({ path: test.info().outputPath(`${name}-1024x640.png`) });
  expect.soft(top, `${name}: the answer's top in the window`).toBeGreaterThanOrEqual(0);
  expect.soft(bottom, `${name}: the answer's bottom in the window`).toBeLessThanOrEqual(windowHeight);
  expect.soft(scrolls, `${name}: the form area scrolls`).toEqual([0, 0]);
}

// the tallest Stop forms, with an answer under them: a trailing stop without its rate (what to
// enter, three lines) and placed (the sentence and each side's three lines), and a stop-limit
// whose trigger and price are off the tick (a warning under each), its size over the Max (two-line
// Max cells) and, one-way, a long the sell would reduce (its Est. PnL row), refused in three
// lines, then placed; one-way mode adds the Reduce-only row
for (const mode of ['hedge', 'one_way'] as const) {
  test(`at 1024x640 in ${mode} mode the tallest stop forms keep their answer in view, nothing scrolls`, async ({
    page,
    service,
    market,
  }) => {
    test.slow(); // eight orders sent and looked at
    const symbol = 'BTCUSDT';
    await market.ensureBook(symbol, 15);
    const creds = { apiKey: `layout_${randomBytes(8).toString('hex')}`, apiSecret: randomBytes(24).toString('hex') };
    await new RestClient({ baseUrl: service.url }).call('POST', '/admin/v1/accounts', {
      body: { api_key: creds.apiKey, api_secret: creds.apiSecret, balance: '10000', position_mode: mode },
    });
    const { s } = await market.position(new RestClient({ baseUrl: service.url, ...creds }), symbol, 1, '0.010');
    const screen = await openTrading(page, service.url, creds, symbol, { size: { width: 1024, height: 640 } });
    const { form } = screen;
    await expect(form.root.getByRole('button', { name: /^(Open long|Buy \/ Long)/ })).toBeEnabled();
    const send = async (): Promise<void> => {
      await page.keyboard.press('b');
      await page.keyboard.press('Enter');
    };

    // Trailing: no callback rate yet (what to enter), then one (placed)
    await page.keyboard.press('t');
    await form.root.getByRole('button', { name: 'Trailing', exact: true }).click();
    await form.size.fill('0.002');
    await send();
    await expect(form.error).toContainText('Enter a callback rate');
    await expectAnswerInView(page, form.error, `${mode}-trailing-no-rate`);
    await form.root.getByRole('textbox', { name: 'Callback rate' }).fill('1');
    await send();
    await expect(form.notice).toContainText(`Trailing stop ${symbol} #`);
    await expectAnswerInView(page, form.notice, `${mode}-trailing-placed`);

    // the stop-limit refused in three lines, then placed
    const trigger = onTick((await market.mid(symbol)) * 0.95, s.price_step);
    const offTick = `${trigger}050000001`;
    await form.root.getByRole('button', { name: 'Trigger', exact: true }).click();
    await form.root.getByRole('textbox', { name: 'Trigger price' }).fill(offTick);
    await form.price.fill(offTick);
    await form.size.fill('5');
    await expect(page.getByTestId('trigger-check')).toBeVisible();
    await expect(page.getByTestId('price-check')).toBeVisible();
    await expect(form.preview).toContainText('size over');
    // one-way: the sell would reduce the long
    if (mode === 'one_way') await expect(form.preview).toContainText('Est. PnL');
    await send();
    await expect(form.error).toContainText('(3003)');
    const lines = await form.error.evaluate((el) => {
      const cs = (globalThis as unknown as { getComputedStyle(e: typeof el): Record<string, string> }).getComputedStyle(
        el,
      );
      const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
      return Math.round(inner / parseFloat(cs.lineHeight));
    });
    expect(lines, 'lines of the refusal').toBe(3);
    await expectAnswerInView(page, form.error, `${mode}-stop-limit-refused`);
    await form.root.getByRole('textbox', { name: 'Trigger price' }).fill(trigger);
    await form.price.fill(trigger);
    await form.size.fill('0.002');
    await send();
    await expect(form.notice).toContainText(`Stop ${symbol} #`);
    await expectAnswerInView(page, form.notice, `${mode}-stop-limit-placed`);
  });
}

for (const [width, height] of [
  [1280, 800],
  [1024, 640],
] as const) {
  test(`at ${width}x${height} every position column fits: TP/SL and its edit button are not covered`, async ({
    page,
    service,
    trader,
    market,
  }) => {
    const symbol = 'BTCUSDT';
    const { s, pos } = await market.position(trader.api, symbol, 1, '0.050');
    const tp = onTick(pos.mark_price * 1.2, s.price_step);
    const sl = onTick(pos.mark_price * 0.8, s.price_step);
    await trader.api.setTpSl({ symbol, position_side: 1, take_profit_price: tp, stop_loss_price: sl });
    const screen = await openTrading(page, service.url, trader, symbol, { size: { width, height } });
    const row = screen.tabs.position(symbol, 1);
    const fmtPx = (x: string): string =>
      Number(x).toLocaleString('en-US', { minimumFractionDigits: s.price_precision });
    await expect(row).toContainText(`${fmtPx(tp)} / ${fmtPx(sl)}`);

    // nothing to scroll sideways, so nothing pinned over another column
    await expectFitsPanel(screen.tabs.positions, 'Positions');
    const edit = row.getByRole('button', { name: `TP/SL ${symbol} long` });
    const close = row.getByRole('button', { name: `Close ${symbol} long` });
    const stopLoss = row.getByText(fmtPx(sl), { exact: true });
    for (const l of [edit, close, stopLoss, row.getByText(symbol, { exact: true })]) {
      await expect(l).toBeInViewport({ ratio: 1 });
      expect(await uncovered(l)).toBe(true);
    }
    for (const th of await screen.tabs.positions.locator('thead th').all()) {
      expect(await uncovered(th), `header ${await th.textContent()}`).toBe(true);
    }
    await edit.click();
    await expect(page.getByRole('dialog', { name: 'Take profit / stop loss' })).toBeVisible();
  });
}

test('at 1024x640 the order tables fit their panel (a long pair, a long client id): price, status and Cancel uncovered; at 1280 every column of its own', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = '1000PEPEUSDT';
  const { s, price } = await market.priceOffMid(symbol, 0.9, 15);
  const qty = String(Math.ceil((2 * Number(s.min_notional)) / Number(price)));
  const clientId = 'layout-check-0123456789abcdefghijkl';
  const { order_id } = await trader.api.placeOrder({
    symbol,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    time_in_force: 1,
    price,
    qty,
    client_order_id: clientId,
  });
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 640 } });
  const fmtPx = (x: string): string => Number(x).toLocaleString('en-US', { minimumFractionDigits: s.price_precision });

  for (const [tab, table, row, status] of [
    ['Open orders', screen.tabs.openOrders, screen.tabs.order(order_id), null],
    ['Order history', screen.tabs.orderHistory, page.getByTestId(`order-history-row-${order_id}`), 'New'],
  ] as const) {
    await screen.tabs.show(tab);
    await expect(row).toBeVisible();
    await expectFitsPanel(table, tab);
    // the client id shows its start, whole on hover
    const id = row.getByText(`${clientId.slice(0, 8)}…`, { exact: true });
    await expect(id).toBeVisible();
    await expect(row.getByTitle(clientId)).toHaveCount(1);
    const figures = [row.getByText(fmtPx(price), { exact: true }), row.getByText('Open long', { exact: true }), id];
    if (status) figures.push(row.getByText(status, { exact: true }));
    else figures.push(row.getByRole('button', { name: `Cancel order ${order_id}` }));
    for (const l of figures) {
      await expect(l).toBeInViewport({ ratio: 1 });
      expect(await uncovered(l), `${tab}: ${await l.textContent()}`).toBe(true);
    }
  }

  // a wide window gives Type and Filled columns of their own and the whole client id
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const head of ['Type', 'Filled', 'Avg price']) {
    await expect(screen.tabs.orderHistory.getByRole('columnheader', { name: head, exact: true })).toBeVisible();
  }
  const wideRow = page.getByTestId(`order-history-row-${order_id}`);
  await expect(wideRow.getByText(clientId, { exact: true })).toBeVisible();
  await expect(wideRow.getByText(`${clientId.slice(0, 8)}…`, { exact: true })).toBeHidden();
});

test('at 1024x640 the trade and position histories fit their panel, folding pairs of columns; at 1280 each column of its own, the position history still in its panel', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = '1000PEPEUSDT';
  const { close } = await roundTrip(market, trader.api, symbol);
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 640 } });

  await screen.tabs.show('Trade history');
  const trade = screen.tabs.tradeHistory.locator('tbody tr').first();
  await expect(trade).toBeVisible();
  await screen.tabs.show('Position history');
  const position = screen.tabs.positionHistory.locator('tbody tr').first();
  await expect(position).toBeVisible();
  for (const [tab, table, row, ends] of [
    ['Trade history', screen.tabs.tradeHistory, trade, [close.order_id, 'Taker']],
    ['Position history', screen.tabs.positionHistory, position, ['User close', /^(Cross|Isolated) \d+x$/]],
  ] as const) {
    await screen.tabs.show(tab);
    await expectFitsPanel(table, tab);
    // the last columns' figures, and a folded one, whole in view
    for (const text of ends) {
      const l = (typeof text === 'string' ? row.getByText(text, { exact: true }) : row.getByText(text)).first();
      await expect(l, `${tab}: ${text}`).toBeInViewport({ ratio: 1 });
      expect(await uncovered(l), `${tab}: ${text}`).toBe(true);
    }
  }

  // a wide window: the folded figures have columns of their own
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const head of ['Exit', 'Funding']) {
    await expect(screen.tabs.positionHistory.getByRole('columnheader', { name: head, exact: true })).toBeVisible();
  }
  // and the position history still fits (it was 28 px wider than its panel with a 1000PEPEUSDT row,
  // the Opened column's seconds cut off: its margin tag now stands under the pair up to 1440 px)
  await screen.tabs.show('Position history');
  await expectFitsPanel(screen.tabs.positionHistory, 'Position history at 1280');
  // the tag's top below the bottom of the pair's name (the cell's first text)
  const under = await position.getByText(/^(Cross|Isolated) \d+x$/).evaluate((tag) => {
    const doc = (
      globalThis as unknown as {
        document: {
          createRange(): { selectNodeContents(n: unknown): void; getBoundingClientRect(): { bottom: number } };
        };
      }
    ).document;
    const range = doc.createRange();
    range.selectNodeContents(tag.parentElement!.firstChild);
    return tag.getBoundingClientRect().top >= range.getBoundingClientRect().bottom - 1;
  });
  expect(under, 'the margin tag under the pair').toBe(true);
  await screen.tabs.show('Trade history');
  for (const head of ['Amount', 'Role']) {
    await expect(screen.tabs.tradeHistory.getByRole('columnheader', { name: head, exact: true })).toBeVisible();
  }
});

test('a long base asset (1000PEPEUSDT at 1280x800): book and trades headers keep to their row, the spread to its figures, the top bar its 24h change', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = '1000PEPEUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, {
    size: { width: 1280, height: 800 },
    live: true,
  });
  await expect(page.getByTestId('trade-row').first()).toBeVisible();

  // the heading keeps to one line: "Size", the unit in its title; never over the rows below
  for (const panel of [screen.ladder.root, page.getByTestId('trades')]) {
    const head = panel.getByTitle('Size (1000PEPE)', { exact: true });
    await expect(head).toHaveText('Size');
    const headBox = (await head.locator('xpath=..').boundingBox())!;
    const textBox = (await head.boundingBox())!;
    expect(textBox.y + textBox.height).toBeLessThanOrEqual(headBox.y + headBox.height + 0.5);
    expect(textBox.height, 'the Size heading takes one line').toBeLessThan(20);
    const rows = panel === screen.ladder.root ? page.getByTestId('ladder-asks') : page.getByTestId('trade-row').first();
    expect((await rows.boundingBox())!.y).toBeGreaterThanOrEqual(headBox.y + headBox.height - 0.5);
  }

  // the spread's amount and share each whole on a line of their own
  const spread = page.getByTestId('spread');
  const amount = spread.getByText(/^0\.0000\d+$/);
  const share = spread.getByText(/^\d+\.\d{2,6}%$/);
  for (const l of [amount, share]) {
    await expect(l).toBeVisible();
    expect((await l.boundingBox())!.height).toBeLessThan(18);
  }

  // the order form's Max ("14,705,882 1000PEPE") stays inside the form, a second line if need be
  const form = (await screen.form.root.boundingBox())!;
  const amounts = screen.form.root.locator('dd').filter({ hasText: '1000PEPE' });
  await expect(amounts.first()).toBeVisible();
  for (const dd of await amounts.all()) {
    const b = (await dd.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(form.x + form.width);
  }

  // (a stat that does not fit wraps out of the bar's one line, out of sight: ratio 0)
  await expect(page.getByTestId('change-24h')).toBeInViewport({ ratio: 0.9 });

  // at 1440x900 no row is cut: by the heading above the asks, the B/S bar under the bids, the
  // foot of the trades
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('trade-row').nth(39)).toBeAttached();
  for (const side of [page.getByTestId('ladder-asks'), page.getByTestId('ladder-bids'), page.locator('.trades-list')]) {
    const cut = await side.evaluate((el) => {
      const box = el.getBoundingClientRect();
      // (no DOM types here: the rows are typed as the side is)
      return Array.from(el.children as unknown as ArrayLike<typeof el>)
        .map((r) => r.getBoundingClientRect())
        .filter((r) => r.left < box.right - 0.5 && r.bottom > box.top + 0.5 && r.top < box.bottom - 0.5)
        .filter((r) => r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        .map((r) => `${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(box.top)}-${Math.round(box.bottom)}`);
    });
    expect(cut, 'rows cut').toEqual([]);
  }
});

test('toasts sit in the chart, clear of the order book, the order form, the positions and the legend, and can be dismissed', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = new TradingPage(page);
  for (const [width, height] of [
    [1280, 800],
    [1024, 640],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (width === 1280) await screen.openAs(service.url, trader, symbol);
    await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');
    await screen.form.market('Open long', '0.010');
    const toast = screen.toast('fill').first();
    await expect(toast).toContainText(`Bought 0.010 ${symbol}`);
    // the pointer on it keeps it (a fill's toast leaves after 5 s) while it is measured
    await toast.hover();
    const box = (await toast.boundingBox())!;
    const apart = async (l: Locator): Promise<boolean> => {
      const b = (await l.boundingBox())!;
      return box.x + box.width <= b.x || b.x + b.width <= box.x || box.y + box.height <= b.y || b.y + b.height <= box.y;
    };
    for (const [name, l] of [
      ['order book', screen.ladder.root],
      ['order form', screen.form.root],
      ['bottom tabs', page.getByRole('tablist', { name: 'Account views' })],
      ['positions', screen.tabs.positions],
      ['chart legend', screen.chart.legend],
    ] as const) {
      expect(await apart(l), `the toast covers the ${name} at ${width}x${height}`).toBe(true);
    }
    const chart = (await page.getByRole('main').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(chart.x);
    expect(box.x + box.width).toBeLessThanOrEqual(chart.x + chart.width);
    expect(box.y + box.height).toBeLessThanOrEqual(chart.y + chart.height);
    await expect(toast).toBeInViewport({ ratio: 1 });
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await expect(screen.toast('fill')).toHaveCount(0);
  }
});

test('at 1024x640 the chart legend keeps to two lines, clear of the labels of the price lines at the right', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.position(trader.api, symbol, 2, '0.020');
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 640 } });
  await expect.poll(() => screen.chart.lines()).toContain(`entry:${symbol}:2`);
  await expect(screen.chart.legend).toContainText(/V [\d,.]+/);
  const legend = (await screen.chart.legend.boundingBox())!;
  const chart = (await screen.chart.box.boundingBox())!;
  expect(legend.height).toBeLessThanOrEqual(40);
  // the price scale and the entry line's label beside it ("Short 0.020") take the right 150 px
  expect(legend.x + legend.width).toBeLessThanOrEqual(chart.x + chart.width - 150);

  // six indicators on: their values on one more line, as many as fit, still clear at the right
  await page.evaluate(() => {
    const on = ['ma1', 'ma2', 'ema3', 'boll', 'rsi', 'macd'].map((id) => ({ id, on: true }));
    (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
      'perpdesk.indicators',
      JSON.stringify(on),
    );
  });
  await page.reload();
  await expect(screen.chart.box).toHaveAttribute('data-indicators', 'ma1 ma2 ema3 boll rsi macd');
  await expect(screen.chart.legend.locator('[data-indicator="ma1"]')).toBeVisible();
  const studied = (await screen.chart.legend.boundingBox())!;
  expect(studied.height).toBeLessThanOrEqual(60);
  expect(studied.x + studied.width).toBeLessThanOrEqual(chart.x + chart.width - 150);
});
