// A skip (the driver's overload sampling, docs/simulated-market.md "The driver") jumps the
// market over minutes of time in one move. The crowd's book after it is the book of a market
// that had those minutes to settle: one tick wide around the fair price, as after any step
// without a sweep. Before, the skip's whole move counted as a jump of the fair price in one
// step, which opens a hole on the side it moved towards (resilience.ts) that a skip does not
// decay: at 2000x on a loaded host BTCUSDT showed spreads of 50-800 ticks between the sampled
// seconds, and the sampled seconds' takers traded across them.
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue } from './helpers.ts';

const H = 3_600_000;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT'];

describe('the book after a skip', () => {
  it('is one tick wide on the liquid pairs, whatever the skip moved', () => {
    const tv = testVenue({ start: T0 + 10 * H });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 4, symbols: SYMBOLS });
      let t = T0 + 10 * H + 10_000;
      sim.runUntil(t);
      const spreads: Record<string, number[]> = {};
      for (let i = 0; i < 12; i++) {
        t += 30 * 60_000; // half an hour of market time jumped in one move, as at 2000x a 1 s tick
        sim.skipTo(t);
        for (const name of SYMBOLS) {
          const book = sim.symbol(name)!.pair.book;
          (spreads[name] ??= []).push(book.bestAsk() - book.bestBid());
        }
      }
      for (const name of SYMBOLS)
        expect({ name, spreads: spreads[name] }).toEqual({ name, spreads: spreads[name].map(() => 1) });
    } finally {
      tv.close();
    }
  });
});
