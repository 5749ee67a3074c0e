// Candles before a replay's start (docs/replay.md "Candles"): the 15m BTCUSDT klines of
// 2025-01-06..12 (real data, test/fixtures/binance/SOURCES.md) replayed from 2025-01-09T00:00Z
// answer the 15m candles before the start exactly as the CSV rows, the 1h ones as Binance's own 1h
// file (aggregated from the 15m rows), a range across the start joins history and the replay's
// candles with no gap and no duplicate, a limit bounds what is read, a time before the data has
// none, and the period the start falls in is history's part joined to the replay's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KlineTuple } from '../../src-main/market/candles.ts';
import { RecentTrades } from '../../src-main/market/recent-trades.ts';
import { Ticker24hService } from '../../src-main/market/ticker-24h.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { KLINES, LASOTA, memoryReplayVenue, replayDataOf, replayVenue, type ReplayVenue } from './harness.ts';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { importInto } from './harness.ts';
import { openDatabase } from '../../src-main/store/database.ts';

const FILE = (iv: string): string => path.join(KLINES, `binance_spot_BTCUSDT_${iv}_2025-01-06_to_2025-01-12.csv`);
const rows = (iv: string): string[][] =>
  readFileSync(FILE(iv), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
const START = Date.UTC(2025, 0, 9);
const DATA_START = Date.UTC(2025, 0, 6);
const M15 = 900_000;
const H1 = 3_600_000;
const IMPORT = [
  {
    paths: [FILE('15m')],
    opts: { market: 'spot' as const, symbol: 'BTCUSDT', kind: 'klines' as const, interval: '15m' },
  },
];

/** A decimal string without trailing zeros ("150.90843700" -> "150.908437"). */
function norm(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** A CSV row in the served candle's column order (closed). */
function asServed(f: string[]): string[] {
  return [f[0], f[6], f[1], f[2], f[3], f[4], f[5], f[7], f[8], f[9], f[10], 'true'].map(norm);
}

/** The exact sum of decimal strings of at most 8 places, at 8 places. */
function sum8(xs: string[]): string {
  const n = xs.reduce((a, x) => {
    const [i, f = ''] = x.split('.');
    return a + BigInt(i + f.padEnd(8, '0'));
  }, 0n);
  const t = n.toString().padStart(9, '0');
  return `${t.slice(0, -8)}.${t.slice(-8)}`;
}

const served = (k: KlineTuple): string[] => k.map((x) => norm(String(x)));

/** Every candle opening in [from, to), read in ranges of 1000 periods, ascending. */
function rangeRead(v: ReplayVenue, iv: '15m' | '1h', from: number, to: number): KlineTuple[] {
  const out: KlineTuple[] = [];
  const span = 1000 * (iv === '15m' ? M15 : H1);
  for (let t = from; t < to; t += span)
    out.push(...v.klines.klines('BTCUSDT', iv, { startTime: t, endTime: Math.min(t + span, to) - 1 }).reverse());
  return out;
}

describe('15m BTCUSDT klines replayed from 2025-01-09T00:00Z', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await replayVenue(IMPORT, { symbols: ['BTCUSDT'], start: START });
  }, 60_000);
  afterAll(() => v?.close());

  it("the 24 h ticker at the start is the day before's, from history's 15m candles (there are no 1m ones)", () => {
    const day = rows('15m').filter((f) => Number(f[0]) >= START - 86_400_000 && Number(f[0]) < START);
    expect(day).toHaveLength(96);
    const t = new Ticker24hService(v.klines, new RecentTrades(v.exchange.events)).ticker(
      v.exchange.pair('BTCUSDT')!,
      START,
    );
    expect(Number(t.open)).toBe(Number(day[0][1]));
    expect(Number(t.high)).toBe(Math.max(...day.map((f) => Number(f[2]))));
    expect(Number(t.low)).toBe(Math.min(...day.map((f) => Number(f[3]))));
    expect(t.openTime).toBe(START - 86_400_000);
    expect(t.trades).toBe(day.reduce((a, f) => a + Number(f[8]), 0));
    expect(Number(t.volume)).toBeCloseTo(Number(sum8(day.map((f) => f[5]))), 3);
  });

  it('answers the last 5 15m candles before the start, at the start, exactly as the CSV rows', () => {
    expect(v.market.status().time).toBe(START);
    const got = v.klines.klines('BTCUSDT', '15m', { limit: 5 });
    const want = rows('15m').filter((f) => Number(f[0]) < START);
    expect(got.map(served)).toEqual(want.slice(-5).reverse().map(asServed));
  });

  it("the 15m candles of 2025-01-08 equal the CSV rows on every column, the 1h ones Binance's own 1h file", () => {
    const day = Date.UTC(2025, 0, 8);
    for (const iv of ['15m', '1h'] as const) {
      const want = rows(iv).filter((f) => Number(f[0]) >= day && Number(f[0]) < START);
      expect(want.length).toBe(iv === '15m' ? 96 : 24);
      expect(
        v.klines
          .klines('BTCUSDT', iv, { startTime: day, endTime: START - 1 })
          .reverse()
          .map(served),
        iv,
      ).toEqual(want.map(asServed));
    }
    // and everything before the start, from the data's first row
    expect(rangeRead(v, '1h', 0, START).map(served)).toEqual(
      rows('1h')
        .filter((f) => Number(f[0]) < START)
        .map(asServed),
    );
  });

  it('a time before the data has no candle; a startTime before it counts from the first', () => {
    expect(v.klines.klines('BTCUSDT', '15m', { startTime: 0, endTime: DATA_START - 1 })).toEqual([]);
    expect(v.klines.oldestOpen('BTCUSDT', '15m')).toBe(DATA_START);
    expect(v.klines.oldestOpen('BTCUSDT', '1w')).toBe(Date.UTC(2025, 0, 6));
  });

  it("the week's candle containing the start is history's part (Monday to Wednesday) joined to the replay's", () => {
    // just before 06:00: the replay has played every 15m candle up to 05:45 in full
    v.market.step(6 * H1 - 1);
    v.klines.advanceTo(v.market.time);
    const [week] = v.klines.klines('BTCUSDT', '1w', { limit: 1 });
    expect(week[0]).toBe(DATA_START);
    const m15 = rows('15m').filter((f) => Number(f[0]) < START + 6 * H1);
    expect(norm(String(week[2]))).toBe(norm(m15[0][1])); // Monday's open
    expect(norm(String(week[5]))).toBe(norm(m15[m15.length - 1][4])); // the close of 05:45
    expect(norm(String(week[6]))).toBe(norm(sum8(m15.map((f) => f[5]))));
    expect(norm(String(week[7]))).toBe(norm(sum8(m15.map((f) => f[7]))));
    const highs = m15.map((f) => Number(f[2]));
    const lows = m15.map((f) => Number(f[3]));
    expect(Number(week[3])).toBe(Math.max(...highs));
    expect(Number(week[4])).toBe(Math.min(...lows));
    expect(week[8]).toBe(m15.reduce((a, f) => a + Number(f[8]), 0));
    expect(week[11]).toBe(false);
  });

  it('after some hours of replay a range across the start joins history and the replay: no gap, no duplicate', () => {
    v.market.step(1);
    v.klines.advanceTo(v.market.time);
    for (const iv of ['15m', '1h'] as const) {
      const got = rangeRead(v, iv, START - 12 * H1, START + 6 * H1);
      const want = rows(iv).filter((f) => Number(f[0]) >= START - 12 * H1 && Number(f[0]) < START + 6 * H1);
      // the last one is the replay's current candle (closed once the clock passes it)
      expect(
        got.map((k) => k[0]),
        iv,
      ).toEqual(want.map((f) => Number(f[0])));
      expect(got.slice(0, -1).map(served), iv).toEqual(want.slice(0, -1).map(asServed));
      // the limit read, newest first: the same candles
      // (and the replay's current candle, 06:00, first)
      const limited = v.klines.klines('BTCUSDT', iv, { limit: got.length + 1 });
      expect(limited[0][0]).toBe(START + 6 * H1);
      expect(limited.slice(1).reverse(), iv).toEqual(got);
    }
  });

  it('a candle before the start is never changed by what the replay does after it', () => {
    const before = v.klines.klines('BTCUSDT', '15m', { startTime: DATA_START, endTime: START - 1 });
    v.market.step(24 * H1);
    v.klines.advanceTo(v.market.time);
    expect(v.klines.klines('BTCUSDT', '15m', { startTime: DATA_START, endTime: START - 1 })).toEqual(before);
  });
});

describe('what a read before the start costs', () => {
  it('a limit bounds the rows read; a venue nobody asks reads none', async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    const datasets = await importInto(db, IMPORT);
    const inner = replayDataOf(datasets);
    let read = 0;
    const data: ReplayData = {
      datasets: (s) => inner.datasets(s),
      depth: (id, from) => inner.depth(id, from),
      trades: (id, from) => inner.trades(id, from),
      funding: (id, from) => inner.funding(id, from),
      lastCandle: (id, at) => inner.lastCandle!(id, at),
      *candles(id, from, to) {
        for (const c of inner.candles(id, from, to)) {
          if (c.openTime < START) read++;
          yield c;
        }
      },
    };
    const v = memoryReplayVenue(data, 'BTCUSDT', START, '94000');
    // (opening the replay reads the rows before the start to check the span: not the candles' doing)
    read = 0;
    try {
      v.market.step(H1);
      v.klines.advanceTo(v.market.time);
      expect(read).toBe(0);
      const got = v.klines.klines('BTCUSDT', '15m', { limit: 10 });
      expect(got.length).toBe(10);
      expect(read).toBe(10 - 5); // the replay's 00:00 to 01:00: five
      read = 0;
      expect(v.klines.klines('BTCUSDT', '1h', { limit: 3 }).length).toBe(3);
      expect(read).toBe(4); // one 1h candle: four 15m rows
    } finally {
      v.close();
      db.close();
    }
  });
});

describe('an L2 replay of the TRXUSDT recording (trades, no klines dataset)', () => {
  // the recording's first trade is at 00:00:04.438; B starts at 00:00:15, A at the first trade.
  // B's candles before its start are built from the recording's trades as A's venue built its own
  const FIRST_TRADE = 1744588804438;
  const B_START = Date.UTC(2025, 3, 14, 0, 0, 15);
  const recording = [{ paths: expandPaths([LASOTA]).files, opts: { market: 'um' as const, symbol: 'TRXUSDT' } }];
  let a: ReplayVenue;
  let b: ReplayVenue;
  beforeAll(async () => {
    a = await replayVenue(recording, { symbols: ['TRXUSDT'], start: FIRST_TRADE });
    b = await replayVenue(recording, { symbols: ['TRXUSDT'], start: B_START });
    a.market.seek(B_START + 8_000);
    b.market.seek(B_START + 8_000);
  }, 60_000);
  afterAll(() => {
    a?.close();
    b?.close();
  });

  it("the 1s candles before B's start are A's (built from the same trades by the venue's rule)", () => {
    const read = (v: ReplayVenue) =>
      v.klines.klines('TRXUSDT', '1s', { startTime: FIRST_TRADE - 438, endTime: B_START - 1 }).map(served);
    const want = read(a);
    expect(want.length).toBeGreaterThan(10);
    expect(read(b)).toEqual(want);
  });

  it("the 1m candle the start falls in is history's part joined to B's own: A's, column for column", () => {
    const minute = (v: ReplayVenue) => served(v.klines.klines('TRXUSDT', '1m', { limit: 1 })[0]);
    expect(minute(b)).toEqual(minute(a));
    expect(Number(minute(b)[8])).toBeGreaterThan(0);
  });
});

describe("the 24 h ticker 6 h into the 15m replay: the replay's 1m candles, then history's 15m ones", () => {
  it("opens at history's candle 24 h back and counts both parts' trades once", async () => {
    const v = await replayVenue(IMPORT, { symbols: ['BTCUSDT'], start: START });
    try {
      v.market.seek(START + 6 * H1);
      const now = START + 6 * H1;
      const t = new Ticker24hService(v.klines, new RecentTrades(v.exchange.events)).ticker(
        v.exchange.pair('BTCUSDT')!,
        now,
      );
      const before = rows('15m').filter((f) => Number(f[0]) >= now - 86_400_000 && Number(f[0]) < START);
      expect(before).toHaveLength(72);
      expect(t.openTime).toBe(now - 86_400_000);
      expect(Number(t.open)).toBe(Number(before[0][1]));
      // the replay's own 1m candles from the start: their trades, read from the service
      // (with the candle the 06:00 print opened, current at 06:00)
      const own = v.klines.klines('BTCUSDT', '1m', { startTime: START, endTime: now });
      const ownTrades = own.reduce((a, k) => a + Number(k[8]), 0);
      expect(ownTrades).toBeGreaterThan(0);
      expect(t.trades).toBe(before.reduce((a, f) => a + Number(f[8]), 0) + ownTrades);
    } finally {
      v.close();
    }
  });
});
