// The Sweeps page and a sweep whose coordinator was killed (kill -9): the page shows it
// `interrupted`, with the command that resumes it, not `running` for ever (docs/sweeps.md,
// "Running, stopped, interrupted").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test('a sweep whose coordinator was killed reads interrupted, with how to resume it', async ({ page, service }) => {
  test.setTimeout(180_000);
  const panel = await openSweepsOnKlines(page, service.url);

  // a bot that never exits: the sweep runs until its coordinator is killed
  const grid = path.join(service.dataDir, 'hang.json');
  writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'hang' }] }));
  const run = startSweep([
    ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
    ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none', '--grid', grid],
    ...['--workers', '1'],
  ]);
  const row = panel.getByTestId('sweeps-list').locator('tbody').getByRole('row');
  await expect(row).toContainText('0/1 done, 0 failed (running)', { timeout: 90_000 });
  const id = /perpdesk sweep (sw\w+):/.exec(run.out())?.[1];
  expect(id, run.out()).toBeDefined();

  run.child.kill('SIGKILL');
  await run.ended;
  // the commands as the service gives them: this service's data folder is not the CLI's default, so they name it
  const dir = `--data-dir ${service.dataDir}`;
  await expect(row).toContainText(
    `0/1 done, 0 failed (interrupted: its coordinator is gone; resume: npm run sweep -- --resume ${id} ${dir}, ` +
      `or remove: npm run sweep -- --remove ${id} ${dir})`,
    { timeout: 10_000 },
  );
  await row.click();
  await expect(panel.getByTestId('sweep-resume').locator('code')).toHaveText(`npm run sweep -- --resume ${id} ${dir}`);
});
