// Desktop notifications (toasts/toast-notices.ts): while the window is in the background a fill of
// the account's order is also a notification, in its toast's words, a later fill of the same order
// replacing it (one tag); Settings turns fills off, and then a fill is a toast alone. The price
// alert's notification is e2e/alerts.spec.ts. A margin call at 80 % is a toast and a notification
// too, once, and again after the ratio came back under 70 %.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { NOTES, recordNotifications } from './support/notifications.ts';
import { setPaused } from './support/sim.ts';
import { RestClient } from '../src-shared/sdk/rest-client.ts';

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
  // the order may fill in more than one push (two levels of the book): each later fill replaces the
  // notification (one tag), so the last one made reads the whole order, as the toast does
  await expect.poll(async () => (await page.evaluate(NOTES)).at(-1)?.[0]).toMatch(/^Bought 0\.010 /);
  const notes = await page.evaluate(NOTES);
  const [title, body, tag] = notes.at(-1)!;
  expect(title).toMatch(new RegExp(`^Bought 0\\.010 ${SYMBOL} @ [\\d,.]+$`));
  expect(body).toMatch(/^Open long · taker · fee [\d.]+ USDT$/);
  expect(tag).toMatch(/^perpdesk-fill:\d+$/);
  expect(new Set(notes.map((n) => n[2]))).toEqual(new Set([tag]));
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
  expect(await page.evaluate(NOTES)).toHaveLength(notes.length);

  // the choice is kept for the next visit
  await page.reload();
  await screen.openSettings();
  await expect(
    page.getByTestId('notices-settings').getByRole('checkbox', { name: 'Fills of my orders' }),
  ).not.toBeChecked();
});

test('a margin ratio of 80% is a margin call: a toast and, while away, a notification; again only after it came back under 70%', async ({
  page,
  service,
  trader,
  market,
}) => {
  await market.ensureBook(SYMBOL, 15);
  // the market still: the mark, and so the ratio, move only with the wallet set below
  await setPaused(service.url, true);
  await recordNotifications(page);
  await trader.api.placeOrder({
    symbol: SYMBOL,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.100',
    leverage: 20,
  });
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.tabs.position(SYMBOL, 1)).toBeVisible();
  const admin = new RestClient({ baseUrl: service.url });
  // the wallet (a paper withdrawal) at which the cross margin ratio is `ratio`: maintenance / (wallet + PnL)
  const walletFor = async (ratio: number): Promise<string> => {
    const [p] = (await trader.api.positions()).filter((x) => x.symbol === SYMBOL);
    const wallet = Number((await trader.api.account()).wallet_balance);
    const maintenance = p.margin_ratio * (wallet + p.unrealized_pnl);
    return (maintenance / ratio - p.unrealized_pnl).toFixed(2);
  };
  const setWallet = (balance: string) =>
    admin.call('POST', '/admin/v1/accounts', { body: { api_key: trader.apiKey, balance } });

  await setWallet(await walletFor(0.85));
  expect((await trader.api.positions()).filter((x) => x.symbol === SYMBOL)[0].margin_ratio).toBeCloseTo(0.85, 2);
  const call = screen.toast('margin');
  await expect(call).toHaveCount(1);
  await expect(call).toContainText(/^Margin call: cross margin ratio 8[45]\.\d\d%/);
  await expect(call).toContainText(`Liquidation at 100%: ${SYMBOL} long near`);
  await expect(call).toHaveAttribute('role', 'alert');
  await page.screenshot({ path: test.info().outputPath('margin-call.png') });
  await expect
    .poll(async () => (await page.evaluate(NOTES)).map(([t]) => t.startsWith('Margin call:')))
    .toEqual([true]);
  await call.getByRole('button', { name: 'Dismiss' }).click();

  // up to 90 %: no second call; back to 60 %, then 85 % again: a second one
  await setWallet(await walletFor(0.9));
  await setWallet(await walletFor(0.6));
  await expect
    .poll(async () => (await trader.api.positions()).filter((x) => x.symbol === SYMBOL)[0].margin_ratio)
    .toBeLessThan(0.7);
  await expect(screen.tabs.position(SYMBOL, 1)).toContainText(/6\d\.\d\d%/);
  await expect(screen.toast('margin')).toHaveCount(0);
  await setWallet(await walletFor(0.85));
  await expect(screen.toast('margin')).toHaveCount(1);
  await expect
    .poll(async () => (await page.evaluate(NOTES)).filter(([t]) => t.startsWith('Margin call:')).length)
    .toBe(2);
});

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});
