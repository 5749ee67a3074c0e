// A sweep job's own folder (PERPDESK_JOB_DIR, docs/sweeps.md): made in the system's temporary
// folder under a name that carries the worker's pid, removed when the job ends (run-job.ts). A
// worker killed in the middle of a job (SIGKILL, the machine's power) cannot remove it, so each
// new job first removes the job folders whose worker is gone: one a killed job, not one a run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'perpdesk-job-';

/** A new, empty job folder of this process under `base`. */
export function makeJobDir(base = tmpdir()): string {
  return mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
}

/** Whether a process with this pid runs (one of another user's counts: it is not ours to judge). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the job folders under `base` whose worker process is gone; returns how many. */
export function removeOrphanJobDirs(base = tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = /^perpdesk-job-(\d+)-/.exec(name);
    if (m === null || alive(Number(m[1]))) continue;
    rmSync(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
