// The focus never falls to the page after an action done from the keyboard (docs/trading-screen.md):
// Cancel all… and Close all… confirmed leave it on their table's tab; in Settings a confirmation
// (Regenerate…, Reset account…) takes it on its Cancel, Esc there backs out of the confirmation
// (not out of the drawer) to the button that asked, and its action leaves it on that button;
// Hedge / One-way, Save whitelist and Reset keep it on the button used while their request runs
// and after; Log out leaves it in the drawer, on the API key section. A Settings result is said
// in the section of the control used (in view, a live region there before it), and not shown
// again at the next opening.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';

const SYMBOL = 'BTCUSDT';

/** What has the focus: the tag, and the name it is known by ('BODY' when it fell to the page). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document
      .activeElement as { tagName: string; getAttribute(n: string): string | null; textContent: string } | null;
    if (!el) return 'none';
    return el.tagName === 'BODY' ? 'BODY' : `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent}`;
  });
}

test('Cancel all… and Close all… confirmed from the keyboard leave the focus on the tab', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  const mid = await market.mid(SYMBOL);
  for (const f of [0.9, 0.91]) await restingBuy(trader.api, SYMBOL, onTick(mid * f, s.price_step), '0.010');
  await marketOrder(trader.api, SYMBOL, 1, '0.010');
  await marketOrder(trader.api, SYMBOL, 2, '0.010');
  const screen = await openTrading(page, service.url, trader, SYMBOL);

  await page.locator('body').press('Shift+O');
  const ordersTab = page.getByRole('tab', { name: /^Open orders/ });
  await expect(ordersTab).toBeFocused();
  await expect(screen.tabs.openOrders.locator('tbody tr')).toHaveCount(2);
  await screen.tabs.openOrders.getByRole('button', { name: 'Cancel all…' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Keep orders' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Cancel 2 orders' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ordersTab).toBeFocused();
  await expect(screen.tabs.openOrders.locator('tbody tr')).toHaveCount(0);
  await expect(ordersTab).toBeFocused();

  await page.keyboard.press('p');
  const positionsTab = page.getByRole('tab', { name: /^Positions/ });
  await expect(positionsTab).toBeFocused();
  await expect(screen.tabs.position(SYMBOL, 1)).toBeVisible();
  await page.getByRole('button', { name: 'Close all…' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Keep them' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(positionsTab).toBeFocused();
  await expect(screen.tabs.position(SYMBOL, 1)).toHaveCount(0);
  await expect(screen.tabs.position(SYMBOL, 2)).toHaveCount(0);
  await expect(positionsTab).toBeFocused();
  expect(await trader.api.positions()).toEqual([]);
});

test('Settings: confirmations take the focus, Esc backs out of them, requests and Log out keep it in the drawer', async ({
  page,
  service,
  trader,
}) => {
  test.setTimeout(120_000);
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await page.locator('body').press(',');
  const settings = screen.settings();
  await expect(settings).toContainText('Logged in on this browser');
  const button = (name: string) => settings.getByRole('button', { name, exact: true });

  // Reset account…: the confirmation takes the focus; Esc backs out of it alone
  const resetAsk = button('Reset account…');
  await expect(resetAsk).toBeEnabled();
  await resetAsk.focus();
  await page.keyboard.press('Enter');
  const resetConfirm = settings.getByTestId('reset-confirm');
  await expect(resetConfirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(resetConfirm).toBeHidden();
  await expect(settings).toBeVisible();
  await expect(resetAsk).toBeFocused();
  // Reset: the focus stays on Reset account…, through the request and after
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(resetConfirm.getByRole('button', { name: 'Reset' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await focused(page)).toBe('BUTTON Reset account…');
  await expect(settings).toContainText('Paper account reset');
  await expect(resetAsk).toBeFocused();

  // Hedge / One-way: the focus on the button used, through the request and after
  const mode = settings.getByRole('group', { name: 'Position mode' });
  for (const [name, now] of [
    ['One-way', 'one-way'],
    ['Hedge', 'hedge'],
  ] as const) {
    await mode.getByRole('button', { name }).focus();
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe(`BUTTON ${name}`);
    await expect(settings.getByTestId('position-mode-message')).toContainText(`Position mode is now ${now}`);
    await expect(mode.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'true');
    await expect(mode.getByRole('button', { name })).toBeFocused();
  }

  // Save whitelist
  const ips = settings.getByRole('textbox', { name: 'Whitelisted IPs' });
  await expect(ips).toHaveValue(/127\.0\.0\.1/);
  await ips.fill('127.0.0.1\n10.1.2.3');
  await ips.press('Tab');
  await expect(button('Save whitelist')).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await focused(page)).toBe('BUTTON Save whitelist');
  await expect(settings).toContainText('Whitelist saved');
  await expect(button('Save whitelist')).toBeFocused();

  // Regenerate key and secret…: the same as Reset account…
  const regenAsk = button('Regenerate key and secret…');
  await regenAsk.focus();
  await page.keyboard.press('Enter');
  const regenConfirm = settings.getByTestId('regenerate-confirm');
  await expect(regenConfirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(regenConfirm).toBeHidden();
  await expect(settings).toBeVisible();
  await expect(regenAsk).toBeFocused();
  const oldKey = await settings.getByTestId('api-key').textContent();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(regenConfirm.getByRole('button', { name: 'Regenerate' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(settings.getByTestId('api-key')).not.toHaveText(oldKey!);
  await expect(regenAsk).toBeFocused();

  // Log out: the API key section (now "Not logged in") has the focus, the drawer stays open
  await button('Log out').focus();
  await page.keyboard.press('Enter');
  await expect(settings).toContainText('Not logged in');
  await expect(settings.getByRole('region', { name: 'API key' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
});

test('a Settings result is in the section of the control used, in view, announced, and gone at the next opening', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await page.locator('body').press(',');
  const settings = screen.settings();
  await expect(settings).toContainText('Logged in on this browser');

  // Reset to 20,000: the line under Reset account…, in its section, a live region before it came
  const paper = settings.getByRole('region', { name: 'Paper account' });
  const resetResult = paper.getByRole('status');
  await expect(resetResult).toHaveText('');
  await paper.getByRole('textbox', { name: 'Reset balance' }).fill('20000');
  await paper.getByRole('button', { name: 'Reset account…' }).click();
  await paper.getByTestId('reset-confirm').getByRole('button', { name: 'Reset' }).click();
  await expect(resetResult).toHaveText('Paper account reset: wallet 20,000.00 USDT');
  await expect(resetResult).toBeInViewport();
  await expect(settings.getByText('Paper account reset')).toHaveCount(1);

  // Save whitelist: in the whitelist's section, the reset's line gone
  const whitelist = settings.getByRole('region', { name: 'Bot whitelist' });
  await expect(whitelist.getByRole('textbox', { name: 'Whitelisted IPs' })).toHaveValue(/127\.0\.0\.1/);
  await whitelist.getByRole('button', { name: 'Save whitelist' }).click();
  await expect(whitelist.getByRole('status')).toHaveText(/^Whitelist saved: 127\.0\.0\.1/);
  await expect(whitelist.getByRole('status')).toBeInViewport();
  await expect(resetResult).toHaveText('');

  // the next opening starts without it
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await page.locator('body').press(',');
  await expect(settings).toContainText('Logged in on this browser');
  await expect(whitelist.getByRole('status')).toHaveText('');
  await expect(settings).not.toContainText('Whitelist saved');
});
