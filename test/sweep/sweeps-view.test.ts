// The Sweeps page's logic (src-renderer/src/features/sweeps/sweeps-view.ts): the per-set table's
// sort (nulls last, either way), the heat map's cells (means over the sets sharing two values, or
// a strip over one parameter) and colours, a parameter left at its default, a set's equity curve over its pieces and the curves' scaling.
import { describe, expect, it } from 'vitest';
import {
  curveKey,
  curvePaths,
  dataText,
  figureText,
  likeCommand,
  heatColor,
  heatLabel,
  heatMap,
  paramCell,
  progressText,
  setCurve,
  setJobsText,
  shownSweep,
  sortSets,
  compareParams,
  staleCurves,
  stateText,
  type JobCurve,
} from '../../src-renderer/src/features/sweeps/sweeps-view.ts';
import type { SweepSet } from '../../src-shared/types/sweeps.ts';

const set = (params: SweepSet['params'], ret: number, sharpe: number | null): SweepSet =>
  ({ params, return: ret, sharpe, net_pnl: ret * 1e4, trades: 1 }) as unknown as SweepSet;

const sets = [
  set({ fast: 3, slow: 12, qty: '0.01' }, 0.01, 1.5),
  set({ fast: 3, slow: 24, qty: '0.01' }, -0.02, null),
  set({ fast: 5, slow: 12, qty: '0.01' }, 0.03, 2.5),
  set({ fast: 5, slow: 12, qty: '0.02' }, 0.05, -1),
];

describe('the Sweeps page', () => {
  it('says what data a sweep replays: its pinned datasets or the replays own pick, and its pack shortened', () => {
    const sha = '0123456789abcdef'.repeat(4);
    expect(dataText({ datasets: [4, 7], pack_sha256: sha })).toEqual({
      text: 'Data: datasets 4, 7 (pinned), pack 0123456789ab',
      title: `Every job replays the dataset pack copied when the sweep started, SHA-256 ${sha}`,
    });
    expect(dataText({ datasets: [9], pack_sha256: sha }).text).toBe('Data: dataset 9 (pinned), pack 0123456789ab');
    expect(dataText({ datasets: [], pack_sha256: null })).toEqual({
      text: "Data: each replay's own pick of the imported datasets",
      title: 'Recorded without a dataset pack',
    });
  });

  it('says what to do with a sweep that is interrupted or stopped, and nothing more of one running or done', () => {
    // the service's commands (src-main/sweep/cli-lines.ts sweepCommands), as given
    const commands = {
      resume: 'npm run sweep -- --resume swA --data-dir /d',
      rerun: null,
      remove: 'npm run sweep -- --remove swA --data-dir /d',
      like: 'npm run sweep -- --like swA --replay BTCUSDT@2025-01-06..2025-01-07 --data-dir /d',
    };
    expect(stateText({ state: 'interrupted', commands })).toBe(
      'interrupted: its coordinator is gone; resume: npm run sweep -- --resume swA --data-dir /d, ' +
        'or remove: npm run sweep -- --remove swA --data-dir /d',
    );
    expect(stateText({ state: 'stopped', commands })).toBe(
      'stopped; resume: npm run sweep -- --resume swA --data-dir /d',
    );
    expect(stateText({ state: 'running', commands: { ...commands, resume: null, remove: null } })).toBe('running');
    expect(stateText({ state: 'done', commands: { ...commands, resume: null } })).toBe('done');
    // another build started it: its resume is refused, the command that runs it again is offered
    const rerun = 'npm run sweep -- --like swA --replay BTCUSDT@2025-01-06..2025-01-07 --data-dir /d';
    expect(stateText({ state: 'stopped', commands: { ...commands, resume: null, rerun } })).toBe(
      "stopped; started by another build than this checkout's (its resume is refused): run it again with: " + rerun,
    );
    // --like on other data: the typed span in its --replay, quoted when a shell would split it
    const w = { replay: 'BTCUSDT@2025-01-06..2025-01-07', commands };
    expect(likeCommand(w, ' ETHUSDT@2025-02-01..2025-02-08 ')).toBe(
      'npm run sweep -- --like swA --replay ETHUSDT@2025-02-01..2025-02-08 --data-dir /d',
    );
    expect(likeCommand(w, '')).toBe(commands.like);
    expect(likeCommand(w, "BTC USDT's")).toBe(`npm run sweep -- --like swA --replay 'BTC USDT'\\''s' --data-dir /d`);
  });

  it("shows the failed jobs' timeouts and errors", () => {
    const w = { id: 'swA', state: 'done' as const, done: 4, jobs: 4, failed: 3, timeouts: 1, errors: 2 };
    expect(progressText(w)).toBe('4/4 done, 3 failed: 1 timeout, 2 error');
    expect(progressText({ ...w, failed: 0, timeouts: 0, errors: 0 })).toBe('4/4 done, 0 failed');
    // a set's jobs cell
    expect(setJobsText({ ok: 5, jobs: 7, failed: 2, timeouts: 0, errors: 0 })).toBe('5/7 (2 failed)');
    expect(setJobsText({ ok: 4, jobs: 7, failed: 3, timeouts: 1, errors: 1 })).toBe(
      '4/7 (3 failed: 1 timeout, 1 error)',
    );
    expect(setJobsText({ ok: 7, jobs: 7, failed: 0, timeouts: 0, errors: 0 })).toBe('7/7');
  });

  it('shows a parameter left at its default with the value, marked as the default, never a blank cell', () => {
    const defaults = { qty: '0.01', step_minutes: 15 };
    // the set's own value, other than the default: no mark
    expect(paramCell({ fast: 3, qty: '0.02' }, 'qty', defaults)).toMatchObject({ text: '0.02', mark: null });
    // the same as the default (the set was completed with it, or named it): marked
    expect(paramCell({ fast: 3, qty: '0.01' }, 'qty', defaults)).toMatchObject({ text: '0.01', mark: 'default' });
    // not in the set (a sweep recorded before sets were completed): the grid's default, marked
    expect(paramCell({ fast: 3 }, 'step_minutes', defaults)).toMatchObject({ text: '15', mark: 'default' });
    // no default known: the bot's own, said so
    expect(paramCell({ fast: 3 }, 'slow', defaults)).toMatchObject({ text: '', mark: 'bot default' });
    expect(paramCell({ flag: false }, 'flag', {})).toMatchObject({ text: 'false', mark: null });
  });

  it('sorts the sets by a metric or a parameter, nulls last both ways', () => {
    expect(sortSets(sets, 'return', true).map((s) => s.return)).toEqual([0.05, 0.03, 0.01, -0.02]);
    expect(sortSets(sets, 'sharpe', false).map((s) => s.sharpe)).toEqual([-1, 1.5, 2.5, null]);
    expect(sortSets(sets, 'sharpe', true).map((s) => s.sharpe)).toEqual([2.5, 1.5, -1, null]);
    expect(sortSets(sets, 'param:slow', false).map((s) => s.params.slow)).toEqual([12, 12, 12, 24]);
  });

  it('orders decimals written as strings by value, in the table and the heat map (a grid\'s "qty": ["0.5", "2", "10"])', () => {
    const qty = [
      set({ qty: '0.5', fast: 3 }, 0.01, null),
      set({ qty: '10', fast: 3 }, 0.02, null),
      set({ qty: '2', fast: 3 }, 0.03, null),
      set({ qty: '2', fast: 12 }, 0.04, null),
    ];
    // as text they were 0.5, 10, 2 (and 2, 10, 0.5 descending), the heat map's columns too
    expect(sortSets(qty, 'param:qty', false).map((s) => s.params.qty)).toEqual(['0.5', '2', '2', '10']);
    expect(sortSets(qty, 'param:qty', true).map((s) => s.params.qty)).toEqual(['10', '2', '2', '0.5']);
    expect(heatMap(qty, 'qty', 'fast', 'return').xs).toEqual(['0.5', '2', '10']);
    // numbers and decimal strings by value together, before other text, in text order
    expect([3, 'b', '2.5', 'a', -1, '1e1'].sort(compareParams)).toEqual([-1, '2.5', 3, '1e1', 'a', 'b']);
  });

  it('ranks a set with no ok job (null figures) last, and its heat-map cell reads failed, not 0', () => {
    const broken = {
      ...set({ fast: 20, slow: 24, qty: '0.01' }, 0, null),
      return: null,
      net_pnl: null,
      trades: null,
      jobs: 2,
      ok: 0,
      failed: 2,
    } as SweepSet;
    const losing = { ...set({ fast: 3, slow: 24, qty: '0.01' }, -0.0007, null), ok: 2, failed: 0 } as SweepSet;
    const pending = { ...broken, params: { fast: 8, slow: 24, qty: '0.01' }, failed: 0 } as SweepSet;
    expect(sortSets([broken, losing, pending], 'return', true)).toEqual([losing, broken, pending]);
    expect(sortSets([broken, losing], 'return', false)).toEqual([losing, broken]);
    expect(sortSets([broken, losing], 'net_pnl', true)).toEqual([losing, broken]);
    const m = heatMap([losing, broken, pending], 'fast', 'slow', 'return');
    expect(m.xs).toEqual([3, 8, 20]);
    expect(m.cells).toEqual([[-0.0007, null, null]]);
    // a cell of failed sets says so; one still running is empty
    expect(m.failed).toEqual([[false, false, true]]);
  });

  it('maps a metric over two parameters, a cell the mean of its sets', () => {
    const m = heatMap(sets, 'fast', 'slow', 'return');
    expect(m.xs).toEqual([3, 5]);
    expect(m.ys).toEqual([12, 24]);
    expect(m.cells[0][0]).toBeCloseTo(0.01, 12);
    expect(m.cells[0][1]).toBeCloseTo(0.04, 12); // (0.03 + 0.05) / 2
    expect(m.cells[1]).toEqual([-0.02, null]);
    expect([m.min, m.max]).toEqual([-0.02, 0.04]);
    expect(heatColor(-0.02, m.min, m.max)).toBe('hsl(0, 55%, 38%)');
    expect(heatColor(0.04, m.min, m.max)).toBe('hsl(120, 55%, 38%)');
    expect(heatColor(null, m.min, m.max)).toBe('#333a46');
  });

  it('scales return curves into one box, 0 % inside it', () => {
    const c = curvePaths(
      [
        [
          [0, 0],
          [10, 0.1],
        ],
        [
          [10, 0],
          [20, -0.1],
        ],
      ],
      100,
      50,
    );
    // time 0..20 across, -10 %..+10 % down the box
    expect(c.paths).toEqual(['0.0,25.0 50.0,0.0', '50.0,25.0 100.0,50.0']);
    expect(c).toMatchObject({ zero: 25, lo: -0.1, hi: 0.1, t0: 0, t1: 20 });
    // all above 0: the 0 % line at the bottom
    expect(curvePaths([[[0, 0.01]]], 100, 50)).toMatchObject({ zero: 50, lo: 0, hi: 0.01 });
  });

  it("draws a set's equity on each job's starting balance, compounded over its ok pieces: it ends at the set's return", () => {
    // the first sample comes at the first fill, after its fee, below the balance
    const job = (start: number, until: number, ok: boolean, equity: Array<[number, number]>): JobCurve => ({
      start,
      until,
      ok,
      base: 10_000,
      equity,
    });
    const day1 = job(0, 10, true, [
      [5, 9_999.5],
      [10, 10_100],
    ]);
    const failed = job(10, 20, false, [[15, 10_000]]);
    const day2 = job(20, 30, true, [
      [20, 10_000],
      [30, 9_900],
    ]);
    const c = setCurve([day2, failed, day1]);
    // flat on the balance from the start to the first fill, a step there (not a slope from 0 to 5)
    expect(c.slice(0, 3)).toEqual([
      [0, 0],
      [5, 0],
      [5, expect.closeTo(-0.00005, 12) as number],
    ]);
    expect(c[3]).toEqual([10, expect.closeTo(0.01, 12) as number]);
    // the next ok piece from its start on the compounded level; the failed one left out
    expect(c.slice(4).map(([t]) => t)).toEqual([20, 20, 30]);
    expect(c[4][1]).toBeCloseTo(0.01, 12);
    // 1.01 x 0.99 - 1: the table's compounded return of the two ok pieces
    expect(c[6][1]).toBeCloseTo(1.01 * 0.99 - 1, 12);
    expect(setCurve([failed])).toEqual([]);
  });

  it('draws a job with no trade flat over its span, and holds a last sample to its end', () => {
    const job = (start: number, until: number, equity: Array<[number, number]>): JobCurve => ({
      start,
      until,
      ok: true,
      base: 10_000,
      equity,
    });
    // day 1 no trade (its stored curve is empty), day 2 one fill at 25, its bot gone at 27
    const c = setCurve([
      job(0, 10, []),
      job(10, 30, [
        [25, 9_999],
        [27, 10_050],
      ]),
    ]);
    expect(c).toEqual([
      [0, 0],
      [10, 0],
      [10, 0],
      [25, 0],
      [25, expect.closeTo(-0.0001, 12) as number],
      [27, expect.closeTo(0.005, 12) as number],
      [30, expect.closeTo(0.005, 12) as number],
    ]);
  });

  it("spans the box across the sweep's span, not the first and last points drawn", () => {
    // a set whose curve begins at 6h into a day-long sweep, and one that lies inside it
    const c = curvePaths(
      [
        [
          [6, 0],
          [12, 0.1],
        ],
      ],
      240,
      50,
      { start: 0, until: 24 },
    );
    expect(c).toMatchObject({ t0: 0, t1: 24 });
    expect(c.paths).toEqual(['60.0,50.0 120.0,0.0']);
    expect(curvePaths([], 240, 50, { start: 0, until: 24 })).toMatchObject({ t0: 0, t1: 24 });
  });

  it("maps the sets that leave a parameter to the bot's default in a 'bot default' row or column, not out of the map", () => {
    // the tester's grid: {"sets":[{"lookback":4},{"lookback":8,"band":0.2},...],"grid":{"lookback":[5],"band":[0.1,0.2]}}
    const mixed = [
      set({ lookback: 4 }, -0.0018, null),
      set({ lookback: 8, band: 0.2 }, -0.004, null),
      set({ lookback: 5, band: 0.1 }, -0.003, null),
      set({ lookback: 5, band: 0.2 }, -0.005, null),
    ];
    const m = heatMap(mixed, 'lookback', 'band', 'return');
    expect(m.xs).toEqual([4, 5, 8]);
    expect(m.ys).toEqual([0.1, 0.2, null]);
    expect(m.ys.map(heatLabel)).toEqual(['0.1', '0.2', 'bot default']);
    // the best set, lookback 4 with the bot's band, has its cell
    expect(m.cells).toEqual([
      [null, -0.003, null],
      [null, -0.005, -0.004],
      [-0.0018, null, null],
    ]);
    expect(m.max).toBe(-0.0018);
    // across too, and a strip over a parameter some sets leave out
    expect(heatMap(mixed, 'band', 'lookback', 'return').xs).toEqual([0.1, 0.2, null]);
    expect(heatMap(mixed, 'band', '', 'return').cells).toEqual([[-0.003, (-0.004 + -0.005) / 2, -0.0018]]);
    // a parameter the grid file gives a default is that value, not the bot's
    const withDefault = heatMap(mixed, 'lookback', 'band', 'return', { band: 0.1 });
    expect(withDefault.ys).toEqual([0.1, 0.2]);
    expect(withDefault.cells[0]).toEqual([-0.0018, -0.003, null]);
  });

  it('maps one parameter as a one-row strip, not over itself on both axes', () => {
    const one = [3, 5, 8].map((fast, i) => set({ fast }, i / 100, null));
    for (const y of ['', 'fast']) {
      const m = heatMap(one, 'fast', y, 'return');
      expect(m.xs).toEqual([3, 5, 8]);
      expect(m.ys).toEqual(['']);
      expect(m.cells).toEqual([[0, 0.01, 0.02]]);
    }
  });
});

describe('the sweep shown after a refresh of the list', () => {
  const list = [{ id: 'swB' }, { id: 'swA' }];
  it('keeps the chosen sweep while it is listed, else shows the newest', () => {
    expect(shownSweep(list, 'swA')).toBe('swA');
    expect(shownSweep(list, null)).toBe('swB');
    // swC removed (--remove) while the page showed it: its id answers 1109 from now on
    expect(shownSweep(list, 'swC')).toBe('swB');
    expect(shownSweep([], 'swC')).toBeNull();
  });
});

describe("the picked sets' curves to read again", () => {
  const st = (fast: number, ok: number): SweepSet =>
    ({ params: { fast }, jobs: 7, ok, failed: 0 }) as unknown as SweepSet;
  it('reads a picked set whose curve is missing or lacks results finished since it was drawn', () => {
    const d = { id: 'sw1', sets: [st(3, 7), st(5, 7)] };
    const k3 = curveKey('sw1', { fast: 3 });
    const k5 = curveKey('sw1', { fast: 5 });
    // fast 3 was picked at 1 of its 7 jobs, while the sweep ran: its line ended on the first day
    expect(staleCurves(d, [k3], { [k3]: '1/0/7' }).map((s) => s.params)).toEqual([{ fast: 3 }]);
    expect(staleCurves(d, [k3], { [k3]: '7/0/7' })).toEqual([]);
    // not picked: nothing to read; picked without a curve: read
    expect(staleCurves(d, [], {})).toEqual([]);
    expect(staleCurves(d, [k5], { [k3]: '1/0/7' }).map((s) => s.params)).toEqual([{ fast: 5 }]);
  });
});

describe('figureText', () => {
  it('writes a figure that rounds to zero without a sign (it read -0.00% and -0.00); a real loss keeps it', () => {
    expect(figureText(-0.000004, true)).toBe('0.00%');
    expect(figureText(-0.001)).toBe('0.00');
    expect(figureText(-0.0123, true)).toBe('-1.23%');
    expect(figureText(-0.005)).toBe('-0.01');
    expect(figureText(0.004)).toBe('0.00');
    expect(figureText(null, true)).toBe('–');
  });
});
