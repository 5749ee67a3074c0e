// A replay without L2 data quotes its synthetic book from the start (replay-engine.ts quoteAtStart,
// docs/replay.md "Synthetic book"): around the trade the pair starts at (its side and size), or for
// candles around the start price at the size of a path print of the last candle closed before the
// start. Until 2026-12-07 such a pair had no book until its first print after the start (up to a
// whole candle of a klines replay started inside one) and a market order placed before it expired.
import { afterEach, describe, expect, it } from 'vitest';
import type { HistCandle, HistTrade, ReplayData, ReplayDataset } from '../../src-main/replay/ports.ts';
import { LEVELS, SIZE_FACTOR } from '../../src-main/replay/synthetic-book.ts';
import { openingMarket, placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { btcTradesDataset, memoryReplayVenue } from './harness.ts';

const START = Date.UTC(2024, 0, 1, 8, 0, 30);
const P = 500_000; // 50,000.0 in 0.1 ticks
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function levels(rig: ReturnType<typeof memoryReplayVenue>, side: 1 | 2): Array<[number, number]> {
  return rig.exchange
    .pair('BTCUSDT')!
    .book.topLevels(side)
    .map(([p, l]) => [p, l]);
}

/** A market buy of `qty` by a fresh user: its status and fills. */
function marketBuy(rig: ReturnType<typeof memoryReplayVenue>, qty: string): { status: number; fills: string[] } {
  const { exchange } = rig;
  const user = upsertAccount(exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10n ** 14n }, 0).id;
  const fills: string[] = [];
  exchange.events.on('account', (e) => {
    if (e.kind === 'fill') fills.push(`${(e.data as { price: string }).price} ${(e.data as { qty: string }).qty}`);
  });
  const r = placeOrder(exchange, user, openingMarket(1, qty));
  rig.trading.group.commitNow();
  return { status: r.status, fills };
}

describe('a synthetic book at the start', () => {
  it('quotes around the trade the pair starts at, of its side and size, before the first print after the start', () => {
    // the last trade before the start: a sell of 0.300 at 50,000.0; the next print comes 5 s later
    const rows: HistTrade[] = [
      { time: START - 2000, price: '49999.0', qty: '0.100', buyerMaker: false },
      { time: START - 1000, price: '50000.0', qty: '0.300', buyerMaker: true },
      { time: START + 5000, price: '50010.0', qty: '0.100', buyerMaker: false },
    ];
    const ds = btcTradesDataset(rows[0].time, rows[2].time);
    const data: ReplayData = {
      datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
      depth: () => [],
      candles: () => [],
      funding: () => [],
      trades: (_id, from) => rows.filter((t) => t.time >= from),
      lastTrade: (_id, at) => rows.filter((t) => t.time <= at).at(-1) ?? null,
    };
    const rig = memoryReplayVenue(data, 'BTCUSDT', START, '50000.0');
    closers.push(() => rig.close());
    // after a sell print at P: best bid P, best ask P + 1 tick, LEVELS a side at 2 x 0.300
    const size = SIZE_FACTOR * 300;
    expect(levels(rig, 1)).toEqual(Array.from({ length: LEVELS }, (_, k) => [P - k, size]));
    expect(levels(rig, 2)).toEqual(Array.from({ length: LEVELS }, (_, k) => [P + 1 + k, size]));
    // and a market order fills against it at once, at the ask
    const buy = marketBuy(rig, '0.010');
    expect(buy.fills).toEqual(['50000.1 0.010']);
    expect(buy.status).toBe(3); // filled
  });

  it("quotes a klines replay started inside a candle around that candle's open, a path print of the candle before in size", () => {
    const M = 60_000;
    const open = START - (START % M); // 08:00:00, the replay starts at 08:00:30
    const candle = (t: number, o: string, c: string, volume: string): HistCandle => ({
      openTime: t,
      closeTime: t + M - 1,
      open: o,
      high: o > c ? o : c,
      low: o > c ? c : o,
      close: c,
      volume,
      takerBuyVolume: '0',
    });
    const candles = [
      candle(open - M, '49990.0', '49995.0', '0.800'), // closed before the start: 0.800 / 8 = 0.100 a print
      candle(open, '50000.0', '50020.0', '9.600'), // the one the start is inside: its volume is not read ahead
      candle(open + M, '50020.0', '50030.0', '1.000'),
    ];
    const ds: ReplayDataset = { ...btcTradesDataset(open - M, open + 2 * M - 1), kind: 'klines', interval: '1m' };
    const data: ReplayData = {
      datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
      depth: () => [],
      candles: (_id, from, to) => candles.filter((k) => k.openTime >= from && k.openTime <= to),
      funding: () => [],
      trades: () => [],
    };
    const rig = memoryReplayVenue(data, 'BTCUSDT', START, '50000.0');
    closers.push(() => rig.close());
    const size = SIZE_FACTOR * 100;
    expect(levels(rig, 2)).toEqual(Array.from({ length: LEVELS }, (_, k) => [P + k, size]));
    expect(levels(rig, 1)).toEqual(Array.from({ length: LEVELS }, (_, k) => [P - 1 - k, size]));
    const buy = marketBuy(rig, '0.010');
    expect(buy.fills).toEqual(['50000.0 0.010']);
  });
});
