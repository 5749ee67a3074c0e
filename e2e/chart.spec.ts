import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { openTrading, restingBuy } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { BotMarket } from './support/bot-market.ts';
import { startHeadless, type RunningService } from './support/service.ts';

test('the chart shows candles, switches intervals by click and by key, and shows the OHLC legend', async ({
  page,
  service,
  market,
}) => {
  await market.ensureBook('BTCUSDT');
  await market.take('BTCUSDT', 1, 1);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect(chart.box).toHaveAttribute('data-interval', '1m');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  await expect(chart.legend).toContainText(/O [\d,.]+/);
  await expect(chart.legend).toContainText(/C [\d,.]+/);
  await page.screenshot({ path: test.info().outputPath('main-screen-chart.png') });

  // The REST answer for the same interval has as many candles as the chart shows (up to 500).
  const rest = (await (
    await fetch(`${service.url}/fapi/v1/klines?symbol=BTCUSDT&interval=5m&limit=500`)
  ).json()) as unknown[];
  await chart.interval('5m').click();
  await expect(chart.box).toHaveAttribute('data-interval', '5m');
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThanOrEqual(rest.length);

  // Keys 1-9 pick intervals: 4 is 1h.
  await page.locator('body').press('4');
  await expect(chart.interval('1h')).toHaveAttribute('aria-selected', 'true');
  await expect(chart.box).toHaveAttribute('data-interval', '1h');
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);

  // Every interval of the spec is offered.
  for (const iv of [
    '1s',
    '1m',
    '3m',
    '5m',
    '15m',
    '30m',
    '1h',
    '2h',
    '4h',
    '6h',
    '8h',
    '12h',
    '1d',
    '3d',
    '1w',
    '1M',
  ]) {
    await expect(chart.interval(iv)).toBeVisible();
  }
});

test('older candles load when the chart is scrolled to the left', async ({ page }) => {
  test.setTimeout(120_000); // two services start and a thousand candles are made before the page opens
  // History longer than one page: a service of its own runs its market clock 500x until a
  // thousand one-second candles exist, then restarts on the same data at normal speed.
  const fast = await startHeadless({ args: ['--speed', '500'] });
  let slow: RunningService | null = null;
  try {
    const market = new BotMarket(fast.url);
    await market.ensureBook('BTCUSDT');
    await market.take('BTCUSDT', 1, 1); // candles start at the first trade
    const count = async (url: string): Promise<number> =>
      ((await (await fetch(`${url}/fapi/v1/klines?symbol=BTCUSDT&interval=1s&limit=1500`)).json()) as unknown[]).length;
    await expect.poll(() => count(fast.url), { timeout: 20_000 }).toBeGreaterThanOrEqual(1200);
    await fast.stop(true);
    slow = await startHeadless({ dataDir: fast.dataDir });
    expect(await count(slow.url)).toBeGreaterThanOrEqual(1200);

    const screen = new TradingPage(page);
    await screen.open(slow.url);
    const chart = screen.chart;
    await chart.interval('1s').click();
    await expect(chart.box).toHaveAttribute('data-interval', '1s');
    await expect(chart.box).toHaveAttribute('data-status', 'ready');
    const oldest = await chart.oldest();
    expect(oldest).toBeGreaterThan(0);
    // Scroll the chart into the past (a horizontal wheel: a trackpad's sideways swipe) until
    // older candles are needed. Not by dragging: on a busy machine (load 6 to 8) a drag's moves
    // panned the view a fraction of their length or not at all, and the poll ran out of time,
    // while wheel steps add up however late the page handles them.
    const box = (await chart.box.boundingBox())!;
    const y = box.y + box.height / 2;
    await expect
      .poll(
        async () => {
          await page.mouse.move(box.x + box.width / 2, y);
          await page.mouse.wheel(-1500, 0);
          return chart.oldest();
        },
        { timeout: 60_000, intervals: [50] },
      )
      .toBeLessThan(oldest);
    // The page before the oldest one: up to 500 more one-second candles (at least 100 exist).
    expect(oldest - (await chart.oldest())).toBeGreaterThanOrEqual(100_000);
  } finally {
    await slow?.stop(true);
    await fast.stop(); // deletes the shared data folder
  }
});

test('several orders at one price make one chart line that counts them', async ({ page, service, trader, market }) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.97);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await restingBuy(trader.api, symbol, price, '0.050')).order_id);
  const screen = await openTrading(page, service.url, trader, symbol);
  await expect.poll(() => screen.chart.lines()).toContain(`orders:1:${price}`);
  const lines = await screen.chart.lines();
  for (const id of ids) expect(lines).not.toContain(`order:${id}`);
  await trader.api.cancelAllOrders(symbol);
  await expect.poll(() => screen.chart.lines()).not.toContain(`orders:1:${price}`);
});

test('price lines off the visible range show no axis label, also two at one price (an order at the take-profit)', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const { s, pos } = await market.position(trader.api, symbol, 1, '0.010');
  // far above the chart's range: the take-profit, and a resting sell at the same price
  const far = onTick(pos.mark_price * 1.2, s.price_step);
  await trader.api.setTpSl({ symbol, position_side: 1, take_profit_price: far, working_type: 1 });
  const { order_id: id } = await trader.api.placeOrder({
    symbol,
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: far,
    qty: '0.002',
    time_in_force: 1,
  });
  const screen = await openTrading(page, service.url, trader, symbol);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.lines()).toEqual(expect.arrayContaining([`tp:${symbol}:1`, `order:${id}`]));
  // the entry (at the market) keeps its label; the take-profit, the order and the liquidation
  // price (far below) show none, where the library pinned the pair at the axis' top edge
  const labels = async (): Promise<string[]> => ((await chart.box.getAttribute('data-axis-labels')) ?? '').split(' ');
  await expect.poll(labels).toContain(`entry:${symbol}:1`);
  expect(await labels()).not.toContain(`tp:${symbol}:1`);
  expect(await labels()).not.toContain(`order:${id}`);
  expect(await labels()).not.toContain(`liq:${symbol}:1`);
  await page.screenshot({ path: test.info().outputPath('chart-lines-off-range.png') });
});
