// The seams of a small-tick pair's live 1m candles: a minute opens at the previous close or a
// tick or two from it, as on Binance (spot BTCUSDT 1m of May 2021, a 0.01 tick: a median of 1 tick,
// 62 % within one; test/fixtures/binance/SOURCES.md). The fixtures hold no 1000PEPEUSDT candles,
// so the bound is in ticks, the real pair's median plus one.
// Before, 1000PEPEUSDT's crowd moved its quotes to the index every 100 ms step, some 10-15 of its
// 0.07 bp ticks, while the pair trades under once a step: consecutive prints, and so a minute's
// open and the previous close, lay a step's move apart (a median of 6 ticks, 13 % within one).
// Now the crowd there requotes about once a second (params.requoteRate) and holds its quotes in
// between, so most prints meet the quotes the last one met.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paramsFor, requoteChance } from '../../../src-main/market/sim/params.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { candleJoinTicks, quantile } from '../../helpers/realism-stats.ts';
import { T0, testVenue, tradingSymbols } from './helpers.ts';

const MIN = 60_000;
const REAL_1M = new URL(
  '../../fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv',
  import.meta.url,
);

interface Minute {
  t: number;
  o: number;
  c: number;
  n: number;
}

function realMinutes(): Minute[] {
  return readFileSync(REAL_1M, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const f = line.split(',');
      return { t: Number(f[0]), o: Number(f[1]), c: Number(f[4]), n: Number(f[8]) };
    });
}

/** The live 1m candles (open and close in ticks, trades) of one pair over `minutes` from `from`, on one seed. */
function liveMinutes(symbol: string, seed: number, from: number, minutes: number): Minute[] {
  const tv = testVenue({ seed, start: from });
  try {
    const byMinute = new Map<number, Minute>();
    tv.venue.exchange.events.on('trade', (e) => {
      if (e.symbol !== symbol) return;
      const t = Math.floor(e.time / MIN) * MIN;
      const m = byMinute.get(t);
      if (m === undefined) byMinute.set(t, { t, o: e.priceTicks, c: e.priceTicks, n: 1 });
      else {
        m.c = e.priceTicks;
        m.n++;
      }
    });
    const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed, symbols: [symbol] });
    sim.runUntil(from + minutes * MIN);
    sim.dispose();
    return [...byMinute.values()].filter((m) => m.t >= from && m.t < from + minutes * MIN);
  } finally {
    tv.close();
  }
}

describe('candle seams of a small-tick pair', () => {
  const real = candleJoinTicks(realMinutes(), 0.01);
  const bound = real.median + 1;

  it('real 1m candles join within the bound', () => {
    expect(real.n).toBeGreaterThan(4000);
    expect(real.median).toBeLessThanOrEqual(1);
    expect(real.withinOne).toBeGreaterThan(0.5);
  });

  it('1000PEPEUSDT live: a minute opens within a tick or two of the previous close (seeded, 60 minutes from 02:00 and 14:00 UTC)', () => {
    for (const hour of [2, 14]) {
      const cs = liveMinutes('1000PEPEUSDT', 7, T0 + hour * 3_600_000, 60);
      expect(cs.length).toBe(60);
      const j = candleJoinTicks(cs, 1);
      const gaps = cs.slice(1).map((c, i) => Math.abs(c.o - cs[i].c));
      const msg = `${hour}h: median ${j.median}, within one ${j.withinOne.toFixed(2)}, p90 ${quantile(gaps, 0.9)}`;
      expect(j.n, msg).toBe(59);
      expect(j.median, msg).toBeLessThanOrEqual(bound);
      expect(j.withinOne, msg).toBeGreaterThan(0.4);
    }
  }, 120_000);

  it('the crowd holds its quotes between requotes only on 1000PEPEUSDT: every other pair requotes every step', () => {
    const tv = testVenue();
    try {
      for (const symbol of tradingSymbols(tv.venue)) {
        const pair = tv.venue.exchange.pairs.get(symbol);
        if (pair === undefined) continue;
        const chance = requoteChance(paramsFor(pair.row), pair.markPrice / pair.math.tickValue, 100);
        if (symbol === '1000PEPEUSDT') expect(chance, symbol).toBeLessThan(0.2);
        else expect(chance, symbol).toBe(1);
      }
    } finally {
      tv.close();
    }
  });
});
