// Right after a start, 1s klines answered [] until the pair's next trade,
// because the history build stores every interval but 1s. Every interval includes the current
// candle from the start.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../../src-main/market/candles.ts';
import { KlineService } from '../../../src-main/market/kline-service.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { INTERVALS, openTimeOf } from '../../../src-shared/intervals.ts';

const T = Date.parse('2025-03-03T10:17:42.250Z');
let venue: Venue | null = null;
let svc: KlineService | null = null;

afterEach(async () => {
  svc?.close();
  svc = null;
  await venue?.close();
  venue = null;
});

function storedHistory(v: Venue): void {
  const syms: string[] = [];
  const candles: Candle[] = [];
  for (const interval of INTERVALS) {
    if (interval === '1s') continue; // as the history build does
    syms.push('BTCUSDT');
    candles.push({
      interval,
      openTime: openTimeOf(interval, T - 1_000),
      open: 959_000,
      high: 961_000,
      low: 958_000,
      close: 960_123,
      volume: 12,
      quoteVolume: 11_520_000n,
      trades: 3,
      takerBuyVolume: 5,
      takerBuyQuoteVolume: 4_800_000n,
    });
  }
  v.klines.repo.writeMany(syms, candles);
  v.trading.group.commitNow();
}

describe('1s klines right after a start', () => {
  it('hold the current candle at the latest price, then one candle per second', () => {
    venue = openVenue({ dataDir: ':memory:', wall: () => T });
    storedHistory(venue);
    let now = T;
    svc = new KlineService(
      { candles: new CandlesRepo(venue.db), symbols: venue.symbols, clock: { now: () => now } },
      { tickMs: 0 },
    );

    const first = svc.klines('BTCUSDT', '1s', { limit: 5 });
    expect(first).toHaveLength(1);
    const [openTime, closeTime, open, high, low, close, volume, , trades, , , isClosed] = first[0];
    expect(openTime).toBe(openTimeOf('1s', T));
    expect(closeTime).toBe(openTimeOf('1s', T) + 999);
    expect([open, high, low, close]).toEqual(['96012.3', '96012.3', '96012.3', '96012.3']);
    expect(volume).toBe('0.000');
    expect(trades).toBe(0);
    expect(isClosed).toBe(false);
    // the other intervals keep their stored current candle
    expect(svc.klines('BTCUSDT', '1m', { limit: 1 })[0][8]).toBe(3);

    now = T + 2_500;
    const later = svc.klines('BTCUSDT', '1s', { limit: 5 });
    expect(later.map((k) => k[0])).toEqual([
      openTimeOf('1s', T) + 2_000,
      openTimeOf('1s', T) + 1_000,
      openTimeOf('1s', T),
    ]);
    expect(later.map((k) => k[11])).toEqual([false, true, true]);
  });

  it('with no candles at all, every interval opens at the pair price the exchange gives; without one, none', () => {
    venue = openVenue({ dataDir: ':memory:', wall: () => T });
    const deps = { candles: new CandlesRepo(venue.db), symbols: venue.symbols, clock: { now: () => T } };
    svc = new KlineService({ ...deps, exchange: venue.exchange }, { tickMs: 0 });
    for (const interval of INTERVALS) {
      const [k] = svc.klines('BTCUSDT', interval, { limit: 5 });
      expect(k[0]).toBe(openTimeOf(interval, T));
      expect(k.slice(2, 6)).toEqual(['96000.0', '96000.0', '96000.0', '96000.0']);
    }
    svc.close();
    svc = new KlineService(deps, { tickMs: 0 });
    expect(svc.klines('ETHUSDT', '1s', { limit: 5 })).toEqual([]);
  });
});
