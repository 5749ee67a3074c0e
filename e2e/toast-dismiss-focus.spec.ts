// A toast dismissed from the keyboard (Tab to its ✕, Enter) took the focus with it to the page: a
// screen reader was left on nothing, and the toast's place in the Tab order gone. The focus now goes
// to the ✕ of the toast in its place, else to the chart the toasts sit over.
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading } from './support/desk.ts';

const SYMBOL = 'ETHUSDT';

test('Enter on a toast’s ✕ hands the focus to the next toast’s ✕, then to the chart', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  const screen = await openTrading(page, service.url, trader, SYMBOL, { live: true });
  await marketOrder(trader.api, SYMBOL, 1, '0.010');
  const first = screen.toast('fill').filter({ hasText: `Bought 0.010 ${SYMBOL}` });
  // the pointer over a toast holds it, and so does the keyboard's focus on its ✕ (each goes in 5 s)
  await first.hover();
  await marketOrder(trader.api, SYMBOL, 1, '0.020');
  const second = screen.toast('fill').filter({ hasText: `Bought 0.020 ${SYMBOL}` });
  await expect(second).toBeVisible();
  await first.getByRole('button', { name: 'Dismiss' }).focus();
  await second.hover();
  await page.keyboard.press('Enter');
  await expect(first).toHaveCount(0);
  await expect(second.getByRole('button', { name: 'Dismiss' })).toBeFocused();
  // the last one: the focus to the chart the toasts are over
  await page.keyboard.press('Enter');
  await expect(second).toHaveCount(0);
  await expect(page.getByRole('application', { name: `${SYMBOL} 1m candlestick chart` })).toBeFocused();
});
