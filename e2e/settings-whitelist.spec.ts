// Settings' bot whitelist follows the venue's list while the drawer is open (another tab's Save, a
// bot's PUT /admin/v1/whitelist): until 2026-12-07 it was read once, when Settings opened, so the
// field kept the list of before and its next Save dropped the IP added meanwhile. An edit in
// progress is kept, and the field says the list changed under it.
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

async function putWhitelist(url: string, ips: string[]): Promise<void> {
  const r = await fetch(`${url}/admin/v1/whitelist`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ips }),
  });
  expect(r.status).toBe(200);
}

test.afterEach(async ({ service }) => {
  await putWhitelist(service.url, []);
});

test('the whitelist changed elsewhere is shown, an edit kept with a note', async ({ page, service }) => {
  await putWhitelist(service.url, []);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press(',');
  const field = screen.settings().getByRole('textbox', { name: 'Whitelisted IPs' });
  await expect(field).not.toHaveValue(/10\.0\.0\.5/);
  await putWhitelist(service.url, ['10.0.0.5']);
  await expect(field).toHaveValue(/\n10\.0\.0\.5$/);

  await field.fill('127.0.0.1\n192.168.1.9');
  await putWhitelist(service.url, ['10.0.0.6']);
  await expect(screen.settings().getByTestId('whitelist-changed')).toContainText('10.0.0.6');
  await expect(field).toHaveValue('127.0.0.1\n192.168.1.9');
  await screen.settings().getByRole('button', { name: 'Save whitelist' }).click();
  await expect(screen.settings().getByTestId('whitelist-result')).toContainText('192.168.1.9');
  await expect(screen.settings().getByTestId('whitelist-changed')).toHaveCount(0);
  await expect(field).toHaveValue(/192\.168\.1\.9/);
});
