// Trailing stops: a conditional order (conditional.ts) whose trigger follows the watched price.
// A sell trails the highest price since it activated and fires when the price falls `rate` below
// it; a buy trails the lowest and fires when the price rises `rate` above it (Binance's
// TRAILING_STOP_MARKET, callbackRate 0.1 % to 10 %).
//
// Invariants
// - The trigger is on the tick, on the safe side of the exact rate: a sell's at
//   floor(peak x (1 - rate)), a buy's at ceil(peak x (1 + rate)); the record's trigger_price is
//   where it fires now, and fires exactly as any conditional order's trigger does.
// - Until it activates (the watched price reaching the activation price: at or above it for a
//   sell, at or below for a buy) it has no peak and does not fire; without an activation price it
//   is active from placement, its peak the watched price then.
// - The peak only moves in the order's favour (a sell's up, a buy's down), and the trigger with it.
//   A command's traded range is read adverse extreme first (against the trigger as it stood),
//   then favourable extreme (the new peak), then the last price against the new trigger: a price
//   that sets a new peak cannot fire the trigger it sets.
import { Errors } from '../../src-shared/errors.ts';
import { Side, TriggerDirection } from '../../src-shared/enums.ts';
import { MAX_PRICE_TICKS } from '../engine/types.ts';
import { reject, rejectParam } from './core.ts';
import type { PairState } from './pair-state.ts';
import type { ConditionalState } from './ports.ts';

/** Callback rates in tenths of a percent: 0.1 % to 10 % (Binance's range). */
const MIN_TENTHS = 1;
const MAX_TENTHS = 100;

/** A trailing stop's rate and activation as the request gives them (checked by trailingSpec). */
export interface TrailingInput {
  callback_rate: string;
  activation_price?: string;
}

/** A checked trailing spec: the rate in tenths of a percent, the activation in ticks (0: none). */
export interface TrailingSpec {
  tenths: number;
  activationTicks: number;
}

/** Checks a trailing stop's fields: 1001 for a rate off 0.1 .. 10 or with more than one decimal, 3003 off the tick. */
export function trailingSpec(pair: PairState, t: TrailingInput): TrailingSpec {
  const m = /^(\d{1,2})(?:\.(\d))?$/.exec(t.callback_rate);
  const tenths = m === null ? Number.NaN : Number(m[1]) * 10 + Number(m[2] ?? 0);
  if (!(tenths >= MIN_TENTHS && tenths <= MAX_TENTHS))
    rejectParam(
      Errors.INVALID_PARAMETER,
      'callback_rate',
      `must be a percent from 0.1 to 10 with at most one decimal (got '${t.callback_rate}')`,
    );
  let activationTicks = 0;
  if (t.activation_price !== undefined) {
    const r = pair.math.price.toUnits(t.activation_price);
    if (!r.ok) {
      if (r.reason === 'off_step')
        reject(
          Errors.PRICE_OFF_TICK,
          `activation_price ${t.activation_price} is not a multiple of the tick ${pair.row.tickSize}`,
        );
      rejectParam(
        Errors.INVALID_PARAMETER,
        'activation_price',
        `must be a positive decimal string (got '${t.activation_price}')`,
      );
    }
    if (r.value > MAX_PRICE_TICKS)
      rejectParam(
        Errors.INVALID_PARAMETER,
        'activation_price',
        `${t.activation_price} is out of range: above the maximum ${pair.math.formatPrice(MAX_PRICE_TICKS)}`,
        'too_large',
      );
    activationTicks = r.value;
  }
  return { tenths, activationTicks };
}

/** The direction a trailing stop of `side` fires in: a sell when the price falls, a buy when it rises. */
export function trailingDirection(side: number): number {
  return side === Side.SELL ? TriggerDirection.FALLS_TO : TriggerDirection.RISES_TO;
}

/** The rule told when a trailing stop's trigger_direction is sent and is not its side's, by the side's direction. */
export const TRAILING_DIRECTION_RULE: Readonly<Record<number, string>> = {
  [TriggerDirection.FALLS_TO]: 'must be 2 (falls to) or not sent: a trailing sell fires as the price falls',
  [TriggerDirection.RISES_TO]: 'must be 1 (rises to) or not sent: a trailing buy fires as the price rises',
};

/** The trigger of a trailing stop trailing `peakTicks`, on the tick (see the invariants). */
export function trailingTrigger(c: Pick<ConditionalState, 'side' | 'callbackTenths'>, peakTicks: number): number {
  const r = c.callbackTenths / 1000;
  // (a hair of slack for the float of the product: 1000 x 0.99 is 989.9999999999999)
  return c.side === Side.SELL
    ? Math.max(1, Math.floor(peakTicks * (1 - r) + 1e-9))
    : Math.ceil(peakTicks * (1 + r) - 1e-9);
}

/**
 * Moves a trailing stop's peak to `favourable` (ticks, a price it has seen) when that is a new
 * peak, activating it first when `favourable` reaches its activation price; the trigger follows.
 * Answers whether anything changed.
 */
export function trail(c: ConditionalState, favourable: number, time: number): boolean {
  const sell = c.side === Side.SELL;
  if (c.peakTicks === 0) {
    if (sell ? favourable < c.activationTicks : favourable > c.activationTicks) return false;
    c.activatedAt = time;
  } else if (sell ? favourable <= c.peakTicks : favourable >= c.peakTicks) return false;
  c.peakTicks = favourable;
  c.triggerTicks = trailingTrigger(c, favourable);
  return true;
}
