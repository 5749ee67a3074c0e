// A late start in a depth dataset (docs/replay.md "The historical book"): the replay reads the
// depth from the last snapshot at or before the start (an index look-up, not a read from the
// dataset's first event), and the book at the start is the recorded one, rebuilt here straight
// from the CSV files (harness.ts trxBooks). The TRXUSDT recording gets a second REST snapshot,
// written from the recorded book after one of its diffs, as a second file of the dataset.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatasetReplayData } from '../../src-main/replay/dataset-replay-data.ts';
import type { PairState } from '../../src-main/trading/pair-state.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { LASOTA, replayDataOf, replayVenue, trxBooks, type HistBook, type ReplayVenue } from './harness.ts';

const books = trxBooks();
const K = Math.floor(books.length / 2);
const SNAP_TIME = books[K].time + 1;

/** The recorded book after event K as a REST snapshot CSV taken 1 ms later. */
function secondSnapshot(): string {
  expect(books[K + 1].time).toBeGreaterThan(SNAP_TIME);
  const lines = [
    'TimestampOfRequest,TimestampOfReceive,MessageOutputTime,TransactionTime,LastUpdateId,IsAsk,Price,Quantity',
  ];
  for (const [isAsk, side] of [
    [0, books[K].bids],
    [1, books[K].asks],
  ] as const) {
    for (const [p, q] of side)
      lines.push([SNAP_TIME, SNAP_TIME, SNAP_TIME, SNAP_TIME, books[K].u, isAsk, p, q].join(','));
  }
  const dir = path.join(tempDir(), 'second-snapshot');
  mkdirSync(dir, { recursive: true });
  const f = path.join(dir, 'rest_depth_snapshot_2.csv');
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

function engineBook(pair: PairState): { bids: Map<string, number>; asks: Map<string, number> } {
  const side = (s: 1 | 2): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [p, lots] of pair.book.topLevels(s, 10_000))
      m.set((p * pair.math.tickValue).toFixed(5), Number(pair.math.formatQty(lots)));
    return m;
  };
  return { bids: side(1), asks: side(2) };
}

/** The recorded book a replay opened at `t` starts with: after the last event strictly before t (events at t come with the first step). */
function bookBefore(t: number): HistBook {
  let b = books[0];
  for (const x of books) if (x.time < t) b = x;
  return b;
}

let v: ReplayVenue | null = null;
afterEach(() => {
  v?.close();
  v = null;
  vi.restoreAllMocks();
});

const depthFiles = (extra: string[]) => ({
  paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv'), ...extra],
  opts: { market: 'um' as const, symbol: 'TRXUSDT', kind: 'depth' as const },
});

describe('a late start in a depth dataset', () => {
  it('reads from the last snapshot at or before the start, and the book at the start is the recorded one', async () => {
    const reads = vi.spyOn(DatasetReplayData.prototype, 'depth');
    const start = books[K + 20].time + 3;
    v = await replayVenue([depthFiles([secondSnapshot()])], { symbols: ['TRXUSDT'], start });
    // the engine's read of the book (the last one; before it, the tick and step are inferred from
    // the dataset's first 50 events, specs_source 'inferred', the span's first event is looked
    // for from the start, and the catalogue's price, the snapshot's best bid, read from the
    // second snapshot too) starts at the second snapshot
    expect(reads.mock.calls.at(-1)![1]).toBe(SNAP_TIME);
    expect(
      reads.mock.calls.slice(0, -1).every((c) => c[1] === books[0].time || c[1] === start || c[1] === SNAP_TIME),
    ).toBe(true);
    expect(replayDataOf(v.datasets).depthAnchor!(replayDataOf(v.datasets).datasets('TRXUSDT')[0].id, start)).toBe(
      SNAP_TIME,
    );
    const h = bookBefore(start);
    expect(books.indexOf(h)).toBeGreaterThan(K);
    expect(v.market.engine.depthState('TRXUSDT')).toEqual({ lastUpdateId: h.u, gaps: 0, idOverruns: 0 });
    const e = engineBook(v.exchange.pair('TRXUSDT')!);
    expect(e.bids).toEqual(h.bids);
    expect(e.asks).toEqual(h.asks);
    // and it goes on from there as recorded
    v.market.seek(books[K + 40].time + 1);
    const h2 = bookBefore(books[K + 40].time + 1);
    expect(v.market.engine.depthState('TRXUSDT')).toEqual({ lastUpdateId: h2.u, gaps: 0, idOverruns: 0 });
    const e2 = engineBook(v.exchange.pair('TRXUSDT')!);
    expect(e2.bids).toEqual(h2.bids);
    expect(e2.asks).toEqual(h2.asks);
  }, 60_000);

  it('a start before the second snapshot reads from the first one; exactly at it, from it', async () => {
    const snap2 = secondSnapshot();
    const reads = vi.spyOn(DatasetReplayData.prototype, 'depth');
    v = await replayVenue([depthFiles([snap2])], { symbols: ['TRXUSDT'], start: SNAP_TIME - 1 });
    expect(reads.mock.calls.at(-1)![1]).toBe(books[0].time);
    expect(v.market.engine.depthState('TRXUSDT').lastUpdateId).toBe(bookBefore(SNAP_TIME - 1).u);
    expect(engineBook(v.exchange.pair('TRXUSDT')!).asks).toEqual(bookBefore(SNAP_TIME - 1).asks);
    v.close();
    reads.mockClear();
    v = await replayVenue([depthFiles([snap2])], { symbols: ['TRXUSDT'], start: SNAP_TIME });
    expect(reads.mock.calls.at(-1)![1]).toBe(SNAP_TIME);
    // the snapshot is at the start itself: it comes with the first step, as every event at the start
    v.market.step(0);
    expect(v.market.engine.depthState('TRXUSDT').lastUpdateId).toBe(books[K].u);
    expect(engineBook(v.exchange.pair('TRXUSDT')!).bids).toEqual(books[K].bids);
    expect(engineBook(v.exchange.pair('TRXUSDT')!).asks).toEqual(books[K].asks);
  }, 60_000);

  it("the look-up (datasets-repo.ts lastSnapshot's query) is an index search on the events' primary key, not a scan", async () => {
    v = await replayVenue([depthFiles([])], { symbols: ['TRXUSDT'], start: books[10].time });
    const plan = v.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT e.time FROM dataset_events e JOIN dataset_files f ON f.id = e.file_id AND f.state = 'done'
         WHERE e.dataset_id = ? AND e.time <= ? AND substr(e.data, 1, 8) = '{"t":"s"' ORDER BY e.time DESC LIMIT 1`,
      )
      .all(1, 0)
      .map((r: any) => String(r.detail))
      .join(' | ');
    expect(plan).toMatch(/SEARCH e USING PRIMARY KEY \(dataset_id=\? AND time<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  }, 60_000);
});
