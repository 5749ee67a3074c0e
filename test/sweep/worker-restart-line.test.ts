// What a queue worker says of a job that ends after its Redis restarted without its data while the
// job ran (docs/sweeps.md, Redis restarted): the restart lost the job's lock, the coordinator added
// the job again, and the worker's end line blamed `its lock lapsed while the worker was paused or cut
// off from Redis`, a cause that did not happen. The worker reads Redis's run_id (INFO server) at
// connect and at each reconnect; a new one is a restarted Redis, and the line now names it. A real
// redis-server without persistence, stopped and started again on the same port mid-job, a real
// coordinator (QueueRunner) that adds the lost job again, and a real `npm run sweep:worker`.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, type PackRef } from '../../src-main/sweep/pack.ts';
import { QueueRunner } from '../../src-main/sweep/queue.ts';
import { startCli } from './cli-helpers.ts';
import { DAY, JAN6, klinesDataDir, testJob } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a queue worker whose Redis restarts while a job runs', () => {
  let redis: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let runner: QueueRunner | undefined;
  let port = 0;
  let redisDir = '';
  let ref: PackRef;

  beforeAll(async () => {
    const dir = await klinesDataDir();
    const pack = await buildPack(dir, ['BTCUSDT'], path.join(dir, 'pack.db'));
    ref = { path: path.join(dir, 'pack.db'), sha256: pack.sha256 };
    port = Number(process.env.PERPDESK_TEST_REDIS_PORT ?? 0) || (await freePort());
    redisDir = mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-'));
    redis = await startRedis(port, redisDir);
  }, 60_000);

  afterAll(async () => {
    await runner?.stop();
    await stop(worker);
    await stop(redis);
    rmSync(redisDir, { recursive: true, force: true });
  });

  it('says the job ended no longer its own because Redis restarted, not that its lock lapsed', async () => {
    const url = `redis://127.0.0.1:${port}`;
    const cli = startCli(['worker', '--queue', url, '--concurrency', '1', '--stall-ms', '60000']);
    worker = cli.child;
    let err = '';
    worker.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const log = () => cli.stdout() + err;
    await until('the worker to take jobs', () => log().includes('taking jobs'));
    // a bot that hangs until its time bound: it runs across the restart
    const job = testJob({ id: 'swRR:0', sweepId: 'swRR', index: 0, until: JAN6 + DAY / 8, params: { mode: 'hang' } });
    job.timeoutMs = 20_000;
    runner = await QueueRunner.connect(url);
    void runner.run([job], ref, { onResult: () => undefined });
    await until('the job to start', () => /job swRR-0 started/.test(log()));
    await stop(redis);
    await until('the worker to see Redis gone', () => /ECONNREFUSED/.test(log()));
    redis = await startRedis(port, redisDir);
    await until('the worker to see Redis back', () => / is back/.test(log()));
    // the coordinator adds the lost job again (this worker takes it, its venue started ahead); the
    // first run ends at its time bound
    await until('the first run to end', () => /job swRR-0 was no longer this worker's when it ended/.test(log()));
    const out = log();
    const end = /job swRR-0 was no longer this worker's when it ended \(([^)]*)\)/.exec(out)![1];
    expect(end, out).not.toMatch(/lapsed/);
    expect(end, out).toMatch(/^Redis restarted while it ran: its run_id changed/);
    expect(out).toContain(
      "job swRR-0 was no longer this worker's when it ended (Redis restarted while it ran: its run_id changed, and a " +
        "Redis without persistence loses its data, this job's lock with it; the sweep's coordinator adds the job " +
        "again and that run counts; appendonly yes on the sweep's Redis loses nothing): its outcome here is dropped",
    );
  }, 180_000);
});
