// The top bar in a narrow window (about 1100 px) with both notices on: the store-failure banner
// (a commit that failed, provoked as in store-failure.spec.ts) and the connection's "account not
// updating" (the account refresh meets the same failure). The notices give way (cut with an
// ellipsis, the whole text in their title); every button stays inside the window and clickable.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, expect } from './support/fixtures.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { startHeadless } from './support/service.ts';

test.use({ serviceOptions: { own: 'topbar-narrow' } });

test('at 1100 px with the store banner and "account not updating", Settings and ? stay in the window', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const { price } = await market.priceOffMid(symbol, 0.9);
  await page.setViewportSize({ width: 1100, height: 760 });
  const screen = await openTrading(page, service.url, trader, symbol);
  await expect(screen.form.button('Open long')).toBeEnabled();

  const other = new DatabaseSync(join(service.dataDir, 'perpdesk.db'));
  try {
    // the lock taken between two of the venue's commits (one may be under way: BEGIN waits for it)
    other.exec('PRAGMA busy_timeout = 2000');
    other.exec('BEGIN IMMEDIATE');
    await restingBuy(trader.api, symbol, price, '0.010').catch(() => undefined);
  } finally {
    if (other.isTransaction) other.exec('ROLLBACK');
    other.close();
  }
  await expect(screen.topbar.storeStatus).toContainText('Changes cannot be stored', { timeout: 15_000 });
  await expect(page.getByTestId('account-stale')).toBeVisible({ timeout: 15_000 });

  for (const width of [1100, 1024]) {
    await page.setViewportSize({ width, height: 760 });
    for (const name of ['Settings', 'Keyboard shortcuts']) {
      const button = page.getByRole('button', { name, exact: true });
      await expect(button).toBeInViewport({ ratio: 1 });
      const box = await button.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `${name} at ${width} px`).toBeLessThanOrEqual(width);
    }
    // the whole of each notice is in its title
    await expect(screen.topbar.storeStatus).toHaveAttribute('title', /Changes cannot be stored/);
    await expect(page.getByTestId('account-stale')).toHaveAttribute('title', /could not be refreshed/);
  }
  await page.setViewportSize({ width: 1100, height: 760 });
  // the buttons still work: ? opens the shortcuts
  await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('at 1024 px with the service gone ("Disconnected — reconnecting…" and "account not updating"), ? stays in the window', async ({
  page,
}) => {
  // its own service, stopped under the screen (the worker's serves the other tests)
  const own = await startHeadless();
  try {
    const screen = await openTrading(page, own.url, own.account, 'BTCUSDT', { size: { width: 1024, height: 640 } });
    await expect(screen.form.button('Open long')).toBeEnabled();
    await own.stop(true);
    await expect(page.getByTestId('connection-status')).toContainText('Disconnected', { timeout: 30_000 });
    await expect(page.getByTestId('account-stale')).toBeVisible({ timeout: 30_000 });
    for (const name of ['Settings', 'Keyboard shortcuts']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(1024);
    }
    expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(1024);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('title', /.+/);
  } finally {
    await own.stop();
  }
});
