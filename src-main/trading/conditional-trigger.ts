// The trigger of a conditional order (trading/conditional.ts): the price it watches, when that price
// has reached it, and price protection.
//
// Price protection (Binance's priceProtect, its exchangeInfo's triggerProtect): a protected order
// whose trigger is reached is held back while the last price and the mark are more than
// TRIGGER_PROTECT apart (|last - mark| / mark), as Binance holds a protected stop back from an
// abnormal print or a mark that ran away from the book; it stays waiting and fires at the first
// check, a mark (mark-price triggers) or a trade (last-price ones), that finds its trigger reached
// and the two prices within the threshold. With no trade on the pair yet there is no last price to
// compare, so nothing is held back. Trailing stops are not protected (Binance's priceProtect is for
// STOP and TAKE_PROFIT orders).
//
// The close type (closed positions' close_type) of a close the order it places makes is Binance's
// order family of the conditional order (closeTypeOf): the stop family, STOP / STOP_MARKET (a
// sell that fires as the price falls to its trigger, a buy as it rises) and every
// TRAILING_STOP_MARKET, is a stop loss; the take-profit family, TAKE_PROFIT /
// TAKE_PROFIT_MARKET (a sell firing as the price rises to it, a buy as it falls), a take profit.
import { Errors } from '../../src-shared/errors.ts';
import { CloseType, OrderType, Side, TriggerDirection, WorkingType } from '../../src-shared/enums.ts';
import type { ConditionalInput } from './commands.ts';
import { reject, rejectParam } from './core.ts';
import { MAX_PRICE_TICKS } from '../engine/types.ts';
import type { PairState } from './pair-state.ts';
import type { ConditionalState } from './ports.ts';
import { TRAILING_DIRECTION_RULE, trailingDirection, trailingSpec, trailingTrigger } from './trailing.ts';

/** The largest gap between the last price and the mark, as a share of the mark, at which a protected trigger fires. */
export const TRIGGER_PROTECT = 0.05;

/** Whether a reached trigger of `c` is held back now: protected, and last and mark more than TRIGGER_PROTECT apart. */
export function heldBack(pair: PairState, c: Pick<ConditionalState, 'priceProtect'>): boolean {
  if (!c.priceProtect || pair.lastPriceTicks <= 0 || !(pair.markPrice > 0)) return false;
  const last = pair.lastPriceTicks * pair.math.tickValue;
  return Math.abs(last - pair.markPrice) / pair.markPrice > TRIGGER_PROTECT * (1 + 1e-12);
}

/**
 * The close type of the closes the order of `c` makes: 3 (stop loss) for the stop family and
 * trailing stops, 2 (take profit) for the take-profit family (see above).
 */
export function closeTypeOf(c: Pick<ConditionalState, 'side' | 'direction' | 'callbackTenths'>): CloseType {
  if (c.callbackTenths !== 0) return CloseType.STOP_LOSS;
  const stop = c.side === Side.SELL ? TriggerDirection.FALLS_TO : TriggerDirection.RISES_TO;
  return c.direction === stop ? CloseType.STOP_LOSS : CloseType.TAKE_PROFIT;
}

/** The trigger of a conditional order being placed: a price and direction, or a trailing stop's. */
export function triggerOf(
  pair: PairState,
  input: ConditionalInput,
  watched: number,
): Pick<ConditionalState, 'triggerTicks' | 'direction' | 'callbackTenths' | 'activationTicks' | 'peakTicks'> {
  const { row, math } = pair;
  if (input.callback_rate !== undefined) {
    if (input.trigger_price !== undefined)
      rejectParam(
        Errors.INVALID_PARAMETER,
        'trigger_price',
        "must not be sent with callback_rate: a trailing stop's follows the price",
      );
    if (input.type !== OrderType.MARKET || input.close_position === true)
      reject(
        Errors.INVALID_PARAMETER,
        'A trailing stop (callback_rate) places a market order of its qty: type 2, no close_position',
      );
    const spec = trailingSpec(pair, { callback_rate: input.callback_rate, activation_price: input.activation_price });
    const direction = trailingDirection(input.side);
    const given: number | undefined = input.trigger_direction;
    if (given !== undefined && given !== direction)
      rejectParam(Errors.INVALID_PARAMETER, 'trigger_direction', TRAILING_DIRECTION_RULE[direction]);
    const c = { side: input.side, callbackTenths: spec.tenths };
    const peakTicks = spec.activationTicks === 0 ? watched : 0;
    const base = peakTicks === 0 ? spec.activationTicks : peakTicks;
    return {
      triggerTicks: trailingTrigger(c, base),
      direction,
      callbackTenths: spec.tenths,
      activationTicks: spec.activationTicks,
      peakTicks,
    };
  }
  if (input.activation_price !== undefined)
    rejectParam(Errors.INVALID_PARAMETER, 'activation_price', 'is for a trailing stop: send callback_rate with it');
  if (input.trigger_price === undefined)
    rejectParam(Errors.MISSING_PARAMETER, 'trigger_price', 'must be sent (or callback_rate, for a trailing stop)');
  const direction: number | undefined = input.trigger_direction;
  if (direction === undefined)
    rejectParam(Errors.MISSING_PARAMETER, 'trigger_direction', 'must be sent with trigger_price');
  if (direction !== TriggerDirection.RISES_TO && direction !== TriggerDirection.FALLS_TO)
    rejectParam(Errors.INVALID_PARAMETER, 'trigger_direction', 'must be 1 (rises to) or 2 (falls to)');
  const t = math.price.toUnits(input.trigger_price);
  const tooLarge = (): never =>
    rejectParam(
      Errors.INVALID_PARAMETER,
      'trigger_price',
      `${input.trigger_price} is out of range: above the maximum ${math.formatPrice(MAX_PRICE_TICKS)}`,
      'too_large',
    );
  if (!t.ok) {
    if (t.reason === 'range') tooLarge();
    if (t.reason === 'off_step')
      reject(
        Errors.PRICE_OFF_TICK,
        `trigger_price ${input.trigger_price} is not a multiple of the tick ${row.tickSize}`,
      );
    rejectParam(
      Errors.INVALID_PARAMETER,
      'trigger_price',
      `must be a positive decimal string (got '${input.trigger_price}')`,
      t.reason === 'zero' ? 'not_positive' : undefined,
    );
  }
  if (t.value > MAX_PRICE_TICKS) tooLarge();
  return { triggerTicks: t.value, direction, callbackTenths: 0, activationTicks: 0, peakTicks: 0 };
}

/** The price a trigger watches, in whole ticks (the mark rounded to the tick). */
export function watchedTicks(pair: PairState, workingType: number): number {
  return workingType === WorkingType.LAST_PRICE && pair.lastPriceTicks > 0
    ? pair.lastPriceTicks
    : Math.max(1, pair.math.ticksRound(pair.markPrice));
}

/** The price a trigger watches, as a price: the mark, or the last trade (the mark while there is none, as TP/SL). */
export function watchedPrice(pair: PairState, workingType: number): number {
  return workingType === WorkingType.LAST_PRICE && pair.lastPriceTicks > 0
    ? pair.lastPriceTicks * pair.math.tickValue
    : pair.markPrice;
}

/** Whether `price` has reached a trigger at `trigger` in `direction` (a relative 1e-12 for the float of the trigger's ticks). */
export function reached(direction: number, price: number, trigger: number): boolean {
  return direction === TriggerDirection.RISES_TO ? price >= trigger * (1 - 1e-12) : price <= trigger * (1 + 1e-12);
}
