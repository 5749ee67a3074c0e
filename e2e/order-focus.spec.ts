// Where the keyboard is after an order is sent, and how its answer is heard: Enter in the size
// keeps the focus in the size (selected, so the next size is typed over it), Space on a side's
// button keeps it on the button (disabled while the order is on its way, focused again with the
// answer); the answer comes into a status region that was on the page, empty, before the order
// went (a region added together with its text is not reliably announced).
import { test, expect } from './support/fixtures.ts';
import { openLimitForm, openTrading } from './support/desk.ts';
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
  const live = f.notice.getByRole('status');
  await expect(live).toHaveCount(1);
  await expect(f.notice).toBeEmpty();
  const region = await live.elementHandle();

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

test('a close that leaves nothing to close: the focus goes from its disabled button to the size, never to the page', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const open = (qty: string) =>
    trader.api.placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty });
  await open('0.010');
  const screen = await openTrading(page, service.url, trader, symbol);
  const x = new FormExtras(page, screen);
  const f = screen.form;
  const activeLabel = (): Promise<string> =>
    page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            activeElement: {
              tagName: string;
              getAttribute(n: string): string | null;
              textContent: string | null;
            } | null;
          };
        }
      ).document;
      const el = doc.activeElement;
      return el === null ? 'none' : `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent ?? ''}`;
    });

  await f.tab('Close').click();
  await f.type('Market').click();
  const closeLong = f.button('Close long');
  await expect(closeLong).toBeEnabled();
  await f.size.fill('0.01');
  // Enter on the button: the long closes, the button is disabled ("No position to close") and the focus is in the size
  await closeLong.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await trader.api.positions()).filter((p) => p.symbol === symbol).length).toBe(0);
  await expect(closeLong).toBeDisabled();
  await expect(f.root.getByTestId('nothing-to-close').first()).toContainText(/No (long|position) to close/);
  await expect.poll(activeLabel).toBe('INPUT Size');
  await expect(f.size).toBeFocused();
  expect(await x.bodyFocused()).toBe(false);

  // a click does the same
  await open('0.010');
  await expect(closeLong).toBeEnabled();
  await f.size.fill('0.01');
  await closeLong.click();
  await expect(closeLong).toBeDisabled();
  await expect.poll(activeLabel).toBe('INPUT Size');
  expect(await x.bodyFocused()).toBe(false);
});

test('S on a side with nothing to close says why and arms nothing: Enter then says how, not the refusal again', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  // hedge mode, a short only: in Close, the sell side (Close long) has nothing to close
  await trader.api.placeOrder({ symbol, side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.010' });
  const screen = await openTrading(page, service.url, trader, symbol);
  const x = new FormExtras(page, screen);
  const f = screen.form;
  const armed = page.locator('#oe-armed');
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('c');
  await page.keyboard.press('m');
  await expect(f.button('Close short')).toBeEnabled();
  await expect(f.button('Close long')).toBeDisabled();
  await page.keyboard.press('s');
  // the size takes the keyboard, as B / S always do, but nothing is armed, and the form says why
  await expect(f.size).toBeFocused();
  await expect(f.error).toContainText('No long to close.');
  await expect(armed).toBeEmpty();
  await expect(f.button('Close long')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type('0.001');
  await page.keyboard.press('Enter');
  await expect(x.hint).toContainText('Press B');
  await expect(armed).toBeEmpty();
  // B arms the side that has a position to close
  await page.keyboard.press('b');
  await expect(armed).toHaveText('Close short armed: Enter sends it');
  await expect(f.button('Close short')).toHaveAttribute('aria-pressed', 'true');
});

test('a limit order sent with no price: the focus goes to the price, the side stays armed, and the price typed there with Enter sends it', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.98);
  const screen = await openLimitForm(page, service.url, trader, symbol, '');
  const f = screen.form;
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await page.keyboard.type('0.050');
  await page.keyboard.press('Enter');
  await expect(f.error).toHaveText('Enter a limit price (or click a price in the order book).');
  // the field to fix has the keyboard (it stayed in the size, where Enter only said it again)
  await expect(f.price).toBeFocused();
  await page.keyboard.type(price);
  await page.keyboard.press('Enter');
  await expect(f.notice).toContainText('placed');
  await expect
    .poll(async () => (await trader.api.openOrders(symbol)).map((o) => [o.side, o.price, o.qty]))
    .toEqual([[1, price, '0.050']]);
});
