// KlineService against its ports in memory (market/ports.ts): MemoryCandleStore and a catalogue
// of plain rows, no SQLite and no venue. What the service promises its store: closed candles
// written as they close, nothing written while another unit of work is open, the current
// candles checkpointed on close and continued by the next service, reads past the in-memory
// rings and retention served by the store; and the history writer fills the same port.
import { describe, expect, it } from 'vitest';
import { Side } from '../../src-shared/enums.ts';
import type { Candle } from '../../src-main/core/candle.ts';
import type { SymbolRow } from '../../src-main/core/symbol.ts';
import { DEFAULT_CATALOGUE } from '../../src-main/market/catalogue.ts';
import { KlineService, type KlineServiceOptions } from '../../src-main/market/kline-service.ts';
import type { SymbolCatalogue } from '../../src-main/market/ports.ts';
import { toNewSymbol } from '../../src-main/market/seed-catalogue.ts';
import { HistoryCandleWriter } from '../../src-main/market/sim/history-writer.ts';
import { MemoryCandleStore } from '../../src-main/store/memory-candle-store.ts';

const T0 = Date.UTC(2026, 0, 5); // a Monday, 00:00 UTC: every interval opens here
const MIN = 60_000;
const ALL = Number.MAX_SAFE_INTEGER;

const rows: SymbolRow[] = DEFAULT_CATALOGUE.map((e, i) => ({
  ...toNewSymbol(e, (i + 1) * 10),
  id: i + 1,
  createdAt: T0,
  updatedAt: T0,
}));
const catalogue: SymbolCatalogue = { all: () => rows, get: (s) => rows.find((r) => r.symbol === s) };

function start(store: MemoryCandleStore, t = T0, options: KlineServiceOptions = {}) {
  const clock = { t, now: () => clock.t };
  const svc = new KlineService({ candles: store, symbols: catalogue, clock }, { tickMs: 0, ...options });
  return { svc, clock };
}

/** Three BTC trades: two in the first minute, one in the second. */
function threeTrades(svc: KlineService): void {
  svc.recordTrade('BTCUSDT', { time: T0 + 1_000, priceTicks: 1_000_000, qtyLots: 2, takerSide: 1 });
  svc.recordTrade('BTCUSDT', { time: T0 + 20_000, priceTicks: 1_010_000, qtyLots: 1, takerSide: 2 });
  svc.recordTrade('BTCUSDT', { time: T0 + MIN + 1_000, priceTicks: 990_000, qtyLots: 3, takerSide: 1 });
}

const FIRST: Partial<Candle> = {
  interval: '1m',
  openTime: T0,
  open: 1_000_000,
  high: 1_010_000,
  low: 1_000_000,
  close: 1_010_000,
  volume: 3,
  quoteVolume: 3_010_000n,
  trades: 2,
  takerBuyVolume: 2,
  takerBuyQuoteVolume: 2_000_000n,
};
const SECOND: Partial<Candle> = {
  interval: '1m',
  openTime: T0 + MIN,
  open: 990_000,
  high: 990_000,
  low: 990_000,
  close: 990_000,
  volume: 3,
  quoteVolume: 2_970_000n,
  trades: 1,
  takerBuyVolume: 3,
  takerBuyQuoteVolume: 2_970_000n,
};

describe('KlineService on in-memory ports', () => {
  it('writes each candle to the store when it closes and serves it back', () => {
    const store = new MemoryCandleStore();
    const { svc, clock } = start(store);
    threeTrades(svc);
    expect(store.count('BTCUSDT', '1m')).toBe(0); // the first minute closed at the third trade: written at the next advance
    clock.t = T0 + 2 * MIN + 5_000;
    svc.advanceTo(clock.t);
    const stored = store.range('BTCUSDT', '1m', 0, ALL);
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject(FIRST);
    expect(stored[1]).toMatchObject(SECOND);
    // the current minute carries the last close, and is not stored yet
    expect(svc.current('BTCUSDT', '1m')).toMatchObject({ openTime: T0 + 2 * MIN, open: 990_000, trades: 0 });
    // newest first: the current candle, then the two closed ones
    const wire = svc.klines('BTCUSDT', '1m', { limit: 3 });
    expect(wire.map((k) => [k[0], k[8], k[11]])).toEqual([
      [T0 + 2 * MIN, 0, false],
      [T0 + MIN, 1, true],
      [T0, 2, true],
    ]);
    expect(wire[2].slice(2, 6)).toEqual(['100000.0', '101000.0', '100000.0', '101000.0']);
    expect(store.count('BTCUSDT', '1s')).toBeGreaterThan(60);
    expect(store.count('ETHUSDT', '1m')).toBe(0);
    svc.close();
  });

  it('writes nothing while another unit of work is open, and everything after', () => {
    const store = new MemoryCandleStore();
    const { svc, clock } = start(store);
    expect(svc.klines('BTCUSDT', '1m')).toEqual([]); // loads the (empty) ring, which then follows every close
    store.inUnit = true;
    threeTrades(svc);
    clock.t = T0 + 2 * MIN + 5_000;
    svc.advanceTo(clock.t);
    svc.checkpoint();
    expect(store.count('BTCUSDT', '1m')).toBe(0);
    // the rings serve what is waiting
    expect(svc.klines('BTCUSDT', '1m', { limit: 3 }).map((k) => k[0])).toEqual([T0 + 2 * MIN, T0 + MIN, T0]);
    store.inUnit = false;
    svc.advanceTo(clock.t);
    expect(store.range('BTCUSDT', '1m', 0, ALL).map((c) => c.openTime)).toEqual([T0, T0 + MIN]);
    svc.close();
  });

  it('checkpoints the current candles on close, and a new service continues them', () => {
    const store = new MemoryCandleStore();
    const a = start(store);
    a.svc.recordTrade('BTCUSDT', { time: T0 + 1_000, priceTicks: 1_000_000, qtyLots: 2, takerSide: 1 });
    a.svc.recordTrade('BTCUSDT', { time: T0 + 20_000, priceTicks: 1_010_000, qtyLots: 1, takerSide: 2 });
    a.svc.close();
    // the open 1m and 1h candles were written as they stood
    expect(store.newest('BTCUSDT', '1h')).toMatchObject({ openTime: T0, volume: 3, trades: 2 });

    const b = start(store, T0 + 30_000);
    b.svc.recordTrade('BTCUSDT', { time: T0 + 40_000, priceTicks: 990_000, qtyLots: 4, takerSide: 2 });
    expect(b.svc.current('BTCUSDT', '1m')).toMatchObject({
      openTime: T0,
      open: 1_000_000,
      high: 1_010_000,
      low: 990_000,
      close: 990_000,
      volume: 7,
      trades: 3,
      takerBuyVolume: 2,
    });
    b.clock.t = T0 + MIN;
    b.svc.advanceTo(b.clock.t);
    expect(store.range('BTCUSDT', '1m', 0, ALL)).toHaveLength(1);
    expect(store.newest('BTCUSDT', '1m')).toMatchObject({ openTime: T0, volume: 7, trades: 3 });
    b.svc.close();
  });

  it('reads past the in-memory ring from the store, and prunes by retention', () => {
    const store = new MemoryCandleStore();
    const { svc, clock } = start(store, T0, { ringSize: 5, retention: { '1s': 0, '1m': 20 * MIN } });
    for (let m = 0; m < 30; m++)
      svc.recordTrade('BTCUSDT', {
        time: T0 + m * MIN + 500,
        priceTicks: 1_000_000 + m * 10,
        qtyLots: 1,
        takerSide: 1,
      });
    clock.t = T0 + 30 * MIN;
    svc.advanceTo(clock.t);
    // retention: 1m candles older than 20 minutes of market time are gone, 1s ones are kept
    expect(store.oldestOpen('BTCUSDT', '1m')).toBe(T0 + 10 * MIN);
    expect(store.oldestOpen('BTCUSDT', '1s')).toBe(T0);
    // a range wider than the ring of 5: served from the store, ascending in the store, newest first on the wire
    const got = svc.klines('BTCUSDT', '1m', { startTime: T0 + 12 * MIN, endTime: T0 + 20 * MIN });
    expect(got.map((k) => k[0])).toEqual(Array.from({ length: 9 }, (_, i) => T0 + (20 - i) * MIN));
    expect(got.map((k) => k[8])).toEqual(Array.from({ length: 9 }, () => 1));
    expect(got[0][5]).toBe('100020.0'); // minute 20's close: 1,000,200 ticks of 0.1
    svc.close();
  });

  it('the history writer fills the same port, and a service restores from it', () => {
    const store = new MemoryCandleStore();
    const writer = new HistoryCandleWriter(store);
    for (let s = 0; s < 3 * 3600; s += 30)
      writer.recordTrade('ETHUSDT', {
        time: T0 + s * 1000,
        priceTicks: 300_000 + (s % 600),
        qtyLots: 5,
        takerSide: s % 60 === 0 ? Side.BUY : Side.SELL,
        count: 1,
      });
    writer.advanceTo(T0 + 3 * 3_600_000);
    writer.finish();
    expect(writer.written).toBeGreaterThan(3 * 60);
    expect(store.commits).toBeGreaterThan(0);
    expect(store.count('ETHUSDT', '1s')).toBe(0); // the history skips 1s candles
    expect(store.range('ETHUSDT', '1h', 0, ALL).map((c) => [c.openTime, c.trades])).toEqual([
      [T0, 120],
      [T0 + 3_600_000, 120],
      [T0 + 7_200_000, 120],
      [T0 + 10_800_000, 0],
    ]);
    const { svc } = start(store, T0 + 3 * 3_600_000 + 10_000);
    const wire = svc.klines('ETHUSDT', '1h', { limit: 10 });
    expect(wire.map((k) => [k[0], k[8], k[11]])).toEqual([
      [T0 + 10_800_000, 0, false],
      [T0 + 7_200_000, 120, true],
      [T0 + 3_600_000, 120, true],
      [T0, 120, true],
    ]);
    svc.close();
  });
});
