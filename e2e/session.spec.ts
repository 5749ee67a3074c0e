import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { TradingPage } from './pages/trading-page.ts';
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { startHeadless } from './support/service.ts';

// a service of this file's own, started with its first test: the one-time login link works for 15
// minutes after its start, and the worker's service, shared by the files run before, can be older
// than that by the time this file runs (a loaded CI run: 'this login link expired')
test.use({ serviceOptions: { own: 'session' } });

test('without credentials the screen shows market data and says how to log in', async ({ page, service, market }) => {
  await market.ensureBook('BTCUSDT');
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await expect(screen.ladder.bids.first()).toBeVisible();
  await expect(page.getByTestId('login-hint').first()).toContainText('#token=');
  await expect(screen.form.button('Open long')).toBeDisabled();
});

test('the one-time login link logs the browser in, and settings show the API key', async ({ page, service }) => {
  const screen = new TradingPage(page);
  await page.goto(service.loginUrl);
  await expect(page.getByTestId('account-compact')).toBeVisible();
  // The token is used once and leaves the address bar.
  await expect.poll(() => new URL(page.url()).hash).toBe('');
  const settings = await screen.openSettings();
  await expect(settings.getByTestId('api-key')).toHaveText(/^\S{8,}$/);
  await expect(settings.getByTestId('api-secret')).not.toContainText(/[0-9a-f]{16}/);
  await settings.getByRole('button', { name: 'Show API secret' }).click();
  await expect(settings.getByTestId('api-secret')).toHaveText(/^\S{8,}$/);
  await expect(settings.getByTestId('api-address')).toHaveText(service.url);

  // Another tab of the same browser, opened at the plain address, is logged in too.
  const tab = await page.context().newPage();
  await tab.goto(`${service.url}/`);
  await expect(tab.getByTestId('account-compact')).toBeVisible();
  await tab.close();

  // A second use of the same link, from a browser that never logged in, is refused and says so.
  const fresh = await page.context().browser()!.newContext();
  const other = await fresh.newPage();
  await other.goto(service.loginUrl);
  const hint = other.getByTestId('login-hint').first();
  await expect(hint).toContainText('did not work');
  // where a new link comes from, and the address this service really has
  await expect(hint).toContainText('restarting the service (Ctrl-C, then start it again) prints a new one');
  await expect(hint).toContainText(`${service.url}/#token=`);
  await fresh.close();
});

test('the login link pasted into an open view-only tab logs it in, without a reload', async ({ page }) => {
  test.setTimeout(150_000);
  // a service of its own: the worker's one-time link is another test's
  const own = await startHeadless();
  try {
    await page.goto(`${own.url}/`);
    await expect(page.getByTestId('login-hint').first()).toContainText('#token=');
    // the address bar takes the link: only the hash changes, the page stays (a marker survives)
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    await page.evaluate(
      (url) => ((globalThis as unknown as { location: { href: string } }).location.href = url),
      own.loginUrl,
    );
    await expect(page.getByTestId('account-compact')).toBeVisible();
    await expect(page.getByTestId('login-hint')).toHaveCount(0);
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await expect(page.getByTestId('wallet-balance')).toHaveText(/^\d[\d,]*\.\d\d$/);
    // the same link again, now used: the tab stays logged in and says the link did not work (a
    // logged-in tab shows no login hint, where the reason went before)
    await page.evaluate(
      (url) => ((globalThis as unknown as { location: { href: string } }).location.href = url),
      own.loginUrl,
    );
    await expect(page.getByTestId('toast-error').filter({ hasText: 'The login link did not work' })).toContainText(
      /already used\. Still logged in with API key \S+/,
    );
    await expect(page.getByTestId('account-compact')).toBeVisible();
  } finally {
    await own.stop();
  }
});

test('a view-only tab open beside another is logged in when that one logs in, and out when it logs out (docs/desktop.md)', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // a service of its own: the worker's one-time link is another test's
  const own = await startHeadless();
  try {
    await page.goto(`${own.url}/`);
    await expect(page.getByTestId('login-hint').first()).toContainText('#token=');
    // another tab of the same browser opens the login link
    const tab = await page.context().newPage();
    await tab.goto(own.loginUrl);
    await expect(tab.getByTestId('account-compact')).toBeVisible();
    // the first tab, view only so far, takes the login without a reload
    await expect(page.getByTestId('account-compact')).toBeVisible();
    await expect(page.getByTestId('login-hint')).toHaveCount(0);
    await expect(page.getByTestId('wallet-balance')).toHaveText(/^\d[\d,]*\.\d\d$/);
    // the other tab logs out: the stored login is gone, and this tab is logged out with it, saying why
    const settings = await new TradingPage(tab).openSettings();
    await settings.getByRole('button', { name: 'Log out' }).click();
    await expect(tab.getByTestId('account-compact')).toHaveCount(0);
    await expect(page.getByTestId('account-compact')).toHaveCount(0);
    await expect(page.getByTestId('login-hint').first()).toContainText('Logged out in another tab of this browser.');
    await tab.close();
  } finally {
    await own.stop();
  }
});

test('settings show the API key of the paper account', async ({ page, service }) => {
  const screen = await openTrading(page, service.url, service.account);
  await expect(page.getByTestId('wallet-balance')).toHaveText('100,000.00');
  const settings = await screen.openSettings();
  await expect(settings.getByTestId('api-key')).toHaveText(service.account.apiKey);
  await settings.getByRole('button', { name: 'Show API secret' }).click();
  await expect(settings.getByTestId('api-secret')).toHaveText(service.account.apiSecret);
  await page.screenshot({ path: test.info().outputPath('settings.png') });
});

test('keyboard: ? shows the shortcuts, B and S pick a side, Esc closes', async ({ page, service }) => {
  const screen = await openTrading(page, service.url, service.account);
  await expect(screen.topbar.symbolButton).toContainText('USDT');
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Search pairs');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.locator('body').press('b');
  await expect(screen.form.size).toBeFocused();
  await expect(screen.form.button('Open long')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await page.locator('body').press('s');
  await expect(screen.form.button('Open short')).toHaveAttribute('aria-pressed', 'true');
});

test('a regenerated key: this window carries on with the new one, another tab takes it, a key regenerated elsewhere logs out and says why', async ({
  page,
  service,
  trader,
}) => {
  test.setTimeout(120_000);
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(page.getByTestId('account-compact')).toBeVisible();
  const other = await page.context().newPage();
  const otherScreen = new TradingPage(other);
  await other.goto(`${service.url}/`);
  await expect(other.getByTestId('account-compact')).toBeVisible();

  // 1. regenerated from this window's Settings: both tabs go on with the new key
  await page.bringToFront();
  const settings = await screen.openSettings();
  await settings.getByRole('button', { name: 'Regenerate key and secret…' }).click();
  await settings.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(settings.getByTestId('api-key')).not.toHaveText(trader.apiKey);
  const fresh = (await page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.credentials') ?? 'null'))) as {
    apiKey: string;
    apiSecret: string;
  };
  expect(fresh.apiKey).not.toBe(trader.apiKey);
  await expect(settings.getByTestId('api-key')).toHaveText(fresh.apiKey);
  // the other tab takes the new key of the same account: no "Logged in as another account" there
  // (a second for its storage event: a notice would stay 5 s)
  await other.waitForTimeout(1000);
  // (read once: a retrying `not` would pass once a notice had left)
  expect(await other.getByTestId('toasts').innerText()).not.toContain('Logged in as another account');
  // past the grace and a refresh round: neither tab logged out
  await page.waitForTimeout(5500);
  for (const p of [page, other]) {
    await expect(p.getByTestId('login-hint')).toHaveCount(0);
    await expect(p.getByTestId('account-compact')).toBeVisible();
  }
  await other.bringToFront();
  const otherSettings = await otherScreen.openSettings();
  await expect(otherSettings.getByTestId('api-key')).toHaveText(fresh.apiKey);

  // 2. regenerated elsewhere (a bot with the key): both tabs log out, saying so
  await new RestClient({ baseUrl: service.url, apiKey: fresh.apiKey, apiSecret: fresh.apiSecret }).regenerateApiKey();
  for (const p of [page, other])
    await expect(p.getByTestId('login-hint').first()).toContainText('regenerated elsewhere', { timeout: 10_000 });
  await other.close();
});
