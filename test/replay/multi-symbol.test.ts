// Two pairs replayed together (docs/replay.md "Time"): SUSHIUSDT and AKROUSDT from the cryptofeed
// recording of four USD-M pairs (test/fixtures/binance/SOURCES.md), imported as two depth
// datasets. The expected books and times are read here straight from the JSON lines, not by the
// importer or the replay: each pair's book must be the recorded one at the update id reached, and
// the update id reached must be the last one recorded at or before the replay's time, for both
// pairs at every step (so their events were applied in one time order).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSources } from '../../src-main/replay/plan.ts';
import type { PairState } from '../../src-main/trading/pair-state.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { FIXTURES } from '../data/archive-fixtures.ts';
import { importInto, replayDataOf, replayVenue, TRX_DEPTH_IMPORT, type ReplayVenue } from './harness.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
const PAIRS = ['SUSHIUSDT', 'AKROUSDT'] as const;

const depthFiles = (symbol: string) => ({
  paths: [path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), path.join(CRYPTOFEED, 'ws_events.jsonl')],
  opts: { market: 'um' as const, symbol, kind: 'depth' as const },
});
interface Book {
  u: number;
  time: number;
  bids: Map<string, number>;
  asks: Map<string, number>;
}

const key = (p: string | number): string => String(Number(p));

/** One pair's book from the JSON lines: its REST snapshot, then every diff from the one spanning the snapshot's id (futures rule: pu = previous u). */
function recordedBooks(symbol: string): Book[] {
  const snap = readFileSync(path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((o) => o.symbol === symbol);
  const bids = new Map<string, number>();
  const asks = new Map<string, number>();
  for (const [p, q] of snap.bids) if (Number(q) > 0) bids.set(key(p), Number(q));
  for (const [p, q] of snap.asks) if (Number(q) > 0) asks.set(key(p), Number(q));
  // times are the events' T (transaction time), as a USD-M event is timed, not their E
  const out: Book[] = [{ u: snap.lastUpdateId, time: snap.T, bids: new Map(bids), asks: new Map(asks) }];
  let prev = snap.lastUpdateId as number;
  for (const line of readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n')) {
    const d = JSON.parse(line).data;
    if (d.e !== 'depthUpdate' || d.s !== symbol || d.u < prev) continue;
    if (!(d.pu === prev || (d.U <= prev && prev <= d.u))) throw new Error(`the ${symbol} recording breaks at ${d.u}`);
    for (const [side, rows] of [
      [bids, d.b],
      [asks, d.a],
    ] as const) {
      for (const [p, q] of rows as string[][]) {
        if (Number(q) === 0) side.delete(key(p));
        else side.set(key(p), Number(q));
      }
    }
    prev = d.u;
    out.push({ u: d.u, time: d.T, bids: new Map(bids), asks: new Map(asks) });
  }
  return out;
}

function engineBook(pair: PairState): { bids: Map<string, number>; asks: Map<string, number> } {
  const side = (s: 1 | 2): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [p, lots] of pair.book.topLevels(s))
      m.set(key((p * pair.math.tickValue).toFixed(8)), Number(pair.math.formatQty(lots)));
    return m;
  };
  return { bids: side(1), asks: side(2) };
}

describe('SUSHIUSDT and AKROUSDT replayed together', () => {
  let v: ReplayVenue;
  const books: Record<string, Book[]> = {};
  let start = 0;
  beforeAll(async () => {
    for (const s of PAIRS) books[s] = recordedBooks(s);
    // both snapshots are in the book from the start
    start = Math.max(...PAIRS.map((s) => books[s][0].time)) + 1;
    v = await replayVenue(PAIRS.map(depthFiles), { symbols: [...PAIRS], start });
  });
  afterAll(() => v?.close());

  it('at every step each book is the recorded one at the last update id recorded by then; the clock never goes back', () => {
    expect(v.market.status()).toMatchObject({
      symbols: [...PAIRS],
      sources: { SUSHIUSDT: 'depth', AKROUSDT: 'depth' },
    });
    const reached: Record<string, Set<number>> = { SUSHIUSDT: new Set(), AKROUSDT: new Set() };
    let prevTime = v.clock.now();
    expect(prevTime).toBe(start);
    let steps = 0;
    for (; steps < 10_000 && !v.market.finished; steps++) {
      const t = v.clock.now();
      expect(t, 'the clock never goes back').toBeGreaterThanOrEqual(prevTime);
      prevTime = t;
      for (const s of PAIRS) {
        // the last recorded event at or before the replay's time
        const want = books[s].filter((b) => b.time <= t).at(-1)!;
        const { lastUpdateId, gaps } = v.market.engine.depthState(s);
        expect(gaps).toBe(0);
        expect(lastUpdateId, `${s} at ${t}`).toBe(want.u);
        const e = engineBook(v.exchange.pair(s)!);
        expect(e.bids, `${s} bids at u ${want.u}`).toEqual(want.bids);
        expect(e.asks, `${s} asks at u ${want.u}`).toEqual(want.asks);
        reached[s].add(lastUpdateId);
      }
      v.market.step(37);
    }
    expect(v.market.finished).toBe(true);
    // the replay ends where the shorter recording ends (AKROUSDT's last event, + 1 ms)
    const until = Math.min(...PAIRS.map((s) => books[s].at(-1)!.time)) + 1;
    expect(v.market.status().until).toBe(until);
    expect(v.clock.now()).toBe(until);
    // both books moved through most of their recorded events within the one replay (about 30 s
    // of history at 37 ms a step: a few events share a step)
    for (const s of PAIRS) {
      const last = books[s].filter((b) => b.time <= until).at(-1)!;
      expect(v.market.engine.depthState(s)).toEqual({ lastUpdateId: last.u, gaps: 0, idOverruns: 0 });
      expect(engineBook(v.exchange.pair(s)!)).toEqual({ bids: last.bids, asks: last.asks });
      expect(reached[s].size).toBeGreaterThan(books[s].filter((b) => b.time <= until).length * 0.8);
    }
    expect(books.SUSHIUSDT.length).toBeGreaterThan(200);
    expect(books.AKROUSDT.length).toBeGreaterThan(150);
  });
});

describe('pairs whose data do not overlap', () => {
  it('are refused by name, whichever start and until are asked', async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    try {
      const data = replayDataOf(await importInto(db, [depthFiles('SUSHIUSDT'), TRX_DEPTH_IMPORT]));
      const sushi = recordedBooks('SUSHIUSDT');
      const sushiStart = sushi[0].time;
      const trxEnd = 1744588823871 + 1;
      // at SUSHIUSDT's start the TRXUSDT data (2025) has not begun; at TRXUSDT's start the
      // SUSHIUSDT data (2021) is over; a range covering both does not make them overlap: no start
      // can, which the refusal says first
      expect(() => planSources(data, ['SUSHIUSDT', 'TRXUSDT'], sushiStart)).toThrow(
        /SUSHIUSDT .* and TRXUSDT .* do not overlap in time/,
      );
      expect(() => planSources(data, ['SUSHIUSDT', 'TRXUSDT'], 1744588800061)).toThrow(
        /SUSHIUSDT .* and TRXUSDT .* do not overlap in time/,
      );
      // each alone names what its data misses
      expect(() => planSources(data, ['TRXUSDT'], sushiStart)).toThrow(
        /TRXUSDT starts at 2025-04-14T.*after the replay start/,
      );
      expect(() => planSources(data, ['SUSHIUSDT'], 1744588800061)).toThrow(/SUSHIUSDT ends before the replay start/);
      expect(() => planSources(data, ['SUSHIUSDT', 'TRXUSDT'], sushiStart, trxEnd)).toThrow(
        /SUSHIUSDT .* and TRXUSDT .* do not overlap in time/,
      );
      // each alone is fine
      expect(planSources(data, ['SUSHIUSDT'], sushiStart).map((p) => p.kind)).toEqual(['depth']);
    } finally {
      db.close();
    }
  });
});
