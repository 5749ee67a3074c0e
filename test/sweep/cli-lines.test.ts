// The sweep CLI's last line (src-main/sweep/cli-lines.ts): every command it prints runs as printed,
// with the sweep's --data-dir and, for one that ran on a queue, its --queue.
import { describe, expect, it } from 'vitest';
import { finalLine, listHint, sweepCommands } from '../../src-main/sweep/cli-lines.ts';
import type { SweepSummary } from '../../src-main/sweep/ports.ts';

const summary = (over: Partial<SweepSummary>): SweepSummary => ({
  id: 'sw1',
  created_at: 0,
  updated_at: 0,
  state: 'done',
  bot: 'node bot.ts',
  replay: 'BTCUSDT@2025-01-06..2025-01-06',
  split: 'day',
  jobs: 14,
  done: 14,
  ok: 1,
  failed: 13,
  timeouts: 0,
  errors: 0,
  heartbeat_at: null,
  ...over,
});

describe("the sweep's last line", () => {
  it("says how to run a done sweep's error jobs again, with its data folder and queue", () => {
    const line = finalLine(summary({ errors: 12 }), 14, '/data dir', 'redis://127.0.0.1:6390');
    expect(line).toBe(
      'perpdesk sweep sw1: 14/14 jobs done (1 ok, 1 failed, 12 error); run its 12 error jobs again with: ' +
        "npm run sweep -- --resume sw1 --data-dir '/data dir' --queue redis://127.0.0.1:6390 (this run: 14); " +
        "results: npm run sweep -- --export sw1 --format csv --data-dir '/data dir', or GET /api/v1/sweeps/sw1",
    );
    // none: no hint
    expect(finalLine(summary({}), 14, undefined, undefined)).toBe(
      'perpdesk sweep sw1: 14/14 jobs done (1 ok, 13 failed) (this run: 14); ' +
        'results: npm run sweep -- --export sw1 --format csv, or GET /api/v1/sweeps/sw1',
    );
  });

  it('counts the jobs run again after their worker process died', () => {
    expect(finalLine(summary({ ok: 14, failed: 0 }), 14, undefined, undefined, 2)).toMatch(
      /\(14 ok, 0 failed\) \(this run: 14, 2 run again after their worker process died\); results:/,
    );
  });

  it("counts the bot's failures, timeouts and jobs that could not run apart", () => {
    expect(finalLine(summary({ ok: 4, failed: 10, timeouts: 3, errors: 2 }), 14, undefined, undefined)).toMatch(
      /^perpdesk sweep sw1: 14\/14 jobs done \(4 ok, 5 failed, 3 timeout, 2 error\); run its 2 error jobs again/,
    );
  });
});

describe('--list', () => {
  it('says how to finish a stopped sweep (on its queue, its results waiting there), not only an interrupted one', () => {
    const q = 'redis://127.0.0.1:6390';
    expect(listHint(summary({ state: 'stopped', done: 3 }), '/d', q)).toBe(
      `  (finish with: npm run sweep -- --resume sw1 --data-dir /d --queue ${q})`,
    );
    expect(listHint(summary({ state: 'interrupted', done: 3 }), undefined, 'local')).toBe(
      '  (its coordinator is gone: npm run sweep -- --resume sw1, or --remove sw1)',
    );
    expect(listHint(summary({ errors: 2 }), undefined, 'local')).toBe(
      '  (run its 2 error jobs again with: npm run sweep -- --resume sw1)',
    );
    expect(listHint(summary({}), undefined, 'local')).toBe('');
    expect(listHint(summary({ state: 'running', done: 3 }), undefined, 'local')).toBe('');
  });
});

describe("the commands the service offers for a sweep (GET /api/v1/sweeps, the page's Copy)", () => {
  it('resumes one with jobs left or error jobs, on its folder and its queue; removes any not running', () => {
    const stopped = summary({ state: 'stopped', done: 2, jobs: 4, errors: 0 });
    expect(sweepCommands(stopped, undefined, 'local')).toEqual({
      resume: 'npm run sweep -- --resume sw1',
      rerun: null,
      remove: 'npm run sweep -- --remove sw1',
      like: 'npm run sweep -- --like sw1 --replay BTCUSDT@2025-01-06..2025-01-06',
    });
    expect(sweepCommands(stopped, '/srv/my data', 'redis://127.0.0.1:6390')).toEqual({
      resume: "npm run sweep -- --resume sw1 --data-dir '/srv/my data' --queue redis://127.0.0.1:6390",
      rerun: null,
      remove: "npm run sweep -- --remove sw1 --data-dir '/srv/my data'",
      like: "npm run sweep -- --like sw1 --replay BTCUSDT@2025-01-06..2025-01-06 --data-dir '/srv/my data'",
    });
    // done: its error jobs run again; with none, nothing to resume
    expect(sweepCommands(summary({ state: 'done', done: 4, jobs: 4, errors: 1 }), '/d', 'local').resume).toBe(
      'npm run sweep -- --resume sw1 --data-dir /d',
    );
    expect(sweepCommands(summary({ state: 'done', done: 4, jobs: 4, errors: 0 }), '/d', 'local')).toMatchObject({
      resume: null,
      remove: 'npm run sweep -- --remove sw1 --data-dir /d',
    });
    expect(sweepCommands(summary({ state: 'interrupted', done: 0, jobs: 1 }), undefined, 'local').resume).toBe(
      'npm run sweep -- --resume sw1',
    );
    // running: nothing to resume or remove yet; a sweep like it can start any time
    expect(sweepCommands(summary({ state: 'running', done: 1, jobs: 4 }), '/d', 'local')).toEqual({
      resume: null,
      rerun: null,
      remove: null,
      like: 'npm run sweep -- --like sw1 --replay BTCUSDT@2025-01-06..2025-01-06 --data-dir /d',
    });
  });
});

// A sweep another build started (its build stored with it: build-id.ts) is refused by --resume
// (exit 2: `... run it again as a new sweep (npm run sweep -- --like ID --replay SPEC) or resume it
// from a checkout of build A`), yet the page, the API's `commands` and --list offered `--resume ID`.
describe('the commands offered for a sweep of another build than this checkout', () => {
  const mine = 'bbbbbbbbbbbbbbbb';
  const theirs = 'aaaaaaaaaaaaaaaa';
  const like = "npm run sweep -- --like sw1 --replay BTCUSDT@2025-01-06..2025-01-06 --data-dir '/srv/my data'";

  it('offers no --resume but the command that runs it again as a new sweep, as the CLI says', () => {
    for (const s of [
      summary({ state: 'stopped', done: 2, jobs: 4 }),
      summary({ state: 'interrupted', done: 2, jobs: 4 }),
      summary({ state: 'done', done: 4, jobs: 4, errors: 1 }),
    ]) {
      const c = sweepCommands(s, '/srv/my data', 'redis://127.0.0.1:6390', theirs, mine);
      expect(c, s.state).toEqual({
        resume: null,
        rerun: like,
        remove: "npm run sweep -- --remove sw1 --data-dir '/srv/my data'",
        like,
      });
      expect(listHint(s, '/srv/my data', 'redis://127.0.0.1:6390', theirs, mine)).toBe(
        `  (started by build ${theirs}, not this checkout's ${mine}: run it again as a new sweep with: ${like}, ` +
          `or resume it from a checkout of build ${theirs})`,
      );
    }
    // nothing left: nothing to run again
    expect(sweepCommands(summary({ state: 'done', done: 4, jobs: 4 }), undefined, 'local', theirs, mine).rerun).toBe(
      null,
    );
    expect(listHint(summary({ state: 'done', done: 4, jobs: 4 }), undefined, 'local', theirs, mine)).toBe('');
    // of this build, or stored before builds were: resumed as before
    for (const build of [mine, undefined]) {
      const c = sweepCommands(summary({ state: 'stopped', done: 2, jobs: 4 }), undefined, 'local', build, mine);
      expect(c.resume).toBe('npm run sweep -- --resume sw1');
      expect(c.rerun).toBe(null);
    }
  });
});
