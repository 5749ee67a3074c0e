// The Sweeps page and a sweep whose coordinator was killed (kill -9): the page shows it
// `interrupted`, with the command that resumes it, not `running` for ever (docs/sweeps.md,
// "Running, stopped, interrupted").
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KLINES = path.join(ROOT, 'test/fixtures/binance/klines/binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv');

test('a sweep whose coordinator was killed reads interrupted, with how to resume it', async ({ page, service }) => {
  test.setTimeout(180_000);
  const imported = await fetch(`${service.url}/api/v1/datasets/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paths: [KLINES], market: 'spot', symbol: 'BTCUSDT', interval: '15m' }),
  });
  expect(((await imported.json()) as { code: number }).code).toBe(0);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Sweeps' }).click();
  const panel = page.getByTestId('sweeps-panel');

  // a bot that never exits: the sweep runs until its coordinator is killed
  const grid = path.join(service.dataDir, 'hang.json');
  writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'hang' }] }));
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'src-main/sweep-cli.ts'),
      ...['--data-dir', service.dataDir, '--bot', 'node test/sweep/bots/test-bot.ts'],
      ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none', '--grid', grid],
      ...['--workers', '1'],
    ],
    { cwd: ROOT },
  );
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const row = panel.getByTestId('sweeps-list').getByRole('row');
  await expect(row).toContainText('0/1 done, 0 failed (running)', { timeout: 90_000 });
  const id = /perpdesk sweep (sw\w+):/.exec(out)?.[1];
  expect(id, out).toBeDefined();

  child.kill('SIGKILL');
  await closed;
  await expect(row).toContainText(
    `0/1 done, 0 failed (interrupted: its coordinator is gone; resume: npm run sweep -- --resume ${id}, or remove: --remove ${id})`,
    { timeout: 10_000 },
  );
});
