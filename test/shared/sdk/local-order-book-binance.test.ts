// Replays real Binance USD-M depth data (test/fixtures/binance/depth;
// provenance in test/fixtures/binance/SOURCES.md) through LocalOrderBook in its Binance mode
// (`continuity: 'pu'`).
//
// Each symbol's REST snapshot is handed over when its recorded receive time comes up in the
// stream, so the deltas recorded before it are buffered, as in a live client. Asserted: the
// book synchronises without a resync, never crosses after an applied event, and its best
// bid/ask equals every recorded bookTicker whose id pins the book's state (see bookTicker
// comparisons below).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  LocalOrderBook,
  type DepthSnapshot,
  type DepthUpdate,
  type PriceLevel,
  type Scheduler,
} from '../../../src-shared/sdk/local-order-book.ts';

const DATA = fileURLToPath(new URL('../../fixtures/binance/depth', import.meta.url));
const CRYPTOFEED = join(DATA, 'binance_usdm_2021-07-22_cryptofeed');
const LASOTA = join(DATA, 'binance_usdm_TRXUSDT_2025-04-14_lasota');

/** No timer ever needs to run in a replay: verification is off and fetches succeed. */
const inertScheduler: Scheduler = { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} };

interface TimedDelta {
  /** Receive time in ms (recorded). */
  recv: number;
  delta: DepthUpdate;
}

interface BookTicker {
  u: number;
  b: string;
  B: string;
  a: string;
  A: string;
}

interface Replay {
  symbol: string;
  snapshot: DepthSnapshot;
  snapshotRecv: number;
  deltas: TimedDelta[];
  tickers: BookTicker[];
}

interface ReplayResult {
  book: LocalOrderBook;
  applied: number;
  crossed: number;
  compared: number;
  mismatches: string[];
}

function lines(path: string): string[] {
  // The Lasota CSVs have CRLF line ends.
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
}

function loadCryptofeed(): Replay[] {
  const snaps = lines(join(CRYPTOFEED, 'rest_depth_snapshots.jsonl')).map(
    (l) =>
      JSON.parse(l) as {
        symbol: string;
        recv_ts: number;
        lastUpdateId: number;
        bids: PriceLevel[];
        asks: PriceLevel[];
      },
  );
  const events = lines(join(CRYPTOFEED, 'ws_events.jsonl')).map(
    (l) =>
      JSON.parse(l) as { recv_ts: number; stream: string; data: Record<string, unknown> & { e: string; s: string } },
  );
  return snaps.map((s) => ({
    symbol: s.symbol,
    // Binance REST names the id `lastUpdateId`; our wire format calls it `id`.
    snapshot: { id: s.lastUpdateId, bids: s.bids, asks: s.asks },
    snapshotRecv: s.recv_ts * 1000,
    deltas: events
      .filter((e) => e.data.s === s.symbol && e.data.e === 'depthUpdate')
      .map((e) => {
        const d = e.data as unknown as {
          E: number;
          U: number;
          u: number;
          pu: number;
          b: PriceLevel[];
          a: PriceLevel[];
        };
        return {
          recv: e.recv_ts * 1000,
          delta: { e: 'depthUpdate', E: d.E, s: s.symbol, U: d.U, u: d.u, pu: d.pu, b: d.b, a: d.a },
        };
      }),
    tickers: events
      .filter((e) => e.data.s === s.symbol && e.data.e === 'bookTicker')
      .map((e) => e.data as unknown as BookTicker),
  }));
}

function loadLasota(): Replay {
  const csv = (name: string) => {
    const [head, ...rows] = lines(join(LASOTA, name));
    const cols = head.split(',');
    return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [cols[i], v])) as Record<string, string>);
  };
  const snapRows = csv('rest_depth_snapshot.csv');
  const ids = new Set(snapRows.map((r) => r.LastUpdateId));
  expect(ids.size).toBe(1);
  const snapshot: DepthSnapshot = {
    id: Number(snapRows[0].LastUpdateId),
    bids: snapRows.filter((r) => r.IsAsk === '0').map((r) => [r.Price, r.Quantity] as const),
    asks: snapRows.filter((r) => r.IsAsk === '1').map((r) => [r.Price, r.Quantity] as const),
  };
  // One diff event per FinalUpdateId: its rows are consecutive in the file.
  const deltas: TimedDelta[] = [];
  let cur: { recv: number; delta: DepthUpdate & { b: PriceLevel[]; a: PriceLevel[] } } | undefined;
  for (const r of csv('diff_depth_stream.csv')) {
    const u = Number(r.FinalUpdateId);
    if (cur === undefined || cur.delta.u !== u) {
      cur = {
        recv: Number(r.TimestampOfReceive),
        delta: {
          e: 'depthUpdate',
          E: Number(r.EventTime),
          s: r.Symbol,
          U: Number(r.FirstUpdateId),
          u,
          pu: Number(r.FinalUpdateIdInLastStream),
          b: [],
          a: [],
        },
      };
      deltas.push(cur);
    }
    (r.IsAsk === '1' ? cur.delta.a : cur.delta.b).push([r.Price, r.Quantity]);
  }
  return { symbol: 'TRXUSDT', snapshot, snapshotRecv: Number(snapRows[0].TimestampOfReceive), deltas, tickers: [] };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

async function replay(r: Replay): Promise<ReplayResult> {
  let resolveSnapshot: ((s: DepthSnapshot) => void) | undefined;
  const book = new LocalOrderBook({
    symbol: r.symbol,
    continuity: 'pu',
    verifyIdleMs: 0,
    scheduler: inertScheduler,
    fetchSnapshot: () => new Promise((res) => (resolveSnapshot = res)),
    onError: (e) => {
      throw e;
    },
  });
  const res: ReplayResult = { book, applied: 0, crossed: 0, compared: 0, mismatches: [] };

  // bookTicker comparisons. After the event with last id u, the next change of this symbol
  // has id >= the next event's U, so a ticker with u <= ticker.u < next U shows exactly this
  // book. Other tickers fall inside an event's window (its intermediate states are never
  // sent) and are skipped. After the last recorded event only ticker.u == u is comparable.
  const nextU = new Map<number, number>();
  for (let i = 0; i < r.deltas.length; i++)
    nextU.set(r.deltas[i].delta.u, r.deltas[i + 1]?.delta.U ?? r.deltas[i].delta.u + 1);
  const tickers = [...r.tickers].sort((x, y) => x.u - y.u);
  const check = (): void => {
    const id = book.lastUpdateId;
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (bid !== undefined && ask !== undefined && !(Number(bid[0]) < Number(ask[0]))) res.crossed++;
    const until = nextU.get(id) ?? id + 1;
    for (const t of tickers) {
      if (t.u < id || t.u >= until) continue;
      res.compared++;
      const got = [bid?.[0], bid?.[1], ask?.[0], ask?.[1]].map(Number);
      const want = [t.b, t.B, t.a, t.A].map(Number);
      if (got.join() !== want.join()) res.mismatches.push(`${r.symbol} at ${id}: book ${got} ticker(u=${t.u}) ${want}`);
    }
  };
  book.onUpdate(() => {
    res.applied++;
    check();
  });

  book.start();
  let snapshotGiven = false;
  for (const { recv, delta } of r.deltas) {
    if (!snapshotGiven && recv >= r.snapshotRecv) {
      snapshotGiven = true;
      resolveSnapshot?.(r.snapshot);
      await flush();
    }
    book.handleDelta(delta);
  }
  if (!snapshotGiven) {
    resolveSnapshot?.(r.snapshot);
    await flush();
  }
  return res;
}

describe('LocalOrderBook on real Binance USD-M depth data', () => {
  const sets = loadCryptofeed();

  it('loads all four cryptofeed symbols', () => {
    expect(sets.map((s) => s.symbol).sort()).toEqual(['AKROUSDT', 'CTKUSDT', 'KEEPUSDT', 'SUSHIUSDT']);
  });

  for (const set of sets) {
    it(`${set.symbol} (cryptofeed 2021-07-22): syncs, never crosses, matches bookTicker`, async () => {
      const buffered = set.deltas.filter((d) => d.recv < set.snapshotRecv).length;
      expect(buffered).toBeGreaterThan(0); // the snapshot really arrives mid-stream
      const r = await replay(set);
      expect(r.book.state).toBe('live');
      expect(r.book.resyncCount).toBe(0);
      expect(r.book.lastUpdateId).toBe(set.deltas[set.deltas.length - 1].delta.u);
      expect(r.applied).toBeGreaterThan(set.deltas.length / 2);
      expect(r.crossed).toBe(0);
      expect(r.mismatches).toEqual([]);
      expect(r.compared).toBeGreaterThan(0);
      console.info(
        `${set.symbol}: ${set.deltas.length} deltas, ${r.applied} book updates, ${r.compared} bookTicker comparisons`,
      );
    });
  }

  it('TRXUSDT (Lasota 2025-04-14): syncs from a snapshot whose id equals an event u, never crosses', async () => {
    const set = loadLasota();
    expect(set.deltas.length).toBe(155);
    expect(set.deltas.some((d) => d.delta.u === set.snapshot.id)).toBe(true);
    const r = await replay(set);
    expect(r.book.state).toBe('live');
    expect(r.book.resyncCount).toBe(0);
    expect(r.book.lastUpdateId).toBe(set.deltas[set.deltas.length - 1].delta.u);
    expect(r.crossed).toBe(0);
    // The data set has no bookTicker stream: nothing to compare the top against.
    expect(r.compared).toBe(0);
    expect(r.book.bids().length).toBeGreaterThan(900);
    expect(r.book.asks().length).toBeGreaterThan(900);
  });

  it('a broken pu chain in the same data is detected as a gap', async () => {
    const set = loadCryptofeed().find((s) => s.symbol === 'SUSHIUSDT')!;
    // Drop one event after the book is live.
    const i = set.deltas.findIndex((d) => d.delta.U > set.snapshot.id) + 5;
    set.deltas.splice(i, 1);
    const r = await replay(set);
    expect(r.book.resyncCount).toBe(1);
    expect(r.book.state).toBe('resyncing');
  });
});
