// Ctrl-C of a queue sweep (docs/sweeps.md, Exit codes and Many machines): while Redis is away the
// coordinator says so, and Ctrl-C still stops it within a few seconds (it does not wait on Redis
// for ever), the sweep marked stopped, the summary and the resume hint printed, exit code 130; a
// second Ctrl-C ends it at once, the same way. The hint names the queue (the results its workers
// finish wait there), and following it finishes the sweep; a local resume of a queue sweep is
// refused unless --workers asks for it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli, startCli, type CliRun } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z';

/** The run's end, or null when it has not ended within ms. */
function within(done: Promise<CliRun>, ms: number): Promise<CliRun | null> {
  return Promise.race([done, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

describe.skipIf(!HAS_REDIS)('Ctrl-C of a queue sweep', () => {
  let dir: string;
  let port: number;
  let url: string;
  let redis: ChildProcess | undefined;
  const children: ChildProcess[] = [];

  const state = (id: string) => {
    const s = new SqliteSweepStore(dir);
    try {
      return s.summary(id)!;
    } finally {
      s.close();
    }
  };

  /** A queue sweep with no worker (its jobs wait), then Redis gone: answers the running coordinator. */
  async function sweepWithRedisGone() {
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    const run = startCli(['--data-dir', dir, '--bot', BOT, '--replay', SPAN, '--split', '3h', '--queue', url]);
    children.push(run.child);
    let out = '';
    run.child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await until('the sweep to be planned', () => /perpdesk sweep sw\w+: 2 jobs/.test(out), 120_000);
    const id = /perpdesk sweep (sw\w+):/.exec(out)![1];
    // the jobs are on the queue once the coordinator polls it; then Redis goes
    await new Promise((r) => setTimeout(r, 1500));
    await stop(redis);
    redis = undefined;
    // said while Redis is away, not once it is back
    await until('the coordinator to say Redis is away', () => /redis at .* retrying/.test(out), 15_000);
    return { run, id, out: () => out };
  }

  beforeAll(async () => {
    dir = await klinesDataDir();
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    for (const c of children) await stop(c, 'SIGKILL');
    await stop(redis);
  });

  it('stops at the first Ctrl-C within seconds while Redis is away: stopped, summary, hint with --queue, 130', async () => {
    const { run, id } = await sweepWithRedisGone();
    const t0 = Date.now();
    run.child.kill('SIGINT');
    const r = await within(run.done, 20_000);
    expect(r, 'the coordinator still runs 20 s after Ctrl-C').not.toBeNull();
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r!.code, r!.stderr).toBe(130);
    expect(r!.stdout).toContain(
      `perpdesk sweep ${id}: 0/2 jobs done (0 ok, 0 failed); finish with: npm run sweep -- --resume ${id} --data-dir ${dir} --queue ${url} (this run: 0)`,
    );
    expect(state(id).state).toBe('stopped');

    // the hint, followed once Redis and a worker are back, finishes the sweep
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    // a local resume of a queue sweep is refused (the results its workers finished wait in Redis)
    const local = await runCli(['--data-dir', dir, '--resume', id]);
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(
      new RegExp(`^perpdesk sweep: sweep ${id} ran on the queue ${url}: .*resume it with --queue ${url}`),
    );
    const worker = startCli(['worker', '--queue', url, '--concurrency', '1']);
    children.push(worker.child);
    const hint = /finish with: npm run sweep -- (.*) \(this run/.exec(r!.stdout)![1].split(' ');
    const resumed = await runCli(hint);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain(`perpdesk sweep ${id}: 2/2 jobs done (2 ok, 0 failed) (this run: 2)`);
    expect(state(id).state).toBe('done');
    await stop(worker.child);
    await stop(redis);
    redis = undefined;
  }, 300_000);

  it('ends at once at a second Ctrl-C, the sweep marked stopped and the summary printed', async () => {
    const { run, id } = await sweepWithRedisGone();
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGINT');
    const r = await within(run.done, 10_000);
    expect(r, 'the coordinator still runs 10 s after two Ctrl-C').not.toBeNull();
    expect(r!.code, r!.stderr).toBe(130);
    expect(r!.stdout).toContain(`perpdesk sweep ${id}: 0/2 jobs done (0 ok, 0 failed); finish with:`);
    expect(state(id).state).toBe('stopped');
  }, 300_000);
});
