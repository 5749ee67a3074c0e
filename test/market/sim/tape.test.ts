// The public tape's sign memory: the trades a client reads (REST trades, which the trade streams
// carry one by one), merged as a client merges them, keep the sign of the flow for a while and
// forget it slowly (Lillo and Farmer 2004: about lag^-0.5 to lag^-0.7). A tape on which every
// taker order of a step carried the step's time alternated in sign once merged (a step's
// same-time same-side runs became one record each, so records alternated).
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { aggTrades, decaySlope, signAcf, takerOrders, type TapeTrade } from '../../helpers/realism-stats.ts';
import { T0, testVenue } from './helpers.ts';

const LAGS = [1, 2, 3, 5, 10, 20, 50, 100];

/** BTCUSDT's tape over `minutes` of market time, read from the REST trades' store every 5 s. */
function tape(seed: number, minutes: number): TapeTrade[] {
  const tv = testVenue({ seed, start: T0 + 15 * 3_600_000 });
  try {
    const { venue } = tv;
    const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed });
    const out: TapeTrade[] = [];
    let lastId = -1;
    const end = sim.time + minutes * 60_000;
    while (sim.time < end) {
      sim.runUntil(sim.time + 5_000);
      const page = venue.recentTrades.newest('BTCUSDT', 1000).filter((t) => t.tradeId > lastId);
      page.sort((a, b) => a.tradeId - b.tradeId);
      expect(page.length).toBeLessThan(1000); // nothing fell out of the store between reads
      for (const t of page)
        out.push({ time: t.time, priceTicks: t.priceTicks, qtyLots: t.qtyLots, takerSide: t.takerSide });
      if (page.length > 0) lastId = page[page.length - 1].tradeId;
    }
    sim.dispose();
    return out;
  } finally {
    tv.close();
  }
}

describe('the tape a client reads', () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: aggTrades and taker orders keep their sign, decaying as a power law`, () => {
      const ts = tape(seed, 8);
      expect(ts.length).toBeGreaterThan(5_000);
      for (const units of [aggTrades(ts), takerOrders(ts)]) {
        // taker orders are told apart: most records are one order, not a step's worth
        expect(units.length).toBeGreaterThan(0.8 * aggTrades(ts).length);
        const acf = signAcf(units, LAGS);
        expect(acf[0]).toBeGreaterThan(0.08);
        expect(acf[0]).toBeLessThan(0.4);
        for (const a of acf.slice(0, 5)) expect(a).toBeGreaterThan(0);
        expect(acf[6]).toBeLessThan(0.5 * acf[0]);
        // the exponent over lags 1-20 (8 minutes leave the far lags' figures within their noise)
        const slope = decaySlope(LAGS.slice(0, 6), acf.slice(0, 6));
        expect(slope).toBeGreaterThan(-1);
        expect(slope).toBeLessThan(-0.3);
      }
    }, 300_000);
  }

  it('the trades of one step carry the times their orders arrived at, never later than the step', () => {
    const ts = tape(3, 1);
    const steps = new Map<number, Set<number>>();
    for (const t of ts) {
      const step = Math.ceil(t.time / 100) * 100;
      let s = steps.get(step);
      if (s === undefined) steps.set(step, (s = new Set()));
      s.add(t.time);
    }
    // a busy step's orders arrive at several instants
    expect([...steps.values()].filter((s) => s.size > 1).length).toBeGreaterThan(0.2 * steps.size);
    for (let i = 1; i < ts.length; i++) expect(ts[i].time).toBeGreaterThanOrEqual(ts[i - 1].time);
  }, 60_000);
});
