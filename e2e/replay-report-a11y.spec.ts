// The Replay report and the Data drawer's chart as a screen-reader user meets them. The report's
// equity curve and the Data drawer's candles are lightweight-charts, whose layout table of canvases
// a screen reader met as an empty table of 2 rows x 3 cells, with no header, beside the report's
// figures: the trading chart's was hidden, these two were not. The data (real 1m BTCUSDT klines,
// 2021-05-16..18) are imported and the replay started through the API. A service of this spec's
// own: its replays count against the limit of 4.
// Shift+R selected the report's tab and left the focus where it was (on the page after an Esc), so
// nothing was said and Tab went on from the order form, where P and Shift+O put it on their tab.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';

/** Runs `body` on the screen of a paused BTCUSDT replay an hour into its history, then closes the replay. */
async function inReplay(page: Page, base: string, body: () => Promise<void>): Promise<void> {
  await importKlines(base);
  const replay = await startReplay(base, '2021-05-16T00:00Z', 1);
  try {
    const { venue } = await openPausedReplay(page, replay);
    await venue.replayControl({ action: 'seek', time: Date.parse('2021-05-16T01:00Z') });
    await body();
  } finally {
    await fetch(`${base}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
}

test("the report's equity curve has no table for a screen reader", async ({ page, service }) => {
  test.setTimeout(150_000);
  await inReplay(page, service.url, async () => {
    await page.getByRole('tab', { name: 'Replay report' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Replay report' });
    const curve = panel.getByTestId('replay-equity');
    await expect.poll(async () => Number(await curve.getAttribute('data-points'))).toBeGreaterThan(0);
    await expect(panel.getByRole('term').first()).toHaveText('Net PnL');
    // the chart's canvases are drawn, and not one table is in the panel's accessibility tree
    await expect(curve.locator('canvas').first()).toBeAttached();
    await expect(panel.getByRole('table')).toHaveCount(0);
    expect(await panel.ariaSnapshot()).not.toContain('table');
  });
});

test('Shift+R puts the focus on the report tab, and Tab goes on into the report', async ({ page, service }) => {
  test.setTimeout(150_000);
  await inReplay(page, service.url, async () => {
    // from a field of the order form, left with Esc: the focus was then on the page
    await page.locator('body').press('b');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+R');
    const tab = page.getByRole('tab', { name: 'Replay report' });
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(tab).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Download CSV' })).toBeFocused();
  });
});

test("the Data drawer's chart of a dataset has no table for a screen reader", async ({ page, service }) => {
  await importKlines(service.url);
  await page.goto(`${service.url}/`);
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  const row = panel
    .getByTestId('data-datasets')
    .getByRole('row', { name: /BTCUSDT/ })
    .first();
  await row.getByRole('button', { name: /Chart dataset/ }).click();
  const chart = panel.getByTestId('dataset-chart');
  await expect(chart).toHaveAttribute('data-bars', /^[1-9]/);
  await expect(chart.locator('canvas').first()).toBeAttached();
  await expect(chart.getByRole('table')).toHaveCount(0);
  // the drawer's own table of datasets is still one
  await expect(panel.getByRole('table')).toHaveCount(1);
});
