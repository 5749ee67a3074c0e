// What a keyboard-only trader with a screen reader gets (the Chromium accessibility tree): the
// side armed with B / S is pressed and describes the price and size fields, with a look of its
// own apart from the focus ring.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading, watchLadder } from './support/desk.ts';
import { setPaused } from './support/sim.ts';
import type { DepthSnapshot } from '../src-shared/types.ts';

async function depth(url: string, symbol: string): Promise<DepthSnapshot> {
  const r = (await (await fetch(`${url}/fapi/v1/depth?symbol=${symbol}&with_id=true&limit=50`)).json()) as {
    data: DepthSnapshot;
  };
  return r.data;
}

/** A computed style of the element (in the page; this file is compiled without the DOM's types). */
function styleOf(l: Locator, prop: string): Promise<string> {
  return l.evaluate(
    (el, p) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[p],
    prop,
  );
}

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

test('B / S arm a side a screen reader hears: pressed, and the fields described by it', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const f = screen.form;
  const long = f.root.getByRole('button', { name: 'Open long' });
  const short = f.root.getByRole('button', { name: 'Open short' });
  await expect(long).toBeEnabled();
  await expect(long).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('b');
  await expect(f.size).toBeFocused();
  await expect(long).toHaveAttribute('aria-pressed', 'true');
  await expect(short).toHaveAttribute('aria-pressed', 'false');
  await expect(f.size).toHaveAccessibleDescription('Open long armed: Enter sends it');
  await expect(f.price).toHaveAccessibleDescription('Open long armed: Enter sends it');
  // S in the field switches the side, said by the live region
  await page.keyboard.press('s');
  await expect(short).toHaveAttribute('aria-pressed', 'true');
  await expect(f.size).toHaveAccessibleDescription('Open short armed: Enter sends it');
  await expect(f.root.getByRole('status').filter({ hasText: 'armed' })).toHaveText('Open short armed: Enter sends it');
  // Esc disarms
  await page.keyboard.press('Escape');
  await expect(short).toHaveAttribute('aria-pressed', 'false');
  await expect(f.size).toHaveAccessibleDescription('');
  // a size off the step is said under the field and describes it
  await f.size.fill('0.0001');
  await expect(f.size).toHaveAttribute('aria-invalid', 'true');
  await expect(f.size).toHaveAccessibleDescription(await page.getByTestId('size-check').innerText());
  if (process.env.A11Y_SHOT) {
    await page.keyboard.press('s');
    await short.focus();
    await f.root.screenshot({ path: process.env.A11Y_SHOT });
  }
});

test('the pair picker is a combobox over a list of pairs: ArrowDown makes the next pair the active option', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press('/');
  const box = screen.picker.search;
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const list = screen.picker.dialog.getByRole('listbox', { name: 'Pairs' });
  await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  const options = list.getByRole('option');
  await expect(options.first()).toBeVisible();
  // the cursor starts on the current pair, the active descendant; ArrowDown moves it to the next row
  await expect(box).toHaveAttribute('aria-activedescendant', 'symbol-option-BTCUSDT');
  const ids = await options.evaluateAll((els) => els.map((e) => e.id));
  const at = ids.indexOf('symbol-option-BTCUSDT');
  await box.press('ArrowDown');
  const next = ids[at + 1];
  await expect(box).toHaveAttribute('aria-activedescendant', next);
  const option = page.locator(`#${next}`);
  await expect(option).toHaveAttribute('aria-selected', 'true');
  // its name is the pair and its tags apart, never run together ("ETHUSDThot")
  const sym = next.replace('symbol-option-', '');
  await expect(option).toHaveAccessibleName(new RegExp(`^${sym}(, [A-Za-z]+)*$`));
  for (const name of await options.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')))
    expect(name).toMatch(/^[A-Z0-9]+(, [A-Za-z]+)*$/);
  await box.press('Enter');
  await expect(screen.topbar.symbolButton).toContainText(sym);
});

test('the active pair stays in sight: the arrows scroll the list of a short window to it', async ({
  page,
  service,
  trader,
}) => {
  await page.setViewportSize({ width: 1280, height: 360 });
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press('/');
  const box = screen.picker.search;
  await expect(box).toBeFocused();
  const options = screen.picker.dialog.getByRole('listbox', { name: 'Pairs' }).getByRole('option');
  await expect(options.first()).toBeVisible();
  const n = await options.count();
  // the list is taller than its box here, so the last pair starts out of sight
  const last = options.nth(n - 1);
  await expect(last).not.toBeInViewport();
  for (let i = 0; i < n; i++) await box.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await last.getAttribute('id'))!);
  await expect(last).toBeInViewport();
});

test("the ladder's focus stays on the price reached: a level gone from the book stays drawn, said gone, and Enter takes that price", async ({
  page,
  service,
  market,
}) => {
  const symbol = 'ETHUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const tick = Number(s.price_step);
  const ticks = (p: string): number => Math.round(Number(p) / tick);
  // a spread of more than a tick, and in it a best bid of our own
  const d0 = await depth(service.url, symbol);
  await market.take(
    symbol,
    2,
    Math.round(d0.bids.slice(0, 2).reduce((a, [, q]) => a + Number(q), 0) / Number(s.qty_step)),
  );
  const d1 = await depth(service.url, symbol);
  expect(ticks(d1.asks[0][0]) - ticks(d1.bids[0][0])).toBeGreaterThan(1);
  const price = ((ticks(d1.bids[0][0]) + 1) * tick).toFixed(s.price_precision);
  await market.restBid(symbol, price, '0.777');
  await expect.poll(async () => ticks((await ladder.levels('bid'))[0]?.[0] ?? 'NaN')).toBe(ticks(price));
  // Tab lands on it, the best bid
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-price', (await ladder.levels('bid'))[0][0]);
  const held = (await focused.getAttribute('data-price'))!;
  // a sell takes it: the level leaves the book, the focus does not move
  await market.take(symbol, 2, Math.round(0.777 / Number(s.qty_step)));
  await expect
    .poll(async () => (await depth(service.url, symbol)).bids.some(([p]) => ticks(p) === ticks(held)))
    .toBe(false);
  await page.waitForTimeout(500);
  await expect(focused).toHaveAttribute('data-price', held);
  await expect(ladder.root.locator('.ladder-row.gone')).toHaveCount(1);
  await expect(focused).toHaveAccessibleName(/gone from the book/);
  await expect(page.getByTestId('ladder-gone')).toContainText('is gone from the book');
  await page.waitForTimeout(1000);
  await expect(focused).toHaveAttribute('data-price', held);
  // Enter: the price reached, not the one now in its place
  await page.keyboard.press('Enter');
  await expect(screen.form.price).toHaveValue(held);
  // moved off, the gone level is no longer drawn
  await page.keyboard.press('ArrowDown');
  await expect(focused).not.toHaveAttribute('data-price', held);
  await expect(ladder.root.locator('.ladder-row.gone')).toHaveCount(0);
});

test('a toast the keyboard focus is in stays, as one the pointer is over; it goes once the focus leaves', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { live: true });
  await expect(screen.form.button('Open long')).toBeEnabled();
  await screen.form.market('Open long', '0.002');
  const toast = page.getByTestId('toast-fill');
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Dismiss' }).focus();
  // a fill's toast lasts 5 s
  await page.waitForTimeout(6500);
  await expect(toast).toBeVisible();
  await screen.form.size.focus();
  await expect(toast).toHaveCount(0, { timeout: 7000 });
});

test('reduced motion: no toast slides in, no order-button transition, no level lights on a trade', async ({
  page,
  service,
  trader,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { live: true });
  const long = screen.form.button('Open long');
  await expect(long).toBeEnabled();
  expect(await styleOf(long, 'transitionDuration')).toBe('0s');
  await screen.form.market('Open long', '0.002');
  const toast = page.getByTestId('toast-fill');
  await expect(toast).toBeVisible();
  expect(await styleOf(toast, 'animationName')).toBe('none');
  // a level lit by a trade (its flash overlay's class, set by hand here) is not shown
  const lit = (): Promise<string> =>
    page.evaluate(`(() => {
      const el = document.querySelector('[data-testid="ladder"] .ladder-flash');
      el.classList.add('lit');
      const v = getComputedStyle(el).visibility;
      el.classList.remove('lit');
      return v;
    })()`);
  expect(await lit()).toBe('hidden');
  // (and with motion, as before)
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await lit()).toBe('visible');
  expect(await styleOf(long, 'transitionDuration')).not.toBe('0s');
});

test('Esc in a drawer field edited since it took the focus leaves the field, the text kept; a second Esc closes', async ({
  page,
  service,
  trader,
}) => {
  await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press(',');
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await expect(drawer).toBeVisible();
  const ips = drawer.getByRole('textbox', { name: 'Whitelisted IPs' });
  await ips.focus();
  // the whitelist as the venue has it (loaded as the drawer opens; the loopback addresses at least)
  await expect(ips).toHaveValue(/127\.0\.0\.1/);
  const was = await ips.inputValue();
  await ips.press('End');
  await page.keyboard.type('\n10.0.0.7');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeVisible();
  await expect(drawer).toBeFocused();
  await expect(ips).toHaveValue(`${was}\n10.0.0.7`);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  // a field left as it was: Esc closes at once
  await page.keyboard.press(',');
  await drawer.getByRole('textbox', { name: 'Whitelisted IPs' }).focus();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
});

test('controls say what they are: leverage, the size unit, the account panel, TP/SL clear; P and Shift+O focus their tab', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { live: true });
  const f = screen.form;
  await expect(f.root.getByRole('button', { name: /^Leverage \d+x$/ })).toBeVisible();
  await expect(f.root.getByRole('button', { name: 'Size unit: BTC', exact: true })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: /^Positions/ })).toBeVisible();
  // P and Shift+O: the tab selected has the focus (as A puts it on the alert's price)
  await page.locator('body').press('Shift+O');
  await expect(page.getByRole('tab', { name: /^Open orders/ })).toBeFocused();
  await expect(page.getByRole('tabpanel', { name: /^Open orders/ })).toBeVisible();
  await page.locator('body').press('p');
  await expect(page.getByRole('tab', { name: /^Positions/ })).toBeFocused();
  // a position's TP/SL dialog: each clear button names its trigger
  await expect(f.button('Open long')).toBeEnabled();
  await f.market('Open long', '0.002');
  await page
    .getByRole('button', { name: /^TP\/SL/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Clear take profit' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Clear stop loss' })).toBeVisible();
});

test('recent trades are a table whose prices say buy or sell, not by colour alone', async ({
  page,
  service,
  market,
}) => {
  await market.ensureBook('BTCUSDT', 10);
  await watchLadder(page, service.url, 'BTCUSDT');
  const table = page.getByRole('table', { name: 'Recent trades' });
  await expect(table.getByRole('columnheader', { name: 'Price' })).toBeVisible();
  const first = table.getByRole('row').nth(1);
  await expect(first.getByRole('cell').first()).toHaveText(/^(Buy|Sell) \d/);
  const row = page.getByTestId('trade-row').first();
  const side = (await row.getAttribute('class'))!.includes('buy') ? 'Buy' : 'Sell';
  await expect(row.getByRole('cell').first()).toHaveText(new RegExp(`^${side} `));
});

test('the Alerts tab says a refusal in its live region, never the last price that moves with each trade', async ({
  page,
  service,
  trader,
}) => {
  await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press('a');
  const price = page.getByTestId('alert-price');
  await expect(price).toBeFocused();
  const panel = page.getByRole('tabpanel', { name: 'Alerts' });
  const hint = page.getByTestId('alert-hint');
  // the hint beside the field follows the last price and describes the field ...
  await expect(hint).toHaveText(/^Last price [\d,.]+$/);
  await expect(price).toHaveAccessibleDescription(/^Last price [\d,.]+$/);
  // ... but is no live region: the tab's one live region is silent (a screen reader heard
  // "Last price 96,001.1" about four times a second here)
  const said = panel.getByRole('status');
  await expect(said).toHaveCount(1);
  await expect(said).toHaveText('');
  await price.fill('96000');
  await expect(hint).toHaveText(/to go$/);
  await expect(said).toHaveText('');
  // a refusal is said
  await price.fill('9x');
  await page.keyboard.press('Enter');
  await expect(said).toHaveText('"9x" is not a price above 0.');
  await expect(hint).toHaveText('"9x" is not a price above 0.');
  await expect(price).toHaveAccessibleDescription('"9x" is not a price above 0.');
});

test('every area of the screen is a named landmark: the order book and the trades too, each with its heading', async ({
  page,
  service,
  trader,
}) => {
  await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(page.getByRole('main', { name: 'Chart' })).toBeVisible();
  // the book and the trades sat between the chart's main and the form's complementary, in no landmark
  const book = page.getByRole('region', { name: 'Order book' });
  await expect(book.getByRole('heading', { name: 'Order book', level: 2 })).toBeVisible();
  await expect(book.getByRole('button', { name: /^Bid [\d,.]+, / }).first()).toBeVisible();
  const trades = page.getByRole('region', { name: 'Trades' });
  await expect(trades.getByRole('heading', { name: 'Trades', level: 2 })).toBeVisible();
  await expect(trades.getByRole('table', { name: 'Recent trades' })).toBeVisible();
  const form = page.getByRole('complementary', { name: 'Order entry and account' });
  await expect(form.getByRole('button', { name: 'Open long' })).toBeVisible();
  const views = page.getByRole('region', { name: 'Positions, orders and history' });
  await expect(views.getByRole('tab', { name: /^Positions/ })).toBeVisible();
});

test("help's table of shortcuts heads each row with its key, so an action is read with its key", async ({
  page,
  service,
  trader,
}) => {
  await openTrading(page, service.url, trader, 'BTCUSDT');
  await page.keyboard.press('?');
  const table = page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('table');
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  // every key and mouse row has its row header (the cells had none: a screen reader moving down the
  // actions heard "Search pairs" without "/")
  await expect(rows.first()).toBeVisible();
  const n = await rows.count();
  expect(n).toBeGreaterThan(20);
  await expect(table.getByRole('rowheader')).toHaveCount(n);
  await expect(table.getByRole('row', { name: /Search pairs/ }).getByRole('rowheader')).toHaveText('/');
});
