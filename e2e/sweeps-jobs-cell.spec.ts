// The Sweeps page at 1024 px: a set's jobs cell that names its timeouts and errors wraps inside
// the drawer. (The data tables' last column keeps to one line, and '0/1 (1 failed: 1 timeout,
// 0 error)' pushed the sets' table past the drawer's edge: the cell was cut there, and the whole
// page, its list of sweeps with it, scrolled sideways.)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test("a set's jobs cell with a timeout wraps inside the drawer", async ({ page, service }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 900 });
  const panel = await openSweepsOnKlines(page, service.url);
  // four parameters, as a moving-average grid has; the 'hang' set runs past the time bound
  const grid = path.join(service.dataDir, 'timeout.json');
  const common = { fast: 3, slow: 12, width: 0.25 };
  writeFileSync(
    grid,
    JSON.stringify({
      sets: [
        { mode: 'trade', ...common },
        { mode: 'hang', ...common },
      ],
    }),
  );
  const run = await startSweep([
    ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
    ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none', '--grid', grid],
    ...['--workers', '1', '--timeout', '2'],
  ]).ended;
  expect(run.code, run.out).toBe(0);
  const row = panel.getByTestId('sweeps-list').locator('tbody').getByRole('row');
  await expect(row).toContainText('2/2 done, 1 failed: 1 timeout, 0 error (done)', { timeout: 10_000 });

  const cell = panel.getByTestId('sweep-sets').getByRole('cell', { name: '0/1 (1 failed: 1 timeout, 0 error)' });
  await expect(cell).toBeVisible();
  const body = page.locator('.drawer-body');
  const fits = await body.evaluate((b) => ({ scroll: b.scrollWidth, client: b.clientWidth }));
  expect(fits.scroll).toBeLessThanOrEqual(fits.client);
  const cellBox = (await cell.boundingBox())!;
  const bodyBox = (await body.boundingBox())!;
  expect(cellBox.x + cellBox.width).toBeLessThanOrEqual(bodyBox.x + bodyBox.width);
});
