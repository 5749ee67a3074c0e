// A queue sweep that no worker takes jobs from (started before its workers, or on a database its
// workers do not use): the coordinator says so once, with the command that starts one, and the
// jobs run once a worker comes. Before, it showed `0/1 done, 0 failed, 0 running, ETA ?` for ever
// with nothing said.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z';

describe.skipIf(!HAS_REDIS)('a queue sweep without a worker', () => {
  let dir: string;
  let url: string;
  let redis: ChildProcess;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dir = await klinesDataDir();
    const port = await freePort();
    url = `redis://127.0.0.1:${port}/2`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
  });
  afterAll(async () => {
    for (const c of children) await stop(c, 'SIGKILL');
    await stop(redis);
  });

  it('says no worker takes its jobs, once, and runs them when one comes', async () => {
    // a worker on another database of the same Redis takes none of them
    const elsewhere = startCli(['worker', '--queue', url.replace(/\/2$/, '/0'), '--concurrency', '1']);
    children.push(elsewhere.child);
    await until('the other worker to take jobs', () => elsewhere.stdout().includes('taking jobs'), 120_000);
    const run = startCli(['--data-dir', dir, '--bot', BOT, '--replay', SPAN, '--split', '6h', '--queue', url]);
    children.push(run.child);
    const said = `no queue worker takes jobs from ${url}: the 1 job(s) left wait for one (npm run sweep:worker -- --queue ${url})`;
    await until('the coordinator to say no worker takes its jobs', () => run.stdout().includes(said), 120_000);
    const worker = startCli(['worker', '--queue', url, '--concurrency', '1']);
    children.push(worker.child);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1\/1 jobs done \(1 ok, 0 failed\)/);
    expect(r.stdout.split(said).length - 1).toBe(1);
    expect(elsewhere.stdout()).not.toMatch(/job sw\w+-0 taken/);
  }, 240_000);
});
