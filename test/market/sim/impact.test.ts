// Price impact of taker flow (docs/simulated-market.md, "Price impact"): an order of notional q
// moves the fair price by y x the daily sd x sqrt(q / V), half of it for good (the latent price,
// and so the index) and half as an offset of the book over the index that decays with a 600 s
// time constant; the makers re-centre on that fair price, so the move outlasts their refill.
// And the funding follows: one-sided flow keeps the book over (under) the index, the premium
// index at the impact notional leaves the clamp band, and the next funding rate leaves 0.0100 %.
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPACT, MEAN_QUEUE_FACTOR, sizeMoments } from '../../../src-main/market/sim/impact.ts';
import { DEFAULT_FLOW } from '../../../src-main/market/sim/order-flow.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder } from '../../helpers/exchange-commands.ts';
import { T0, testVenue } from './helpers.ts';

const H = 3_600_000;
/** BTCUSDT with a thin taker flow and no jumps, so two runs of one seed differ by the user's order alone. */
const QUIET = { takerRate: 0.05, volatility: 0.2, jumpsPerDay: 0 };

function mid(sim: Simulator): number {
  const s = sim.symbol('BTCUSDT')!;
  return ((s.pair.book.bestBid() + s.pair.book.bestAsk()) / 2) * s.limits.tick;
}

/** Lots offered within 0.05 % above `ref` (default the mid). */
function askDepth(sim: Simulator, ref = mid(sim)): number {
  const s = sim.symbol('BTCUSDT')!;
  const top = (ref * 1.0005) / s.limits.tick;
  let lots = 0;
  for (const [px, q] of s.pair.book.topLevels(Side.SELL, 2000)) if (px <= top) lots += q;
  return lots;
}

/**
 * A user's market buy of about `notional` USDT (0: none) at 14:00:20 on seed `seed`: the mid
 * before it and 10 s after it (100 steps: the touch, the band and the house maker have quoted
 * again), the ask depth within 0.05 % above the mid before it, above that same mid right after it,
 * and above the mid 10 s after; the notional filled.
 */
function runWithBuy(seed: number, notional: number) {
  const tv = testVenue({ start: T0 + 14 * H, seed });
  try {
    const ex = tv.venue.exchange;
    const sim = new Simulator({
      exchange: ex,
      clock: tv.venue.clock,
      seed,
      symbols: ['BTCUSDT'],
      params: { BTCUSDT: QUIET },
    });
    const at = T0 + 14 * H + 20_000;
    sim.runUntil(at);
    const before = { mid: mid(sim), depth: askDepth(sim) };
    let filled = 0;
    let swept = before.depth;
    if (notional > 0) {
      const acct = tv.venue.accounts.upsert(
        { apiKey: 'impact-test-key', apiSecret: 'impact-test-secret', kind: 'user', balance: 10_000_000n * 10n ** 8n },
        T0,
      );
      const from = tv.trades.length;
      const qty = (notional / before.mid).toFixed(3);
      placeOrder(ex, acct.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty });
      const { tick, lot } = sim.symbol('BTCUSDT')!.limits;
      for (const t of tv.trades.slice(from)) filled += t.priceTicks * tick * t.qtyLots * lot;
      swept = askDepth(sim, before.mid);
    }
    sim.runUntil(at + 10_000);
    expect(sim.stats.errors).toBe(0);
    const book = sim.symbol('BTCUSDT')!.pair.book;
    return {
      before,
      filled,
      swept,
      after: { mid: mid(sim), depth: askDepth(sim), spread: book.bestAsk() - book.bestBid() },
    };
  } finally {
    tv.close();
  }
}

/** The rule's move of the fair price, as a fraction, `ageS` seconds after an order of q USDT on BTCUSDT with QUIET's settings. */
function ruleMove(q: number, ageS: number): number {
  const size = sizeMoments(DEFAULT_FLOW.sizeSigma, DEFAULT_FLOW.sizeAlpha);
  const dailyVolume = QUIET.takerRate * MEAN_QUEUE_FACTOR * 600 * size.mean * 86_400; // BTCUSDT's median order: 600 USDT
  const total = DEFAULT_IMPACT.y * (QUIET.volatility / Math.sqrt(365)) * Math.sqrt(q / dailyVolume);
  const p = DEFAULT_IMPACT.permanent;
  return Math.expm1(total * (p + (1 - p) * Math.exp(-ageS / DEFAULT_IMPACT.tauS)));
}

describe('price impact of taker flow', () => {
  it("a large market buy leaves the mid higher after the makers refilled, by about the rule's move; a small one hardly at all", () => {
    // each seed's run against the same seed's run without the order, averaged over three seeds
    // (the two runs' own flow parts after the order: about 1 bp of noise each)
    let got = 0;
    let want = 0;
    let small = 0;
    for (const seed of [11, 12, 13]) {
      const base = runWithBuy(seed, 0);
      const large = runWithBuy(seed, 3_000_000);
      expect(large.before.mid).toBe(base.before.mid);
      expect(large.filled).toBeGreaterThan(2_800_000);
      expect(large.swept).toBeLessThan(large.before.depth); // it took the asks near the mid
      expect(large.after.spread).toBeLessThanOrEqual(2); // 10 s on, the touch is quoted again (ticks)
      expect(large.after.depth).toBeGreaterThan(0.25 * base.after.depth); // and the asks near the new mid
      got += (large.after.mid / base.after.mid - 1) / 3;
      want += ruleMove(large.filled, 10) / 3;
      small += (runWithBuy(seed, 1_000).after.mid / base.after.mid - 1) / 3;
    }
    expect(want).toBeGreaterThan(0.0004); // 4 bp
    expect(got).toBeGreaterThan(0.8 * want);
    expect(got).toBeLessThan(1.2 * want);
    expect(Math.abs(small)).toBeLessThan(0.1 * want);
  }, 120_000);

  it('one-sided taker flow moves the next funding rate off 0.0100 % in its direction', () => {
    /** The funding estimate at 00:12:10 after 12 minutes of `side`'s market orders of 0.25 M USDT a second (0: none). */
    const rateAfter = (side: 0 | 1 | 2): number => {
      const tv = testVenue({ start: T0, seed: 12 }); // 00:00, a funding instant
      try {
        const ex = tv.venue.exchange;
        const sim = new Simulator({ exchange: ex, clock: tv.venue.clock, seed: 12, symbols: ['BTCUSDT'] });
        const s = sim.symbol('BTCUSDT')!;
        for (let k = 0; k < 720; k++) {
          sim.runUntil(T0 + (k + 1) * 1_000);
          if (side === 0) continue;
          const qty = (250_000 / s.pair.markPrice).toFixed(3);
          placeBotOrder(ex, { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 2, qty });
        }
        sim.runUntil(T0 + 12 * 60_000 + 10_000);
        expect(sim.stats.errors).toBe(0);
        expect(s.feed.samples).toBeGreaterThan(140);
        return s.feed.rate;
      } finally {
        tv.close();
      }
    };
    expect(rateAfter(0)).toBe(0.0001); // the same market without the flow: the premium stays in the clamp band
    expect(rateAfter(1)).toBeGreaterThan(0.0001);
    expect(rateAfter(2)).toBeLessThan(0.0001);
  }, 180_000);
});
