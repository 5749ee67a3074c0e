// A store commit that fails is said in the top bar, not only under the order form: another
// connection holds the venue's database write lock past its busy timeout (5 s), so the batch of
// an order the trader sends through the API fails (5000) and the venue takes no changes until a
// restart. The screen, left alone, meets it in its account's background refresh (5001: the account
// the failed batch touched cannot be shown) and says "Changes cannot be stored" with the cause and
// what to do, prominently, and keeps saying it. The service is this file's own: it stays broken.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test, expect } from './support/fixtures.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { PerpdeskApiError } from '../src-shared/sdk/rest-client.ts';

test.use({ serviceOptions: { own: 'store-failure' } });

test('a failed commit: the top bar says "Changes cannot be stored" with the cause, from the background refresh', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openTrading(page, service.url, trader, symbol);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await expect(screen.topbar.storeStatus).toHaveCount(0);

  const db = join(service.dataDir, 'perpdesk.db');
  const other = new DatabaseSync(db);
  try {
    // the lock taken between two of the venue's commits (one may be under way: BEGIN waits for it)
    other.exec('PRAGMA busy_timeout = 2000');
    other.exec('BEGIN IMMEDIATE');
    const lost = await restingBuy(trader.api, symbol, price, '0.010').catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PerpdeskApiError);
    expect((lost as PerpdeskApiError).code).toBe(5000);
  } finally {
    if (other.isTransaction) other.exec('ROLLBACK');
    other.close();
  }

  // nothing was tried on the screen: its refresh of the account (every 5 s) meets the 5001
  const banner = screen.topbar.storeStatus;
  await expect(banner).toHaveAttribute('role', 'alert', { timeout: 15_000 });
  await expect(banner).toHaveClass(/conn-alert/);
  await expect(banner).toHaveClass(/\bbad\b/);
  await expect(banner).toContainText('Changes cannot be stored — a write to');
  await expect(banner).toContainText('stayed locked by another connection');
  await expect(banner).toContainText('restart perpdesk');
  await expect(banner).toHaveAttribute(
    'title',
    new RegExp(`Close the program that has ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} open`),
  );

  // an order tried now is refused under the form as before; the banner stays, once
  await screen.form.limit('Open long', price, '0.010');
  await expect(screen.form.error).toContainText('The venue takes no changes until it restarts');
  await expect(banner).toHaveCount(1);
  await page.waitForTimeout(6_000);
  await expect(banner).toContainText('Changes cannot be stored');
});
