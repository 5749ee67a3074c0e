// The chart while the service is away (chart-feed.ts, chart-panel.tsx): a pair picked meanwhile
// never shows the previous pair's candles under its name: the chart empties and says the candles
// are not loaded, reconnecting; they load once the service answers again on its address.
import { test, expect } from './support/fixtures.ts';
import { candleTime, openTrading } from './support/desk.ts';
import { startHeadless } from './support/service.ts';

test.use({ serviceOptions: { own: 'chart-reconnect' } });

test("a pair picked while the service is away shows no other pair's candles, and its own once it is back", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // a service of its own, stopped under the screen and started again on its address
  let own = await startHeadless();
  const port = new URL(own.url).port;
  try {
    const screen = await openTrading(page, own.url, own.account, 'BTCUSDT');
    const chart = screen.chart;
    await expect(chart.box).toHaveAttribute('data-status', 'ready');
    await expect.poll(() => chart.candles()).toBeGreaterThan(0);
    await expect(chart.legend.locator('.legend-time')).toHaveCount(1);

    await own.stop(true);
    await expect(page.getByTestId('connection-status')).toContainText('Disconnected', { timeout: 30_000 });
    await screen.selectSymbol('ETHUSDT');
    await expect(chart.legend).toContainText('ETHUSDT · 1m');
    // no candle's figures under ETHUSDT's name (they were BTCUSDT's)
    await expect(chart.legend.locator('.legend-time')).toHaveCount(0);
    const unloaded = page.getByTestId('chart-unloaded');
    await expect(unloaded).toContainText('ETHUSDT 1m candles not loaded');
    await expect(unloaded).toContainText('reconnecting');
    await expect(chart.box).toHaveAttribute('data-symbol', 'ETHUSDT');
    await expect(chart.box).toHaveAttribute('data-candles', '0');
    await page.screenshot({ path: test.info().outputPath('chart-unloaded.png') });

    own = await startHeadless({ dataDir: own.dataDir, args: ['--port', port] });
    await expect(chart.box).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(chart.box).toHaveAttribute('data-symbol', 'ETHUSDT');
    await expect.poll(() => chart.candles()).toBeGreaterThan(0);
    await expect(unloaded).toHaveCount(0);
  } finally {
    await own.stop();
  }
});

// Until 2026-12-07 the reconnect's reload of the candles reset the view: a trader scrolled back in
// history was thrown to the latest candles at the default zoom by a restart of the service.
test('a chart scrolled back keeps its view through a restart of the service, and End still goes to the latest', async ({
  page,
}) => {
  test.setTimeout(180_000);
  let own = await startHeadless();
  const port = new URL(own.url).port;
  try {
    const screen = await openTrading(page, own.url, own.account, 'BTCUSDT');
    const chart = page.getByRole('application', { name: 'BTCUSDT 1m candlestick chart' });
    await expect(chart).toHaveAttribute('data-status', 'ready');
    await expect.poll(() => screen.chart.candles()).toBeGreaterThan(100);
    await chart.focus();
    const summary = page.getByTestId('chart-summary');
    for (let i = 0; i < 3; i++) await page.keyboard.press('+'); // zoomed in
    await page.keyboard.press('Shift+ArrowLeft'); // and scrolled back
    await expect(summary).toContainText('scrolled back to the candle of');
    const back = candleTime(await summary.textContent());

    await own.stop(true);
    await expect(page.getByTestId('connection-status')).toContainText('Disconnected', { timeout: 30_000 });
    own = await startHeadless({ dataDir: own.dataDir, args: ['--port', port] });
    await expect(page.getByTestId('connection-status')).not.toContainText('Disconnected', { timeout: 30_000 });
    await expect(chart).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    // the same candle at the view's right edge: one step right and back reads it again
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    // (the summary is said again after each key: polled, as it may still read the step between)
    await expect.poll(async () => candleTime(await summary.textContent())).toBe(back);
    await expect(summary).toContainText('scrolled back to the candle of');
    await page.keyboard.press('End');
    await expect(summary).toContainText('latest candle of');
  } finally {
    await own.stop();
  }
});
