// The order form when the keyboard and the connection misbehave: B / S select the size so
// typing replaces the last one (a "1" after a sent "2" sends 1, not 21); an order that cannot
// reach the service says "Not sent" (never "Order refused"); a market connection lost for
// more than a few seconds is a prominent "Disconnected — reconnecting…" in the top bar, the
// order buttons are disabled and the ladder is veiled, and everything comes back (the "Not
// sent" lines cleared, the one of an Enter while the connection was lost too) once the
// connection does. Keys typed while a sent order awaits its answer belong to the next order. The connection is cut from inside the page:
// an init script wraps WebSocket so that the test can close the live sockets and send new
// ones to a refused port, then let them through again (the shared service keeps running).
import { test, expect } from './support/fixtures.ts';
import { openLimitForm, openTrading } from './support/desk.ts';
import { SocketSwitch } from './support/socket-switch.ts';

test('B then typing replaces the last size: after sending 2, B + "1" + Enter sends 1', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const qtys = async (): Promise<number[]> =>
    (await trader.api.openOrders(symbol)).map((o) => Number(o.qty)).sort((a, b) => a - b);

  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await expect(screen.form.notice).toContainText('placed');
  await expect.poll(qtys).toEqual([2]);

  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('1');
  await expect(screen.form.size).toHaveValue('1');
  await page.keyboard.press('Enter');
  await expect.poll(qtys).toEqual([1, 2]);
});

test('a lost connection: "Not sent" (not refused), a loud top bar, disabled buttons, a veiled ladder; all back on reconnect', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol);
  const sockets = new SocketSwitch(page);
  await sockets.install();
  const screen = await openTrading(page, service.url, trader, symbol);
  const buy = screen.form.button('Open long');
  const sell = screen.form.button('Open short');
  await expect(buy).toBeEnabled();
  await expect(screen.topbar.connection).toHaveAttribute('data-state', 'open');

  // the order request never reaches the service
  await page.route('**/fapi/v1/order**', (route) => route.abort('connectionrefused'));
  await screen.form.market('Open long', '0.001');
  await expect(screen.form.error).toContainText('Not sent: the service cannot be reached');
  await expect(screen.form.error).not.toContainText('refused');
  await page.unroute('**/fapi/v1/order**');

  // the market connection goes: quiet at first, loud after a few seconds
  await sockets.cut();
  await expect(screen.topbar.connection).toHaveAttribute('data-state', 'reconnecting');
  await expect(buy).toBeDisabled();
  await expect(sell).toBeDisabled();
  await expect(page.getByTestId('order-disconnected')).toBeVisible();
  await expect(screen.topbar.connection).toContainText('Disconnected — reconnecting…', { timeout: 10_000 });
  await expect(screen.ladder.root).toHaveAttribute('data-stale', 'true');
  await expect(page.getByTestId('ladder-veil')).toHaveText('Reconnecting…');
  // the account figures are dimmed as stale too
  await expect(page.getByTestId('account-compact')).toHaveAttribute('data-stale', 'true');
  // Enter while it is down: nothing goes out, and the form says why
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('0.001');
  await page.keyboard.press('Enter');
  await expect(screen.form.error).toHaveText(
    'Not sent: the market connection is lost; orders are disabled until it is back.',
  );

  // back: live again, buttons on, the "Not sent" line gone (that one too, without an edit)
  await sockets.restore();
  await expect(screen.topbar.connection).toHaveText(/Live/, { timeout: 40_000 });
  await expect(buy).toBeEnabled();
  await expect(screen.form.error).toBeHidden({ timeout: 2000 });
  await expect(screen.form.size).toHaveValue('0.001');
  await expect(screen.ladder.root).toHaveAttribute('data-stale', 'false', { timeout: 15_000 });
  await expect(page.getByTestId('account-compact')).not.toHaveAttribute('data-stale', 'true');
});

test('keys typed while an order awaits its answer go to the next order: Enter disarms and hands the keyboard back at once', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  await expect(screen.chart.interval('1m')).toHaveAttribute('aria-selected', 'true');
  // the answers are held back until released (a slow service): the order reaches the service
  // at once (its signature would expire if held), its answer reaches the page when released
  const answers: Array<() => void> = [];
  const refuse = { next: false };
  await page.route(
    (url) => url.pathname === '/fapi/v1/orders',
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const answer = refuse.next ? null : await route.fetch();
      await new Promise<void>((r) => answers.push(r));
      if (answer !== null) return route.fulfill({ response: answer });
      return route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ code: 3006, message: 'Quantity above the maximum', data: null }),
      });
    },
  );
  const release = async (): Promise<void> => {
    await expect.poll(() => answers.length).toBe(1);
    answers.shift()!();
  };
  const armed = (name: 'Open long' | 'Open short') =>
    expect(screen.form.button(name)).toHaveAttribute('aria-pressed', 'true');

  // B, a size, Enter, and at once S and the next size, before the first answer is in
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('0.050');
  await page.keyboard.press('Enter');
  await page.keyboard.press('s');
  await page.keyboard.type('0.04');
  // S armed the short side with the size selected; nothing landed in the price, no digit was a shortcut
  await expect(screen.form.size).toBeFocused();
  await expect(screen.form.size).toHaveValue('0.04');
  await expect(screen.form.price).toHaveValue(price);
  await armed('Open short');
  await expect(screen.chart.interval('1m')).toHaveAttribute('aria-selected', 'true');

  // the answer: its notice shows, and the next order as typed is left alone
  await release();
  await expect(screen.form.notice).toContainText('placed');
  await expect(screen.form.size).toBeFocused();
  await expect(screen.form.size).toHaveValue('0.04');
  await armed('Open short');
  await expect(screen.form.button('Open long')).not.toHaveAttribute('aria-pressed', 'true');
  expect((await trader.api.openOrders(symbol)).map((o) => [o.side, Number(o.qty)])).toEqual([[1, 0.05]]);

  // the next order is refused: its message shows in the form, and a key typed meanwhile (B)
  // still armed its side
  refuse.next = true;
  await page.keyboard.press('Enter');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await release();
  await expect(screen.form.error).toContainText('Quantity above the maximum');
  await armed('Open long');
  await expect(screen.form.size).toBeFocused();
  expect((await trader.api.openOrders(symbol)).length).toBe(1);
});
