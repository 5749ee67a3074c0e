// The Sweeps page's equity chart and the span written under it: the plot fills the chart's width,
// so the sweep's start is under the lines' left end and its end under their right end. (The chart
// had a fixed height: its 600 x 180 plot was letterboxed in the middle of the wider box, and the
// dates under it, at the box's edges, sat some 60 px beyond the lines' ends at 1024 and 1440 px.)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test("a picked set's curve spans the chart under the span's start and end", async ({ page, service }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 900 });
  const panel = await openSweepsOnKlines(page, service.url);
  const grid = path.join(service.dataDir, 'one.json');
  writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'trade' }] }));
  const run = await startSweep([
    ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
    ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none', '--grid', grid],
    ...['--workers', '1'],
  ]).ended;
  expect(run.code, run.out).toBe(0);
  const row = panel.getByTestId('sweeps-list').locator('tbody').getByRole('row');
  await expect(row).toContainText('1/1 done, 0 failed (done)', { timeout: 10_000 });

  // the one set's curve: from the sweep's start (its first point) to its end (the job's last value held)
  await panel.getByTestId('sweep-sets').locator('tbody tr').first().click();
  const line = panel.getByTestId('sweep-curves').locator('polyline');
  await expect(line).toHaveCount(1);
  const axis = panel.getByTestId('sweep-curves-axis').locator(':scope > span');
  await expect(axis.first()).toHaveText('2025-01-06 00:00 UTC');
  await expect(axis.last()).toHaveText('2025-01-06 06:00 UTC');
  const box = (await line.boundingBox())!;
  const start = (await axis.first().boundingBox())!;
  const end = (await axis.last().boundingBox())!;
  // the lines begin where the start's label begins and end where the end's label ends
  expect(Math.abs(box.x - start.x)).toBeLessThan(3);
  expect(Math.abs(box.x + box.width - (end.x + end.width))).toBeLessThan(3);
});
