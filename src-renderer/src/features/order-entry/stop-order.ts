// A stop order from the form (the Stop kind): the order the form would send, held by the venue as a
// conditional order (POST /fapi/v1/conditional/order) until the watched price (the mark, or the
// last trade) reaches the trigger. The trigger's direction is not asked for: a trigger above the
// watched price fires as the price rises to it, one below as it falls to it (one at the price
// itself would be refused, 3026, so the form says so). An empty limit price makes it a
// stop-market, a typed one a stop-limit (order-model.ts picks the type); a Close stop goes as a
// reduce-only close. Also the words the form, the notice and the Stops tab say it in ("When the
// mark price rises to 97,000.0: buy 0.010 BTC at market"). Pure: no clock, no DOM.
import {
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TriggerDirection,
  WorkingType,
} from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRequest, FuturesSymbol, OrderRequest } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput, type DecimalInput } from '../../lib/decimal-input.ts';
import { priceCheck, sizeCheck } from './input-checks.ts';
import { NOT_A_NUMBER } from './order-model.ts';

/** The price a trigger watches, as the form and the tables name it. */
export const WATCHED_NAMES: Record<WorkingType, string> = {
  [WorkingType.MARK_PRICE]: 'mark price',
  [WorkingType.LAST_PRICE]: 'last price',
};

/**
 * The direction a trigger at `trigger` fires in, from the watched price now: above it, as the price
 * rises to it; below, as it falls to it; null when either is unknown or they are equal (the venue
 * would answer 3026: already reached).
 */
export function triggerDirection(trigger: number, watched: number | undefined): TriggerDirection | null {
  if (watched === undefined || !(watched > 0) || !(trigger > 0)) return null;
  if (trigger > watched) return TriggerDirection.RISES_TO;
  if (trigger < watched) return TriggerDirection.FALLS_TO;
  return null;
}

/** "When the mark price rises to 97,000.0". */
export function triggerClause(working: WorkingType, direction: TriggerDirection, trigger: string, pd: number): string {
  const moves = direction === TriggerDirection.RISES_TO ? 'rises' : 'falls';
  return `When the ${WATCHED_NAMES[working]} ${moves} to ${fmt(trigger, pd)}`;
}

/** What a conditional order places, in words; its fields as a request or a record carries them. */
export interface StopWhat {
  side: Side;
  position_side: PositionSide;
  type: OrderType;
  /** The limit price (a market order's is absent, or zero in a record). */
  price?: string;
  /** Absent or null with close_position. */
  qty?: string | null;
  close_position?: boolean;
  position_action: PositionAction;
  reduce_only?: boolean;
}

/** "buy 0.010 BTC at market", "sell 0.010 BTC at 96,500.0 (limit, reduce-only)", "close the whole long at market". */
export function stopAction(o: StopWhat, pd: number, qd: number, base: string): string {
  if (o.close_position === true) {
    // hedge mode names the position side; one-way mode's close sells a long, buys back a short
    const long = o.position_side === PositionSide.SHORT ? false : o.side === Side.SELL;
    return `close the whole ${long ? 'long' : 'short'} at market`;
  }
  const verb = o.side === Side.BUY ? 'buy' : 'sell';
  const size = o.qty === undefined || o.qty === null || o.qty === '' ? '' : ` ${fmt(o.qty, qd)} ${base}`.trimEnd();
  const reduce = o.reduce_only === true || o.position_action === PositionAction.CLOSE;
  if (o.type === OrderType.MARKET) return `${verb}${size} at market${reduce ? ' (reduce-only)' : ''}`;
  return `${verb}${size} at ${fmt(o.price, pd)} (limit${reduce ? ', reduce-only' : ''})`;
}

/** The whole sentence: "When the mark price rises to 97,000.0: buy 0.010 BTC at market". */
export function stopSentence(
  c: StopWhat & { trigger_price: string; trigger_direction: TriggerDirection; working_type?: WorkingType },
  d: { pd: number; qd: number; base: string },
): string {
  const clause = triggerClause(c.working_type ?? WorkingType.MARK_PRICE, c.trigger_direction, c.trigger_price, d.pd);
  return `${clause}: ${stopAction(c, d.pd, d.qd, d.base)}`;
}

/** The pair's figures the form's words are checked against (undefined until the catalogue is loaded). */
export type StopWordsPair =
  (Pick<FuturesSymbol, 'price_step' | 'qty_step' | 'min_qty'> & Partial<Pick<FuturesSymbol, 'max_qty'>>) | undefined;

/**
 * Whether the venue will refuse what a side of the form would place as typed: a limit price off
 * the tick, a size off the step, under the minimum or over the maximum (input-checks.ts, said
 * under the field). Its words are then "—", as Modify stop's are, never a value rounded to the
 * pair's decimals (a value on the tick and the step has no more decimals than the pair shows).
 */
export function stopRefusedAsTyped(o: Pick<StopWhat, 'type' | 'price' | 'qty'>, pair: StopWordsPair): boolean {
  if (pair === undefined) return false;
  if (o.type === OrderType.LIMIT && o.price !== undefined && priceCheck(parseDecimalInput(o.price), pair.price_step))
    return true;
  return typeof o.qty === 'string' && sizeCheck(parseDecimalInput(o.qty), pair) !== null;
}

/**
 * The form's words above the two sides' columns: the trigger clause ("When the mark price rises
 * to 97,000.0:"), "—" for a trigger off the tick (the venue refuses it, 3003, said under the
 * field), at the watched price that it is to move, or how the direction is chosen (`muted`).
 */
export function stopWhenWords(
  working: WorkingType,
  triggerIn: DecimalInput,
  watched: number | undefined,
  tick: string | undefined,
  pd: number,
): { text: string; muted: boolean } {
  const name = WATCHED_NAMES[working];
  const ok = triggerIn.kind === 'ok' && triggerIn.n > 0;
  const direction = ok ? triggerDirection(triggerIn.n, watched) : null;
  if (ok && direction !== null)
    return tick !== undefined && priceCheck(triggerIn, tick) !== null
      ? { text: '—', muted: true }
      : { text: `${triggerClause(working, direction, triggerIn.value, pd)}:`, muted: false };
  if (ok && watched !== undefined && watched > 0)
    return { text: `The trigger is at the ${name} now: set it above or below, where it is to fire.`, muted: true };
  return {
    text: `The order waits at the venue until the ${name} reaches the trigger (above it now: rises to it; below: falls to it).`,
    muted: true,
  };
}

type TriggerOutcome = { ok: true; price: string; direction: TriggerDirection } | { ok: false; error: string };

/**
 * The trigger as typed, read against `watched` (the screen's mark or last price, what the
 * direction is taken from): its price and direction, or the form's own reason to send nothing.
 */
export function stopTrigger(trigger: DecimalInput, working: WorkingType, watched: number | undefined): TriggerOutcome {
  const name = WATCHED_NAMES[working];
  if (trigger.kind === 'empty')
    return { ok: false, error: `Enter a trigger price: the order goes when the ${name} reaches it.` };
  if (trigger.kind === 'invalid')
    return { ok: false, error: `Trigger price "${trigger.text}" is not a number: ${NOT_A_NUMBER}.` };
  if (trigger.kind === 'negative' || !(trigger.n > 0)) return { ok: false, error: 'Enter a trigger price above 0.' };
  if (watched === undefined || !(watched > 0))
    return { ok: false, error: `No ${name} yet to set the trigger against: try again in a moment.` };
  const direction = triggerDirection(trigger.n, watched);
  if (direction === null)
    return { ok: false, error: `The trigger is at the ${name} now: set it above or below, where it is to fire.` };
  return { ok: true, price: trigger.value, direction };
}

type StopOutcome = { ok: true; request: ConditionalOrderRequest } | { ok: false; error: string };

/**
 * The conditional order the form sends: `order` (order-model.ts, a market order when no limit
 * price was typed) with its trigger (stopTrigger), or the form's own reason to send nothing.
 */
export function stopRequest(
  order: OrderRequest,
  trigger: DecimalInput,
  working: WorkingType,
  watched: number | undefined,
  protect = false,
): StopOutcome {
  const t = stopTrigger(trigger, working, watched);
  if (!t.ok) return t;
  const request: ConditionalOrderRequest = {
    ...order,
    trigger_price: t.price,
    trigger_direction: t.direction,
    working_type: working,
    ...(protect ? { price_protect: true } : {}),
  };
  // no leverage or margin mode: the stop takes the pair's setting when it fires (as Binance's
  // do), not the one shown when it was placed
  delete request.leverage;
  delete request.margin_mode;
  // a Close stop only ever reduces: when it fires, the position may be smaller than it is now
  if (order.position_action === PositionAction.CLOSE) request.reduce_only = true;
  return { ok: true, request };
}
