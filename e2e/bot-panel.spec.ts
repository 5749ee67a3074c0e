import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';
import { watchLadder } from './support/desk.ts';
import type { BotMarket } from './support/bot-market.ts';
import type { Page } from 'playwright/test';

/**
 * The screen on SOLUSDT with the market paused and the bot panel open, and a price 10 % under the
 * mid (a bid that rests): the set-up of the panel's keyboard and answer specs.
 */
async function pausedPanel(page: Page, url: string, market: BotMarket, symbol = 'SOLUSDT') {
  await setPaused(url, true);
  const { price } = await market.priceOffMid(symbol, 0.9);
  const screen = new TradingPage(page);
  await screen.open(url);
  await screen.selectSymbol(symbol);
  const panel = await screen.openBotPanel();
  return { screen, panel, price };
}

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

test('a bot order from the panel appears in the ladder and can be cancelled from the panel', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'SOLUSDT';
  await market.ensureBook(symbol);
  await setPaused(service.url, true);
  test.info().annotations.push({ type: 'note', description: 'simulator paused for this test' });
  const s = await market.symbol(symbol);
  const d = await market.api.depth(symbol, 5);
  const price = onTick(Number(d.asks[0][0]) + 2 * Number(s.price_step), s.price_step);

  const screen = await watchLadder(page, service.url, symbol);
  const existing = screen.ladder.row('ask', price);
  const before = (await existing.count()) > 0 ? Number(await existing.getAttribute('data-qty')) : 0;

  const panel = await screen.openBotPanel();
  await expect(panel.getByTestId('whitelist-status')).toContainText('is on the bot whitelist');
  await expect(panel.getByRole('combobox', { name: 'symbol', exact: true })).toHaveValue(symbol);
  await panel.getByRole('combobox', { name: 'side', exact: true }).selectOption('2');
  await panel.getByRole('combobox', { name: 'position_side' }).selectOption('2');
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('12.34');
  await panel.getByRole('textbox', { name: 'client_order_id' }).fill('e2e-bot-1');
  await expect(panel.getByRole('checkbox', { name: 'need_cache' })).toBeChecked();
  await panel.getByRole('button', { name: 'Send bot order' }).click();

  await expect(panel.getByTestId('bot-request')).toContainText('"client_order_id": "e2e-bot-1"');
  await expect(panel.getByTestId('bot-request')).toContainText('"need_cache": true');
  await expect(panel.getByTestId('bot-response')).toContainText('"code": 0');
  const answer = JSON.parse((await panel.getByTestId('bot-response').textContent())!) as { data: { order_id: string } };
  const orderRow = panel.getByTestId(`bot-order-row-${answer.data.order_id}`);
  await expect(orderRow).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('bot-panel.png') });

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(screen.ladder.row('ask', price)).toHaveAttribute(
    'data-qty',
    String(Number((before + 12.34).toFixed(2)).toFixed(2)),
  );

  await screen.openBotPanel();
  await orderRow.getByRole('button', { name: `Cancel bot order ${answer.data.order_id}` }).click();
  await expect(orderRow).toBeHidden();
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 4');
});

test('a resting bot order sent without need_cache can be cancelled from the answer', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'SOLUSDT';
  await market.ensureBook(symbol);
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const d = await market.api.depth(symbol, 5);
  const price = onTick(Number(d.asks[0][0]) + 3 * Number(s.price_step), s.price_step);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await screen.selectSymbol(symbol);
  const panel = await screen.openBotPanel();
  await panel.getByRole('combobox', { name: 'side', exact: true }).selectOption('2');
  await panel.getByRole('combobox', { name: 'position_side' }).selectOption('2');
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('1.00');
  await panel.getByRole('checkbox', { name: 'need_cache' }).uncheck();
  await panel.getByRole('button', { name: 'Send bot order' }).click();
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 1');
  const answer = JSON.parse((await panel.getByTestId('bot-response').textContent())!) as { data: { order_id: string } };
  // not cached, so not in the table; the answer offers the cancel
  await expect(panel.getByTestId(`bot-order-row-${answer.data.order_id}`)).toHaveCount(0);
  await panel.getByRole('button', { name: `Cancel order ${answer.data.order_id}` }).click();
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 4');
  await expect(panel.getByRole('button', { name: `Cancel order ${answer.data.order_id}` })).toHaveCount(0);
  // the request pane shows the last call until the form is edited, then the new draft
  await expect(panel.getByTestId('bot-request')).toContainText('DELETE /fapi/v1/bot/order');
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('2.00');
  await expect(panel.getByTestId('bot-request')).toContainText('"qty": "2.00"');
  await expect(panel.getByRole('heading', { name: 'Request (as it will be sent)' })).toBeVisible();
});

test('Tab from the send button goes on past the request box to the cached orders, not back to the top', async ({
  page,
  service,
  market,
}) => {
  const symbol = 'SOLUSDT';
  await setPaused(service.url, true);
  const { price } = await market.priceOffMid(symbol, 0.9);
  const placed = await market.restBid(symbol, price, '1.00');
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await screen.selectSymbol(symbol);
  const panel = await screen.openBotPanel();
  await expect(panel.getByTestId(`bot-order-row-${placed.order_id}`)).toBeVisible();
  // every field filled: the request box overflows, and Chromium stops Tab at such a scroll box
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('1.00');
  await panel.getByRole('textbox', { name: 'leverage' }).fill('5');
  await panel.getByRole('combobox', { name: 'margin_mode' }).selectOption('2');
  await panel.getByRole('textbox', { name: 'client_order_id' }).fill('e2e-tab-order');
  await panel.getByRole('checkbox', { name: 'reduce_only' }).check();
  const request = panel.getByTestId('bot-request');
  expect(await request.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);

  await panel.getByRole('button', { name: 'Send bot order' }).focus();
  const cancel = `Cancel bot order ${placed.order_id}`;
  const stops: string[] = [];
  for (let i = 0; i < 6 && stops.at(-1) !== cancel && stops.at(-1) !== 'Close'; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      await panel.evaluate((d) => {
        const a = d.ownerDocument.activeElement;
        return a?.getAttribute('aria-label') ?? a?.getAttribute('data-testid') ?? a?.tagName ?? '';
      }),
    );
  }
  expect(stops).toEqual(['bot-request', cancel]);
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId(`bot-order-row-${placed.order_id}`)).toBeHidden();
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 4');
});

test("from the keyboard, Send and the answer's Cancel order keep the focus in the drawer", async ({
  page,
  service,
  market,
}) => {
  const { panel, price } = await pausedPanel(page, service.url, market);
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('1.00');
  await panel.getByRole('checkbox', { name: 'need_cache' }).uncheck();
  // Enter on Send: disabled while the request runs, it has the focus back with the answer
  const send = panel.getByRole('button', { name: 'Send bot order' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 1');
  await expect(send).toBeFocused();
  const answer = JSON.parse((await panel.getByTestId('bot-response').textContent())!) as { data: { order_id: string } };
  // the answer's Cancel order goes with its use: the focus goes to the Response heading, not to the page
  await panel.getByRole('button', { name: `Cancel order ${answer.data.order_id}` }).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('bot-response')).toContainText('"status": 4');
  await expect(panel.getByRole('heading', { name: /^Response/ })).toBeFocused();
});

test('Edit whitelist opens Settings with the focus on the whitelist, and Esc goes back to the bot panel', async ({
  page,
  service,
}) => {
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const panel = await screen.openBotPanel();
  await panel.getByRole('button', { name: 'Edit whitelist' }).focus();
  await page.keyboard.press('Enter');
  const settings = page.getByTestId('settings-panel');
  await expect(settings).toBeVisible();
  const field = settings.getByRole('textbox', { name: 'Whitelisted IPs' });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(/127\.0\.0\.1/);
  // a step of the bot panel: Esc goes back to it (before, it closed both)
  await page.keyboard.press('Escape');
  await expect(settings).toHaveCount(0);
  await expect(screen.botPanel()).toBeVisible();
  // and Esc there closes it
  await page.keyboard.press('Escape');
  await expect(screen.botPanel()).toHaveCount(0);
});

test('a paused market is said in the drawer, which covers the top bar\'s "Market paused"', async ({
  page,
  service,
}) => {
  await setPaused(service.url, true);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-paused', 'true');
  const panel = await screen.openBotPanel();
  await expect(panel.getByTestId('bot-market-paused')).toContainText('Market paused');
  await page.screenshot({ path: test.info().outputPath('bot-panel-paused.png') });
  await setPaused(service.url, false);
  await expect(panel.getByTestId('bot-market-paused')).toBeHidden();
});

test('a cached list that cannot be read says so, not "No cached bot orders."', async ({ page, service }) => {
  // as a browser on another machine, off the whitelist, is answered
  await page.route('**/fapi/v1/bot/openOrders', (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ code: 2101, message: 'Caller IP 192.0.2.2 is not on the bot whitelist', data: null }),
    }),
  );
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const panel = await screen.openBotPanel();
  await expect(panel.getByText('Caller IP 192.0.2.2 is not on the bot whitelist')).toBeVisible();
  await expect(panel.getByText('No cached bot orders.')).toHaveCount(0);
});

test('opened again on the same pair, the drawer still shows the last request beside its answer', async ({
  page,
  service,
  market,
}) => {
  const opened = await pausedPanel(page, service.url, market);
  const { screen, price } = opened;
  let panel = opened.panel;
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('1.00');
  await panel.getByRole('button', { name: 'Send bot order' }).click();
  await expect(panel.getByTestId('bot-response')).toContainText('"code": 0');
  await expect(panel.getByRole('heading', { name: 'Last request' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  panel = await screen.openBotPanel();
  await expect(panel.getByTestId('bot-response')).toContainText('"code": 0');
  await expect(panel.getByRole('heading', { name: 'Last request' })).toBeVisible();
});

test("a screen reader hears the answer, a refusal's reason included, where the focus stays on Send", async ({
  page,
  service,
  market,
}) => {
  const { panel, price } = await pausedPanel(page, service.url, market);
  await panel.getByRole('textbox', { name: 'price', exact: true }).fill(price);
  // 0.01 SOL is far below the pair's 5 USDT minimum notional: refused with 3007
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('0.01');
  const send = panel.getByRole('button', { name: 'Send bot order' });
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('bot-response')).toContainText('"code": 3007');
  await expect(send).toBeFocused();
  const said = panel.getByRole('status').filter({ hasText: 'Bot order' });
  await expect(said).toHaveText(/^Bot order refused, code 3007: Order notional .* is below the minimum 5 USDT$/);
  // the same refusal again is said again: a new node in the live region, not the same text left in place
  // (what the region holds now, whatever its kind of node, kept to see whether it is replaced)
  const first = await said.evaluateHandle((el) => el.firstChild!);
  await send.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => first.evaluate((n) => n.isConnected)).toBe(false);
  await expect(said).toHaveText(/^Bot order refused, code 3007: /);
  await panel.getByRole('textbox', { name: 'qty', exact: true }).fill('1.00');
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(said).toHaveText(/^Bot order [0-9]+ new, filled 0\.00$/);
});
