// History fast-forward: 30 days of 1m candles for every trading pair, deterministic, ending at the
// pair's current price; and the candle writer a KlineService continues from.
import { describe, expect, it } from 'vitest';
import { CandleBuilder, type Candle } from '../../../src-main/market/candles.ts';
import { KlineService } from '../../../src-main/market/kline-service.ts';
import {
  fastForwardHistory,
  fastForwardHistorySync,
  type HistoryProgress,
  type HistoryTrade,
  type TradeRecorder,
} from '../../../src-main/market/sim/history.ts';
import {
  HistoryCandleWriter,
  lastStoredPrices,
  pairsWithoutHistory,
} from '../../../src-main/market/sim/history-writer.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { T0, testVenue, tradingSymbols } from './helpers.ts';
import { activity } from '../../../src-main/market/sim/activity-profile.ts';
import { corr, cv, hourProfile, mean, median } from '../../helpers/realism-stats.ts';

const DAY = 86_400_000;
const END = T0 + 12 * 3_600_000 + 34_567; // not on a minute

/** Builds 1m candles of every symbol and hashes every trade. */
class MinuteRecorder implements TradeRecorder {
  readonly candles = new Map<string, Candle[]>();
  readonly builders = new Map<string, CandleBuilder>();
  /** FNV-1a over every number of every trade (cheaper than a crypto hash over text). */
  hash = 0x811c9dc5;
  last = new Map<string, { time: number; price: number }>();
  trades = 0;
  // count: a record stands for that many trades (the history draws trade counts, not single trades)
  recordTrade(symbol: string, tr: Readonly<HistoryTrade>): void {
    const { time, priceTicks, qtyLots, takerSide, count } = tr;
    let b = this.builders.get(symbol);
    if (!b) {
      const list: Candle[] = [];
      this.candles.set(symbol, list);
      b = new CandleBuilder({ intervals: ['1m'], onClose: (c) => list.push(c) });
      this.builders.set(symbol, b);
    }
    b.trade(time, priceTicks, qtyLots, takerSide, count);
    for (const x of [
      symbol.length,
      time % 4294967296,
      Math.floor(time / 4294967296),
      priceTicks,
      qtyLots,
      takerSide,
      count,
    ]) {
      this.hash = Math.imul(this.hash ^ (x | 0), 16777619) >>> 0;
    }
    this.last.set(symbol, { time, price: priceTicks });
    this.trades += count;
  }
  advanceTo(time: number): void {
    for (const b of this.builders.values()) b.advanceTo(time);
  }
}

describe('history fast-forward', () => {
  it('gives every trading pair 30 days of 1m candles with wicks, ending at its current price', async () => {
    const tv = testVenue();
    try {
      const pairs = [...tv.venue.exchange.pairs.values()];
      const a = new MinuteRecorder();
      const progress: HistoryProgress[] = [];
      const r = await fastForwardHistory({
        pairs,
        seed: 8,
        end: END,
        recorder: a,
        onProgress: (p) => progress.push(p),
      });
      const symbols = tradingSymbols(tv.venue);
      expect(progress.map((p) => `${p.done}/${p.total} ${p.symbol}`)).toEqual(
        symbols.map((s, i) => `${i + 1}/${symbols.length} ${s}`),
      );
      expect([...a.candles.keys()]).toEqual(symbols);
      expect(r.trades).toBe(a.trades);
      for (const symbol of symbols) {
        const list = a.candles.get(symbol)!;
        expect(list.length).toBeGreaterThanOrEqual(30 * 1440);
        // contiguous minutes, each with trades (wicks: high above or low below the open/close)
        let wicks = 0;
        for (let i = 0; i < list.length; i++) {
          const c = list[i];
          if (i > 0 && c.openTime !== list[i - 1].openTime + 60_000) throw new Error(`${symbol}: gap at ${c.openTime}`);
          if (c.trades === 0 || c.low > Math.min(c.open, c.close) || c.high < Math.max(c.open, c.close))
            throw new Error(`${symbol}: bad candle ${JSON.stringify(c)}`);
          if (c.high > Math.max(c.open, c.close) || c.low < Math.min(c.open, c.close)) wicks++;
        }
        expect(wicks / list.length).toBeGreaterThan(0.5);
        expect(list[0].openTime).toBeLessThanOrEqual(END - 30 * DAY);
        const last = a.last.get(symbol)!;
        expect(last.time).toBeLessThan(END);
        expect(last.time).toBeGreaterThan(END - 15_000);
        // the path ends at the pair's price (its mark = the catalogue's initial price here)
        const pair = tv.venue.exchange.pair(symbol)!;
        expect(Math.abs(last.price * pair.math.tickValue - pair.markPrice)).toBeLessThanOrEqual(pair.math.tickValue);
        expect(r.states.get(symbol)!.price).toBeCloseTo(pair.markPrice, 8);
        // it moved over the month
        const first = list[0];
        expect(first.open).not.toBe(last.price);
      }
    } finally {
      tv.close();
    }
  }, 120_000);

  it('draws trade counts from the live intensity: they vary by minute, follow the UTC hour profile, and the taker imbalance follows the return', async () => {
    const tv = testVenue();
    try {
      const pairs = [...tv.venue.exchange.pairs.values()].filter((p) => p.row.symbol === 'BTCUSDT');
      const r = new MinuteRecorder();
      await fastForwardHistory({ pairs, seed: 8, end: END, recorder: r, days: 14 });
      const list = r.candles.get('BTCUSDT')!;
      const counts = list.map((c) => c.trades);
      // over-dispersed, not the constant of a fixed rhythm
      expect(cv(counts)).toBeGreaterThan(0.3);
      expect(cv(counts)).toBeLessThan(1.5);
      // the mean rate is takerRate (36 a second at activity 1) x the book's mean queue factor (0.8), within the volatility factor's range
      expect(mean(counts) / 60).toBeGreaterThan(10);
      expect(mean(counts) / 60).toBeLessThan(40);
      // the hour profile of counts correlates with the activity profile
      const prof = hourProfile(
        list.map((c) => c.openTime),
        counts,
      );
      const expected = hourProfile(
        list.map((c) => c.openTime),
        list.map((c) => activity(c.openTime + 30_000)),
      );
      expect(corr(prof, expected)).toBeGreaterThan(0.7);
      // taker imbalance signed with the return
      const ret = list.map((c) => Math.log(c.close / c.open));
      const imb = list.map((c) => (2 * c.takerBuyVolume - c.volume) / c.volume);
      expect(corr(ret, imb)).toBeGreaterThan(0.15);
      expect(corr(ret, imb)).toBeLessThan(0.7);
    } finally {
      tv.close();
    }
  });

  it('1m candles join: each opens at the previous close or a tick away, as live and Binance candles do', async () => {
    // Binance spot BTCUSDT 1m, May 2021: median |open - previous close| 0.002 bp (a 0.01 tick at
    // 46,000), 37 % exactly equal; the history's opened at a step's high or low (1.8 bp, 0.2 %)
    const tv = testVenue();
    try {
      const names = ['BTCUSDT', 'DOGEUSDT', 'WIFUSDT'];
      const pairs = [...tv.venue.exchange.pairs.values()].filter((p) => names.includes(p.row.symbol));
      const r = new MinuteRecorder();
      await fastForwardHistory({ pairs, seed: 8, end: END, recorder: r, days: 3 });
      for (const symbol of names) {
        const list = r.candles.get(symbol)!;
        const ticks: number[] = [];
        const bp: number[] = [];
        for (let i = 1; i < list.length; i++) {
          const d = Math.abs(list[i].open - list[i - 1].close);
          ticks.push(d);
          bp.push((d / list[i - 1].close) * 1e4);
        }
        expect(ticks.length).toBeGreaterThan(3 * 1400);
        const share = (f: (d: number) => boolean) => ticks.filter(f).length / ticks.length;
        expect(
          share((d) => d === 0),
          symbol,
        ).toBeGreaterThan(0.3);
        expect(
          share((d) => d <= 1),
          symbol,
        ).toBeGreaterThan(0.99);
        if (symbol === 'BTCUSDT') expect(median(bp)).toBeLessThan(0.1);
      }
    } finally {
      tv.close();
    }
  });

  it('is deterministic: the same seed gives the same trades, another seed others', async () => {
    const tv = testVenue();
    try {
      const pairs = [...tv.venue.exchange.pairs.values()].filter((p) =>
        ['BTCUSDT', 'XRPUSDT', '1000PEPEUSDT'].includes(p.row.symbol),
      );
      const run = async (seed: number) => {
        const r = new MinuteRecorder();
        await fastForwardHistory({ pairs, seed, end: END, recorder: r, days: 10 });
        return r;
      };
      const [a, b, c] = [await run(8), await run(8), await run(9)];
      expect(a.trades).toBeGreaterThan(3 * 10 * 5760);
      expect(b.hash).toBe(a.hash);
      expect(b.trades).toBe(a.trades);
      expect(c.hash).not.toBe(a.hash);
      // the synchronous form builds the same history
      const d = new MinuteRecorder();
      const rs = fastForwardHistorySync({ pairs, seed: 8, end: END, recorder: d, days: 10 });
      expect(d.hash).toBe(a.hash);
      expect(rs.trades).toBe(a.trades);
    } finally {
      tv.close();
    }
  });

  it('the live market continues from where the history ends', async () => {
    const tv = testVenue({ start: END });
    try {
      const pairs = [...tv.venue.exchange.pairs.values()];
      const rec = new MinuteRecorder();
      const anchor = new Map([['BTCUSDT', 90_000]]);
      const h = await fastForwardHistory({
        pairs: pairs.filter((p) => p.row.symbol === 'BTCUSDT'),
        seed: 2,
        end: END,
        days: 1,
        anchor,
        recorder: rec,
      });
      expect(Math.abs(rec.last.get('BTCUSDT')!.price * 0.1 - 90_000)).toBeLessThanOrEqual(0.1);
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 2, startStates: h.states });
      const btc = sim.symbol('BTCUSDT')!;
      expect(btc.pair.markPrice).toBeCloseTo(90_000, 6);
      expect(btc.process.h).toBe(h.states.get('BTCUSDT')!.h);
      sim.runUntil(END + 10_000);
      const first = tv.trades.find((t) => t.symbol === 'BTCUSDT')!;
      expect(Math.abs((first.priceTicks * 0.1) / 90_000 - 1)).toBeLessThan(0.002);
    } finally {
      tv.close();
    }
  });

  it('the candle writer stores history that a KlineService then serves and continues', async () => {
    const tv = testVenue({ start: END });
    try {
      const { exchange, symbols } = tv.venue;
      const db = new CandlesRepo(tv.venue.db);
      // the venue's own candle service was built before this history existed: this test builds
      // the one that continues it (as start-up code would, after the history)
      tv.venue.klines.close();
      const all = [...exchange.pairs.values()];
      expect(pairsWithoutHistory(db, all).map((p) => p.row.symbol)).toEqual(tradingSymbols(tv.venue));
      const two = all.filter((p) => p.row.symbol === 'ETHUSDT' || p.row.symbol === 'DOGEUSDT');
      const writer = new HistoryCandleWriter(db);
      const h = await fastForwardHistory({ pairs: two, seed: 6, end: END, days: 2, recorder: writer });
      writer.finish();
      expect(writer.written).toBeGreaterThan(2 * 2 * 1440);
      expect(pairsWithoutHistory(db, two)).toEqual([]);
      const stored = lastStoredPrices(db, all);
      expect([...stored.keys()].sort()).toEqual(['DOGEUSDT', 'ETHUSDT']);
      expect(stored.get('ETHUSDT')!.price).toBeCloseTo(h.states.get('ETHUSDT')!.price, 2);

      const klines = new KlineService({ candles: db, symbols, clock: tv.venue.clock, exchange }, { tickMs: 0 });
      try {
        const mins = klines.klines('ETHUSDT', '1m', { limit: 1500 });
        expect(mins.length).toBe(1500);
        // newest first, contiguous, the current minute on top
        expect(mins[0][0]).toBe(Math.floor(END / 60_000) * 60_000);
        for (let i = 1; i < mins.length; i++) expect(mins[i][0]).toBe(mins[i - 1][0] - 60_000);
        const hours = klines.klines('ETHUSDT', '1h', { limit: 100 });
        expect(hours.length).toBeGreaterThanOrEqual(48);
        // the live market trades on into the same candles
        const sim = new Simulator({ exchange, clock: tv.venue.clock, seed: 6, startStates: h.states });
        sim.runUntil(END + 90_000);
        klines.advanceTo(sim.stampTime);
        const after = klines.klines('ETHUSDT', '1m', { limit: 3 });
        expect(after[0][0]).toBe(Math.floor((END + 90_000) / 60_000) * 60_000);
        expect(after[1][8]).toBeGreaterThan(10); // a full live minute of trades
        expect(klines.klines('BTCUSDT', '1s', { limit: 5 }).length).toBe(5); // 1s candles start live
      } finally {
        klines.close();
      }
    } finally {
      tv.close();
    }
  });
});
