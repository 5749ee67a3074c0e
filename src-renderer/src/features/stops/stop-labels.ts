// A conditional order (stop) in the screen's words: its trigger ("≥ 97,000.0", watching the mark
// or the last price), what it places, and the toast of its firing: the order it placed (its size
// as that order's record says, which a reduce-only stop larger than the position is trimmed to),
// or the venue's refusal of that order then (its code and message). Pure: no clock, no DOM.
import { ConditionalStatus, TriggerDirection, WorkingType } from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord, OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { stopAction, triggerClause } from '../order-entry/stop-order.ts';
import { directionName } from '../orders/order-labels.ts';

/** "≥ 97,000.0" (fires as the price rises to it) or "≤ 95,000.0". */
export function triggerText(
  c: Pick<ConditionalOrderRecord, 'trigger_direction' | 'trigger_price'>,
  pd: number,
): string {
  return `${c.trigger_direction === TriggerDirection.RISES_TO ? '≥' : '≤'} ${fmt(c.trigger_price, pd)}`;
}

/** "Mark" or "Last": the price the trigger watches. */
export const watchedShort = (w: WorkingType): string => (w === WorkingType.LAST_PRICE ? 'Last' : 'Mark');

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
  oneWay = false,
  placed?: Pick<OrderRecord, 'qty'>,
): StopToast | null {
  const what = `${c.symbol} ${directionName(c, oneWay)}`;
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
    toast(c: ConditionalOrderRecord, d: PairDisplay, oneWay = false): StopToast | null {
      return stopToast(c, d, oneWay, c.order_id === null ? undefined : orders.get(c.order_id));
    },
  };
}
