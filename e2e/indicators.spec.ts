// The chart's indicators (features/chart/indicators*.ts): the Indicators dialog (the toolbar's
// button or key I) turns slots on and sets their parameters, refusing bad ones with a message;
// what is on is drawn (the chart's data-indicators) with its values in the legend, matching the
// candles the venue serves, and is kept across a reload; Reset takes everything off.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openChart } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** The legend's values of one indicator, as numbers (NaN for a '—'). */
async function legendValues(legend: Locator, id: string): Promise<number[]> {
  const texts = await legend.locator(`[data-indicator="${id}"] b`).allInnerTexts();
  return texts.map((t) => (t.trim() === '—' ? NaN : Number(t.trim().replace(/,/g, ''))));
}

test('indicators turned on in the dialog are drawn with their values in the legend, kept across a reload, and reset', async ({
  page,
  service,
  market,
}) => {
  const { s, screen } = await openChart(page, service.url, market, SYMBOL);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-indicators', '');

  // I opens the dialog with the focus on the first slot's checkbox
  await page.keyboard.press('i');
  const dialog = page.getByRole('dialog', { name: 'Indicators' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'MA 7', exact: true })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox', { name: 'MA 7', exact: true })).toBeChecked();
  await dialog.getByRole('checkbox', { name: 'RSI', exact: true }).check();

  // a bad period is said and not taken; a good one is
  const period = dialog.getByRole('textbox', { name: 'MA 1 period', exact: true });
  await period.fill('0');
  await expect(period).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveText('Period: a whole number of bars from 1 to 500.');
  await expect(chart.legend.locator('[data-indicator="ma1"]')).toContainText('MA(7)');
  await period.fill('9');
  await expect(period).toHaveAttribute('aria-invalid', 'false');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  // MACD's fast period over its slow one: refused, MACD left as it was
  await dialog.getByRole('textbox', { name: 'MACD fast', exact: true }).fill('30');
  await expect(dialog.getByRole('alert')).toHaveText('Fast: shorter than Slow.');
  // the two periods in conflict are marked, the signal period is not
  await expect(dialog.getByRole('textbox', { name: 'MACD fast', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('textbox', { name: 'MACD slow', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('textbox', { name: 'MACD signal', exact: true })).toHaveAttribute(
    'aria-invalid',
    'false',
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // the pointer off the chart (it was over it, on the dialog): the legend shows the newest bar
  await page.mouse.move(1, 1);

  await expect(chart.box).toHaveAttribute('data-indicators', 'ma1 rsi');
  await expect(page.getByTestId('indicators-button')).toContainText('2');
  await expect(chart.legend.locator('[data-indicator="ma1"]')).toContainText('MA(9)');
  await expect(chart.legend.locator('[data-indicator="rsi"]')).toContainText('RSI(14)');

  // the legend's MA(9) is the mean of the last 9 closes the venue serves (the market paused, so
  // the chart and the REST answer hold the same candles)
  await setPaused(service.url, true);
  const pd = s.price_step.includes('.') ? s.price_step.split('.')[1].length : 0;
  await expect(async () => {
    const candles = await market.api.klines(SYMBOL, '1m', { limit: 9 });
    const mean = candles.reduce((a, c) => a + Number(c[5]), 0) / 9;
    const [ma] = await legendValues(chart.legend, 'ma1');
    expect(ma).toBeCloseTo(mean, pd - 1);
    const [rsi] = await legendValues(chart.legend, 'rsi');
    expect(rsi).toBeGreaterThanOrEqual(0);
    expect(rsi).toBeLessThanOrEqual(100);
  }).toPass();

  // kept for the next visit, MACD's refused periods not
  await page.reload();
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect(chart.box).toHaveAttribute('data-indicators', 'ma1 rsi');
  await page.getByTestId('indicators-button').click();
  await expect(dialog.getByRole('textbox', { name: 'MA 1 period', exact: true })).toHaveValue('9');
  await expect(dialog.getByRole('textbox', { name: 'MACD fast', exact: true })).toHaveValue('12');
  await dialog.getByRole('checkbox', { name: 'MACD', exact: true }).check();
  await expect(chart.box).toHaveAttribute('data-indicators', 'ma1 rsi macd');
  await expect.poll(async () => (await legendValues(chart.legend, 'macd')).length).toBe(3);

  // Reset: all off, the defaults back in the fields; Done gives the focus back to the button
  await dialog.getByRole('button', { name: 'Reset' }).click();
  await expect(chart.box).toHaveAttribute('data-indicators', '');
  await expect(dialog.getByRole('textbox', { name: 'MA 1 period', exact: true })).toHaveValue('7');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('indicators-button')).toBeFocused();
  await expect(chart.legend.locator('[data-indicator]')).toHaveCount(0);
});
