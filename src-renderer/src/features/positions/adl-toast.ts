// The toast of an auto-deleveraging (ADL) of one of the account's positions: the venue closed it,
// in whole or in part, at the bankruptcy price of another trader's liquidated position that the
// insurance fund could not take over. The close is an order of the venue's own, client_order_id
// `adl_autoclose`, filled at once (docs/api.md, Liquidation, funding, insurance fund). Without this
// the screen said only "Bought 0.100 BTCUSDT @ 95,939.7 · Close short · taker", a close the trader
// never sent. Pure: no clock, no DOM.
import { OrderStatus, Side } from '../../../../src-shared/enums.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';

/** The client order id of every ADL close (Binance's name for it). */
const ADL_CLIENT_ORDER_ID = 'adl_autoclose';

interface AdlToast {
  kind: 'liquidation';
  title: string;
  body: string;
}

/** What an ADL close's order event says once it is filled; null for any other order. */
export function adlToast(o: OrderRecord, d: { pd: number; qd: number; base: string }): AdlToast | null {
  if (o.client_order_id !== ADL_CLIENT_ORDER_ID || o.status !== OrderStatus.FILLED) return null;
  // a close: a buy closes a short, a sell a long (in one-way mode too)
  const position = o.side === Side.BUY ? 'short' : 'long';
  const qty = fmt(Number(o.filled_qty), d.qd);
  const base = d.base ? ` ${d.base}` : '';
  return {
    kind: 'liquidation',
    title: `Auto-deleveraged: ${o.symbol} ${position} ${qty}`,
    body:
      `The venue closed ${qty}${base} of your ${position} at ${fmt(Number(o.price), d.pd)} (order #${o.id}, no fee): ` +
      `the bankruptcy price of a liquidated position on the other side that the insurance fund could not take over.`,
  };
}
