// The candles' price scale (features/chart/chart-scale.ts, scale-switch.tsx): the "log" switch in
// the chart's corner puts the scale in logarithmic mode and back to linear, the choice kept across
// a reload. What each mode does to prices is read through the horizontal line tool: three lines
// drawn at equally spaced heights take the prices the scale puts there, equally spaced in price on
// a linear scale, in ratio on a log scale.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openChart } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** The pair's horizontal lines' prices, in the order drawn. */
async function hlinePrices(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    (JSON.parse(localStorage.getItem('perpdesk.drawings') ?? '[]') as Array<{ kind: string; price: number }>)
      .filter((d) => d.kind === 'hline')
      .map((d) => d.price),
  );
}

test('the log switch sets the price scale, which puts prices where each mode says, kept across a reload', async ({
  page,
  service,
  market,
}) => {
  const { s, screen } = await openChart(page, service.url, market, SYMBOL);
  const chart = screen.chart;
  const log = page.getByRole('button', { name: 'log', exact: true });
  await expect(chart.box).toHaveAttribute('data-scale', 'linear');
  await expect(log).toHaveAttribute('aria-pressed', 'false');

  // daily bars over the month of history: a range of prices wide enough that a log scale's
  // spacing is far from a linear one's
  await chart.interval('1d').click();
  await expect(chart.box).toHaveAttribute('data-interval', '1d');
  // the market still: the price scale stays where it is between the presses
  await setPaused(service.url, true);
  const tick = Number(s.price_step);
  const box = (await chart.box.boundingBox())!;
  // three heights equally spaced in whole pixels (the pointer's position is a whole pixel): 10, 40
  // and 70 % down the chart
  const step = Math.round(box.height * 0.3);
  const top = Math.round(box.y + box.height * 0.1);
  /** Three horizontal lines drawn at those heights: their prices, top down. */
  const drawThree = async (): Promise<[number, number, number]> => {
    const before = (await hlinePrices(page)).length;
    for (const y of [top, top + step, top + 2 * step]) {
      await page.getByRole('button', { name: 'Horizontal line' }).click();
      await page.mouse.click(Math.round(box.x + box.width * 0.5), y);
    }
    await expect.poll(async () => (await hlinePrices(page)).length).toBe(before + 3);
    const [a, b, c] = (await hlinePrices(page)).slice(before);
    expect(a).toBeGreaterThan(b);
    expect(b).toBeGreaterThan(c);
    return [a, b, c];
  };

  // linear: the middle line halfway in price (each price rounded to the tick: within one and a half)
  const [l1, l2, l3] = await drawThree();
  expect(Math.abs(l2 - (l1 + l3) / 2)).toBeLessThanOrEqual(1.5 * tick);

  // log: the middle line halfway in the logarithm of price, well below halfway in price
  await log.click();
  await expect(chart.box).toHaveAttribute('data-scale', 'log');
  await expect(log).toHaveAttribute('aria-pressed', 'true');
  const [g1, g2, g3] = await drawThree();
  expect(Math.abs(g2 - Math.sqrt(g1 * g3))).toBeLessThanOrEqual(2 * tick);
  expect((g1 + g3) / 2 - g2).toBeGreaterThan(10 * tick);

  // kept across a reload
  await page.reload();
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect(chart.box).toHaveAttribute('data-scale', 'log');
  await expect(log).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('perpdesk.chart-scale'))).toBe('log');

  // pressed again: back to linear, and kept; prices equally spaced again
  await log.click();
  await expect(chart.box).toHaveAttribute('data-scale', 'linear');
  await expect(log).toHaveAttribute('aria-pressed', 'false');
  expect(await page.evaluate(() => localStorage.getItem('perpdesk.chart-scale'))).toBe('linear');
  await expect(chart.box).toHaveAttribute('data-interval', '1d');
  expect((await chart.box.boundingBox())!).toEqual(box);
  const [m1, m2, m3] = await drawThree();
  expect(Math.abs(m2 - (m1 + m3) / 2)).toBeLessThanOrEqual(1.5 * tick);
});
