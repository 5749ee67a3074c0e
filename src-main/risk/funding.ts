// Funding: impact prices, premium index, funding rate, settlement schedule and payment.
//
// Units: prices USDT, notionals USDT, rates and premiums as fractions (0.0001 = 0.01%
// per 8 h interval), times in ms since the Unix epoch (UTC; the virtual clock's ms).
// Rules (reference/exchange.md):
// - premium P = [max(0, impactBid - index) - max(0, index - impactAsk)] / index, where the
//   impact price is the average fill price for 200 USDT / IMR at max leverage of notional;
// - average premium: weights 1..n over the interval's samples (later samples count more);
// - F = avgP + clamp(0.01% - avgP, -0.05%, +0.05%): exactly 0.01% for avgP in
//   [-0.04%, +0.06%] (computed piecewise so the dead zone is exact, not 0.01% +- 1 ulp);
// - |F| <= 0.75 x the MMR of the symbol's top tier, meaning tier 1, the highest-leverage
//   tier with the smallest MMR: BTCUSDT 0.75 x 0.40% = 0.30%, as the reference states;
// - F is rounded to 6 decimals (the spec's price record carries 6), half away from zero on
//   the float value, after the cap; the cap itself is first rounded toward zero to 6
//   decimals, so rounding can never push F past it;
// - settlement every 8 h at 00:00, 08:00, 16:00 UTC; 8 h divides a day and the epoch is a
//   midnight, so settlement instants are exactly the multiples of 8 h since the epoch;
// - payment = mark x |Q| x F; F > 0: longs pay, shorts receive.
// Limits: float64; the payment here is a float estimate, money is booked elsewhere.

import type { Side } from './margin.ts';
import type { Bracket } from './tiers.ts';

export const FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;
/** The interest component of the funding rate, per interval. */
export const FUNDING_INTEREST_RATE = 0.0001;
/** Bound on how far the interest-minus-premium correction may pull the rate. */
const FUNDING_PREMIUM_CLAMP = 0.0005;
/** Premium samples are taken this often. */
export const PREMIUM_SAMPLE_MS = 5_000;
/** Margin whose max-leverage notional defines the impact notional. */
const IMPACT_MARGIN_USDT = 200;

/** 200 USDT / (1 / maxLeverage): BTCUSDT at 125x gives 25,000 USDT. */
export function impactNotional(maxLeverage: number): number {
  return IMPACT_MARGIN_USDT * maxLeverage;
}

/** One price level: [price, quantity in base units]. */
export type Level = readonly [price: number, qty: number];

/**
 * Average fill price of a market order spending `notional` USDT against `levels` (best
 * first: asks ascending for the impact ask, bids descending for the impact bid); null
 * when the book holds less than the notional, so the caller can skip the sample.
 */
export function impactPrice(levels: readonly Level[], notionalUsdt: number): number | null {
  if (!(notionalUsdt > 0)) throw new RangeError(`impact notional must be > 0, got ${notionalUsdt}`);
  let remaining = notionalUsdt;
  let filledQty = 0;
  for (const [price, qty] of levels) {
    const levelValue = price * qty;
    if (levelValue >= remaining) {
      filledQty += remaining / price;
      return notionalUsdt / filledQty;
    }
    remaining -= levelValue;
    filledQty += qty;
  }
  return null;
}

/** Premium index sample P; 0 while the index lies between the impact bid and ask. */
export function premiumIndex(impactBid: number, impactAsk: number, index: number): number {
  if (!(index > 0)) throw new RangeError(`index price must be > 0, got ${index}`);
  return (Math.max(0, impactBid - index) - Math.max(0, index - impactAsk)) / index;
}

/** sum(i x P_i) / sum(i), i = 1..n. No samples count as a zero premium (rate = interest). */
export function weightedAveragePremium(samples: readonly number[]): number {
  let weighted = 0;
  let weights = 0;
  for (let i = 0; i < samples.length; i++) {
    weighted += (i + 1) * samples[i];
    weights += i + 1;
  }
  return weights === 0 ? 0 : weighted / weights;
}

/**
 * 0.75 x MMR of tier 1 (the top, highest-leverage tier): BTCUSDT 0.30%; at the rate's 6 decimals,
 * truncated, as settlements apply it (fundingRate), so what fundingInfo publishes is the cap a
 * settlement reaches (BNBUSDT's 0.75 x 0.6667% published 0.00500025 and settled at most 0.005).
 */
export function fundingRateCap(brackets: readonly Bracket[]): number {
  return truncRate(0.75 * brackets[0].mmr);
}

const RATE_SCALE = 1e6;

/** Rounds a rate to 6 decimals, half away from zero. */
export function roundRate(rate: number): number {
  const r = (Math.sign(rate) * Math.round(Math.abs(rate) * RATE_SCALE)) / RATE_SCALE;
  return r === 0 ? 0 : r; // no -0 on the wire
}

function truncRate(rate: number): number {
  // The tiny bias stops 0.003 (stored as 0.0029999...) from truncating to 0.002999.
  return Math.floor(rate * RATE_SCALE + 1e-6) / RATE_SCALE;
}

/** F from the interval's average premium, capped at +-cap, rounded to 6 decimals. */
export function fundingRate(avgPremium: number, cap: number): number {
  const correction = FUNDING_INTEREST_RATE - avgPremium;
  let raw: number;
  if (correction > FUNDING_PREMIUM_CLAMP) raw = avgPremium + FUNDING_PREMIUM_CLAMP;
  else if (correction < -FUNDING_PREMIUM_CLAMP) raw = avgPremium - FUNDING_PREMIUM_CLAMP;
  else raw = FUNDING_INTEREST_RATE;
  const c = truncRate(cap);
  return roundRate(Math.min(c, Math.max(-c, raw)));
}

/** First settlement instant strictly after ts: at 08:00:00.000 exactly, the next is 16:00. */
export function nextFundingTime(ts: number): number {
  return Math.floor(ts / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
}

export function isFundingInstant(ts: number): boolean {
  return ts % FUNDING_INTERVAL_MS === 0;
}

/**
 * Settlement instants t with fromExclusive < t <= toInclusive, ascending: what a clock
 * that jumped from one tick to the next has passed (an accelerated clock rarely lands on
 * the instant itself). Length is (to - from) / 8 h, so bound the gap you pass in.
 */
export function fundingTimesBetween(fromExclusive: number, toInclusive: number): number[] {
  const out: number[] = [];
  for (let t = nextFundingTime(fromExclusive); t <= toInclusive; t += FUNDING_INTERVAL_MS) out.push(t);
  return out;
}

/** mark x |Q| x F from the holder's view: positive = the position pays, negative = receives. */
export function fundingFee(s: Side, qty: number, mark: number, rate: number): number {
  return s * Math.abs(qty) * mark * rate;
}
