// A queue worker of another build than the sweep's (docs/sweeps.md, Many machines): a worker on a
// machine whose checkout is of another commit, or has local changes, computed the jobs it took with
// its own code, and the sweep stored its figures beside the other workers' without a word (a fee
// figure changed in one checkout's metrics gave fees of 3.62 against 4.53 for the same job). Each job
// now carries the coordinator's build: such a worker gives it back unrun, says why once, and the
// coordinator hears it; no job gets that worker's result.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildId, buildMismatch } from '../../src-main/sweep/build-id.ts';
import type { JobResult } from '../../src-main/sweep/job.ts';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { QueueRunner } from '../../src-main/sweep/queue.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe('the build of a checkout', () => {
  it('is the same for the same code and another for a change to it', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'perpdesk-build-'));
    const copy = (name: string) => {
      const dir = path.join(root, name);
      mkdirSync(path.join(dir, 'src-main', 'sweep'), { recursive: true });
      writeFileSync(path.join(dir, 'src-main', 'sweep', 'metrics.ts'), 'export const fees = (a: number) => a;\n');
      writeFileSync(path.join(dir, 'package-lock.json'), '{}\n');
      return dir;
    };
    const a = copy('a');
    const b = copy('b');
    expect(buildId(b)).toBe(buildId(a));
    const c = path.join(root, 'c');
    cpSync(a, c, { recursive: true });
    writeFileSync(path.join(c, 'src-main', 'sweep', 'metrics.ts'), 'export const fees = (a: number) => a * 0.8;\n');
    expect(buildId(c)).not.toBe(buildId(a));
    expect(buildMismatch(buildId(a), buildId(a))).toBeNull();
    expect(buildMismatch(undefined, buildId(a))).toBeNull();
    expect(buildMismatch(buildId(c), buildId(a))).toMatch(/^its build \w{16} is not the sweep's \w{16} /);
  });
});

describe.skipIf(!HAS_REDIS)('a queue worker of another build than the sweep', () => {
  let redis: ChildProcess;
  let worker: ChildProcess | undefined;
  let url: string;
  let ref: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const file = path.join(dir, 'pack.db');
    const pack = await buildPack(dir, ['BTCUSDT'], file);
    ref = { path: file, sha256: pack.sha256 };
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  }, 60_000);

  afterAll(async () => {
    await stop(worker);
    await stop(redis);
  });

  it('gives the jobs back unrun, says so once, and the coordinator hears why', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-'));
    const cli = startCli(['worker', '--queue', url, '--concurrency', '1', '--cache-dir', cacheDir]);
    worker = cli.child;
    let log = '';
    worker.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    const out = () => cli.stdout() + log;
    await until('the worker to take jobs', () => out().includes('taking jobs'));
    // a coordinator of another build than this checkout's, which the worker runs
    const other = 'b0b0b0b0b0b0b0b0';
    const runner = await QueueRunner.connect(url, { build: other });
    const results: JobResult[] = [];
    const givenBack: Array<{ why: string; cause: string | undefined }> = [];
    const jobs = Array.from({ length: 3 }, (_, i) =>
      testJob({ id: `swBLD:${i}`, sweepId: 'swBLD', index: i, start: JAN6, until: JAN6 + DAY / 8, params: {} }),
    );
    const running = runner.run(jobs, ref, {
      onResult: (_, r) => results.push(r),
      onGivenBack: (_, why, cause) => givenBack.push({ why, cause }),
    });
    // (before the check the worker ran them: a result came)
    await until('a job given back, or a result', () => givenBack.length > 0 || results.length > 0);
    await until('the worker to say why', () => /cannot run the jobs/.test(out()) || results.length > 0);
    await runner.stop();
    await running.catch(() => undefined);
    expect(results.map((r) => `${r.jobId} ${r.status}`)).toEqual([]);
    expect(givenBack[0].cause).toBe('build');
    expect(givenBack[0].why).toMatch(
      new RegExp(`^worker \\S+-\\d+: its build ${buildId()} is not the sweep's ${other} `),
    );
    expect(out().match(/cannot run the jobs of a sweep of build b0b0b0b0b0b0b0b0/g), out()).toHaveLength(1);
    expect(out()).not.toMatch(/ ok \(\d+ ms\)/);
  }, 180_000);
});
