// A local sweep resumed on a queue is recorded as on that queue (docs/sweeps.md, Resume): its
// workers' results wait there, so --list names the queue, --resume ID without --queue is refused,
// and --remove removes its jobs from that Redis. It stayed recorded as local: the hints lacked
// --queue, a plain --resume ran the jobs again locally, and --remove left them in Redis.
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepJob } from '../../src-main/sweep/job.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { sweepResults } from '../../src-main/sweep/reader.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli, startCli } from './cli-helpers.ts';
import { DAY, JAN6 } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

describe.skipIf(!HAS_REDIS)('a local sweep resumed on a queue', () => {
  let redis: ChildProcess;
  let url: string;
  let client: IORedis;

  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    client = new IORedis({ host: '127.0.0.1', port });
  });
  afterAll(async () => {
    client.disconnect();
    await stop(redis);
  });

  it('is recorded on that queue: --list, the --resume refusal and --remove name it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-resume-'));
    const id = 'sw20250106resumeq';
    const job = (index: number): SweepJob =>
      ({
        id: `${id}:${index}`,
        sweepId: id,
        index,
        start: JAN6,
        until: JAN6 + DAY,
        params: { n: index },
      }) as unknown as SweepJob;
    const spec = {
      bot: 'node bot.ts',
      replay: 'BTCUSDT@2025-01-06..2025-01-06',
      split: 'day',
      symbols: ['BTCUSDT'],
      start: JAN6,
      until: JAN6 + DAY,
      sets: [{ n: 0 }, { n: 1 }],
      runner: 'local',
      pack: { path: path.join(dir, 'sweeps', id, 'data.db'), sha256: 'ab'.repeat(32) },
      template: {},
    } as unknown as SweepSpec;
    // stopped on the local pool with both jobs pending
    const dead = { host: hostname(), pid: spawnSync(process.execPath, ['-e', '0']).pid! };
    const store = new SqliteSweepStore(dir);
    store.createSweep(id, spec, [job(0), job(1)], dead, Date.now());
    store.setState(id, 'stopped', Date.now());

    // resumed on the queue (no worker takes its jobs), and stopped there with Ctrl-C
    const run = startCli(['--data-dir', dir, '--resume', id, '--queue', url]);
    let queued = 0;
    const poll = setInterval(() => {
      void client.exists(`bull:perpdesk-sweep:${id}-0`, `bull:perpdesk-sweep:${id}-1`).then((n) => (queued = n));
    }, 100);
    await until('its jobs on the queue', () => queued === 2, 30_000).finally(() => clearInterval(poll));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stdout).toContain(`finish with: npm run sweep -- --resume ${id} --data-dir ${dir} --queue ${url}`);
    expect(store.spec(id)!.runner).toBe(url);
    store.close();

    const list = await runCli(['--data-dir', dir, '--list']);
    expect(list.stdout).toContain(`(finish with: npm run sweep -- --resume ${id} --data-dir ${dir} --queue ${url})`);
    // the API's commands (GET /api/v1/sweeps) too
    const api = sweepResults(dir);
    expect(api.list()[0].commands.resume).toBe(`npm run sweep -- --resume ${id} --data-dir ${dir} --queue ${url}`);
    api.close();
    const plain = await runCli(['--data-dir', dir, '--resume', id]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(new RegExp(`^perpdesk sweep: sweep ${id} ran on the queue ${url}: `));
    const rm = await runCli(['--data-dir', dir, '--remove', id]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain(`and its 2 jobs from the queue ${url}`);
    expect(await client.keys(`bull:perpdesk-sweep:${id}-*`)).toEqual([]);
  }, 60_000);
});
