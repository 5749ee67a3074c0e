// The chart while the service is away (chart-feed.ts, chart-panel.tsx): a pair picked meanwhile
// never shows the previous pair's candles under its name: the chart empties and says the candles
// are not loaded, reconnecting; they load once the service answers again on its address.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
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
