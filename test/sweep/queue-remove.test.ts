// `--remove ID` of a sweep that ran on a queue (docs/sweeps.md, Options): its jobs in Redis go
// with it, whatever their state (waiting for a worker, finished with the result its coordinator
// never collected, run by a worker at that moment: removed once its bot ends), and no key of
// another sweep is touched. A real redis-server on a free loopback port and a real worker.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z';

describe.skipIf(!HAS_REDIS)('--remove of a queue sweep', () => {
  let dir: string;
  let url: string;
  let redis: ChildProcess | undefined;
  let client: IORedis;
  const children: ChildProcess[] = [];

  /** Every key of Redis with what it holds (a hash, list, set or sorted set read whole). */
  async function snapshot(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const k of (await client.keys('*')).sort()) {
      const type = await client.type(k);
      let v: unknown = type;
      if (type === 'hash') v = await client.hgetall(k);
      else if (type === 'list') v = await client.lrange(k, 0, -1);
      else if (type === 'zset') v = await client.zrange(k, 0, -1, 'WITHSCORES');
      else if (type === 'set') v = (await client.smembers(k)).sort();
      else if (type === 'string') v = await client.get(k);
      out.set(k, JSON.stringify(v));
    }
    return out;
  }

  /** What Redis holds of a sweep: its keys, and the entries naming its jobs in the queue's lists. */
  async function traces(id: string): Promise<string[]> {
    const found: string[] = [];
    for (const [k, v] of await snapshot()) {
      // the events stream is BullMQ's capped log of every queue event, shared by all sweeps
      if (k.endsWith(':events')) continue;
      if (k.includes(`${id}-`)) found.push(k);
      else if (v.includes(`${id}-`)) found.push(`${k} holds ${id}'s jobs`);
    }
    return found;
  }

  /** A queue sweep started, its jobs put on the queue, then stopped with Ctrl-C: answers its id. */
  async function stoppedSweep(grid: object, extra: string[] = [], beforeStop?: (id: string) => Promise<void>) {
    const file = path.join(dir, `grid-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(grid));
    const run = startCli([
      ...['--data-dir', dir, '--bot', BOT, '--replay', SPAN, '--grid', file, '--queue', url],
      ...extra,
    ]);
    children.push(run.child);
    await until('the sweep to be planned', () => /perpdesk sweep sw\w+: \d+ job/.test(run.stdout()), 120_000);
    const id = /perpdesk sweep (sw\w+):/.exec(run.stdout())![1];
    // on the queue once the coordinator has added them (a stop before would leave none to remove)
    for (const t0 = Date.now(); (await client.exists(`bull:perpdesk-sweep:${id}-0`)) === 0;) {
      if (Date.now() - t0 > 120_000) throw new Error(`timed out waiting for ${id}'s jobs on the queue`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await beforeStop?.(id);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    return id;
  }

  const jobState = (id: string) => client.hget(`bull:perpdesk-sweep:${id}`, 'finishedOn');

  beforeAll(async () => {
    dir = await klinesDataDir();
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    client = new IORedis({ host: '127.0.0.1', port });
  });

  afterAll(async () => {
    client?.disconnect();
    for (const c of children) await stop(c, 'SIGKILL');
    await stop(redis);
  });

  it("removes its waiting, finished and running jobs from Redis, and leaves another sweep's untouched", async () => {
    // A: two jobs, run by a worker after their coordinator stopped: their results wait in Redis
    const a = await stoppedSweep({ sets: [{ mode: 'exit3' }] }, ['--split', '3h']);
    const worker = startCli(['worker', '--queue', url, '--concurrency', '1', '--stall-ms', '15000']);
    children.push(worker.child);
    let wlog = '';
    worker.child.stdout!.on('data', (b: Buffer) => (wlog += b.toString()));
    await until('the worker to finish both of them', () => /-0 failed/.test(wlog) && /-1 failed/.test(wlog), 120_000);
    expect(await jobState(`${a}-0`)).not.toBeNull();
    expect(await jobState(`${a}-1`)).not.toBeNull();

    // C: one job that a worker runs while --remove is asked: its bot runs until the removal has
    // found it held and waits for it (it hung until a 15 s bound, and a removal that came later, on
    // a loaded machine, found the job finished and said no wait)
    const release = path.join(dir, `release-${Math.random().toString(36).slice(2)}`);
    const c = await stoppedSweep({ sets: [{ mode: 'until-file', file: release }] }, ['--split', 'none'], async (id) => {
      await until('its job to start', () => wlog.includes(`job ${id}-0 started`), 120_000);
    });
    expect(await traces(c)).not.toEqual([]);
    const removing = startCli(['--data-dir', dir, '--remove', c]);
    children.push(removing.child);
    await until(
      'the removal to wait for the running job',
      () => /waiting for 1 of its jobs/.test(removing.stdout()),
      120_000,
    );
    expect(wlog).not.toMatch(new RegExp(`job ${c}-0 (ok|failed|timeout|error)`));
    writeFileSync(release, '');
    const rmC = await removing.done;
    expect(rmC.code, rmC.stderr).toBe(0);
    expect(rmC.stdout).toContain(`perpdesk sweep ${c}: waiting for 1 of its jobs that queue workers run now`);
    expect(rmC.stdout).toContain(
      `perpdesk sweep ${c}: removed (stopped, 0/1 jobs done) with its results and data pack, and its 1 job from the queue ${url}\n`,
    );
    expect(await traces(c)).toEqual([]);
    await stop(worker.child);

    // B: two jobs waiting for a worker
    const b = await stoppedSweep({ sets: [{ mode: 'exit3' }] }, ['--split', '3h']);
    expect(await traces(a)).not.toEqual([]);
    const before = await snapshot();
    const bKeys = [...before.keys()].filter((k) => k.includes(`${b}-`));
    expect(bKeys).toContain(`bull:perpdesk-sweep:${b}-0`);
    expect(bKeys).toContain(`bull:perpdesk-sweep:${b}-1`);

    const rm = await runCli(['--data-dir', dir, '--remove', a]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toBe(
      `perpdesk sweep ${a}: removed (stopped, 0/2 jobs done) with its results and data pack, and its 2 jobs from the queue ${url}\n`,
    );
    expect(await traces(a)).toEqual([]);
    const after = await snapshot();
    // B's jobs as they were, and still waiting for a worker
    for (const k of bKeys) expect(after.get(k), k).toBe(before.get(k));
    expect(await client.lrange('bull:perpdesk-sweep:wait', 0, -1)).toEqual(
      expect.arrayContaining([`${b}-0`, `${b}-1`]),
    );
    // removing it again finds nothing of it, here or in Redis
    const again = await runCli(['--data-dir', dir, '--remove', a]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`no sweep ${a} in `));
  }, 300_000);

  it('refuses while its Redis cannot be reached, removing nothing; --forget-queue removes it here only', async () => {
    const b = (await runCli(['--data-dir', dir, '--list'])).stdout.match(/^(sw\w+) /m)![1];
    client.disconnect();
    await stop(redis);
    redis = undefined;
    const refused = await runCli(['--data-dir', dir, '--remove', b]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `perpdesk sweep: sweep ${b} ran on the queue ${url}, whose jobs of it could not be removed ` +
        `(cannot reach Redis at ${url}: connect ECONNREFUSED ${url.slice('redis://'.length)}); nothing removed ` +
        `(with --forget-queue it is removed here, its jobs left in that Redis)\n`,
    );
    expect((await runCli(['--data-dir', dir, '--list'])).stdout).toContain(b);
    const forgot = await runCli(['--data-dir', dir, '--remove', b, '--forget-queue']);
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(forgot.stdout).toBe(
      `perpdesk sweep ${b}: removed (stopped, 0/2 jobs done) with its results and data pack\n`,
    );
  }, 60_000);
});
