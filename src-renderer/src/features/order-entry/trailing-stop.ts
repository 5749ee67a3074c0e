// A trailing stop from the form (the Stop kind, Trailing): a conditional order whose trigger
// follows the watched price (the mark, or the last trade) by a callback rate, a percent from 0.1
// to 10 with one decimal, and places a market order when it fires (POST
// /fapi/v1/conditional/order with `callback_rate`, docs/api.md "Conditional orders"). A sell
// trails the highest price since it started and fires when the price falls the rate from it; a
// buy trails the lowest and fires when the price rises the rate from it. It starts at once, or
// once the price reaches an optional activation price: a sell's above the price now (it starts as
// the price rises to it), a buy's below (as it falls to it); one the price has reached already the
// venue refuses (3026), so the form says so first. Also its words for the form, the notice and
// each side's column ("Trailing the mark price from now (96,500.0): when it falls 1.0% from its
// highest, sell 0.010 BTC at market"), and what the form says under the rate and activation
// fields as they are typed (the venue's own rules, as input-checks.ts does for a price or a
// size). Pure: no clock, no DOM.
import { PositionAction, Side, TriggerDirection, WorkingType } from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord, ConditionalOrderRequest, OrderRequest } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';
import { priceCheck } from './input-checks.ts';
import { NOT_A_NUMBER } from './order-model.ts';
import { stopAction, triggerDirection, WATCHED_NAMES, type StopWhat } from './stop-order.ts';

/** The venue's callback rates, in tenths of a percent: 0.1 % to 10 %. */
const MIN_TENTHS = 1;
const MAX_TENTHS = 100;

/** The side's word in the sentences. */
const sideWord = (side: Side): string => (side === Side.BUY ? 'buy' : 'sell');

/** The rate as typed in tenths of a percent (exact, from the text), or NaN with more than one decimal. */
function tenthsOf(rate: { value: string }): number {
  const [whole, frac = ''] = rate.value.split('.');
  const digits = frac.replace(/0+$/, '');
  if (digits.length > 1) return NaN;
  return Number(whole) * 10 + Number(digits || '0');
}

/**
 * What the form says under the Callback rate field as it is typed, or null (empty, or a rate the
 * venue takes): not a number, not above 0, outside 0.1 to 10, more than one decimal.
 */
export function callbackCheck(rate: DecimalInput): string | null {
  if (rate.kind === 'empty') return null;
  if (rate.kind === 'invalid') return 'Not a rate: use digits and a decimal point, e.g. 1.5.';
  if (rate.kind === 'negative' || !(rate.n > 0)) return 'A rate is above 0: from 0.1 to 10.';
  if (rate.n < MIN_TENTHS / 10 || rate.n > MAX_TENTHS / 10)
    return 'From 0.1 to 10: the venue takes a callback rate of 0.1% to 10%.';
  if (Number.isNaN(tenthsOf(rate))) return 'One decimal at most: the venue takes the rate in steps of 0.1 (e.g. 1.5).';
  return null;
}

/** The rate as the venue takes it, with its one decimal ("1.0", "2.5"); null when empty or callbackCheck has something to say. */
export function callbackRate(rate: DecimalInput): string | null {
  if (rate.kind !== 'ok' || callbackCheck(rate) !== null) return null;
  const t = tenthsOf(rate);
  return `${Math.floor(t / 10)}.${t % 10}`;
}

/** The side an activation price at `activation` is for, from the watched price now: above it a sell's, below a buy's; null when unknown or at it. */
export function activationSide(activation: number, watched: number | undefined): Side | null {
  const d = triggerDirection(activation, watched);
  if (d === null) return null;
  return d === TriggerDirection.RISES_TO ? Side.SELL : Side.BUY;
}

/** What the activation and the sentences are read against: the pair's tick, the watched price now. */
export interface TrailingContext {
  working: WorkingType;
  /** The watched price now (the screen's mark or last); undefined when not known yet. */
  watched: number | undefined;
  /** The pair's tick (undefined until the catalogue is loaded). */
  tick?: string;
  /** The pair's price decimals. */
  pd: number;
}

/** A line under the Activation price field: a problem (`warn`), or which side it is for. */
export interface FieldNote {
  text: string;
  warn: boolean;
}

/**
 * What the form says under the Activation price field as it is typed, or null: not a number, not
 * above 0, off the tick, at the watched price now; then, a valid one against the watched price:
 * on the wrong side of it for `side` (the side armed, or the only one the form can send), or, with
 * either side possible (`side` null), whose activation it is.
 */
export function activationCheck(activation: DecimalInput, x: TrailingContext, side: Side | null): FieldNote | null {
  if (activation.kind === 'empty') return null;
  if (activation.kind === 'invalid') return { text: `Not a price: ${NOT_A_NUMBER}.`, warn: true };
  if (activation.kind === 'negative' || !(activation.n > 0)) return { text: 'A price is above 0.', warn: true };
  const offTick = x.tick === undefined ? null : priceCheck(activation, x.tick);
  if (offTick !== null) return { text: offTick, warn: true };
  if (x.watched === undefined || !(x.watched > 0)) return null;
  const name = WATCHED_NAMES[x.working];
  const suits = activationSide(activation.n, x.watched);
  if (suits === null)
    return { text: `At the ${name} now: a sell's activation is above it, a buy's below.`, warn: true };
  const where = `${suits === Side.SELL ? 'Above' : 'Below'} the ${name} (now ${fmt(x.watched, x.pd)})`;
  if (side === suits) return null;
  const other = suits === Side.SELL ? Side.BUY : Side.SELL;
  const otherWhere = other === Side.SELL ? 'above' : 'below';
  if (side === null)
    return { text: `${where}: for a ${sideWord(suits)} (a ${sideWord(other)}'s is ${otherWhere} it).`, warn: false };
  return { text: `${where}: a ${sideWord(side)}'s activation is ${otherWhere} it.`, warn: true };
}

/** Where a trailing stop starts: once the watched price moves to its activation price, or at once. */
export type TrailStart = { price: string; direction: TriggerDirection } | null;

/** A trailing stop of `side` starts once the price rises to its activation (a sell) or falls to it (a buy). */
export const activationDirection = (side: Side): TriggerDirection =>
  side === Side.SELL ? TriggerDirection.RISES_TO : TriggerDirection.FALLS_TO;

/**
 * The part of the sentence every side shares: "Trailing the mark price from now (96,500.0)",
 * "Trailing the mark price once it rises to 97,000.0 (now 96,500.0)"; `now` the watched price
 * (absent: not said, "from when it is placed").
 */
export function trailingClause(
  working: WorkingType,
  start: TrailStart,
  pd: number,
  now?: number | string | null,
): string {
  const name = WATCHED_NAMES[working];
  const at = now === undefined || now === null || !(Number(now) > 0) ? null : fmt(now, pd);
  if (start !== null) {
    const moves = start.direction === TriggerDirection.RISES_TO ? 'rises' : 'falls';
    return `Trailing the ${name} once it ${moves} to ${fmt(start.price, pd)}${at === null ? '' : ` (now ${at})`}`;
  }
  return at === null ? `Trailing the ${name} from when it is placed` : `Trailing the ${name} from now (${at})`;
}

/**
 * One side's part: "when it falls 1.0% from its highest, sell 0.010 BTC at market" (a sell trails
 * the highest price and fires on a fall of the rate from it), "when it rises 1.0% from its lowest,
 * buy 0.010 BTC at market" (a buy the lowest, on a rise).
 */
export function trailingFires(o: StopWhat, rate: string, d: { pd: number; qd: number; base: string }): string {
  const how = o.side === Side.SELL ? 'falls' : 'rises';
  const from = o.side === Side.SELL ? 'highest' : 'lowest';
  return `when it ${how} ${Number(rate).toFixed(1)}% from its ${from}, ${stopAction(o, d.pd, d.qd, d.base)}`;
}

/**
 * A placed trailing stop in words, from its record: "Trailing the mark price from now (96,500.0):
 * when it falls 1.0% from its highest, sell 0.010 BTC at market" (now: where it started trailing,
 * its first peak), "Trailing the mark price once it rises to 97,000.0: when it falls 1.0% ...".
 */
export function trailingSentence(
  c: StopWhat &
    Pick<ConditionalOrderRecord, 'working_type' | 'activation_price' | 'peak_price'> & { callback_rate: string },
  d: { pd: number; qd: number; base: string },
): string {
  const act = c.activation_price;
  const start = act === null || act === '' ? null : { price: act, direction: activationDirection(c.side) };
  return `${trailingClause(c.working_type, start, d.pd, start === null ? c.peak_price : null)}: ${trailingFires(c, c.callback_rate, d)}`;
}

/**
 * A side's column: how it fires and what it places ("when it falls 1.0% from its highest, sell
 * 0.010 BTC at market"); with an activation on the other side of the watched price, that this
 * side's is not there (`warn`); before a rate the venue takes, what it places.
 */
export function trailingDoes(
  o: StopWhat,
  callbackIn: DecimalInput,
  activationIn: DecimalInput,
  x: TrailingContext & { qd: number; base: string },
): { text: string; warn: boolean } {
  if (activationIn.kind === 'ok' && activationIn.n > 0 && x.watched !== undefined && x.watched > 0) {
    const suits = activationSide(activationIn.n, x.watched);
    if (suits !== o.side) {
      const where = o.side === Side.SELL ? 'above' : 'below';
      return {
        text: `a ${sideWord(o.side)}'s activation is ${where} the ${WATCHED_NAMES[x.working]}`,
        warn: true,
      };
    }
  }
  const rate = callbackRate(callbackIn);
  if (rate === null) return { text: stopAction(o, x.pd, x.qd, x.base), warn: false };
  return { text: trailingFires(o, rate, x), warn: false };
}

/** A trailing stop's rate and activation as the form would send them, or the form's reason not to. */
export type TrailingSpec = { ok: true; rate: string; activation: string | null } | { ok: false; error: string };

/**
 * The rate and the activation as typed, for a stop of `side`: the form's own reasons to send
 * nothing (no rate, a rate the venue refuses, an activation that is not a price or that the
 * watched price has reached for this side: the venue's 3026). An activation off the tick goes, as
 * a limit price off it does: the venue's answer (3003) says it, the field said it first.
 */
export function trailingSpec(
  rateIn: DecimalInput,
  activationIn: DecimalInput,
  x: TrailingContext,
  side: Side,
): TrailingSpec {
  if (rateIn.kind === 'empty')
    return {
      ok: false,
      error: 'Enter a callback rate: the percent the price comes back from its best before the stop fires (0.1 to 10).',
    };
  if (rateIn.kind === 'invalid')
    return {
      ok: false,
      error: `Callback rate "${rateIn.text}" is not a number: use digits and a decimal point, e.g. 1.5.`,
    };
  const rate = callbackRate(rateIn);
  if (rate === null)
    return { ok: false, error: 'The callback rate is a percent from 0.1 to 10 with one decimal at most (e.g. 1.5).' };
  if (activationIn.kind === 'empty') return { ok: true, rate, activation: null };
  if (activationIn.kind === 'invalid')
    return { ok: false, error: `Activation price "${activationIn.text}" is not a number: ${NOT_A_NUMBER}.` };
  if (activationIn.kind === 'negative' || !(activationIn.n > 0))
    return { ok: false, error: 'Enter an activation price above 0, or leave it empty to trail from now.' };
  const name = WATCHED_NAMES[x.working];
  if (x.watched === undefined || !(x.watched > 0))
    return { ok: false, error: `No ${name} yet to set the activation against: try again in a moment.` };
  if (activationSide(activationIn.n, x.watched) !== side) {
    const above = side === Side.SELL;
    return {
      ok: false,
      error:
        `A ${sideWord(side)}'s activation price is ${above ? 'above' : 'below'} the ${name} (now ${fmt(x.watched, x.pd)}): ` +
        `it starts trailing when the price ${above ? 'rises' : 'falls'} to it. Set it ${above ? 'higher' : 'lower'}, or leave it empty to trail from now.`,
    };
  }
  return { ok: true, rate, activation: activationIn.value };
}

/**
 * The conditional order the form sends for a trailing stop: `order` (order-model.ts: a market
 * order, the Stop kind's Trailing has no limit price) with the rate, the activation when given,
 * the price it watches and its side's direction (a sell fires as the price falls, a buy as it
 * rises). No leverage or margin mode (the pair's when it fires), and a Close one is reduce-only,
 * as the other stops (stop-order.ts stopRequest).
 */
export function trailingRequest(
  order: OrderRequest,
  spec: { rate: string; activation: string | null },
  working: WorkingType,
): ConditionalOrderRequest {
  const request: ConditionalOrderRequest = {
    ...order,
    callback_rate: spec.rate,
    trigger_direction: order.side === Side.SELL ? TriggerDirection.FALLS_TO : TriggerDirection.RISES_TO,
    working_type: working,
  };
  if (spec.activation !== null) request.activation_price = spec.activation;
  delete request.price;
  delete request.time_in_force;
  delete request.leverage;
  delete request.margin_mode;
  if (order.position_action === PositionAction.CLOSE) request.reduce_only = true;
  return request;
}
