// Funding rates derived from premiumIndexKlines when a replayed pair has no fundingRate rows
// (docs/replay.md "Mark, index, funding"): Binance's rule (reference/exchange.md), with the
// premium candles' closes as the premium samples:
//   avgP = sum(i x P_i) / sum(i) over the samples of the interval (later ones weigh more),
//   F = avgP + clamp(interest - avgP, -0.05 %, +0.05 %), interest 0.01 % per 8 h,
//   capped at 0.75 x the top tier's maintenance margin rate, rounded to 6 decimals
// (risk/funding.ts weightedAveragePremium, fundingRate, fundingRateCap).
// Invariants: a sample belongs to the settlement strictly after its time (a 1m candle closing at
// 07:59:59.999 counts for 08:00); an interval without a sample settles at the interest rate
// (no premium known: the rule's value for a zero premium).
import { FUNDING_INTEREST_RATE, fundingRate, nextFundingTime, weightedAveragePremium } from '../risk/funding.ts';

export class PremiumFunding {
  private readonly cap: number;
  /** Premium samples per settlement time, in time order. */
  private readonly samples = new Map<number, number[]>();

  constructor(cap: number) {
    this.cap = cap;
  }

  /** One premium sample (a premium candle's close) at market time `time`. */
  add(time: number, premium: number): void {
    if (!Number.isFinite(premium)) return;
    const s = nextFundingTime(time);
    let list = this.samples.get(s);
    if (list === undefined) this.samples.set(s, (list = []));
    list.push(premium);
  }

  /** The rate of the settlement at `settlement` from the samples so far (the predicted rate before it). */
  rate(settlement: number): number {
    const list = this.samples.get(settlement);
    if (list === undefined || list.length === 0) return FUNDING_INTEREST_RATE;
    return fundingRate(weightedAveragePremium(list), this.cap);
  }

  /** The rate of the settlement at `settlement`; its samples are dropped (it is settled). */
  settle(settlement: number): number {
    const r = this.rate(settlement);
    this.samples.delete(settlement);
    return r;
  }
}
