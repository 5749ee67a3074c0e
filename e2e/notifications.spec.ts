// Desktop notifications (toasts/toast-notices.ts): while the window is in the background a fill of
// the account's order is also a notification, in its toast's words, a later fill of the same order
// replacing it (one tag); Settings turns fills off, and then a fill is a toast alone. The price
// alert's notification is e2e/alerts.spec.ts.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { NOTES, recordNotifications } from './support/notifications.ts';

const SYMBOL = 'BTCUSDT';

test('a fill while the window is away is a desktop notification, until Settings turns fills off', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  await recordNotifications(page);
  const screen = await openTrading(page, service.url, trader, SYMBOL, { live: true });
  await screen.form.market('Open long', '0.010');
  const fill = screen.toast('fill').first();
  await expect(fill).toContainText(`Bought 0.010 ${SYMBOL}`);
  await expect.poll(() => page.evaluate(NOTES)).toHaveLength(1);
  const [[title, body, tag]] = await page.evaluate(NOTES);
  expect(title).toMatch(new RegExp(`^Bought 0\\.010 ${SYMBOL} @ [\\d,.]+$`));
  expect(body).toMatch(/^Open long · taker · fee [\d.]+ USDT$/);
  expect(tag).toMatch(/^perpdesk-fill:\d+$/);
  await expect(fill).toContainText(title);

  // Settings: the permission as the browser has it, and fills turned off
  await screen.openSettings();
  const section = page.getByTestId('notices-settings');
  await expect(section.getByTestId('notices-permission')).toHaveText('Allowed.');
  const fills = section.getByRole('checkbox', { name: 'Fills of my orders' });
  await expect(fills).toBeChecked();
  await expect(section.getByRole('checkbox', { name: 'Liquidations' })).toBeChecked();
  await fills.uncheck();
  await page.keyboard.press('Escape');
  await screen.form.market('Open long', '0.020');
  await expect(screen.toast('fill').filter({ hasText: `Bought 0.020 ${SYMBOL}` })).toBeVisible();
  expect(await page.evaluate(NOTES)).toHaveLength(1);

  // the choice is kept for the next visit
  await page.reload();
  await screen.openSettings();
  await expect(
    page.getByTestId('notices-settings').getByRole('checkbox', { name: 'Fills of my orders' }),
  ).not.toBeChecked();
});
