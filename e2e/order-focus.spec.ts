// Where the keyboard is after an order is sent, and how its answer is heard: Enter in the size
// keeps the focus in the size (selected, so the next size is typed over it), Space on a side's
// button keeps it on the button (disabled while the order is on its way, focused again with the
// answer); the answer comes into a status region that was on the page, empty, before the order
// went (a region added together with its text is not reliably announced).
import { test, expect } from './support/fixtures.ts';
import { openLimitForm } from './support/desk.ts';
import { FormExtras } from './pages/form-extras.ts';

test('Enter in the size keeps the focus there, and the button pressed keeps it; the answer is said by a status region', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.98);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const x = new FormExtras(page, screen);
  const f = screen.form;

  // the status region is there, empty and out of sight, before anything is sent
  await expect(f.notice).toHaveCount(1);
  await expect(f.notice).toHaveRole('status');
  await expect(f.notice).toBeEmpty();
  const region = await f.notice.elementHandle();

  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await expect(f.size).toBeFocused();
  await page.keyboard.type('0.050');
  await page.keyboard.press('Enter');
  await expect(f.notice).toContainText('placed');
  // the very region that was there before (not one added with the text)
  expect(await region!.evaluate((el) => el.isConnected && (el.textContent ?? '').includes('placed'))).toBe(true);
  await expect.poll(async () => (await trader.api.openOrders(symbol)).length).toBe(1);
  // the keyboard stayed in the size, its text selected: the next size is typed over it
  expect(await x.bodyFocused()).toBe(false);
  await expect(f.size).toBeFocused();
  await page.keyboard.type('0.060');
  await expect(f.size).toHaveValue('0.060');
  // the side was disarmed as it was sent: a second Enter sends nothing, it says how
  await page.keyboard.press('Enter');
  await expect(x.hint).toContainText('Press B');
  await expect(x.hint).toHaveRole('status');
  expect((await trader.api.openOrders(symbol)).length).toBe(1);

  // Tab to the side's button and Space: the focus is back on it with the answer
  const long = f.button('Open long');
  await long.focus();
  await page.keyboard.press(' ');
  await expect.poll(async () => (await trader.api.openOrders(symbol)).length).toBe(2);
  await expect(f.notice).toContainText('0.060');
  await expect(long).toBeFocused();
});
