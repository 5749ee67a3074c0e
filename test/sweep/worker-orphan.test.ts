// A queue worker whose parent process goes stops (docs/sweeps.md, Many machines): `npm run
// sweep:worker` stopped with kill signals npm, which signals its shell, which does not pass the
// signal on; the worker then ran on, unseen, with no parent. Here the shell is the parent.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!HAS_REDIS)('a queue worker whose parent process goes', () => {
  let redis: ChildProcess | undefined;
  let url: string;
  let workerPid = 0;

  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  });

  afterAll(async () => {
    if (workerPid !== 0 && alive(workerPid)) process.kill(workerPid, 'SIGKILL');
    await stop(redis);
  });

  it('stops by itself once its parent shell is killed', async () => {
    // '; true' keeps the shell as the worker's parent (it does not exec the last command)
    const cmd = `'${process.execPath}' src-main/sweep-cli.ts worker --queue ${url} --concurrency 1; true`;
    const sh = spawn('sh', ['-c', cmd], { cwd: ROOT });
    let out = '';
    sh.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await until('the worker to take jobs', () => /taking jobs/.test(out), 120_000);
    workerPid = Number(/perpdesk sweep worker (\d+): taking jobs/.exec(out)![1]);
    expect(alive(workerPid)).toBe(true);
    sh.kill('SIGTERM');
    await until('the orphaned worker to stop', () => !alive(workerPid), 30_000);
    expect(out).toContain(`perpdesk sweep worker ${workerPid}: its parent process ${sh.pid} is gone; stopping`);
  }, 180_000);
});
