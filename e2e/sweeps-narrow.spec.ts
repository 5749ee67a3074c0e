// The Sweeps page in a narrow window (600 px, the drawer 96 % of it): a table wider than the drawer
// scrolls sideways in its own box. (The sets' table of four parameters, about 660 px, pushed the
// drawer's body past its edge: the whole page scrolled sideways, the list of sweeps, the commands
// and the curves with it, and the heat map's metric select stuck out at 420 px.)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test('a wide sets table scrolls in its own box in a narrow window, not the whole page', async ({ page, service }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 600, height: 900 });
  const panel = await openSweepsOnKlines(page, service.url);
  // four parameters, as the example grid's sets have (the bot in 'env' mode exits at once)
  const grid = path.join(service.dataDir, 'narrow.json');
  writeFileSync(
    grid,
    JSON.stringify({ grid: { fast: [3, 5], slow: [12, 24] }, defaults: { mode: 'env', step_minutes: 15 } }),
  );
  const run = await startSweep([
    ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
    ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none', '--grid', grid],
    ...['--workers', '1'],
  ]).ended;
  expect(run.code, run.out).toBe(0);
  await expect(panel.getByTestId('sweeps-list').locator('tbody').getByRole('row')).toContainText(
    '4/4 done, 0 failed (done)',
    {
      timeout: 10_000,
    },
  );
  const sets = panel.getByTestId('sweep-sets');
  await expect(sets.getByRole('row')).toHaveCount(5);

  const body = page.locator('.drawer-body');
  const fits = await body.evaluate((b) => ({ scroll: b.scrollWidth, client: b.clientWidth }));
  expect(fits.scroll).toBeLessThanOrEqual(fits.client);
  // the table is wider than its box, which scrolls to its last column
  const box = panel.getByTestId('sweep-sets-scroll');
  const wide = await box.evaluate((b) => ({ scroll: b.scrollWidth, client: b.clientWidth }));
  expect(wide.scroll).toBeGreaterThan(wide.client);
  await box.evaluate((b) => (b.scrollLeft = b.scrollWidth));
  const last = sets.getByRole('columnheader', { name: 'jobs' });
  const lastBox = (await last.boundingBox())!;
  const bodyBox = (await body.boundingBox())!;
  expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(bodyBox.x + bodyBox.width);

  // at 420 px the heat map's selects wrap inside the drawer too
  await page.setViewportSize({ width: 420, height: 900 });
  const narrow = await body.evaluate((b) => ({ scroll: b.scrollWidth, client: b.clientWidth }));
  expect(narrow.scroll).toBeLessThanOrEqual(narrow.client);
});
