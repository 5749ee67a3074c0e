// Help, the drawers and the pair picker are modal dialogs (use-modal.ts): the focus moves into
// one when it opens, Tab and Shift+Tab never leave it (the screen behind is inert, so Enter cannot
// close a position the trader cannot see), and Esc closes it with the focus back on its opener.
// `?` in a drawer or a dialog shows help over it; closing help goes back to it, its edits kept.
import type { Locator, Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { marketOrder, openTrading } from './support/desk.ts';

// (the e2e code is compiled without the DOM library: what the page code uses is typed here)
interface El {
  closest(selector: string): El | null;
  getAttribute(name: string): string | null;
  outerHTML: string;
}
interface Doc {
  activeElement: El | null;
  addEventListener(type: string, listener: (e: { target: El | null; relatedTarget: El | null }) => void): void;
}
type PageGlobals = { document: Doc; escapes: string[] };

/** The accessible name of the dialog the focus is in ('' for none). */
function focusedDialog(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    return document.activeElement?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? '';
  });
}

/** From now on the page notes every focus move that lands outside a dialog, or out of the page. */
async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    g.escapes = [];
    const note = (el: El | null): void => {
      if (!el?.closest('[role="dialog"]')) g.escapes.push(el ? el.outerHTML.slice(0, 80) : '(out of the page)');
    };
    g.document.addEventListener('focusin', (e) => note(e.target));
    g.document.addEventListener('focusout', (e) => e.relatedTarget === null && note(null));
  });
}

/** The focus moves noted since watchFocus (emptied). */
function escapes(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).escapes.splice(0));
}

/** Opens an overlay with `opener`, tabs around it both ways, then closes it with Esc. */
async function tabAround(page: Page, opener: Locator, dialog: Locator, name: string): Promise<void> {
  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(await focusedDialog(page)).toBe(name);
  // the screen behind is out of reach: inert, and not one Tab stop of it
  expect(await opener.evaluate((el) => el.closest('[inert]') !== null)).toBe(true);
  await escapes(page);
  // Shift+Tab from the dialog wraps to its last stop, Tab then crosses that end forward
  for (const key of ['Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab'])
    await page.keyboard.press(key);
  expect(await escapes(page)).toEqual([]);
  expect(await focusedDialog(page)).toBe(name);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await opener.evaluate((el) => el.closest('[inert]') === null)).toBe(true);
}

test('help, the drawers and the pair picker keep the focus; Enter behind help closes nothing', async ({
  page,
  service,
  trader,
  market,
}) => {
  test.setTimeout(180_000); // some 60 key presses, up to a second each on a loaded machine
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await trader.api.placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.002' });
  const screen = await openTrading(page, service.url, trader, symbol);
  const row = screen.tabs.position(symbol, 1);
  await expect(row.getByRole('button', { name: `Close ${symbol} long` })).toBeVisible();

  // the tester's path (? then Tabs and Enter); the focus is in help from the start
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  expect(await focusedDialog(page)).toBe('Keyboard shortcuts');
  await watchFocus(page);
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
  expect(await escapes(page)).toEqual([]);
  expect(await focusedDialog(page)).toBe('Keyboard shortcuts');
  await page.keyboard.press('Enter'); // on help's Close: help closes, nothing else happens
  await expect(help).toBeHidden();
  await expect(row).toBeVisible();
  expect((await trader.api.positions()).length).toBe(1);

  const button = (name: string): Locator => page.getByRole('button', { name, exact: true });
  await tabAround(page, button('Keyboard shortcuts'), help, 'Keyboard shortcuts');
  await tabAround(page, button('Settings'), screen.settings(), 'Settings');
  await tabAround(page, button('Replay'), page.getByRole('dialog', { name: 'Replay' }), 'Replay');
  await tabAround(page, screen.topbar.symbolButton, screen.picker.dialog, 'Markets');
  await page.screenshot({ path: test.info().outputPath('after-overlays.png') });

  // the picker opened with "/" starts in its search, and a click outside it closes it
  const chart = (await screen.chart.box.boundingBox())!;
  await page.locator('body').press('/');
  await expect(screen.picker.search).toBeFocused();
  // (the chart is inert: the click lands on the screen around it, outside the picker)
  await page.mouse.click(chart.x + chart.width / 2, chart.y + chart.height / 2);
  await expect(screen.picker.dialog).toBeHidden();

  // all of it left the position alone
  await expect(row).toBeVisible();
  expect((await trader.api.positions()).length).toBe(1);
});

test('at 1024x640 help fits the window: title and Close in view, the list scrolls between them', async ({
  page,
  service,
}) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toBeInViewport({ ratio: 1 });
  await expect(help.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeInViewport({ ratio: 1 });
  await expect(help.getByRole('button', { name: 'Close' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath('help-1024x640.png') });
  // the list is the first Tab stop; End scrolls it to its last shortcut, the title stays
  const list = help.getByRole('region', { name: 'Shortcuts list' });
  const last = list.locator('tr').last();
  await expect(last).not.toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Tab');
  await expect(list).toBeFocused();
  await page.keyboard.press('End');
  // (scrolled to its end; the row's edge may sit a fraction of a pixel under the list's)
  await expect.poll(() => list.evaluate((l) => l.scrollTop + l.clientHeight >= l.scrollHeight - 1)).toBe(true);
  await expect(last).toBeInViewport({ ratio: 0.95 });
  // after the keys, what the mouse does: the chart's line drag among it
  await expect(list.getByRole('columnheader', { name: 'Mouse' })).toBeVisible();
  await expect(list.getByRole('row', { name: /^Drag a line on the chart/ })).toContainText('moves the order');
  await expect(help.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Tab');
  await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(help).toBeHidden();
});

test('? in a drawer or a dialog shows help over it; closing help goes back to it, the edit and the focus kept', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await marketOrder(trader.api, symbol, 1, '0.002');
  const screen = await openTrading(page, service.url, trader, symbol);
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });

  // Settings, an unsaved whitelist edit, the focus on Save whitelist: ? then Esc, ? then ?
  await page.locator('body').press(',');
  const settings = screen.settings();
  const ips = settings.getByRole('textbox', { name: 'Whitelisted IPs' });
  await expect(ips).toHaveValue(/127\.0\.0\.1/);
  await ips.fill('10.1.2.3');
  const save = settings.getByRole('button', { name: 'Save whitelist' });
  await save.focus();
  for (const out of ['Escape', '?']) {
    await page.keyboard.press('?');
    await expect(help).toBeVisible();
    expect(await focusedDialog(page)).toBe('Keyboard shortcuts');
    await expect(settings).toBeAttached();
    await page.keyboard.press(out);
    await expect(help).toBeHidden();
    await expect(settings).toBeVisible();
    await expect(save).toBeFocused();
    await expect(ips).toHaveValue('10.1.2.3');
  }
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // the TP/SL dialog, a take profit typed, the focus on Cancel: the same
  await screen.tabs.show('Positions');
  await screen.tabs
    .position(symbol, 1)
    .getByRole('button', { name: `TP/SL ${symbol} long` })
    .click();
  const tpsl = page.getByRole('dialog', { name: 'Take profit / stop loss' });
  const tp = tpsl.getByRole('textbox', { name: 'Take profit price' });
  await expect(tp).toBeFocused();
  await tp.fill('999999');
  const cancel = tpsl.getByRole('button', { name: 'Cancel', exact: true });
  await cancel.focus();
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  expect(await focusedDialog(page)).toBe('Keyboard shortcuts');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(cancel).toBeFocused();
  await expect(tp).toHaveValue('999999');
  await page.keyboard.press('Escape');
  await expect(tpsl).toBeHidden();
});
