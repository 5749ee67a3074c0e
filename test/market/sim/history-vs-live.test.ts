// One model for history and live: the 30-day history is the live model coarse-grained, so over
// the same hours its 1m candles show what the live market's do. The live market (BTCUSDT, every
// step simulated, as fast mode runs it) and the history are built over the same span of market
// time; the live figures must fall inside the spread of the history's figures over the same UTC
// hours of the other days, and the history's 30-day figures inside the bands of real Binance.
import { describe, expect, it } from 'vitest';
import type { Side } from '../../../src-shared/enums.ts';
import { CandleBuilder, type Candle } from '../../../src-main/market/candles.ts';
import { fastForwardHistorySync, type HistoryTrade } from '../../../src-main/market/sim/history.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { autocorr, corr, mean, quantile, variance } from '../../helpers/realism-stats.ts';
import { T0, testVenue } from './helpers.ts';

const HOUR = 3_600_000;
const MIN = 60_000;
/** The span: 90 minutes from 01:00 UTC of a Monday (quiet hours: the cheapest to simulate live). */
const FROM = T0 + 1 * HOUR;
const MINUTES = 90;
const TO = FROM + MINUTES * MIN;
const DAYS = 30;
const SEED = 3;

interface MinuteStats {
  /** Trades a second. */
  rate: number;
  /** Annualized volatility of 1m returns. */
  vol: number;
  /** Lag-1 autocorrelation of the 1m taker-buy imbalance (by volume). */
  imbAcf: number;
  /** corr(log volume, |1m return|). */
  volRet: number;
}

function minuteStats(cs: readonly Candle[]): MinuteStats {
  const ret = cs.map((c) => Math.log(c.close / c.open));
  return {
    rate: mean(cs.map((c) => c.trades)) / 60,
    vol: Math.sqrt(variance(ret) * 525_600),
    imbAcf: autocorr(
      cs.map((c) => (2 * c.takerBuyVolume - c.volume) / c.volume),
      1,
    ),
    volRet: corr(
      cs.map((c) => Math.log(c.volume)),
      ret.map(Math.abs),
    ),
  };
}

function minuteCandles(): { builder: CandleBuilder; list: Candle[] } {
  const list: Candle[] = [];
  return { builder: new CandleBuilder({ intervals: ['1m'], onClose: (c) => list.push(c) }), list };
}

/** BTCUSDT's live 1m candles over [FROM, TO): the live simulator, every step. */
function live(): Candle[] {
  const tv = testVenue({ seed: SEED, start: FROM });
  try {
    const { builder, list } = minuteCandles();
    tv.venue.exchange.events.on('trade', (e) => {
      if (e.symbol === 'BTCUSDT') builder.trade(e.time, e.priceTicks, e.qtyLots, e.takerSide as Side, 1);
    });
    const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: SEED, symbols: ['BTCUSDT'] });
    sim.runUntil(TO);
    builder.advanceTo(TO);
    sim.dispose();
    return list.filter((c) => c.openTime >= FROM && c.openTime < TO);
  } finally {
    tv.close();
  }
}

/** BTCUSDT's history of DAYS days ending at TO, as 1m candles. */
function history(): Candle[] {
  const tv = testVenue({ seed: SEED, start: TO });
  try {
    const { builder, list } = minuteCandles();
    const pairs = [...tv.venue.exchange.pairs.values()].filter((p) => p.row.symbol === 'BTCUSDT');
    fastForwardHistorySync({
      pairs,
      seed: SEED,
      end: TO,
      days: DAYS,
      recorder: {
        recordTrade: (_symbol: string, t: Readonly<HistoryTrade>) =>
          builder.trade(t.time, t.priceTicks, t.qtyLots, t.takerSide, t.count),
      },
    });
    builder.advanceTo(TO);
    return list;
  } finally {
    tv.close();
  }
}

describe('history and live, one model', () => {
  it('the live market over 90 minutes shows the 1m statistics of the history over the same hours', () => {
    const hist = history();
    const liveStats = minuteStats(live());
    // the history's figures over the same 90 minutes of each of its days (the span's sampling spread)
    const windows: MinuteStats[] = [];
    for (let d = 1; d < DAYS; d++) {
      const from = FROM - d * 86_400_000;
      windows.push(minuteStats(hist.filter((c) => c.openTime >= from && c.openTime < from + MINUTES * MIN)));
    }
    const all = minuteStats(hist);
    const report = { live: liveStats, history30d: all };
    for (const key of ['rate', 'vol', 'imbAcf', 'volRet'] as const) {
      const xs = windows.map((w) => w[key]);
      const lo = quantile(xs, 0.03);
      const hi = quantile(xs, 0.97);
      // inside the history's spread over the same hours, widened by a fifth of its width
      const pad = 0.2 * (hi - lo);
      expect(
        liveStats[key],
        `${key}: live ${liveStats[key]}, history ${lo}..${hi} ${JSON.stringify(report)}`,
      ).toBeGreaterThan(lo - pad);
      expect(liveStats[key], `${key}: live ${liveStats[key]}, history ${lo}..${hi}`).toBeLessThan(hi + pad);
    }
    // the history's month against real Binance BTCUSDT (docs/realism.md): imbalance ACF 0.12,
    // corr(log volume, |return|) 0.44-0.64, a 1m volatility near the pair's 45 % a year
    expect(all.imbAcf).toBeGreaterThan(0.05);
    expect(all.imbAcf).toBeLessThan(0.25);
    expect(all.volRet).toBeGreaterThan(0.35);
    expect(all.volRet).toBeLessThan(0.75);
    expect(all.vol).toBeGreaterThan(0.3);
    expect(all.vol).toBeLessThan(0.9);
    console.log(JSON.stringify(report));
  }, 240_000);
});
