// Index, mark and funding of one symbol, recomputed every simulator step (formulas: risk/
// funding.ts and risk/mark-price.ts, used as they are).
//
// - basis: mid - index fed to a BasisAverager each step (skipped while a book side is empty, so
//   the averager holds the last value);
// - premium index: sampled at every multiple of 5 s of market time from the book's impact bid
//   and ask at the impact notional (200 USDT x max leverage), converted to the engine's tick*lot
//   units; a sample is skipped when the book cannot absorb the notional on a side. The interval's
//   weighted average (weights 1..n) is kept as two running sums, so a sample costs O(1);
// - funding rate: the estimate of the running interval, fundingRate(avgP, cap); it is what the
//   exchange shows, what P1 uses, and what is settled at the interval's end;
// - mark = median(P1, P2, last).
// Settlement instants are the multiples of 8 h of market time; `settle` closes the interval
// (its samples include the one taken at the instant) and opens the next. The running interval's
// samples (`interval()`) go into the market checkpoint, and a restart inside the same interval
// goes on with them (the constructor's `restored`), so the rate shown and settled is the one an
// uninterrupted run would have.
import {
  FUNDING_INTERVAL_MS,
  PREMIUM_SAMPLE_MS,
  fundingRate,
  fundingRateCap,
  impactNotional,
  nextFundingTime,
  premiumIndex,
} from '../../risk/funding.ts';
import { BasisAverager, fundingBasisPrice, markPrice, midBasisPrice } from '../../risk/mark-price.ts';
import type { PairState } from '../../trading/pair-state.ts';

/** The running funding interval's premium samples, as the market checkpoint keeps them. */
export interface FundingInterval {
  /** The settlement instant that ends the interval (market ms). */
  next: number;
  /** Sum of i x P_i and of i over the interval's samples, and their count. */
  weighted: number;
  weights: number;
  samples: number;
}

export class PriceFeed {
  private readonly pair: PairState;
  private readonly basis = new BasisAverager();
  /** Impact notional in the engine's tick*lot units. */
  readonly impactUnits: number;
  readonly cap: number;
  private weighted = 0;
  private weights = 0;
  /** Premium samples in the running interval. */
  samples = 0;
  /** Samples skipped because a side was too thin. */
  skippedSamples = 0;
  lastPremium = 0;
  rate: number;
  nextFunding: number;
  index = 0;
  mid = 0;
  mark = 0;
  p1 = 0;
  p2 = 0;
  last = 0;

  /**
   * `restored`: a restart's running interval (the market checkpoint's); taken when it is the
   * interval `time` is in, else (a settlement came between, or no checkpoint) the interval starts
   * without samples.
   */
  constructor(pair: PairState, time: number, restored?: FundingInterval) {
    this.pair = pair;
    const { row, math } = pair;
    this.impactUnits = impactNotional(row.maxLeverage) / (math.tickValue * math.lotValue);
    this.cap = fundingRateCap(row.brackets);
    this.rate = fundingRate(0, this.cap);
    this.nextFunding = nextFundingTime(time);
    if (restored !== undefined && restored.next === this.nextFunding && restored.weights > 0) {
      this.weighted = restored.weighted;
      this.weights = restored.weights;
      this.samples = restored.samples;
      this.rate = fundingRate(this.weighted / this.weights, this.cap);
    }
  }

  /** The running interval's samples, for the market checkpoint. */
  interval(): FundingInterval {
    return { next: this.nextFunding, weighted: this.weighted, weights: this.weights, samples: this.samples };
  }

  /** Recomputes everything for market time t (non-decreasing) from the index and last price. */
  update(t: number, index: number, last: number): void {
    const book = this.pair.book;
    const tick = this.pair.math.tickValue;
    this.index = index;
    this.last = last;
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (bid > 0 && ask > 0) {
      this.mid = ((bid + ask) / 2) * tick;
      this.basis.update(t, this.mid - index);
    }
    if (t % PREMIUM_SAMPLE_MS === 0) {
      const ib = book.impactBid(this.impactUnits);
      const ia = book.impactAsk(this.impactUnits);
      if (ib !== null && ia !== null) {
        this.lastPremium = premiumIndex(ib * tick, ia * tick, index);
        this.samples++;
        this.weighted += this.samples * this.lastPremium;
        this.weights += this.samples;
        this.rate = fundingRate(this.weighted / this.weights, this.cap);
      } else {
        this.skippedSamples++;
      }
    }
    this.p1 = fundingBasisPrice(index, this.rate, Math.max(0, this.nextFunding - t), FUNDING_INTERVAL_MS);
    this.p2 = midBasisPrice(index, this.basis.average(t));
    this.mark = markPrice(this.p1, this.p2, last > 0 ? last : index);
  }

  /** Closes the funding interval ending at t: returns its rate and starts the next interval. */
  settle(t: number): number {
    const rate = this.rate;
    this.weighted = 0;
    this.weights = 0;
    this.samples = 0;
    this.rate = fundingRate(0, this.cap);
    this.nextFunding = nextFundingTime(t);
    return rate;
  }
}
