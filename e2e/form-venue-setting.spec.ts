// The order form's leverage and margin mode follow the venue's setting of the pair, however it was
// changed (here a bot's POST /fapi/v1/leverage and /fapi/v1/marginType with the same account), and
// an order from the form never puts its own copy back: it sends no leverage or margin mode at all.
// The form stayed on what it had loaded (1x, Cross) and its next order sent them, reverting the pair.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openLimitForm } from './support/desk.ts';
import { MarginMode } from '../src-shared/enums.ts';

/** The bodies of the orders the page sends. */
function orderBodies(page: Page): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/fapi/v1/orders')
      bodies.push(JSON.parse(r.postData() ?? '{}') as Record<string, unknown>);
  });
  return bodies;
}

test("the form follows a leverage set by another client, and its order leaves the pair's leverage alone", async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const bodies = orderBodies(page);
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const f = screen.form;
  const lever = f.root.getByTestId('leverage-button');
  // 1x set in the form
  await lever.click();
  await f.root.getByRole('textbox', { name: 'Leverage value' }).fill('1');
  await f.root.getByRole('button', { name: 'Confirm 1x' }).click();
  await expect(lever).toHaveText('1x');
  expect((await trader.api.leverage(symbol)).leverage).toBe(1);

  // a bot sets 20x: the form shows it
  await trader.api.setLeverage(symbol, 20);
  await expect(lever).toHaveText('20x');
  await expect(lever).toHaveAccessibleName('Leverage 20x');

  // an order from the form rests at 20x and the pair stays at 20x
  await f.size.fill('0.010');
  await f.button('Open long').click();
  await expect(f.notice).toContainText('placed');
  const [order] = await trader.api.openOrders(symbol);
  expect(order.leverage).toBe(20);
  expect((await trader.api.leverage(symbol)).leverage).toBe(20);
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).not.toHaveProperty('leverage');
  expect(bodies[0]).not.toHaveProperty('margin_mode');
  await expect(lever).toHaveText('20x');
});

test('the form follows a margin mode set by another client, and its order leaves the pair isolated', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'XRPUSDT';
  const bodies = orderBodies(page);
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const f = screen.form;
  const cross = f.root.getByRole('button', { name: 'Cross' });
  const isolated = f.root.getByRole('button', { name: 'Isolated' });
  await expect(cross).toHaveAttribute('aria-pressed', 'true');

  // a bot makes the pair isolated: the form shows it
  await trader.api.setMarginMode(symbol, MarginMode.ISOLATED);
  await expect(isolated).toHaveAttribute('aria-pressed', 'true');
  await expect(cross).toHaveAttribute('aria-pressed', 'false');

  // an order from the form is isolated and the pair stays isolated
  await f.size.fill('100');
  await f.button('Open long').click();
  await expect(f.notice).toContainText('placed');
  const [order] = await trader.api.openOrders(symbol);
  expect(order.margin_mode).toBe(MarginMode.ISOLATED);
  expect((await trader.api.leverage(symbol)).margin_mode).toBe(MarginMode.ISOLATED);
  expect(bodies).toHaveLength(1);
  expect(bodies[0]).not.toHaveProperty('margin_mode');
  expect(bodies[0]).not.toHaveProperty('leverage');
  await expect(isolated).toHaveAttribute('aria-pressed', 'true');
});

test('a refused margin mode change says the venue\'s code, as a refused leverage does: "(3014) Margin mode of …"', async ({
  page,
  service,
  trader,
  market,
}) => {
  // it read "Margin mode of XRPUSDT cannot change while …", without the code
  const symbol = 'XRPUSDT';
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const f = screen.form;
  // a resting order on the pair holds its margin mode
  await f.size.fill('100');
  await f.button('Open long').click();
  await expect(f.notice).toContainText('placed');
  await f.root.getByRole('button', { name: 'Isolated' }).click();
  await expect(f.root.getByTestId('setting-error')).toHaveText(
    `(3014) Margin mode of ${symbol} cannot change while the account has 1 open order on it`,
  );
  await expect(f.root.getByRole('button', { name: 'Cross' })).toHaveAttribute('aria-pressed', 'true');
});
