// The last price's label on the chart's price axis (last-price.ts): it stays at the last price when
// the chart is scrolled back in time. lightweight-charts labels the close of the last candle in
// view instead, so until 2026-12-07 a chart scrolled back showed an old candle's close, "3,420.58",
// in the last price's green beside the dashed line of the last price, 3,417.52.
// The label is read as drawn: the runs of rows of the price axis' canvases in the candles' up or
// down colour. With the market paused and the price scale fixed (dragged, so no longer fitted to
// the candles in view), scrolling back in time moves no price on the axis: the labels stay put.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openChart } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** The centres (CSS px from the axis' top) of the labels in the up or down colour on the candles' price axis. */
function axisLabels(page: Page): Promise<number[]> {
  return page.getByTestId('chart').evaluate((box) => {
    // lightweight-charts' layout: the candles' pane is the table's first row, [left axis, pane, right axis]
    const axis = box.querySelectorAll('table tr')[0].querySelectorAll('td')[2];
    const colours = ['46,189,133', '246,70,93']; // CHART_COLORS.up, .down
    const rows = new Set<number>();
    let scale = 1;
    for (const cv of axis.querySelectorAll('canvas')) {
      const { width: w, height: h } = cv;
      scale = w / cv.clientWidth;
      const d = cv.getContext('2d')!.getImageData(0, 0, w, h).data;
      const x = Math.round(3 * scale);
      for (let y = 0; y < h; y++) {
        const i = (y * w + x) * 4;
        if (d[i + 3] === 255 && colours.includes(`${d[i]},${d[i + 1]},${d[i + 2]}`)) rows.add(y);
      }
    }
    const centres: number[] = [];
    let start = -1;
    for (let y = 0; y <= Math.max(-1, ...rows) + 1; y++) {
      if (rows.has(y) && start < 0) start = y;
      if (!rows.has(y) && start >= 0) {
        centres.push(Math.round((start + y - 1) / 2 / scale));
        start = -1;
      }
    }
    return centres;
  });
}

test('scrolled back in time, the price axis still labels the last price, not the close of the last candle in view', async ({
  page,
  service,
  market,
}) => {
  const { screen } = await openChart(page, service.url, market, SYMBOL);
  const chart = page.getByRole('application', { name: `${SYMBOL} 1m candlestick chart` });
  await expect.poll(() => screen.chart.candles()).toBeGreaterThan(300);
  await setPaused(service.url, true);
  // the price scale no longer follows the candles in view, and takes in prices around the market's
  await screen.chart.widenPrices();
  await page.mouse.move(1, 1);
  await chart.focus();
  await page.keyboard.press('End');
  const summary = page.getByTestId('chart-summary');
  await expect(summary).toContainText('latest candle');
  // the newest candle in view: its close, the last price, is labelled
  let atLatest: number[] = [];
  await expect
    .poll(async () => {
      const now = await axisLabels(page);
      const same = now.length > 0 && JSON.stringify(now) === JSON.stringify(atLatest);
      atLatest = now;
      return same;
    })
    .toBe(true);

  // back in time, the newest candle out of view: the same labels, at the same places
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(summary).toContainText('scrolled back to the candle of');
  await page.screenshot({ path: test.info().outputPath('chart-scrolled-back.png') });
  await expect
    .poll(() => axisLabels(page), { message: 'the axis labels of the newest candle in view, kept scrolled back' })
    .toEqual(atLatest);
});
