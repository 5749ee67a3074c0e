// The live market: depth on both sides at every step, trades in every second, legal house orders,
// and the maker's inventory equal to what the takers did.
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { MAKER_ACCOUNT, Simulator, TAKER_ACCOUNT } from '../../../src-main/market/sim/simulator.ts';
import { T0, testVenue, tradingSymbols } from './helpers.ts';

describe('simulated market', () => {
  it('keeps depth on both sides and trades in every second of market time on every trading pair', () => {
    const tv = testVenue({ seed: 11 });
    try {
      const { exchange } = tv.venue;
      const sim = new Simulator({ exchange, clock: tv.venue.clock, seed: 11 });
      const symbols = tradingSymbols(tv.venue);
      expect(symbols.length).toBeGreaterThanOrEqual(10);
      expect(sim.symbols.map((s) => s.symbol)).toEqual(symbols); // status 2 and 3 pairs are left alone
      const minutes = 3;
      for (let i = 0; i < (minutes * 60_000) / sim.stepMs; i++) {
        sim.step();
        for (const s of sim.symbols) {
          const b = s.pair.book;
          const bid = b.bestBid();
          const ask = b.bestAsk();
          if (!(bid > 0 && ask > bid)) throw new Error(`${s.symbol} at step ${i}: bid ${bid} ask ${ask}`);
          if (b.levelCount(1) < s.params.makerLevels || b.levelCount(2) < s.params.makerLevels) {
            throw new Error(`${s.symbol} at step ${i}: only ${b.levelCount(1)} / ${b.levelCount(2)} levels`);
          }
        }
      }
      for (const symbol of symbols) {
        const seconds = new Set(tv.trades.filter((t) => t.symbol === symbol).map((t) => Math.floor(t.time / 1000)));
        for (let sec = T0 / 1000; sec < T0 / 1000 + minutes * 60; sec++) {
          if (!seconds.has(sec)) throw new Error(`${symbol}: no trade in second ${sec - T0 / 1000}`);
        }
      }
      // paused / delisted pairs never trade
      expect(tv.trades.some((t) => t.symbol === 'FTTUSDT' || t.symbol === 'LUNA2USDT')).toBe(false);
      expect(sim.stats.errors).toBe(0);
    } finally {
      tv.close();
    }
  }, 120_000);

  it('quotes legal orders: on tick and step, at least min qty and min notional, inside the band', () => {
    const tv = testVenue({ seed: 12 });
    try {
      const { exchange } = tv.venue;
      const sim = new Simulator({ exchange, clock: tv.venue.clock, seed: 12 });
      sim.runUntil(T0 + 20_000);
      for (const s of sim.symbols) {
        const ids = s.pair.book.openOrderIds(MAKER_ACCOUNT);
        expect(ids.length).toBe(2 * s.params.makerLevels);
        const minNotional = Number(s.pair.row.minNotional);
        const minLots = s.pair.math.qty.mustToUnits(s.pair.row.minQty);
        for (const id of ids) {
          const o = s.pair.book.getOrder(id)!;
          expect(Number.isInteger(o.priceTicks) && Number.isInteger(o.qtyLots)).toBe(true);
          expect(o.qtyLots).toBeGreaterThanOrEqual(minLots);
          expect(o.priceTicks * s.pair.math.tickValue * o.qtyLots * s.pair.math.lotValue).toBeGreaterThanOrEqual(
            minNotional,
          );
          expect(Math.abs((o.priceTicks * s.pair.math.tickValue) / s.pair.markPrice - 1)).toBeLessThan(
            s.pair.bandRatio,
          );
        }
        // bids below asks, best prices around the index
        const mid = ((s.pair.book.bestBid() + s.pair.book.bestAsk()) / 2) * s.pair.math.tickValue;
        expect(Math.abs(mid / s.feed.index - 1)).toBeLessThan(0.003);
      }
      expect(sim.stats.rejected).toBe(0);
    } finally {
      tv.close();
    }
  });

  // The crowd at the touch now takes most taker flow, so the maker (quoting further out) is
  // filled by a sweep through its levels; its inventory must book exactly the lots it lost.
  it("tracks the maker's fills: its inventory is the mirror of the lots taken from its quotes", () => {
    const tv = testVenue({ seed: 13 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 13 });
      sim.runUntil(T0 + 20_000);
      for (const symbol of ['BTCUSDT', 'SOLUSDT']) {
        const s = sim.symbol(symbol)!;
        const book = s.pair.book;
        const before = s.maker.inventory;
        const rem = new Map(book.openOrderIds(MAKER_ACCOUNT).map((id) => [id, book.getOrder(id)!]));
        // a sell that reaches the maker's third bid level
        const bids = [...rem.values()].filter((o) => o.side === 1).sort((x, y) => y.priceTicks - x.priceTicks);
        const floor = bids[2].priceTicks;
        let lots = 0;
        for (const l of book.depth(2000).bids) if (l[0] >= floor) lots += l[1];
        placeBotOrder(
          tv.venue.exchange,
          {
            symbol,
            side: 2,
            position_side: 2,
            position_action: 1,
            type: 1,
            price: s.pair.math.formatPrice(floor),
            qty: s.pair.math.formatQty(lots),
            time_in_force: 2,
          },
          TAKER_ACCOUNT,
        );
        let lost = 0;
        for (const [id, o] of rem) lost += o.remainingLots - (book.getOrder(id)?.remainingLots ?? 0);
        expect(lost).toBeGreaterThan(0);
        s.maker.sync();
        expect(s.maker.stats.hedges).toBe(0);
        expect(s.maker.inventory - before).toBe(lost);
      }
    } finally {
      tv.close();
    }
  });

  it('the maker widens with volatility and leans its quotes against its inventory', () => {
    const tv = testVenue({ seed: 15 });
    try {
      // the maker's old 0.6 bp floor (it now quotes behind the crowd, from 10 bp): with the wider
      // floor a doubling of the volatility moves its quotes less than their dead band
      const sim = new Simulator({
        exchange: tv.venue.exchange,
        clock: tv.venue.clock,
        seed: 15,
        params: { ETHUSDT: { makerBaseHalfSpread: 0.00006 } },
      });
      sim.runUntil(T0 + 5_000);
      const eth = sim.symbol('ETHUSDT')!;
      const book = eth.pair.book;
      // the maker's own quotes (the crowd's touch is inside them)
      const own = () => book.openOrderIds(MAKER_ACCOUNT).map((id) => book.getOrder(id)!);
      const makerBid = () =>
        Math.max(
          ...own()
            .filter((o) => o.side === 1)
            .map((o) => o.priceTicks),
        );
      const makerAsk = () =>
        Math.min(
          ...own()
            .filter((o) => o.side === 2)
            .map((o) => o.priceTicks),
        );
      const spreadTicks = () => makerAsk() - makerBid();
      const fair = 3400;
      const calm = eth.halfSpread;
      eth.maker.quote(fair, calm, eth.spacing);
      const calmSpread = spreadTicks();
      // four times the variance: twice the volatility
      eth.process.h += Math.log(4);
      sim.step();
      expect(eth.halfSpread).toBeGreaterThan(calm * 1.5);
      eth.maker.quote(fair, eth.halfSpread, eth.spacing);
      expect(spreadTicks()).toBeGreaterThan(calmSpread);

      // long inventory at its limit: quotes shift down (cheaper asks, lower bids); short: up
      const mid = () => (makerBid() + makerAsk()) / 2;
      eth.maker.inventory = 0;
      eth.maker.quote(fair, calm, eth.spacing);
      const flatMid = mid();
      eth.maker.inventory = Math.round(eth.maker.inventoryLimit(fair));
      eth.maker.quote(fair, calm, eth.spacing);
      expect(mid()).toBeLessThan(flatMid);
      eth.maker.inventory = -Math.round(eth.maker.inventoryLimit(fair));
      eth.maker.quote(fair, calm, eth.spacing);
      expect(mid()).toBeGreaterThan(flatMid);
    } finally {
      tv.close();
    }
  });

  it('a pair paused while running loses its quotes and stops trading', () => {
    const tv = testVenue({ seed: 14 });
    try {
      const sim = new Simulator({ exchange: tv.venue.exchange, clock: tv.venue.clock, seed: 14 });
      sim.runUntil(T0 + 5_000);
      const sol = sim.symbol('SOLUSDT')!;
      expect(sol.pair.book.orderCount).toBeGreaterThan(0);
      (sol.pair.row as { status: number }).status = 2;
      sim.runUntil(T0 + 15_000);
      expect(sol.pair.book.orderCount).toBe(0);
      expect(tv.trades.filter((t) => t.symbol === 'SOLUSDT' && t.time > T0 + 5_000)).toEqual([]);
      expect(tv.trades.some((t) => t.symbol === 'ETHUSDT' && t.time > T0 + 5_000)).toBe(true);
    } finally {
      tv.close();
    }
  });
});
