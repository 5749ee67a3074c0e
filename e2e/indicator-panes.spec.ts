// The indicators' panes under the candles keep room for their scale (pane-heights.ts): RSI and MACD
// both on at 1440x900 were 55 px each (the candles 368), RSI's axis showing one tick and a half and
// MACD's one; each pane now keeps 96 px, the candles giving the height up, and a taller window gives
// each its 0.3 of the candles'.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openChart } from './support/desk.ts';

/** The heights of the chart's panes, px, the candles' first (the rows of lightweight-charts' table but its separators and time axis). */
async function paneHeights(box: Locator): Promise<number[]> {
  const rows = await box
    .locator('.tv-lightweight-charts table tr')
    .evaluateAll((trs) => trs.map((tr) => Math.round(tr.getBoundingClientRect().height)));
  return rows.slice(0, -1).filter((h) => h > 1);
}

test('RSI and MACD each keep a readable pane under the candles', async ({ page, service, market }) => {
  test.setTimeout(120_000); // a loaded machine: the first chart alone has taken 40 s
  const { screen } = await openChart(page, service.url, market, 'BTCUSDT');
  const chart = screen.chart;
  await page.getByTestId('indicators-button').click();
  const dialog = page.getByRole('dialog', { name: 'Indicators' });
  await dialog.getByRole('checkbox', { name: 'RSI', exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'MACD', exact: true }).check();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(chart.box).toHaveAttribute('data-indicators', 'rsi macd');
  await expect.poll(async () => (await paneHeights(chart.box)).length).toBe(3);
  await expect(async () => {
    const [candles, rsi, macd] = await paneHeights(chart.box);
    expect(rsi).toBeGreaterThanOrEqual(95);
    expect(macd).toBeGreaterThanOrEqual(95);
    expect(candles).toBeGreaterThan(rsi + macd);
  }).toPass();
  await chart.box.screenshot({ path: test.info().outputPath('rsi-macd-1440x900.png') });

  // a taller window: each pane 0.3 of the candles'
  await page.setViewportSize({ width: 1440, height: 1400 });
  await expect(async () => {
    const [candles, rsi, macd] = await paneHeights(chart.box);
    expect(rsi / candles).toBeCloseTo(0.3, 1);
    expect(Math.abs(macd - rsi)).toBeLessThanOrEqual(1);
  }).toPass();
});
