import { test, expect } from './support/fixtures.ts';
import { Errors } from '../src-shared/errors.ts';
import { TradingPage } from './pages/trading-page.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { PerpdeskApiError } from '../src-shared/sdk/rest-client.ts';

test('a limit order appears in open orders, on the chart, and can be cancelled', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { s, price } = await market.priceOffMid(symbol, 0.98);
  const screen = await openTrading(page, service.url, trader, symbol);
  await expect(screen.topbar.symbolButton).toContainText(symbol);

  await screen.form.limit('Open long', price, '0.050');
  await expect(screen.form.notice).toContainText('placed');
  await screen.tabs.show('Open orders');
  const row = screen.tabs.openOrders.locator('tbody tr').filter({ hasText: symbol });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Open long');
  await expect(row).toContainText(Number(price).toLocaleString('en-US', { minimumFractionDigits: s.price_precision }));
  const [order] = await trader.api.openOrders(symbol);
  expect(order.price).toBe(price);
  await expect.poll(() => screen.chart.lines()).toContain(`order:${order.id}`);

  await row.getByRole('button', { name: `Cancel order ${order.id}` }).click();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => (await trader.api.openOrders(symbol)).length).toBe(0);
  await expect.poll(() => screen.chart.lines()).not.toContain(`order:${order.id}`);
  await screen.tabs.show('Order history');
  await expect(page.getByTestId(`order-history-row-${order.id}`)).toContainText('Canceled');

  // With the tab open, an order placed elsewhere (a bot on the same account) and its cancel
  // show up without switching tabs.
  const other = await restingBuy(trader.api, symbol, price, '0.050');
  const otherRow = page.getByTestId(`order-history-row-${other.order_id}`);
  await expect(otherRow).toBeVisible();
  await expect(otherRow).not.toContainText('Canceled');
  await trader.api.cancelAllOrders(symbol);
  await expect(otherRow).toContainText('Canceled');

  // A filter that hides everything says so and offers to clear itself.
  await page.getByRole('combobox', { name: 'Symbol filter' }).selectOption('DOGEUSDT');
  await expect(page.getByTestId('history-empty')).toContainText('No orders match these filters');
  await page.getByTestId('history-empty').getByRole('button', { name: 'Clear filters' }).click();
  await expect(otherRow).toBeVisible();
  await expect(page.getByTestId('history-empty')).toHaveCount(0);
});

/** Opens a long of 0.010 BTC at market from the form and returns its positions row. */
async function openLong(screen: TradingPage, symbol: string) {
  await screen.form.market('Open long', '0.010');
  await expect(screen.form.notice).toContainText('filled');
  const row = screen.tabs.position(symbol, 1);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('position-size')).toHaveText('0.010');
  return row;
}

test('a market order opens a position whose PnL moves with the mark price', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  const row = await openLong(screen, symbol);
  await expect(screen.toast('fill').first()).toContainText(`Bought 0.010 ${symbol}`);
  await page.screenshot({ path: test.info().outputPath('main-screen-position.png') });

  // Unrealized PnL is marked to the mark price, which the simulator moves.
  const pnl = row.getByTestId('position-pnl');
  const first = await pnl.getAttribute('data-pnl');
  await expect.poll(() => pnl.getAttribute('data-pnl'), { timeout: 30_000 }).not.toBe(first);

  // The account panel shows the same unrealized PnL as the position row at every moment, at
  // the same live mark (not the server's summary of a few seconds ago). Both texts are read in
  // one evaluation, so no render falls between them; sampled until the PnL took 3 values.
  const texts = (): Promise<[string, string]> =>
    page.evaluate(() => {
      const doc = (
        globalThis as unknown as { document: { querySelector(sel: string): { textContent: string | null } | null } }
      ).document;
      const text = (sel: string): string => doc.querySelector(sel)?.textContent ?? '';
      return [
        text('[data-testid="account-compact"] [data-testid="unrealized-pnl"]'),
        text('[data-testid="position-pnl"]').split(' ')[0],
      ];
    });
  const seen = new Set<string>();
  const mismatches: string[] = [];
  await expect
    .poll(
      async () => {
        const [account, row] = await texts();
        if (account !== row || account === '') mismatches.push(`account ${account} vs position ${row}`);
        seen.add(row);
        return seen.size;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(3);
  expect(mismatches).toEqual([]);
});

test('at 1280x720 the Close buttons of a position stay in view', async ({ page, service, trader, market }) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1280, height: 720 } });
  const row = await openLong(screen, symbol);
  await expect(row.getByRole('button', { name: `Close ${symbol} long` })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Close all' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: test.info().outputPath('positions-1280.png') });
});

test('TP/SL can be set on a position, and closing it records a user close', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  const s = await market.symbol(symbol);
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  const row = await openLong(screen, symbol);

  // TP/SL: set both, see them in the row and as chart lines.
  const [pos] = (await trader.api.positions()).filter((p) => p.symbol === symbol);
  const tp = onTick(pos.mark_price * 1.2, s.price_step);
  const sl = onTick(pos.mark_price * 0.8, s.price_step);
  await row.getByRole('button', { name: `TP/SL ${symbol} long` }).click();
  const dialog = page.getByRole('dialog', { name: 'Take profit / stop loss' });
  await dialog.getByRole('textbox', { name: 'Take profit price' }).fill(tp);
  await dialog.getByRole('textbox', { name: 'Stop loss price' }).fill(sl);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const fmtPx = (x: string): string => Number(x).toLocaleString('en-US', { minimumFractionDigits: s.price_precision });
  await expect(row).toContainText(`${fmtPx(tp)} / ${fmtPx(sl)}`);
  // the toast says back what is in force
  await expect(screen.toast('success')).toContainText(
    `TP ${fmtPx(tp)} on the mark price · SL ${fmtPx(sl)} on the mark price`,
  );
  await expect
    .poll(() => screen.chart.lines())
    .toEqual(expect.arrayContaining([`tp:${symbol}:1`, `sl:${symbol}:1`, `entry:${symbol}:1`]));

  // A take-profit on the wrong side of the mark is refused with the API's message.
  await row.getByRole('button', { name: `TP/SL ${symbol} long` }).click();
  await dialog.getByRole('textbox', { name: 'Take profit price' }).fill(onTick(pos.mark_price * 0.5, s.price_step));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText("'take_profit_price': must be above the mark price");
  // correcting the field takes the stale refusal away
  await dialog.getByRole('textbox', { name: 'Take profit price' }).fill(tp);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Close at market: the position goes, and the history shows a user close (close type 1).
  await row.getByRole('button', { name: `Close ${symbol} long` }).click();
  await expect(row).toBeHidden();
  await screen.tabs.show('Position history');
  const closed = screen.tabs.positionHistory.locator('tbody tr').first();
  await expect(closed).toHaveAttribute('data-close-type', '1');
  await expect(closed.getByTestId('close-type')).toHaveText('User close');
  await expect(closed).toContainText(symbol);
  const history = await trader.api.positionHistory({ symbol, closeType: 1 });
  expect(history.list.length).toBe(1);
});

test('a rejected order shows the API message', async ({ page, service, trader, market }) => {
  const symbol = 'BTCUSDT';
  const { s, price } = await market.priceOffMid(symbol, 0.99);
  // The same order, straight to the API, says what the screen must show.
  const expected = await restingBuy(trader.api, symbol, price, s.min_qty).then(
    () => null,
    (e: unknown) => (e instanceof PerpdeskApiError ? e : null),
  );
  expect(expected, 'the API refuses a minimum-quantity BTC order below the minimum notional').not.toBeNull();
  expect(expected!.code).toBe(Errors.NOTIONAL_BELOW_MIN.code);

  const screen = await openTrading(page, service.url, trader, symbol);
  await screen.form.limit('Open long', price, s.min_qty);
  await expect(screen.form.error).toContainText(expected!.message);
  await expect(screen.form.error).toContainText(`(${expected!.code})`);
  await page.screenshot({ path: test.info().outputPath('rejected-order.png') });

  // Esc clears the form and its message.
  await page.locator('body').press('Escape');
  await expect(screen.form.error).toBeHidden();
  await expect(screen.form.size).toHaveValue('');
});
