// A pair's order filters as integers, and the one way the simulator turns a USDT notional into
// a legal quantity: a whole number of lots, at least minQty and minNotional at the order's
// price, at most maxQty. Prices are the pair's integer ticks.
import type { PairState } from '../../trading/pair-state.ts';

export class PairLimits {
  readonly tick: number;
  readonly lot: number;
  readonly minLots: number;
  readonly maxLots: number;
  readonly minNotional: number;
  /** Price-band ratio of the pair (market price protection). */
  readonly band: number;

  /** pair: a PairState, or its row, math and band ratio alone (a history worker's: history-pool.ts). */
  constructor(pair: Pick<PairState, 'row' | 'math' | 'bandRatio'>) {
    const { row, math } = pair;
    this.tick = math.tickValue;
    this.lot = math.lotValue;
    this.minLots = Math.max(1, math.qty.mustToUnits(row.minQty));
    this.maxLots = math.qty.mustToUnits(row.maxQty);
    this.minNotional = Number(row.minNotional);
    this.band = pair.bandRatio;
  }

  /** Smallest legal lot count at priceTicks. */
  floorLots(priceTicks: number): number {
    const px = priceTicks * this.tick;
    const byNotional = Math.ceil((this.minNotional * 1.0001) / (px * this.lot));
    return Math.min(this.maxLots, Math.max(this.minLots, byNotional));
  }

  /** Lots for `notional` USDT at priceTicks, clamped to the filters. */
  lotsFor(notional: number, priceTicks: number): number {
    const raw = Math.round(notional / (priceTicks * this.tick * this.lot));
    const lo = this.floorLots(priceTicks);
    return raw < lo ? lo : raw > this.maxLots ? this.maxLots : raw;
  }
}

/** The nearest (in ratio) of 1, 2, 5 x 10^k: a spacing a depth ladder shows cleanly. */
export function niceNear(x: number): number {
  if (!(x > 1.4)) return 1;
  const e = Math.pow(10, Math.floor(Math.log10(x)));
  const m = x / e;
  // geometric midpoints of 1-2, 2-5, 5-10
  const n = m < Math.SQRT2 ? 1 : m < Math.sqrt(10) ? 2 : m < Math.sqrt(50) ? 5 : 10;
  return Math.round(n * e);
}
