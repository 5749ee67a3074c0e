// The 24 h ticker service on hand-made candles: the window's first candle is the first that opened
// at or after now - 24 h, high and low over the window, volumes summed exactly, whatever the
// decimals the candles are written with, and a window without candles at the last price.
import { describe, expect, it } from 'vitest';
import { Ticker24hService } from '../../src-main/market/ticker-24h.ts';
import type { KlineService } from '../../src-main/market/kline-service.ts';
import type { RecentTrades } from '../../src-main/market/recent-trades.ts';
import type { PairView } from '../../src-main/trading/pair-state.ts';

const MIN = 60_000;
const NOW = Date.parse('2025-03-05T10:07:30Z');

/** A 1m candle as the kline service answers it (newest first in the list). */
const k = (open: number, o: string, h: string, l: string, v: string, q: string, n: number) =>
  [open, open + MIN - 1, o, h, l, o, v, q, n, '0', '0', true] as const;

function service(candles: ReturnType<typeof k>[]): Ticker24hService {
  const klines = { klines: () => candles } as unknown as KlineService;
  const recent = { newest: () => [] } as unknown as RecentTrades;
  return new Ticker24hService(klines, recent);
}

const pair = {
  row: { symbol: 'BTCUSDT', pricePrecision: 1, qtyPrecision: 3, quotePrecision: 8 },
  lastPriceTicks: 965_000,
  math: { formatPrice: (t: number) => (t / 10).toFixed(1), formatQty: (l: number) => (l / 1000).toFixed(3) },
} as unknown as PairView;

describe('Ticker24hService', () => {
  it('walks the window newest first and stops at the first candle before it', () => {
    const t = service([
      k(NOW - 7 * MIN - 30_000, '96400.0', '96600.0', '96300.0', '0.010', '965.0', 1),
      k(NOW - 86_400_000 + 30_000, '96000.0', '96100.0', '95800.0', '0.02', '1921.00000000', 2),
      k(NOW - 86_400_000 - 30_000, '90000.0', '99000.0', '80000.0', '5.000', '450000', 9), // before the window
    ]).ticker(pair, NOW);
    expect(t).toMatchObject({
      open: '96000.0',
      high: '96600.0',
      low: '95800.0',
      last: '96500.0',
      change: '500.0',
      changePercent: '0.521',
      volume: '0.030',
      quoteVolume: '2886.00000000',
      trades: 3,
      openTime: NOW - 86_400_000 + 30_000,
      closeTime: NOW,
    });
  });

  it('a fall that rounds to 0.000 % reads 0.000, without a sign (it read -0.000)', () => {
    // from 96,500.3 to the last 96,500.0: -0.0003 %
    const t = service([k(NOW - 10 * MIN, '96500.3', '96500.3', '96500.0', '0.010', '965.0', 1)]).ticker(pair, NOW);
    expect([t.change, t.changePercent]).toEqual(['-0.3', '0.000']);
  });

  it('with no candle in the window every price is the last one and the volumes are zero', () => {
    const t = service([]).ticker(pair, NOW);
    expect([t.open, t.high, t.low, t.change, t.changePercent, t.volume, t.trades]).toEqual([
      '96500.0',
      '96500.0',
      '96500.0',
      '0.0',
      '0.000',
      '0.000',
      0,
    ]);
  });
});
