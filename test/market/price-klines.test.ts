// Mark / index / premium candles (market/price-klines.ts): built from the exchange's 'price'
// events, per interval, with holes where no update came, a bounded window, and Binance's
// startTime / endTime / limit selection.
import { describe, expect, it } from 'vitest';
import { PRICE_KLINES_KEPT, PriceKlines } from '../../src-main/market/price-klines.ts';
import { EventBus } from '../../src-main/trading/events.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const MIN = 60_000;

function setup() {
  const bus = new EventBus();
  const k = new PriceKlines(bus);
  const at = (time: number, mark: number, index: number) => bus.emit('price', { symbol: 'BTCUSDT', mark, index, time });
  return { bus, k, at };
}

describe('PriceKlines', () => {
  it('builds OHLC of mark, index and premium per interval, with a hole where no update came', () => {
    const { k, at } = setup();
    at(T0 + 1_000, 100, 100);
    at(T0 + 20_000, 110, 100);
    at(T0 + 59_999, 90, 100);
    at(T0 + 3 * MIN + 5, 95, 95);
    const m = k.candles('BTCUSDT', 'mark', '1m', { limit: 10 });
    expect(m).toEqual([
      { openTime: T0, open: 100, high: 110, low: 90, close: 90, closeTime: T0 + MIN - 1, count: 3 },
      { openTime: T0 + 3 * MIN, open: 95, high: 95, low: 95, close: 95, closeTime: T0 + 4 * MIN - 1, count: 1 },
    ]);
    const p = k.candles('BTCUSDT', 'premium', '1m', { limit: 10 })[0];
    expect([p.open, p.high, p.low, p.close]).toEqual([0, 0.1, -0.1, -0.1]);
    expect(k.candles('BTCUSDT', 'index', '5m', { limit: 10 })).toEqual([
      { openTime: T0, open: 100, high: 100, low: 95, close: 95, closeTime: T0 + 5 * MIN - 1, count: 4 },
    ]);
    // no 1s series, nothing for a pair never priced
    expect(() => k.candles('BTCUSDT', 'mark', '1s', { limit: 10 })).not.toThrow();
    expect(k.candles('BTCUSDT', 'mark', '1s', { limit: 10 })).toEqual([]);
    expect(k.candles('ETHUSDT', 'mark', '1m', { limit: 10 })).toEqual([]);
  });

  it('never steps back in time: a late update counts in the newest candle', () => {
    const { k, at } = setup();
    at(T0 + MIN, 100, 100);
    at(T0 + 5, 120, 100);
    expect(k.candles('BTCUSDT', 'mark', '1m', { limit: 10 })).toEqual([
      { openTime: T0 + MIN, open: 100, high: 120, low: 100, close: 120, closeTime: T0 + 2 * MIN - 1, count: 2 },
    ]);
  });

  it('selects like Binance and keeps only the newest PRICE_KLINES_KEPT candles', () => {
    const { k, at } = setup();
    const n = PRICE_KLINES_KEPT + 10;
    for (let i = 0; i < n; i++) at(T0 + i * MIN, 100 + i, 100);
    const all = k.candles('BTCUSDT', 'mark', '1m', { limit: 5000 });
    expect(all).toHaveLength(PRICE_KLINES_KEPT);
    expect(all[0].openTime).toBe(T0 + 10 * MIN);
    expect(all[all.length - 1].close).toBe(100 + n - 1);
    // startTime counts forward, endTime alone back, neither the newest
    expect(k.candles('BTCUSDT', 'mark', '1m', { startTime: T0 + 20 * MIN, limit: 2 }).map((c) => c.openTime)).toEqual([
      T0 + 20 * MIN,
      T0 + 21 * MIN,
    ]);
    expect(k.candles('BTCUSDT', 'mark', '1m', { endTime: T0 + 20 * MIN, limit: 2 }).map((c) => c.openTime)).toEqual([
      T0 + 19 * MIN,
      T0 + 20 * MIN,
    ]);
    expect(k.candles('BTCUSDT', 'mark', '1m', { limit: 1 }).map((c) => c.openTime)).toEqual([T0 + (n - 1) * MIN]);
  });

  it('stops listening when closed', () => {
    const { bus, k, at } = setup();
    k.close();
    expect(bus.has('price')).toBe(false);
    at(T0, 100, 100);
    expect(k.candles('BTCUSDT', 'mark', '1m', { limit: 10 })).toEqual([]);
  });
});
