// A sweep resumed from a checkout of another build (docs/sweeps.md, Resume): started on commit A,
// resumed after a `git pull` (commit B), it kept A's stored results and ran the rest with B's code,
// without a word, mixing two builds' figures. A sweep now stores its build when it starts, and a
// resume of another build is refused in one line naming both builds (exit 2, nothing run);
// --like of it is a new sweep, and a sweep stored before builds were is resumed as it is.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildId } from '../../src-main/sweep/build-id.ts';
import type { SweepJob } from '../../src-main/sweep/job.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z';
const OTHER = 'b0b0b0b0b0b0b0b0';
let dir: string;

beforeAll(async () => {
  dir = await klinesDataDir();
});

/** A stopped copy of sweep `from` named `id`, its jobs pending, of build `build` (none: stored before builds were). */
function copyOf(from: string, id: string, build: string | undefined): void {
  const db = new DatabaseSync(path.join(dir, 'sweeps.db'));
  const rows = db.prepare('SELECT job FROM sweep_jobs WHERE sweep_id = ? ORDER BY idx').all(from) as Array<{
    job: string;
  }>;
  db.close();
  const jobs = rows.map((r) => {
    const j = JSON.parse(r.job) as SweepJob;
    return { ...j, id: `${id}:${j.index}`, sweepId: id };
  });
  const store = new SqliteSweepStore(dir);
  const { build: _, ...spec } = store.spec(from)!;
  const dead = { host: hostname(), pid: spawnSync(process.execPath, ['-e', '0']).pid! };
  store.createSweep(id, build === undefined ? spec : { ...spec, build }, jobs, dead, Date.now());
  store.setState(id, 'stopped', Date.now());
  store.close();
}

describe('a sweep resumed from a checkout of another build', () => {
  it('is refused in one line naming both builds; --like of it and a sweep without a build run', async () => {
    const first = await runCli(['--data-dir', dir, '--split', '6h', '--bot', BOT, '--replay', SPAN, '--workers', '1']);
    expect(first.code, first.stderr).toBe(0);
    const id = /perpdesk sweep (sw\w+):/.exec(first.stdout)![1];
    const store = new SqliteSweepStore(dir);
    expect(store.spec(id)!.build).toBe(buildId());
    store.close();

    // started by another build, stopped with its job pending: resumed here, by ID or the newest
    copyOf(id, 'swOtherBuild', OTHER);
    const [named, bare] = await Promise.all([
      runCli(['--data-dir', dir, '--resume', 'swOtherBuild']),
      runCli(['--data-dir', dir, '--resume']),
    ]);
    const line =
      `perpdesk sweep: sweep swOtherBuild was started by build ${OTHER} and this checkout is build ${buildId()} ` +
      `(another commit, or local changes, under src-main, src-shared or package-lock.json): resuming it would ` +
      `mix two builds' figures; run it again as a new sweep (npm run sweep -- --like swOtherBuild --replay ${SPAN}) ` +
      `or resume it from a checkout of build ${OTHER}\n`;
    for (const r of [named, bare]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(line);
    }
    const after = new SqliteSweepStore(dir);
    expect(after.summary('swOtherBuild')).toMatchObject({ state: 'stopped', done: 0, jobs: 1 });
    after.close();

    // a new sweep of its bot and sets, of this build
    const like = await runCli(['--data-dir', dir, '--like', 'swOtherBuild', '--replay', SPAN, '--workers', '1']);
    expect(like.code, like.stderr).toBe(0);
    expect(like.stdout).toMatch(/1\/1 jobs done/);

    // one stored before builds were is resumed as it is
    expect((await runCli(['--data-dir', dir, '--remove', 'swOtherBuild'])).code).toBe(0);
    copyOf(id, 'swNoBuild', undefined);
    const old = await runCli(['--data-dir', dir, '--resume', 'swNoBuild', '--workers', '1']);
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toMatch(/1\/1 jobs done/);
  }, 120_000);
});
