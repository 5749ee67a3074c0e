// KlineService: candles from recorded trades, served newest first, stored, restored, gap rule.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aggregateRun } from '../../src-main/market/candle-aggregate.ts';
import type { Candle } from '../../src-main/market/candles.ts';
import { KlineService, type KlineServiceOptions } from '../../src-main/market/kline-service.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { openVenue, type LocalVenue as Venue } from '../../src-main/venue.ts';
import { ApiError } from '../../src-shared/errors.ts';
import { openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import { mulberry32 } from '../helpers/seeded-random.ts';
import { referenceKlines, type Trade } from '../helpers/kline-reference.ts';

const T0 = Date.parse('2025-03-03T00:00:00Z'); // a Monday

/** Trades from `from`, 0-4 s apart (several in one ms now and then), prices random-walking around 96,000. */
function makeTrades(seed: number, from: number, n: number): Trade[] {
  const rnd = mulberry32(seed);
  const out: Trade[] = [];
  let t = from;
  let p = 960_000;
  for (let i = 0; i < n; i++) {
    if (rnd() > 0.15) t += Math.floor(rnd() * 4000);
    p += Math.floor(rnd() * 41) - 20;
    out.push({ time: t, price: p, qty: 1 + Math.floor(rnd() * 2500), side: rnd() < 0.5 ? 1 : 2 });
  }
  return out;
}

// ---- fixtures ------------------------------------------------------------------------------------

const dirs: string[] = [];
const open: Array<{ svc: KlineService; venue: Venue }> = [];
afterEach(async () => {
  // a venue's close resolves once its checkpoint worker is gone: only then is the folder quiet
  for (const o of open.splice(0)) {
    o.svc.close();
    await o.venue.close();
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Fixture {
  venue: Venue;
  svc: KlineService;
  clock: { t: number; now(): number };
}

function start(dataDir = ':memory:', options: KlineServiceOptions = {}, t = T0): Fixture {
  const venue = openVenue({ dataDir, wall: () => T0 });
  const clock = { t, now: () => clock.t };
  const svc = new KlineService(
    { candles: new CandlesRepo(venue.db), symbols: venue.symbols, clock },
    { tickMs: 0, ...options },
  );
  open.push({ svc, venue });
  return { venue, svc, clock };
}

/** Closes a fixture's service and venue, awaiting the venue (its checkpointer's last writes). */
async function stop(f: Fixture): Promise<void> {
  const i = open.findIndex((o) => o.svc === f.svc);
  open.splice(i, 1);
  f.svc.close();
  await f.venue.close();
}

function feed(f: Fixture, trades: readonly Trade[]): void {
  for (const t of trades)
    f.svc.recordTrade('BTCUSDT', { time: t.time, priceTicks: t.price, qtyLots: t.qty, takerSide: t.side });
}

/** Stored candles as the builder's records, ascending. */
function stored(f: Fixture, interval: Interval): Candle[] {
  return f.svc.repo.range('BTCUSDT', interval, 0, Number.MAX_SAFE_INTEGER);
}

// ---- tests ---------------------------------------------------------------------------------------

describe('KlineService', () => {
  it('serves the exact aggregate of the recorded trades, newest first, current candle last to close', () => {
    const f = start();
    const trades = makeTrades(1, T0 + 123, 4000); // about 1.6 h
    feed(f, trades);
    const now = trades[trades.length - 1].time + 90_000;
    f.clock.t = now;
    for (const interval of ['1s', '1m', '5m', '15m', '1h', '1d', '1w', '1M'] as const) {
      const want = referenceKlines(interval, trades, now).reverse().slice(0, 1500);
      const got = f.svc.klines('BTCUSDT', interval, { limit: 1500 });
      expect(got.length, interval).toBe(want.length);
      expect(got, interval).toEqual(want);
      // JSON text and tuples are the same candles
      expect(JSON.parse(f.svc.klinesJson('BTCUSDT', interval, { limit: 1500 }))).toEqual(want);
    }
    expect(f.svc.klines('BTCUSDT', '1m', { limit: 3 })).toEqual(
      referenceKlines('1m', trades, now).reverse().slice(0, 3),
    );
    expect(f.svc.klines('BTCUSDT', '1m').length).toBe(Math.min(500, referenceKlines('1m', trades, now).length));
    expect(f.svc.klines('ETHUSDT', '1m')).toEqual([]);
    // the cached bytes of the closed part follow new closes
    const more = [...trades, { time: now + 125_000, price: 961_234, qty: 3, side: 2 as const }];
    feed(f, more.slice(-1));
    f.clock.t = now + 190_000;
    expect(JSON.parse(f.svc.klinesJson('BTCUSDT', '1m', { limit: 1500 }))).toEqual(
      referenceKlines('1m', more, f.clock.t).reverse(),
    );
    expect(JSON.parse(f.svc.klinesBatchBody(['ETHUSDT', 'BTCUSDT'], '1m', 2).toString())).toEqual({
      ETHUSDT: [],
      BTCUSDT: referenceKlines('1m', more, f.clock.t).reverse().slice(0, 2),
    });
  });

  it('coarse stored candles equal the aggregate of the fine ones', () => {
    const f = start();
    const trades = makeTrades(2, T0 + 5_000, 6000);
    feed(f, trades);
    // the timer's small steps (a jump of more than 1500 s would leave a hole in the 1s candles)
    const end = openTimeOf('1h', trades[trades.length - 1].time) + 2 * 3_600_000;
    for (let t = trades[trades.length - 1].time; t < end; t += 600_000) f.svc.advanceTo(t);
    f.svc.advanceTo(end);
    const pairs: Array<[Interval, Interval]> = [
      ['1s', '1m'],
      ['1m', '5m'],
      ['1m', '1h'],
      ['5m', '1h'],
      ['15m', '1h'],
    ];
    for (const [fine, coarse] of pairs) {
      const want = aggregateRun(coarse, stored(f, fine));
      const got = stored(f, coarse);
      expect(got.length, `${fine}->${coarse}`).toBeGreaterThan(1);
      expect(got, `${fine}->${coarse}`).toEqual(want);
    }
  });

  it('writes closed candles in batches on advance, and a restart continues the current candles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-klines-'));
    dirs.push(dir);
    const trades = makeTrades(3, T0 + 1_000, 3000);
    const half = trades.findIndex((t) => t.time >= T0 + 30 * 60_000);
    const end = trades[trades.length - 1].time;

    const a = start(dir);
    feed(a, trades.slice(0, half));
    expect(stored(a, '1m')).toEqual([]); // nothing written before the advance
    a.clock.t = trades[half].time;
    a.svc.advanceTo(a.clock.t);
    expect(stored(a, '1m').length).toBe(30);
    const before = a.svc.klines('BTCUSDT', '1h', { limit: 10 });
    await stop(a);

    const b = start(dir, {}, a.clock.t);
    expect(b.svc.klines('BTCUSDT', '1h', { limit: 10 })).toEqual(before);
    feed(b, trades.slice(half));
    b.clock.t = end + 5_000;
    for (const interval of ['1s', '1m', '1h', '1d'] as const) {
      expect(b.svc.klines('BTCUSDT', interval, { limit: 1500 }), interval).toEqual(
        referenceKlines(interval, trades, b.clock.t).reverse().slice(0, 1500),
      );
    }
  });

  it('answers time ranges from memory and from SQLite alike, and refuses ranges over 1500 candles', () => {
    const trades = makeTrades(4, T0 + 2_000, 3000);
    const now = trades[trades.length - 1].time + 1_000;
    const big = start(':memory:');
    const small = start(':memory:', { ringSize: 20 }); // most ranges miss the ring: SQLite path
    for (const f of [big, small]) {
      feed(f, trades);
      f.clock.t = now;
      f.svc.advanceTo(now);
    }
    const all = referenceKlines('1m', trades, now).reverse();
    const ranges: Array<[number, number]> = [
      [T0 + 10 * 60_000 + 30_000, T0 + 25 * 60_000 + 1], // starts mid-candle (not that one), ends just inside one
      [0, T0 + 3 * 60_000], // before the first candle
      [T0 + 40 * 60_000, now + 86_400_000], // through the current candle into the future
      [now + 60_000, now + 120_000], // only the future
    ];
    for (const [s, e] of ranges) {
      // the candles opening in [s, e]
      const want = all.filter((k) => k[0] <= e && k[0] >= s);
      expect(big.svc.klines('BTCUSDT', '1m', { startTime: s, endTime: e }), `${s}..${e}`).toEqual(want);
      expect(small.svc.klines('BTCUSDT', '1m', { startTime: s, endTime: e }), `${s}..${e} sqlite`).toEqual(want);
    }
    const tooWide = () => big.svc.klines('BTCUSDT', '1s', { startTime: 0, endTime: now });
    expect(tooWide).toThrow(ApiError);
    try {
      tooWide();
    } catch (err) {
      expect((err as ApiError).def.code).toBe(6000);
    }
    // 1500 one-second periods are fine
    const last1500 = big.svc.klines('BTCUSDT', '1s', { startTime: openTimeOf('1s', now) - 1499_000, endTime: now });
    expect(last1500.length).toBe(1500);
  });

  it('closedKlines: the closed candles from an open time on, oldest first, from the ring and SQLite alike', () => {
    const trades = makeTrades(5, T0 + 2_000, 1500);
    const now = trades[trades.length - 1].time + 1_000;
    const big = start(':memory:');
    const small = start(':memory:', { ringSize: 20 }); // a cursor further back than 20 candles: SQLite
    for (const f of [big, small]) {
      feed(f, trades);
      f.clock.t = now;
      f.svc.advanceTo(now);
      f.svc.checkpoint(); // SQLite holds the current candle too; it is not closed
    }
    const closed = referenceKlines('1m', trades, now).filter((k) => k[11]);
    expect(closed.length).toBeGreaterThan(30);
    const last = closed[closed.length - 1][0];
    for (const from of [0, closed[5][0], closed[5][0] + 1, closed[closed.length - 3][0], last, last + 1]) {
      const want = closed.filter((k) => k[0] >= from);
      expect(big.svc.closedKlines('BTCUSDT', '1m', from), `from ${from}`).toEqual(want);
      expect(small.svc.closedKlines('BTCUSDT', '1m', from), `from ${from}, sqlite`).toEqual(want);
    }
  });

  it('after a long gap emits at most 1500 zero candles per interval, carrying the last close', () => {
    const f = start(':memory:', { retention: { '1s': 0 } }); // keep 1s candles for this test
    f.svc.recordTrade('BTCUSDT', { time: T0 + 500, priceTicks: 960_005, qtyLots: 7, takerSide: 1 });
    const later = T0 + 10 * 86_400_000 + 1_234; // 10 days on
    f.clock.t = later;
    f.svc.advanceTo(later);

    const s1 = stored(f, '1s');
    expect(s1.length).toBe(1 + 1500);
    expect(s1[0]).toMatchObject({ openTime: T0, trades: 1, volume: 7, close: 960_005 });
    expect(s1[1].openTime).toBe(openTimeOf('1s', later) - 1500_000);
    expect(s1.slice(1).every((c) => c.trades === 0 && c.open === 960_005 && c.close === 960_005)).toBe(true);
    // 10 days of hours is only 240 periods: all of them, contiguous
    const h = stored(f, '1h');
    expect(h.length).toBe(240);
    expect(h.every((c, i) => c.openTime === T0 + i * 3_600_000)).toBe(true);
    // latest-N reads are contiguous and end in the current candle
    const k = f.svc.klines('BTCUSDT', '1m', { limit: 1500 });
    expect(k.length).toBe(1500);
    expect(k[0][0]).toBe(openTimeOf('1m', later));
    expect(k[0][11]).toBe(false);
    expect(k.every((c, i) => i === 0 || (c[0] === k[i - 1][0] - 60_000 && c[11] === true))).toBe(true);
    // trading continues from the carried price
    f.svc.recordTrade('BTCUSDT', { time: later + 10, priceTicks: 960_100, qtyLots: 1, takerSide: 2 });
    expect(f.svc.current('BTCUSDT', '1d')).toMatchObject({ open: 960_100, trades: 1 });
  });

  it('never steps back in time, and tells listeners about trades and closes', () => {
    const f = start();
    const seen: Array<{ symbol: string; closed: string[] }> = [];
    const off = f.svc.onCandle((symbol, closed) =>
      seen.push({ symbol, closed: closed.map((c) => `${c.interval}@${c.openTime}`) }),
    );
    f.svc.recordTrade('BTCUSDT', { time: T0 + 61_000, priceTicks: 960_000, qtyLots: 1, takerSide: 1 });
    f.svc.recordTrade('BTCUSDT', { time: T0 + 1_000, priceTicks: 961_000, qtyLots: 2, takerSide: 2 }); // late: counts at T0 + 61 s
    expect(f.svc.current('BTCUSDT', '1m')).toMatchObject({ openTime: T0 + 60_000, trades: 2, close: 961_000 });
    expect(seen).toEqual([
      { symbol: 'BTCUSDT', closed: [] },
      { symbol: 'BTCUSDT', closed: [] },
    ]);
    f.svc.advanceTo(T0 + 120_000);
    expect(seen[2].closed).toContain(`1m@${T0 + 60_000}`);
    expect(seen[2].closed).toContain(`1s@${T0 + 61_000}`);
    off();
    f.svc.advanceTo(T0 + 180_000);
    expect(seen.length).toBe(3);
    expect(f.svc.currentKline('BTCUSDT', '1m')).toEqual([
      T0 + 180_000,
      T0 + 239_999,
      '96100.0',
      '96100.0',
      '96100.0',
      '96100.0',
      '0.000',
      '0.00000000',
      0,
      '0.000',
      '0.00000000',
      false,
    ]);
    expect(() => f.svc.recordTrade('NOPEUSDT', { time: T0, priceTicks: 1, qtyLots: 1, takerSide: 1 })).toThrow(
      ApiError,
    );
  });

  it('deletes 1s candles older than 24 h of market time, keeps the other intervals', () => {
    const f = start();
    f.svc.recordTrade('BTCUSDT', { time: T0 + 500, priceTicks: 960_005, qtyLots: 7, takerSide: 1 });
    for (let t = T0; t <= T0 + 26 * 3_600_000; t += 1_000_000) f.svc.advanceTo(t);
    const last = T0 + 26 * 3_600_000;
    f.svc.advanceTo(last);
    const s1 = stored(f, '1s');
    expect(s1.length).toBeGreaterThan(1000);
    expect(s1[0].openTime).toBeGreaterThanOrEqual(last - 86_400_000 - 3_600_000); // pruned hourly
    expect(stored(f, '1m')[0]).toMatchObject({ openTime: T0, trades: 1 });
  });

  it('prunes without waiting while another connection holds the write lock, and once it is free', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-klines-'));
    dirs.push(dir);
    const f = start(dir);
    f.svc.recordTrade('BTCUSDT', { time: T0 + 500, priceTicks: 960_005, qtyLots: 7, takerSide: 1 });
    f.svc.advanceTo(T0 + 10_000); // the first prune: nothing old yet
    f.svc.checkpoint(true);
    groupCommitOf(f.venue.db).commitNow();
    expect(stored(f, '1s')[0]).toMatchObject({ openTime: T0 });
    // a sqlite3 shell, say, holds the write lock; a day and more of market time later
    const other = new DatabaseSync(join(dir, 'perpdesk.db'));
    try {
      other.exec('PRAGMA busy_timeout = 0');
      other.exec('BEGIN IMMEDIATE');
      const errors: unknown[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a));
      const t0 = Date.now();
      f.svc.advanceTo(T0 + 26 * 3_600_000);
      const waited = Date.now() - t0;
      spy.mockRestore();
      // the DELETE waited for the lock on the event loop, the busy timeout's 5 s, and then failed
      expect(waited).toBeLessThan(2_500);
      expect(errors).toEqual([]);
      expect(stored(f, '1s')[0]).toMatchObject({ openTime: T0 }); // not yet
      other.exec('COMMIT');
    } finally {
      other.close();
    }
    // the next advance, the lock free: pruned (not an hour later)
    const later = T0 + 26 * 3_600_000 + 250;
    f.svc.advanceTo(later);
    f.svc.checkpoint(true);
    expect(stored(f, '1s')[0].openTime).toBeGreaterThanOrEqual(later - 86_400_000);
    expect(stored(f, '1m')[0]).toMatchObject({ openTime: T0, trades: 1 });
  });
});
