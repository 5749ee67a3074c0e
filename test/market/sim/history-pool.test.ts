// The history's pairs simulated on worker threads (market/sim/history-pool.ts): every record,
// end state, trade count and progress line as the build on one thread gives them; a worker's
// failure comes back as an error naming it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fastForwardHistorySync,
  type HistoryProgress,
  type HistoryTrade,
  type SymbolJob,
  type TradeRecorder,
} from '../../../src-main/market/sim/history.ts';
import { HistoryWorkers } from '../../../src-main/market/sim/history-pool.ts';
import { paramsFor } from '../../../src-main/market/sim/params.ts';
import { T0, testVenue } from './helpers.ts';

const END = T0 + 7 * 3_600_000 + 4_321;

/** Every record of every symbol, in the order recorded (as numbers), and the advances. */
class Tape implements TradeRecorder {
  readonly rows: Array<[string, number, number, number, number, number]> = [];
  readonly advances: number[] = [];
  recordTrade(symbol: string, t: Readonly<HistoryTrade>): void {
    this.rows.push([symbol, t.time, t.priceTicks, t.qtyLots, t.takerSide, t.count]);
  }
  advanceTo(time: number): void {
    this.advances.push(time);
  }
}

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

function venuePairs(symbols: string[]) {
  const tv = testVenue({ start: END });
  open.push(tv);
  return [...tv.venue.exchange.pairs.values()].filter((p) => symbols.includes(p.row.symbol));
}

describe('HistoryWorkers', () => {
  it('gives every record, end state, trade count and progress line of the build on this thread', () => {
    const pairs = venuePairs(['BTCUSDT', 'ETHUSDT', 'DOGEUSDT', 'HYPEUSDT', 'WIFUSDT']);
    expect(pairs.length).toBe(5);
    const run = (builders?: HistoryWorkers) => {
      const tape = new Tape();
      const progress: HistoryProgress[] = [];
      const r = fastForwardHistorySync({
        pairs,
        seed: 11,
        end: END,
        days: 2,
        recorder: tape,
        onProgress: (p) => progress.push(p),
        builders,
      });
      return { tape, progress, r };
    };
    const here = run();
    const workers = new HistoryWorkers(2); // 5 pairs on 2 workers: each worker builds several, in turn
    open.push(workers);
    const there = run(workers);
    expect(here.tape.rows.length).toBeGreaterThan(5 * 2 * 5_760); // over one record a step
    expect(there.tape.rows).toEqual(here.tape.rows);
    expect(there.tape.advances).toEqual(here.tape.advances);
    expect(there.progress).toEqual(here.progress);
    expect(there.r.trades).toBe(here.r.trades);
    expect([...there.r.states]).toEqual([...here.r.states]);
  });

  it("a job that fails in its worker fails take() with the worker's reason", () => {
    const [pair] = venuePairs(['ETHUSDT']);
    const job: SymbolJob = {
      row: { ...pair.row, tickSize: 'not a number' },
      params: paramsFor(pair.row),
      seed: 1,
      from: T0,
      steps: 100,
      anchor: 3000,
    };
    const workers = new HistoryWorkers(1);
    open.push(workers);
    workers.start([job]);
    expect(() => workers.take(0, new Tape())).toThrow(/the history's worker failed: .+/);
  });

  it('a worker module that does not load fails take() with its reason, not after the stall', () => {
    // the slip a draft of the worker once made: TypeScript that type stripping refuses
    const dir = mkdtempSync(join(tmpdir(), 'history-pool-'));
    const broken = join(dir, 'broken-worker.ts');
    writeFileSync(broken, 'export class A {\n  constructor(private readonly x: number) {}\n}\n');
    const [pair] = venuePairs(['ETHUSDT']);
    const job: SymbolJob = { row: pair.row, params: paramsFor(pair.row), seed: 1, from: T0, steps: 10, anchor: 3000 };
    try {
      for (const file of [pathToFileURL(broken), pathToFileURL(join(dir, 'missing-worker.js'))]) {
        const workers = new HistoryWorkers(1, file);
        open.push(workers);
        workers.start([job]);
        // without the posted load error this waits out the 60 s stall (past the test's timeout)
        expect(() => workers.take(0, new Tape())).toThrow(/the history's worker failed: its module did not load: .+/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the jobs in order only', () => {
    const pairs = venuePairs(['BTCUSDT', 'ETHUSDT']);
    const jobs: SymbolJob[] = pairs.map((p) => ({
      row: p.row,
      params: paramsFor(p.row),
      seed: 2,
      from: T0,
      steps: 50,
      anchor: p.markPrice,
    }));
    const workers = new HistoryWorkers(1);
    open.push(workers);
    workers.start(jobs);
    expect(() => workers.take(1, new Tape())).toThrow(/out of turn/);
    const tape = new Tape();
    expect(workers.take(0, tape).trades).toBeGreaterThan(0);
    expect(new Set(tape.rows.map((r) => r[0]))).toEqual(new Set([jobs[0].row.symbol]));
    expect(() => workers.take(2, tape)).toThrow(RangeError);
  });
});
