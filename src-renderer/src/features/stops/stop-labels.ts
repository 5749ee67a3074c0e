// A conditional order (stop) in the screen's words: its trigger ("≥ 97,000.0", watching the mark
// or the last price), what it places, and the toast of its firing: the order it placed (its size
// as that order's record says, which a reduce-only stop larger than the position is trimmed to),
// or the venue's refusal of that order then (its code and message). Pure: no clock, no DOM.
import {
  ConditionalStatus,
  OrderType,
  Side,
  TriggerDirection,
  WorkingType,
  type PositionMode,
} from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord, OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { stopAction, triggerClause } from '../order-entry/stop-order.ts';
import { orderDirection, TYPE_NAMES } from '../orders/order-labels.ts';

/** "≥ 97,000.0" (fires as the price rises to it) or "≤ 95,000.0". */
export function triggerText(
  c: Pick<ConditionalOrderRecord, 'trigger_direction' | 'trigger_price'>,
  pd: number,
): string {
  return `${c.trigger_direction === TriggerDirection.RISES_TO ? '≥' : '≤'} ${fmt(c.trigger_price, pd)}`;
}

/** "Mark" or "Last": the price the trigger watches. */
export const watchedShort = (w: WorkingType): string => (w === WorkingType.LAST_PRICE ? 'Last' : 'Mark');

/** What a stop places when it fires: "Market", or "Limit 95,000.0". */
export const stopPlaces = (c: Pick<ConditionalOrderRecord, 'type' | 'price'>, pd: number): string =>
  c.type === OrderType.MARKET ? TYPE_NAMES[c.type] : `${TYPE_NAMES[c.type]} ${fmt(c.price, pd)}`;

/** A stop's amount: its quantity, or "Close position" for one that closes all of it. */
export const stopSize = (c: Pick<ConditionalOrderRecord, 'close_position' | 'qty'>, qd: number): string =>
  c.close_position || c.qty === null ? 'Close position' : fmt(c.qty, qd);

/** A stop's status in the Stop history's words (and its filter's). */
export const STOP_STATUS_NAMES: Record<ConditionalStatus, string> = {
  [ConditionalStatus.NEW]: 'Waiting',
  [ConditionalStatus.TRIGGERED]: 'Fired',
  [ConditionalStatus.CANCELED]: 'Canceled',
  [ConditionalStatus.REJECTED]: 'Refused',
};

/**
 * How a stop ended, as the Stop history says it: "Fired", "Canceled", "Waiting", or for one whose
 * order the venue refused when it fired "Refused (3018)" with the venue's message (`reason`).
 */
export function stopOutcome(c: Pick<ConditionalOrderRecord, 'status' | 'reject_code' | 'reject_reason'>): {
  text: string;
  reason: string | null;
} {
  const name = STOP_STATUS_NAMES[c.status] ?? String(c.status);
  if (c.status !== ConditionalStatus.REJECTED) return { text: name, reason: null };
  return {
    text: c.reject_code !== null ? `${name} (${c.reject_code})` : name,
    reason: c.reject_reason ?? 'no reason given',
  };
}

/** The order a stop placed when it fired ("#100035"), or "—" (not fired, or its order refused). */
export const stopPlacedOrder = (c: Pick<ConditionalOrderRecord, 'order_id'>): string =>
  c.order_id !== null ? `#${c.order_id}` : '—';

type Activation = Pick<ConditionalOrderRecord, 'side' | 'callback_rate' | 'peak_price' | 'activation_price'>;

/**
 * Whether a trailing stop still waits for its activation price (no best price yet): its
 * trigger_price is only where it would start trailing from, and it cannot fire before then.
 */
export const awaitsActivation = (c: Activation): boolean =>
  c.callback_rate !== null && c.peak_price === null && c.activation_price !== null;

/**
 * "activates at ≥ 97,000.0" for a trailing stop waiting for its activation price (a sell's as the
 * price rises to it, a buy's as it falls to it), else ''; `pd` the pair's price decimals (without
 * it, the record's own).
 */
export function activationText(c: Activation, pd?: number): string {
  if (!awaitsActivation(c)) return '';
  const at = c.activation_price as string;
  return `activates at ${c.side === Side.SELL ? '≥' : '≤'} ${fmt(at, pd ?? (at.split('.')[1] ?? '').length)}`;
}

/**
 * What a trigger watches: "Mark", "Last", a trailing stop's with its rate ("Mark · trailing 1.0%")
 * and, while it waits for its activation price, that price ("Last · trailing 2.0% · activates at ≥
 * 97,000.0": its trigger is not armed yet, though the price may already be past it), a
 * price-protected one's with "protected" ("Mark · protected"); `withActivation` false leaves the
 * activation to the caller (the Stops tab puts it on a line of its own).
 */
export function watchedText(
  c: Pick<ConditionalOrderRecord, 'working_type' | 'callback_rate' | 'price_protect'> & Partial<Activation>,
  pd?: number,
  withActivation = true,
): string {
  const activation = c.side === undefined || !withActivation ? '' : activationText(c as Activation, pd);
  return `${watchedShort(c.working_type)}${c.callback_rate !== null ? ` · trailing ${c.callback_rate}%` : ''}${activation !== '' ? ` · ${activation}` : ''}${c.price_protect ? ' · protected' : ''}`;
}

/** The pair's display: price and quantity decimals, base asset. */
export interface PairDisplay {
  pd: number;
  qd: number;
  base: string;
}

interface StopToast {
  kind: 'info' | 'error';
  title: string;
  body: string;
}

/**
 * What a `conditional` event says when it fired: the order it placed (status 2; `placed`, that
 * order's record, gives its size: a reduce-only stop larger than the position placed it trimmed)
 * or the venue's refusal of it (status 4); null for a stop placed or cancelled (the trader did that).
 */
export function stopToast(
  c: ConditionalOrderRecord,
  d: PairDisplay,
  mode: PositionMode | undefined,
  placed?: Pick<OrderRecord, 'qty'>,
): StopToast | null {
  const what = `${c.symbol} ${orderDirection(c, mode)}`;
  const when = triggerClause(c.working_type, c.trigger_direction, c.trigger_price, d.pd)
    .replace(/^When the /, 'The ')
    .replace(/ (rises|falls) to /, (_m, v: string) => ` ${v === 'rises' ? 'rose' : 'fell'} to `);
  const does = stopAction(c, d.pd, d.qd, d.base);
  if (c.status === ConditionalStatus.TRIGGERED) {
    const sent =
      placed === undefined || c.close_position ? does : stopAction({ ...c, qty: placed.qty }, d.pd, d.qd, d.base);
    return {
      kind: 'info',
      title: `Stop triggered: ${what}`,
      body: `${when}: order #${c.order_id ?? '?'} placed, ${sent}.`,
    };
  }
  if (c.status === ConditionalStatus.REJECTED)
    return {
      kind: 'error',
      title: `Stop fired, order refused${c.reject_code !== null ? ` (${c.reject_code})` : ''}: ${what}`,
      body: `${when}; the venue refused to ${does}: ${c.reject_reason ?? 'no reason given'}`,
    };
  return null;
}

/** How many of the latest order records the user feed keeps for the stops that placed them. */
const KEPT_ORDERS = 100;

/**
 * The toasts of the user channel's stops: the `order` events are kept (the latest ones) so a
 * fired stop's toast says the order it placed as that order's record has it (the venue announces
 * the order before the stop that placed it); a stop whose order was not seen (a feed that
 * reconnected meanwhile) is said with its own size.
 */
export function createStopToasts() {
  const orders = new Map<string, Pick<OrderRecord, 'qty'>>();
  return {
    order(o: OrderRecord): void {
      orders.delete(o.id);
      orders.set(o.id, { qty: o.qty });
      if (orders.size > KEPT_ORDERS) orders.delete(orders.keys().next().value as string);
    },
    toast(c: ConditionalOrderRecord, d: PairDisplay, mode: PositionMode | undefined): StopToast | null {
      return stopToast(c, d, mode, c.order_id === null ? undefined : orders.get(c.order_id));
    },
  };
}
