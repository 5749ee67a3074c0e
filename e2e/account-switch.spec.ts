// A tab whose login changes to another account (another tab of the browser logs in as it) while a
// Cancel all… bar is open on the open orders: the bar goes, it asked about the account before's
// orders. Before, it stayed, counting the new account's, and confirming cancelled them. The tab
// says it now trades as another account (before, only its figures changed).
import { test, expect } from './support/fixtures.ts';
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { startHeadless } from './support/service.ts';

test('a Cancel all… bar asked on one account goes when another account logs in', async ({ page }) => {
  test.setTimeout(150_000);
  const own = await startHeadless();
  try {
    await page.goto(own.loginUrl);
    await expect(page.getByTestId('account-compact')).toBeVisible();
    const local = JSON.parse((await page.evaluate(() => localStorage.getItem('perpdesk.credentials')))!) as {
      apiKey: string;
      apiSecret: string;
    };
    // a resting order on each account, far under the market
    const order = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      time_in_force: 1,
      price: '50000',
      qty: '0.01',
    } as const;
    await new RestClient({ baseUrl: own.url, ...local }).placeOrder(order);
    const paper = new RestClient({ baseUrl: own.url, ...own.account });
    await paper.placeOrder(order);
    await paper.placeOrder(order);

    await page.getByRole('tab', { name: /^Open orders/ }).click();
    await expect(page.getByRole('tab', { name: 'Open orders (1)' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel all…' }).click();
    await expect(page.getByText('Cancel 1 open order?')).toBeVisible();

    // another tab of this browser logs in as the paper account (what its login stores)
    const tab = await page.context().newPage();
    await tab.goto(`${own.url}/`);
    await tab.evaluate(
      ({ key, secret, base }) =>
        localStorage.setItem('perpdesk.credentials', JSON.stringify({ apiKey: key, apiSecret: secret, baseUrl: base })),
      { key: own.account.apiKey, secret: own.account.apiSecret, base: own.url },
    );
    await expect(page.getByRole('tab', { name: 'Open orders (2)' })).toBeVisible();
    // and it says so: the figures alone changing under the trader said nothing
    await expect(page.getByTestId('toast-info').filter({ hasText: 'Logged in as another account' })).toContainText(
      `Another tab of this browser logged in with API key ${own.account.apiKey.slice(0, 8)}`,
    );
    await expect(page.getByText(/^Cancel \d open orders?\?$/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel all…' })).toHaveAttribute('aria-expanded', 'false');
    expect(await paper.openOrders()).toHaveLength(2);
    await tab.close();
  } finally {
    await own.stop();
  }
});
