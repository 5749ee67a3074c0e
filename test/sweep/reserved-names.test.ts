// A parameter named like a column of the results' CSV (docs/sweeps.md, The grid file): the grid
// refuses it, naming the reserved names, before anything runs, and so does --like for another
// sweep's sets; a sweep stored before with such a name exports its parameter as `param.NAME`. The
// CSV's header named `status`, `net_pnl`... twice, and readers took the parameter for the column.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coordinatorHere } from '../../src-main/sweep/coordinator.ts';
import { RESERVED_NAMES } from '../../src-main/sweep/csv-columns.ts';
import { parseGrid } from '../../src-main/sweep/grid.ts';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { sweepCsv } from '../../src-main/sweep/results-view.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli } from './cli-helpers.ts';
import { DAY, JAN6, testMetrics } from './fixture.ts';

const LIST =
  'index, start, until, status, net_pnl, return, max_drawdown, max_drawdown_ratio, sharpe, sortino, fees, ' +
  'funding, trades, win_rate, time_in_market, turnover, liquidations, exit_code, wall_ms, digest, reason';

/** A store holding one sweep of one job, parameters `params`, done ok. */
function storeWith(where: string, params: Record<string, string | number>): SqliteSweepStore {
  const s = new SqliteSweepStore(where);
  const job = { id: 'swR:0', sweepId: 'swR', index: 0, start: JAN6, until: JAN6 + DAY, params } as unknown as SweepJob;
  const spec = { bot: 'b', replay: 'BTCUSDT@2025-01-06..2025-01-06', split: 'day', sets: [params], defaults: {} };
  s.createSweep('swR', spec as unknown as SweepSpec, [job], coordinatorHere(), 1);
  const result = {
    jobId: 'swR:0',
    status: 'ok',
    reason: 'the bot exited 0',
    exitCode: 0,
    digest: 'd',
    metrics: testMetrics(0.0003, [0.0003], { net_pnl: 3 }),
    equity: [],
    outputTail: [],
  } as unknown as JobResult;
  s.storeResult('swR', 0, result, 2);
  return s;
}

describe('parameter names that are columns of the CSV', () => {
  it('are listed, the CSV header in its order', () => {
    expect(RESERVED_NAMES.join(', ')).toBe(LIST);
  });

  it('are refused wherever a grid file names a parameter, naming the reserved names', () => {
    const files = [
      [{ grid: { lookback: [4], status: ['x'] } }, '"grid": \'status\''],
      [{ sets: [{ lookback: 4, net_pnl: 5 }] }, '"sets"[0]: \'net_pnl\''],
      [{ random: { count: 2, params: { trades: { min: 1, max: 5 } } } }, '"random.params.trades": \'trades\''],
      [{ sets: [{ lookback: 4 }], defaults: { index: 1 } }, '"defaults": \'index\''],
    ] as const;
    for (const [doc, where] of files)
      expect(() => parseGrid(JSON.stringify(doc))).toThrow(
        `${where.split(': ')[0]}: ${where.split(': ')[1]} is a column of the results' CSV, which no parameter may be ` +
          `named like (${LIST}); name it otherwise in the grid and the bot`,
      );
    // a name that only looks like one is a name
    expect(parseGrid(JSON.stringify({ grid: { Status: [1], net_pnl_cap: [2] } })).sets).toEqual([
      { Status: 1, net_pnl_cap: 2 },
    ]);
  });

  it('export as param.NAME for a sweep stored with one: no column named twice, each reads its own value', () => {
    const s = storeWith(':memory:', { lookback: 4, status: 'x,y "q"', net_pnl: 5 });
    const [head, row] = sweepCsv(s, 'swR').trim().split('\n');
    s.close();
    const names = head.split(',');
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 8)).toEqual([
      'index',
      'start',
      'until',
      'status',
      'lookback',
      'param.status',
      'param.net_pnl',
      'net_pnl',
    ]);
    expect(row).toMatch(/^0,2025-01-06T00:00:00.000Z,2025-01-07T00:00:00.000Z,ok,4,"x,y ""q""",5,3,/);
  });

  it('are refused by --like for a sweep stored with one, before anything runs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-reserved-'));
    storeWith(dir, { lookback: 4, status: 'x' }).close();
    const r = await runCli(['--like', 'swR', '--replay', 'BTCUSDT@2025-01-07..2025-01-07', '--data-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `perpdesk sweep: --like swR: its parameter sets cannot run again: set 0: 'status' is a column of the ` +
        `results' CSV, which no parameter may be named like (${LIST}); name it otherwise in the grid and the bot\n`,
    );
  });
});
