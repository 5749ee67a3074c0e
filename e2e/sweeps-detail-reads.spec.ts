// The Sweeps page reads a sweep's detail (every job with its metrics, about 1 kB a job) again only
// when the sweep changed, not at every refresh of the list. (It read it every 2 s for as long as
// the page was open: a done sweep of 10,000 jobs was some 10 MB again and again.)
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test("a done sweep's detail is read once, however often the list is refreshed", async ({ page, service }) => {
  test.setTimeout(180_000);
  // the data first (the sweep needs it), the page opened on it; then the sweep runs to its end
  const panel = await openSweepsOnKlines(page, service.url);
  const run = startSweep([
    ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
    ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', '3h', '--workers', '1'],
  ]);
  const done = await run.ended;
  expect(done.code, done.out).toBe(0);
  await expect(panel.getByTestId('sweeps-list').locator('tbody').getByRole('row')).toContainText(
    '2/2 done, 0 failed (done)',
    {
      timeout: 10_000,
    },
  );
  await expect(panel.getByTestId('sweep-sets').getByRole('row')).toHaveCount(2);

  let lists = 0;
  let details = 0;
  page.on('request', (r) => {
    const u = new URL(r.url()).pathname;
    if (u === '/api/v1/sweeps') lists++;
    else if (/^\/api\/v1\/sweeps\/sw[0-9a-f]+$/.test(u)) details++;
  });
  // four refreshes of the list, each of which read the detail again (one read may still be owed
  // to the sweep's last change when the counting starts)
  await expect.poll(() => lists, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
  expect(details).toBeLessThanOrEqual(1);
});
