// Taker flow of one symbol: orders that take liquidity, from an engine account of their own (so
// self-trade prevention never stops them against the house maker).
//
// Arrivals are Poisson with intensity takerRate x f per second, f given per step (the simulator
// raises it with volatility); an Exp(1) budget drained by intensity x dt yields the arrivals, so a
// quiet step costs no draw. Sizes are Pareto notionals (tail index 1.6: many small orders, a few
// large ones) with the configured median, capped at 60x the Pareto minimum and at half of the
// side they hit. Side: buys are likelier when the book's mid sits below the index (and sells when
// above), so the flow leans against the maker's inventory skew and keeps last near index.
// Kind: 70 % market orders, 30 % IOC limits 0-2 grid steps through the best price (kept inside
// the price band around mark); a pair that forbids market orders gets only IOC limits.
import type { Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';

const TAIL = 1.6;
const CAP_X = 60;
const MARKET_SHARE = 0.7;

export interface TakerStats {
  orders: number;
  traded: number;
  rejected: number;
}

export class TakerFlow {
  readonly stats: TakerStats = { orders: 0, traded: 0, rejected: 0 };
  private budget: number;
  private readonly ex: Exchange;
  private readonly pair: PairState;
  private readonly limits: PairLimits;
  private readonly rng: Rng;
  private readonly account: number;
  private readonly rate: number;
  private readonly xm: number;
  private readonly zeroQty: string;

  constructor(ex: Exchange, pair: PairState, limits: PairLimits, rng: Rng, account: number, ratePerSecond: number, medianNotional: number) {
    this.ex = ex;
    this.pair = pair;
    this.limits = limits;
    this.rng = rng;
    this.account = account;
    this.rate = ratePerSecond;
    this.xm = medianNotional / Math.pow(2, 1 / TAIL);
    this.budget = rng.exp();
    this.zeroQty = pair.math.formatQty(0);
  }

  /** Arrivals during a step of dtMs at intensity factor f. */
  arrivals(dtMs: number, f: number): number {
    this.budget -= (this.rate * f * dtMs) / 1000;
    let n = 0;
    while (this.budget <= 0) {
      n++;
      this.budget += this.rng.exp();
    }
    return n;
  }

  /**
   * Sends one taker order. `index` in USDT, `h` the maker's half-spread (fraction), `spacing` the
   * maker's grid step in ticks, `maxNotional` the cap from the depth it may hit. Returns true when
   * it traded.
   */
  send(index: number, h: number, spacing: number, maxNotional: number, forceSide = 0): boolean {
    const book = this.pair.book;
    const bid = book.bestBid();
    const ask = book.bestAsk();
    const tick = this.limits.tick;
    let side: number;
    if (forceSide !== 0) side = forceSide;
    else {
      const mid = bid > 0 && ask > 0 ? ((bid + ask) / 2) * tick : index;
      const lean = Math.tanh((2 * (index - mid)) / (Math.max(h, 1e-6) * index));
      side = this.rng.next() < 0.5 + 0.35 * lean ? 1 : 2;
    }
    const opposite = side === 1 ? ask : bid;
    if (opposite === 0) return false;
    const notional = Math.min(this.rng.pareto(this.xm, TAIL), CAP_X * this.xm, Math.max(maxNotional, 0));
    const lots = this.limits.lotsFor(notional, opposite);
    const useMarket = this.pair.row.allowMarket && this.rng.next() < MARKET_SHARE;
    const through = this.rng.int(3) * spacing;
    const math = this.pair.math;
    const sideNum = side as 1 | 2;
    const base = { symbol: this.pair.row.symbol, side: sideNum, position_side: sideNum, position_action: 1, qty: math.formatQty(lots) };
    this.stats.orders++;
    try {
      let r;
      if (useMarket) {
        r = this.ex.execute({ kind: 'placeBot', input: { ...base, type: 2 }, engineAccount: this.account });
      } else {
        const mark = this.pair.markPrice;
        const bandTicks = side === 1 ? Math.floor((mark * (1 + 0.9 * this.limits.band)) / tick) : Math.ceil((mark * (1 - 0.9 * this.limits.band)) / tick);
        let px = side === 1 ? opposite + through : opposite - through;
        px = side === 1 ? Math.min(px, bandTicks) : Math.max(px, bandTicks, 1);
        if ((side === 1 && px < opposite) || (side === 2 && px > opposite)) {
          r = this.ex.execute({ kind: 'placeBot', input: { ...base, type: 2 }, engineAccount: this.account }); // the band is inside the spread: a market order stops at it
        } else {
          r = this.ex.execute({ kind: 'placeBot', input: { ...base, type: 1, price: math.formatPrice(px), time_in_force: 2 }, engineAccount: this.account });
        }
      }
      const traded = r.status === 2 || r.status === 3 || (r.status === 6 && r.filled_qty !== this.zeroQty);
      if (traded) this.stats.traded++;
      return traded;
    } catch {
      this.stats.rejected++;
      return false;
    }
  }
}
