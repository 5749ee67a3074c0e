// The Replay dialog on a service with no stored market data: it says so, offers the Data
// dialog, and its Start button stays disabled (nothing can be replayed yet). A service of its
// own (its own data folder), so no other spec's import is seen.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

test.use({ serviceOptions: { own: 'replay-empty' } });

test('replay dialog with no data: Start disabled, the way to the Data dialog offered', async ({ page, service }) => {
  await openTrading(page, service.url, service.account);
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay' });
  await expect(dialog.getByTestId('replay-no-data')).toContainText('No replayable data yet');
  await expect(dialog.getByRole('button', { name: 'Start replay' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Open Data' }).click();
  await expect(page.getByRole('dialog', { name: 'Market data' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});
