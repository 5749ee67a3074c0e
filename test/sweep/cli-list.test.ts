// `npm run sweep -- --list` (docs/sweeps.md) on a folder with no sweeps: it says so, and makes
// nothing there. Before, it printed nothing and created sweeps.db (and the folder).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
});
