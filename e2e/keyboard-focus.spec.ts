// The keyboard focus never falls to the page after an action done from the keyboard (the next
// Tab then started again at the top bar): Cancel on an order row and Close on a position hand it
// to the next row's button (the table's tab once the last is gone), Confirm in the leverage editor
// to its button, a pair picked with Enter to the pair button. The order book's prices and the
// price field's "Last" are reachable from the keyboard: the book is one Tab stop whose arrow keys
// move along the levels and whose Enter picks one.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

const SYMBOL = 'BTCUSDT';

test('Cancel on an order row and Close on a position hand the focus to the next row, then to the tab', async ({
  page,
  service,
  trader,
  market,
}) => {
  test.setTimeout(120_000);
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  const mid = await market.mid(SYMBOL);
  for (const f of [0.9, 0.91]) {
    await restingBuy(trader.api, SYMBOL, onTick(mid * f, s.price_step), '0.010');
  }
  await marketOrder(trader.api, SYMBOL, 1, '0.010');
  await marketOrder(trader.api, SYMBOL, 2, '0.010');
  const screen = await openTrading(page, service.url, trader, SYMBOL);

  // open orders: Enter on the first row's Cancel, the focus goes to the next row's
  await screen.tabs.show('Open orders');
  const orders = screen.tabs.openOrders.locator('tbody tr');
  await expect(orders).toHaveCount(2);
  const cancel = (row: number) => orders.nth(row).getByRole('button', { name: /^Cancel order/ });
  const second = await orders.nth(1).getAttribute('data-testid');
  await cancel(0).focus();
  await page.keyboard.press('Enter');
  await expect(orders).toHaveCount(1);
  await expect(orders.first()).toHaveAttribute('data-testid', second!);
  await expect(cancel(0)).toBeFocused();
  // the last one: the focus goes to the table's tab
  await page.keyboard.press('Enter');
  await expect(orders).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /^Open orders/ })).toBeFocused();

  // positions: Enter on the long's Close, then on the short's
  await screen.tabs.show('Positions');
  const long = screen.tabs.position(SYMBOL, 1);
  const short = screen.tabs.position(SYMBOL, 2);
  await long.getByRole('button', { name: `Close ${SYMBOL} long` }).focus();
  await page.keyboard.press('Enter');
  await expect(long).toHaveCount(0);
  await expect(short.getByRole('button', { name: `Close ${SYMBOL} short` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(short).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /^Positions/ })).toBeFocused();
  expect(await trader.api.positions()).toEqual([]);
});

test('Confirm in the leverage editor and a pair picked with Enter leave the focus on their buttons', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const opener = screen.form.root.getByTestId('leverage-button');
  await expect(opener).toHaveText('20x');
  await opener.focus();
  await page.keyboard.press('Enter');
  const editor = screen.form.root.getByRole('group', { name: 'Leverage' });
  await editor.getByRole('textbox', { name: 'Leverage value' }).fill('25');
  await editor.getByRole('button', { name: 'Confirm 25x' }).focus();
  await page.keyboard.press('Enter');
  await expect(editor).toBeHidden();
  await expect(opener).toHaveText('25x');
  await expect(opener).toBeFocused();

  // "/" opens the pair picker with nothing focused; Enter picks, the focus on the pair button
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('/');
  await expect(screen.picker.search).toBeFocused();
  await page.keyboard.type('ETHUSDT');
  await page.keyboard.press('Enter');
  await expect(screen.picker.dialog).toBeHidden();
  await expect(screen.topbar.symbolButton).toContainText('ETHUSDT');
  await expect(screen.topbar.symbolButton).toBeFocused();
});

test('the order book is one Tab stop: arrows move along the levels, Enter picks the price; Last by keyboard', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const screen = await openTrading(page, service.url, trader, SYMBOL, { live: true });
  // the market quiet: the focus stays on the price it reached, and the best bid must stay the best
  // for ArrowUp to reach the best ask from it (a better bid would be the one above)
  await setPaused(service.url, true);
  // and the screen's book caught up with the paused one (an update in flight would move the best bid)
  await expect
    .poll(async () => {
      const r = await fetch(`${service.url}/fapi/v1/depth?symbol=${SYMBOL}&with_id=true&limit=5`);
      const rest = ((await r.json()) as { data: { id: number } }).data;
      return (await screen.ladder.updateId()) === rest.id;
    })
    .toBe(true);
  // only one level of the book is in the Tab order (its Order book | Trades tabs, a narrow window's, are a stop of their own)
  await expect(screen.ladder.root.locator('.ladder-row[tabindex="0"]')).toHaveCount(1);
  // Tab from the grouping select lands on the best bid
  await screen.ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = screen.ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  // up: the best ask (drawn just above the middle), down twice: below the best bid
  await page.keyboard.press('ArrowUp');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-ask-row');
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  // (the market moves: the level's price as it is when Enter reaches it)
  await page.evaluate(() => {
    const g = globalThis as unknown as {
      picked: string;
      document: {
        addEventListener(t: string, f: (e: { target: { dataset: { price: string } } }) => void, c: boolean): void;
      };
    };
    g.document.addEventListener(
      'keydown',
      (e) =>
        (g.picked = e.target.dataset.price ?? (e.target as unknown as { outerHTML: string }).outerHTML.slice(0, 120)),
      true,
    );
  });
  await page.keyboard.press('Enter');
  const picked = await page.evaluate(() => (globalThis as unknown as { picked: string }).picked);
  expect(picked).toMatch(/^\d/);
  await expect(screen.form.price).toHaveValue(picked);
  // the book keeps the focus, and Tab leaves it in one step
  await expect(focused).toHaveCount(1);
  await page.keyboard.press('Shift+Tab');
  await expect(screen.ladder.grouping).toBeFocused();

  // "Last": the Tab stop after the price field; Enter puts the last price in it
  await screen.form.price.fill('');
  await screen.form.price.focus();
  await page.keyboard.press('Tab');
  const last = screen.form.root.getByRole('button', { name: 'Use the last price' });
  await expect(last).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(screen.form.price).toHaveValue(/^\d+\.\d$/);
});

test('the form, book and picker tab rows are one Tab stop each; arrows move, select and take effect', async ({
  page,
  service,
  trader,
}) => {
  // a narrow window: the order book and the trades share a column under their tabs
  await page.setViewportSize({ width: 1200, height: 800 });
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const focusedIn = (row: Locator): Locator => row.locator(':focus');
  // Tab (from the stop after the row: Shift+Tab) enters a row once, on its selected tab, and
  // leaves it with the next press
  const tabsOnce = async (row: Locator, selected: string, from: Locator, back = false): Promise<void> => {
    const [on, off] = back ? ['Shift+Tab', 'Tab'] : ['Tab', 'Shift+Tab'];
    await expect(row.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
    await from.focus();
    await page.keyboard.press(on);
    await expect(focusedIn(row)).toHaveText(selected);
    await page.keyboard.press(on);
    await expect(focusedIn(row)).toHaveCount(0);
    await page.keyboard.press(off);
    await expect(focusedIn(row)).toHaveText(selected);
  };

  // Open / Close: → selects Close, the send buttons close; Home back to Open
  const action = screen.form.root.getByRole('tablist', { name: 'Open or close' });
  await tabsOnce(action, 'Open', screen.form.root.getByRole('button', { name: 'Cross' }), true);
  await page.keyboard.press('ArrowRight');
  await expect(screen.form.tab('Close')).toBeFocused();
  await expect(screen.form.tab('Close')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.button('Close long')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(screen.form.tab('Open')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.button('Open long')).toBeVisible();

  // order type: → selects Market, the price field gives way to "Market price"; ← back to Limit
  const types = screen.form.root.getByRole('tablist', { name: 'Order type' });
  await tabsOnce(types, 'Limit', screen.form.root.getByTestId('leverage-button'));
  await page.keyboard.press('ArrowRight');
  await expect(screen.form.type('Market')).toBeFocused();
  await expect(screen.form.type('Market')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.price).toHaveValue('Market price');
  await page.keyboard.press('ArrowLeft');
  await expect(screen.form.type('Limit')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.price).toBeEditable();

  // Order book | Trades: → shows the trades (the focus follows to their tabs), End / Home
  const book = page.getByRole('tablist', { name: 'Order book or trades' });
  await tabsOnce(book, 'Order book', screen.ladder.grouping, true);
  await page.keyboard.press('ArrowRight');
  await expect(screen.ladder.root).toBeHidden();
  await expect(page.getByTestId('trades')).toBeVisible();
  await expect(focusedIn(book)).toHaveText('Trades');
  await page.keyboard.press('Home');
  await expect(screen.ladder.root).toBeVisible();
  await expect(focusedIn(book)).toHaveText('Order book');

  // the pair picker's tag filter: → selects New, the list shows only the new pairs
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('/');
  await expect(screen.picker.search).toBeFocused();
  const all = await screen.picker.rows().count();
  const tags = screen.picker.dialog.getByRole('tablist', { name: 'Tag filter' });
  await tabsOnce(tags, 'All', screen.picker.search);
  await page.keyboard.press('ArrowRight');
  await expect(tags.getByRole('tab', { name: 'New' })).toBeFocused();
  await expect(tags.getByRole('tab', { name: 'New' })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => screen.picker.rows().count()).toBeLessThan(all);
  await page.keyboard.press('End');
  await expect(tags.getByRole('tab', { name: 'Innovation' })).toHaveAttribute('aria-selected', 'true');
});

test('a checkbox is no text field: shortcuts work on it, Space toggles it; Cancel names the order', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  const mid = await market.mid(SYMBOL);
  const order = await restingBuy(trader.api, SYMBOL, onTick(mid * 0.9, s.price_step), '0.010');
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await screen.tabs.show('Open orders');
  // the Cancel button says which order: id, pair, direction, size and price
  const row = screen.tabs.openOrders.locator('tbody tr').first();
  await expect(row.getByRole('button', { name: /^Cancel order/ })).toHaveAccessibleName(
    new RegExp(`^Cancel order ${order.order_id}: ${SYMBOL} Open long 0\\.010 at [\\d,]+\\.\\d$`),
  );
  // Space on the "only this pair" checkbox toggles it; P then shows the positions
  const only = page.getByRole('checkbox', { name: `${SYMBOL} only` });
  await only.focus();
  await page.keyboard.press('Space');
  await expect(only).toBeChecked();
  await page.keyboard.press('p');
  await expect(page.getByRole('tab', { name: /^Positions/ })).toHaveAttribute('aria-selected', 'true');
});

test('a row of tabs is one Tab stop: the arrows move along it and select', async ({ page, service, trader }) => {
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  const interval = (iv: string) => page.getByTestId(`interval-${iv}`);
  // the selected interval is the row's Tab stop: Tab leaves the row for the Indicators button at
  // the bar's end, the drawing tools (one stop: ↓ moves along them), the chart itself (its keys:
  // chart-keys.spec.ts), the price scale's log switch in the chart's corner, then the book's grouping
  await interval('1m').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('indicators-button')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('draw-trend')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('draw-hline')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('chart')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('scale-log')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(screen.ladder.grouping).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('scale-log')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('chart')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('draw-trend')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(interval('1m')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(interval('3m')).toBeFocused();
  await expect(interval('3m')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(interval('1M')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(interval('1s')).toBeFocused();
  // the account views: from Positions, Right shows the open orders; Tab goes into them
  const tab = (name: RegExp) => page.getByRole('tab', { name });
  await screen.tabs.show('Positions');
  await tab(/^Positions/).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(/^Open orders/)).toBeFocused();
  await expect(tab(/^Open orders/)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: `${SYMBOL} only` })).toBeFocused();
});
