// The toast of a position's take-profit / stop-loss that fired: the venue's close (one reduce-only
// market order, client_order_id tp-<id> or sl-<id>, docs/api.md) as it ended, with the price that
// moved. Both triggers are spent either way, so a close the book could not fill whole says what
// stays open unprotected: "0.006 BTC of the long stays open with no take profit or stop loss".
// Pure: no clock, no DOM.
import { OrderStatus, Side, TriggerDirection } from '../../../../src-shared/enums.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { triggerClause } from '../order-entry/stop-order.ts';
import { firedPositionKey, type TpSl } from './positions-store.ts';

interface TpSlToast {
  kind: 'info' | 'error';
  title: string;
  body: string;
}

/**
 * What a take-profit / stop-loss close's order event says once that order has ended (filled, or
 * expired with what the book gave it); null for any other order, or one still open. `triggers`
 * are the position's as they stood before this close spent them (the price that fired, when known).
 */
function tpslToast(
  o: OrderRecord,
  triggers: TpSl | undefined,
  d: { pd: number; qd: number; base: string },
): TpSlToast | null {
  const m = /^(tp|sl)-\d+$/.exec(o.client_order_id);
  if (m === null) return null;
  if (o.status !== OrderStatus.FILLED && o.status !== OrderStatus.EXPIRED && o.status !== OrderStatus.CANCELED)
    return null;
  const takeProfit = m[1] === 'tp';
  // a close sells a long and buys back a short, in both position modes
  const long = o.side === Side.SELL;
  const position = long ? 'long' : 'short';
  const name = takeProfit ? 'Take profit' : 'Stop loss';
  const trigger = triggers === undefined ? null : takeProfit ? triggers.takeProfit : triggers.stopLoss;
  // a long's take-profit fires as the price rises to it, its stop-loss as it falls; a short's the other way
  const rises = takeProfit === long;
  const when =
    trigger === null || triggers === undefined
      ? ''
      : triggerClause(
          (takeProfit ? triggers.tpWorkingType : triggers.slWorkingType) as Parameters<typeof triggerClause>[0],
          rises ? TriggerDirection.RISES_TO : TriggerDirection.FALLS_TO,
          trigger,
          d.pd,
        )
          .replace(/^When the /, 'The ')
          .replace(/ (rises|falls) to /, (_m, v: string) => ` ${v === 'rises' ? 'rose' : 'fell'} to `) + ': ';
  const verb = o.side === Side.SELL ? 'sold' : 'bought';
  const filled = Number(o.filled_qty);
  const qty = Number(o.qty);
  const at = filled > 0 ? ` at ${fmt(o.avg_price, d.pd)}` : '';
  const title = `${name} triggered: ${o.symbol} ${position}`;
  if (filled >= qty)
    return {
      kind: 'info',
      title,
      body: `${when}order #${o.id} ${verb} ${fmt(qty, d.qd)} ${d.base}${at}, closing the ${position}.`,
    };
  const rest = fmt(qty - filled, d.qd);
  return {
    kind: 'error',
    title: `${title}, ${filled > 0 ? 'closed in part' : 'nothing closed'}`,
    body:
      (filled > 0
        ? `${when}order #${o.id} ${verb} ${fmt(filled, d.qd)} of ${fmt(qty, d.qd)} ${d.base}${at}; the book had no more within the price band. `
        : `${when}order #${o.id} filled nothing: the book had nothing within the price band. `) +
      `${rest} ${d.base} of the ${position} stays open with no take profit or stop loss: set them again.`,
  };
}

/**
 * The user feed's take: an order event read against the positions' triggers as they stand before
 * that event spends them (positions-store applyOrder), so the toast names the price that fired.
 */
export function tpslFiredToast(
  o: OrderRecord,
  tpsl: Readonly<Record<string, TpSl>>,
  d: { pd: number; qd: number; base: string },
): TpSlToast | null {
  const k = firedPositionKey(o);
  return k === null ? null : tpslToast(o, tpsl[k], d);
}
