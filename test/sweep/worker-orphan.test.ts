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

  /** A worker under a shell (with npm's environment when `npm`), its output collected. */
  async function workerUnderShell(npm: boolean) {
    // '; true' keeps the shell as the worker's parent (it does not exec the last command)
    const cmd = `'${process.execPath}' src-main/sweep-cli.ts worker --queue ${url} --concurrency 1; true`;
    const env = { ...process.env };
    if (npm) env.npm_lifecycle_event = 'sweep:worker';
    else delete env.npm_lifecycle_event;
    const sh = spawn('sh', ['-c', cmd], { cwd: ROOT, env });
    const w = { sh, out: '', pid: 0 };
    sh.stdout!.on('data', (b: Buffer) => (w.out += b.toString()));
    await until('the worker to take jobs', () => /taking jobs/.test(w.out), 120_000);
    w.pid = workerPid = Number(/perpdesk sweep worker (\d+): taking jobs/.exec(w.out)![1]);
    expect(alive(w.pid)).toBe(true);
    return w;
  }

  it('started by npm run sweep:worker: stops by itself once its parent shell is killed', async () => {
    const w = await workerUnderShell(true);
    w.sh.kill('SIGTERM');
    await until('the orphaned worker to stop', () => !alive(w.pid), 30_000);
    expect(w.out).toContain(`perpdesk sweep worker ${w.pid}: its parent process ${w.sh.pid} is gone; stopping`);
  }, 180_000);

  it('started with node itself (nohup node ... &): runs on when its shell goes', async () => {
    const w = await workerUnderShell(false);
    w.sh.kill('SIGTERM');
    // the npm-started worker above stopped within about a second of this; give this one three
    await new Promise((r) => setTimeout(r, 3000));
    expect(alive(w.pid)).toBe(true);
    expect(w.out).not.toContain('is gone; stopping');
    process.kill(w.pid, 'SIGKILL');
  }, 180_000);
});
