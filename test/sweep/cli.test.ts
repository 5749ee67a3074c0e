// `npm run sweep` with the local pool (docs/sweeps.md): clear usage errors before any job
// starts; a sweep over pieces x parameter sets on two worker processes where a failing bot fails
// its jobs only; the same sweep twice giving the same digests; a coordinator killed mid-sweep
// finished by --resume with every job stored once. A queue worker's unreachable Redis: one line, exit 2.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobResult } from '../../src-main/sweep/job.ts';
import { sweepResults } from '../../src-main/sweep/reader.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli, startCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort } from './redis-helpers.ts';

let dir: string;
let grid: string;
const BOT = 'node test/sweep/bots/test-bot.ts';
const SPAN = 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T12:00Z';

beforeAll(async () => {
  dir = await klinesDataDir();
  grid = path.join(dir, 'grid.json');
  writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'trade', qty: '0.02' }, { mode: 'exit3' }] }));
});

function stored(id: string) {
  const s = new SqliteSweepStore(dir);
  try {
    return { summary: s.summary(id)!, jobs: s.jobs(id) };
  } finally {
    s.close();
  }
}

/** The processes whose environment names a job of the sweep (its bots). */
const botsOf = (sweep: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').includes(`PERPDESK_JOB_ID=${sweep}:`);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    });

const sweepId = (stdout: string) => /perpdesk sweep (sw\w+):/.exec(stdout)![1];

describe('npm run sweep, before any job starts', () => {
  it('refuses a bad grid, an unknown symbol, a span outside the data, a missing bot and a balance past the rule', async () => {
    const bad = path.join(dir, 'bad-grid.json');
    writeFileSync(bad, '{"grid": {"fast": []}}');
    const base = ['--data-dir', dir, '--split', '6h'];
    const runs = await Promise.all([
      runCli([...base, '--bot', BOT, '--replay', SPAN, '--grid', bad]),
      runCli([...base, '--bot', BOT, '--replay', 'ETHUSDT@2025-01-06..2025-01-07']),
      runCli([...base, '--bot', BOT, '--replay', 'BTCUSDT@2025-01-10..2025-01-20']),
      runCli([...base, '--bot', 'node examples/no-such-bot.ts', '--replay', SPAN]),
      runCli([...base, '--replay', SPAN]),
      // past a paper account's largest balance every job ended error ("BigInt value is too large to bind")
      runCli([...base, '--bot', BOT, '--replay', SPAN, '--balance', '92233720369']),
    ]);
    const want = [
      /--grid .*bad-grid.json: "grid.fast" must be a non-empty list/,
      /no depth, trades or klines dataset of ETHUSDT in /,
      /the span 2025-01-10..2025-01-20 goes past the end of the data of BTCUSDT: a span of dates runs from 2025-01-06 to 2025-01-12 at most, each day to its end \(its first row is at 2025-01-06T00:00Z, its last 15m candle opens at 2025-01-12T23:45Z\)/,
      /--bot: the script .*no-such-bot.ts does not exist/,
      /--bot is required/,
      /--balance must be at most 1000000000 USDT, got '92233720369'\n$/,
    ];
    runs.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^perpdesk sweep: ${want[i].source}`));
      expect(r.stdout).toBe('');
    });
    // nothing was recorded
    const s = new SqliteSweepStore(dir);
    expect(s.list()).toEqual([]);
    s.close();
  }, 60_000);

  it('refuses a bot command left unquoted and a data folder that cannot be written, in one line', async () => {
    // a regular file: a folder cannot be made under it, whoever runs the test (root included)
    const file = path.join(dir, 'grid.json');
    const [unquoted, underFile, isFile] = await Promise.all([
      runCli(['--data-dir', dir, '--bot', 'node', 'test/sweep/bots/test-bot.ts', '--replay', SPAN]),
      runCli(['--data-dir', path.join(file, 'data'), '--bot', BOT, '--replay', SPAN]),
      runCli(['--data-dir', file, '--list']),
    ]);
    expect(unquoted.code, unquoted.stderr).toBe(2);
    expect(unquoted.stderr).toBe(
      "perpdesk sweep: unexpected argument 'test/sweep/bots/test-bot.ts': a bot command with arguments is one " +
        'quoted --bot value (--bot "node examples/sweep-bot.ts"); see --help\n',
    );
    for (const [r, folder] of [
      [underFile, path.join(file, 'data')],
      [isFile, file],
    ] as const) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^perpdesk sweep: cannot use the data folder ${folder} \\(--data-dir\\): [^\\n]+; it must be a folder you can write\\n$`,
        ),
      );
      expect(r.stdout).toBe('');
    }
    // --resume's ID is the one word an option does not take
    const resume = await runCli(['--data-dir', dir, '--resume', 'sw00000000nosuch']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toBe(`perpdesk sweep: no sweep sw00000000nosuch in ${dir}\n`);
    const s = new SqliteSweepStore(dir);
    expect(s.list()).toEqual([]);
    s.close();
  }, 60_000);
});

describe('npm run sweep:worker, before any job starts', () => {
  it('an unreachable Redis is one line and exit 2 however many worker processes were asked for', async () => {
    const dead = await freePort();
    const url = `redis://127.0.0.1:${dead}`;
    const [one, several] = await Promise.all([
      runCli(['worker', '--queue', url, '--concurrency', '1']),
      runCli(['worker', '--queue', url, '--concurrency', '3']),
    ]);
    for (const r of [one, several]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^perpdesk sweep: cannot reach Redis at ${url}: [^\\n]*ECONNREFUSED[^\\n]*\\n$`),
      );
      expect(r.stdout).toBe('');
    }
  }, 30_000);
});

describe('a local sweep', () => {
  let first: { id: string; digests: string[]; result: JobResult };

  it('runs every piece x set on two workers; a failing bot fails its jobs and the sweep goes on', async () => {
    const r = await runCli([
      '--data-dir',
      dir,
      '--bot',
      BOT,
      '--replay',
      SPAN,
      '--split',
      '6h',
      '--grid',
      grid,
      '--workers',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = sweepId(r.stdout);
    expect(r.stdout).toMatch(/4 jobs \(2 parameter sets\)/);
    expect(r.stdout).toMatch(/4\/4 jobs done \(2 ok, 2 failed\)/);
    expect(r.stdout).toMatch(/job 1 failed: the bot exited with code 3 \| test-bot: giving up with 3/);
    expect(r.stderr).toMatch(/\[#+\] 4\/4 done, 2 failed, 0 running, ETA 0s/);
    // the export command it prints runs as printed (it named no data folder: it said 'no sweep ID')
    const printed = /results: npm run sweep -- (.*), or GET/.exec(r.stdout)![1];
    expect(printed).toBe(`--export ${id} --format csv --data-dir ${dir}`);
    const exported = await runCli(printed.split(' '));
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim().split('\n')).toHaveLength(5);
    const { summary, jobs } = stored(id);
    expect(summary).toMatchObject({ jobs: 4, done: 4, ok: 2, failed: 2, state: 'done' });
    expect(jobs.map((j) => [j.index, j.status, j.params.mode, j.start])).toEqual([
      [0, 'ok', 'trade', Date.UTC(2025, 0, 6)],
      [1, 'failed', 'exit3', Date.UTC(2025, 0, 6)],
      [2, 'ok', 'trade', Date.UTC(2025, 0, 6, 6)],
      [3, 'failed', 'exit3', Date.UTC(2025, 0, 6, 6)],
    ]);
    expect(jobs[1].result).toMatchObject({ exitCode: 3, outputTail: ['test-bot: giving up with 3'] });
    expect(jobs[0].result!.metrics!.trades).toBe(2);
    first = { id, digests: jobs.map((j) => j.result!.digest), result: jobs[1].result! };
  }, 120_000);

  it("--like runs another sweep's bot, sets and options on other data; refuses what it would ignore", async () => {
    const other = 'BTCUSDT@2025-01-07T00:00Z..2025-01-07T12:00Z';
    const [noSweep, noReplay, withBot] = await Promise.all([
      runCli(['--data-dir', dir, '--like', 'sw00000000nosuch', '--replay', other]),
      runCli(['--data-dir', dir, '--like', first.id]),
      runCli(['--data-dir', dir, '--like', first.id, '--replay', other, '--bot', BOT]),
    ]);
    expect([noSweep.code, noReplay.code, withBot.code]).toEqual([2, 2, 2]);
    expect(noSweep.stderr).toContain(`--like sw00000000nosuch: no sweep sw00000000nosuch in ${dir}`);
    expect(noReplay.stderr).toContain(
      `--like ${first.id} needs --replay: the other data, SYMBOL@FROM..TO (it ran on ${SPAN})`,
    );
    expect(withBot.stderr).toContain('--like takes no --bot (it runs the other sweep');

    const r = await runCli(['--data-dir', dir, '--like', first.id, '--replay', other, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const id = sweepId(r.stdout);
    expect(id).not.toBe(first.id);
    // the same bot, 6h pieces and two sets, on the 7th; the failing set fails there too
    expect(r.stdout).toMatch(/4\/4 jobs done \(2 ok, 2 failed\)/);
    const { jobs } = stored(id);
    expect(jobs.map((j) => [j.status, j.params.mode, j.params.qty, j.start])).toEqual([
      ['ok', 'trade', '0.02', Date.UTC(2025, 0, 7)],
      ['failed', 'exit3', undefined, Date.UTC(2025, 0, 7)],
      ['ok', 'trade', '0.02', Date.UTC(2025, 0, 7, 6)],
      ['failed', 'exit3', undefined, Date.UTC(2025, 0, 7, 6)],
    ]);
    const s = new SqliteSweepStore(dir);
    const [was, now] = [s.spec(first.id)!, s.spec(id)!];
    s.close();
    expect(now).toMatchObject({ bot: was.bot, split: was.split, sets: was.sets, replay: other });
    expect(now.template).toMatchObject({ bot: was.template.bot, cwd: was.template.cwd, balance: was.template.balance });
    // gone again: the tests below find their own sweeps beside the first one only
    const removed = await runCli(['--data-dir', dir, '--remove', id]);
    expect(removed.code, removed.stderr).toBe(0);
  }, 120_000);

  it('gives the same digests run again, and a coordinator killed mid-sweep is finished by --resume', async () => {
    const run = startCli([
      '--data-dir',
      dir,
      '--bot',
      BOT,
      '--replay',
      SPAN,
      '--split',
      '6h',
      '--grid',
      grid,
      '--workers',
      '1',
    ]);
    // kill -9 the coordinator once two results are stored, the third job (a trading bot) running
    let id = '';
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const s = new SqliteSweepStore(dir);
      const mine = s.list().find((x) => x.id !== first.id);
      s.close();
      if (mine !== undefined && mine.done >= 2) {
        id = mine.id;
        break;
      }
    }
    expect(id).not.toBe('');
    run.child.kill('SIGKILL');
    await run.done;
    // its worker saw the coordinator go and took its running bot with it
    for (let i = 0; i < 100 && botsOf(id).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(botsOf(id)).toEqual([]);
    const cut = stored(id);
    expect(cut.summary.done).toBeLessThan(4);
    // its coordinator is gone: not shown running
    expect(cut.summary.state).toBe('interrupted');

    const r = await runCli(['--data-dir', dir, '--resume', '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`perpdesk sweep ${id}: 4/4 jobs done \\(2 ok, 2 failed\\) \\(this run: ${4 - cut.summary.done}\\)`),
    );
    const { jobs } = stored(id);
    expect(jobs.map((j) => j.result!.digest)).toEqual(first.digests);
    // nothing left to resume
    const again = await runCli(['--data-dir', dir, '--resume']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no unfinished sweep, nor a done one with error jobs, in /);
  }, 120_000);

  it('exports a sweep as CSV, one row per job with its parameters and metrics', async () => {
    const r = await runCli(['--data-dir', dir, '--export', first.id, '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\n');
    expect(head.split(',')).toEqual([
      ...[
        'index',
        'start',
        'until',
        'status',
        'mode',
        'qty',
        'net_pnl',
        'return',
        'max_drawdown',
        'max_drawdown_ratio',
      ],
      ...['sharpe', 'sortino', 'fees', 'funding', 'trades', 'win_rate', 'time_in_market', 'turnover', 'liquidations'],
      ...['exit_code', 'wall_ms', 'digest', 'reason'],
    ]);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatch(/^1,2025-01-06T00:00:00.000Z,2025-01-06T06:00:00.000Z,failed,exit3,,/);
    expect(rows[2]).toMatch(/^2,2025-01-06T06:00:00.000Z,2025-01-06T12:00:00.000Z,ok,trade,0.02,-?\d/);
    expect(rows[2]).toContain(first.digests[2]);
  }, 30_000);

  it("runs a done sweep's error jobs again at --resume, with the digests of a first run", async () => {
    // two jobs that could not run (a worker without the data, its process dying twice): error
    const db = new DatabaseSync(path.join(dir, 'sweeps.db'));
    const lost = JSON.stringify({ ...first.result, status: 'error', reason: 'the queue gave up on it', digest: '' });
    db.prepare("UPDATE sweep_jobs SET status = 'error', result = ? WHERE sweep_id = ? AND idx IN (0, 2)").run(
      lost,
      first.id,
    );
    db.close();
    expect(stored(first.id).summary).toMatchObject({ state: 'done', done: 4, failed: 4, errors: 2 });
    const r = await runCli(['--data-dir', dir, '--resume', '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`perpdesk sweep ${first.id}: running its 2 error jobs again`);
    expect(r.stdout).toMatch(
      new RegExp(`perpdesk sweep ${first.id}: 4/4 jobs done \\(2 ok, 2 failed\\) \\(this run: 2\\)`),
    );
    const { summary, jobs } = stored(first.id);
    expect(summary).toMatchObject({ state: 'done', errors: 0 });
    expect(jobs.map((j) => j.result!.digest)).toEqual(first.digests);
  }, 60_000);

  it('says when a worker process dies under a job, which job runs again, and counts it in the last line', async () => {
    const slow = path.join(dir, 'slow.json');
    writeFileSync(slow, JSON.stringify({ sets: [{ mode: 'slow', sleep_ms: 1500 }] }));
    const run = startCli([
      ...['--data-dir', dir, '--bot', BOT, '--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z'],
      ...['--split', 'none', '--grid', slow, '--workers', '1'],
    ]);
    let id = '';
    let bot: string | undefined;
    for (let i = 0; i < 600 && bot === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      id = /perpdesk sweep (sw\w+): 1 job/.exec(run.stdout())?.[1] ?? '';
      if (id !== '') bot = botsOf(id)[0];
    }
    expect(bot).toBeDefined();
    // the bot's parent is the worker process: kill -9 it
    const worker = Number(readFileSync(`/proc/${bot}/stat`, 'latin1').split(') ')[1].split(' ')[1]);
    process.kill(worker, 'SIGKILL');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('job 0: its worker process died (SIGKILL); the job runs again on a new worker\n');
    expect(r.stdout).toContain(
      `${id}: 1/1 jobs done (1 ok, 0 failed) (this run: 1, 1 run again after their worker process died)`,
    );
  }, 120_000);

  it('shows a sweep whose coordinator was killed as interrupted (CLI and API), and removes it; not while it runs', async () => {
    const hang = path.join(dir, 'hang.json');
    writeFileSync(hang, JSON.stringify({ sets: [{ mode: 'hang' }] }));
    const run = startCli([
      ...['--data-dir', dir, '--bot', BOT, '--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z'],
      ...['--split', 'none', '--grid', hang, '--workers', '1'],
    ]);
    let id = '';
    for (let i = 0; i < 600 && id === ''; i++) {
      await new Promise((r) => setTimeout(r, 100));
      id = /perpdesk sweep (sw\w+): 1 job \(1 parameter set\)/.exec(run.stdout())?.[1] ?? '';
    }
    expect(id).not.toBe('');
    const api = sweepResults(dir);
    expect(api.list().find((x) => x.id === id)?.state).toBe('running');
    // a live coordinator's sweep is neither resumed by another nor removed
    const resume = await runCli(['--data-dir', dir, '--resume', id, '--workers', '1']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(
      new RegExp(
        `perpdesk sweep: sweep ${id} is running \\(its coordinator is alive, heard from \\d+ s ago\\): stop it \\(Ctrl-C\\) before resuming it`,
      ),
    );
    const busy = await runCli(['--data-dir', dir, '--remove', id]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/before removing it/);

    run.child.kill('SIGKILL');
    await run.done;
    expect(api.list().find((x) => x.id === id)).toMatchObject({ state: 'interrupted', done: 0, jobs: 1 });
    const list = await runCli(['--data-dir', dir, '--list']);
    expect(list.stdout).toContain(
      `${id}  interrupted  0/1 done, 0 failed  BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z  ${BOT}  (its coordinator is gone: npm run sweep -- --resume ${id} --data-dir ${dir}, or --remove ${id})`,
    );
    // one that ran on a queue is finished on it: its workers' results wait there
    const store = new SqliteSweepStore(dir);
    const dead = { host: hostname(), pid: spawnSync(process.execPath, ['-e', '0']).pid! };
    store.createSweep('swQueued', { ...store.spec(id)!, runner: 'redis://127.0.0.1:6390' }, [], dead, Date.now());
    // stopped with Ctrl-C: its finishing command too (its results wait in that Redis)
    store.createSweep('swStopped', { ...store.spec(id)!, runner: 'redis://127.0.0.1:6390' }, [], dead, Date.now());
    store.setState('swStopped', 'stopped', Date.now());
    store.close();
    const queued = await runCli(['--data-dir', dir, '--list']);
    expect(queued.stdout).toContain(
      `(finish with: npm run sweep -- --resume swStopped --data-dir ${dir} --queue redis://127.0.0.1:6390)`,
    );
    expect((await runCli(['--data-dir', dir, '--remove', 'swStopped', '--forget-queue'])).code).toBe(0);
    expect(queued.stdout).toContain(
      `(its coordinator is gone: npm run sweep -- --resume swQueued --data-dir ${dir} --queue redis://127.0.0.1:6390, or --remove swQueued)`,
    );
    // its jobs are removed from that Redis too: one that cannot be reached refuses, unless told to forget them
    const unreachable = await runCli(['--data-dir', dir, '--remove', 'swQueued']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      /^perpdesk sweep: sweep swQueued ran on the queue redis:\/\/127.0.0.1:6390, whose jobs/,
    );
    expect((await runCli(['--data-dir', dir, '--remove', 'swQueued', '--forget-queue'])).code).toBe(0);
    expect(existsSync(path.join(dir, 'sweeps', id))).toBe(true);
    const rm = await runCli(['--data-dir', dir, '--remove', id]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toBe(
      `perpdesk sweep ${id}: removed (interrupted, 0/1 jobs done) with its results and data pack\n`,
    );
    expect(api.get(id)).toBeUndefined();
    expect(existsSync(path.join(dir, 'sweeps', id))).toBe(false);
    api.close();
    const again = await runCli(['--data-dir', dir, '--remove', id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`no sweep ${id} in `));
  }, 120_000);
});
