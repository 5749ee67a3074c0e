// A job folder outlives a worker killed mid-job; the next job removes it (src-main/sweep/job-dir.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeJobDir, removeOrphanJobDirs } from '../../src-main/sweep/job-dir.ts';

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The pid of a process that ran and is gone. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('job folders', () => {
  it("are named by their worker's pid, and only those of a worker that is gone are removed, with what the bot left in them", () => {
    base = mkdtempSync(join(tmpdir(), 'perpdesk-jobdir-test-'));
    const mine = makeJobDir(base);
    expect(basename(mine)).toMatch(new RegExp(`^perpdesk-job-${process.pid}-`));
    const orphan = join(base, `perpdesk-job-${deadPid()}-abc123`);
    mkdirSync(orphan);
    writeFileSync(join(orphan, 'state.json'), '{}');
    const alive = join(base, `perpdesk-job-${process.ppid}-def456`); // the process that started this one runs
    mkdirSync(alive);
    const other = join(base, 'perpdesk-jobs-notes');
    mkdirSync(other);
    const unnamed = join(base, 'perpdesk-job-Xq12Zz'); // an older worker's: no pid to judge by
    mkdirSync(unnamed);

    expect(removeOrphanJobDirs(base)).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(base).sort()).toEqual(
      [basename(mine), basename(alive), basename(other), basename(unnamed)].sort(),
    );
    expect(removeOrphanJobDirs(base)).toBe(0);
  });

  it('a missing base folder removes nothing and throws nothing', () => {
    base = join(tmpdir(), `perpdesk-jobdir-missing-${process.pid}`);
    expect(removeOrphanJobDirs(base)).toBe(0);
  });
});
