// `npm run sweep -- --list` (docs/sweeps.md) on a folder with no sweeps: it says so, and makes
// nothing there. Before, it printed nothing and created sweeps.db (and the folder). Nor do a
// refused sweep or a command on a sweep a folder does not hold: they made the folder and an
// empty sweeps.db.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli } from './cli-helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-sweep-list-'));
  dirs.push(d);
  return d;
}

describe('npm run sweep -- --list', () => {
  it('says "no sweeps in DIR" and creates nothing, in an empty folder, a missing one, or a store with none', async () => {
    const empty = tempDir();
    const a = await runCli(['--list', '--data-dir', empty]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(`no sweeps in ${empty}\n`);
    expect(readdirSync(empty)).toEqual([]);
    const missing = join(tempDir(), 'not-yet');
    const b = await runCli(['--list', '--data-dir', missing]);
    expect(b.stdout).toBe(`no sweeps in ${missing}\n`);
    expect(existsSync(missing)).toBe(false);
    // a store made by an earlier command, with no sweep in it
    const made = tempDir();
    new SqliteSweepStore(made).close();
    const c = await runCli(['--list', '--data-dir', made]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toBe(`no sweeps in ${made}\n`);
  }, 60_000);

  it('a refused sweep makes nothing: no folder, no sweeps.db', async () => {
    const scratch = tempDir();
    const grid = join(scratch, 'grid.json');
    writeFileSync(grid, JSON.stringify({ grid: { lookback: [4], status: ['x'] } }));
    for (const args of [
      ['--grid', grid], // a reserved parameter name
      ['--balance', '-5'], // a bad option, checked after the grid
    ]) {
      const dataDir = join(scratch, 'data');
      const r = await runCli([
        '--bot',
        'node test/sweep/bots/test-bot.ts',
        '--replay',
        'BTCUSDT@2025-01-06..2025-01-06',
        '--data-dir',
        dataDir,
        ...args,
      ]);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(/^perpdesk sweep: /);
      expect(existsSync(dataDir)).toBe(false);
    }
  }, 60_000);

  it('--export, --remove, --resume and --like of a sweep a folder does not hold say so and make nothing', async () => {
    const empty = tempDir();
    const missing = join(tempDir(), 'not-yet');
    const runs: [string[], string][] = [
      [['--export', 'sw1'], 'no sweep sw1 in DIR'],
      [['--remove', 'sw1'], 'no sweep sw1 in DIR'],
      [['--resume', 'sw1'], 'no sweep sw1 in DIR'],
      [['--resume'], 'no unfinished sweep, nor a done one with error jobs, in DIR'],
      [
        ['--like', 'sw1', '--replay', 'BTCUSDT@2025-01-06..2025-01-06'],
        '--like sw1: no sweep sw1 in DIR (npm run sweep -- --list)',
      ],
    ];
    for (const dir of [empty, missing])
      for (const [args, line] of runs) {
        const r = await runCli([...args, '--data-dir', dir]);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toBe(`perpdesk sweep: ${line.replace('DIR', dir)}\n`);
      }
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync(missing)).toBe(false);
  }, 120_000);
});
