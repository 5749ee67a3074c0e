// The Replay report's equity curve shows the whole session: the chart's default least spacing
// (0.5 px a point) fitted ~1,500 points into the tab, so a replay of the 3 days of real 1m
// BTCUSDT klines (a point a minute of history: 4,320) showed only its last day, flat after the
// trades, with the drawdown out of view. A service of this spec's own: its replays count against
// the limit of 4 and must not meet another spec's.
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { test, expect } from './support/fixtures.ts';
import { importKlines, openReplay, startReplay } from './support/replay.ts';

test('the equity curve of a 3-day replay shows every point, from the start', async ({ page, service }) => {
  test.setTimeout(150_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  try {
    const banner = await openReplay(page, replay);
    const venue = new RestClient({ baseUrl: replay.url });
    await venue.replayControl({ action: 'pause' });
    await expect(banner).toHaveAttribute('data-state', 'paused');
    await venue.replayControl({ action: 'seek', time: Date.parse('2021-05-18T23:59:00Z') });
    await page.keyboard.press('Shift+R');
    const curve = page.getByTestId('replay-equity');
    await expect
      .poll(async () => Number(await curve.getAttribute('data-points')), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(4_300);
    await expect
      .poll(async () => [await curve.getAttribute('data-shown'), await curve.getAttribute('data-points')])
      .toEqual([expect.any(String), expect.any(String)]);
    await expect
      .poll(
        async () => Number(await curve.getAttribute('data-shown')) - Number(await curve.getAttribute('data-points')),
      )
      .toBe(0);
    await page.screenshot({ path: test.info().outputPath('replay-report-curve.png') });
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
