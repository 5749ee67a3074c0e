// The user stream's ORDER_TRADE_UPDATE for a close the venue makes with no order of its own: a
// liquidated position's rest closed at its bankruptcy price (close type 6) and a counterparty's
// position auto-deleveraged (5). Binance shows both as liquidation executions: execution type
// CALCULATED, status FILLED, order type LIQUIDATION, client order id "autoclose-<id>" of the
// liquidation order whose rest it closed for the liquidated account and "adl_autoclose" for the
// deleveraged one (its documentation: "special client order id"). Such a close has no order (i 0);
// t is its trade id, l / L / rp its fill.
import { CloseType, Side } from '../../../../src-shared/enums.ts';
import type { OrderRecord, TradeRecord } from '../../../../src-shared/types.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { averagePrice, type Mode } from '../translate/orders.ts';
import { openNotionals, orderTradeUpdate } from './order-update.ts';

/** A fill the event names: one of a venue close (close type 5 or 6). */
export interface VenueCloseFill {
  fill: TradeRecord;
  closeType: number;
  /** A bankruptcy close's: the liquidation close order it belongs to (AccountEvent.liquidationOrderId). */
  liquidationOrderId?: number;
}

/** Whether a fill's close type is one the stream shows as a liquidation execution. */
export function isVenueClose(closeType: number | undefined): closeType is number {
  return closeType === CloseType.ADL || closeType === CloseType.BANKRUPTCY;
}

/** The ORDER_TRADE_UPDATE of one venue close fill; `open` the account's open orders on the pair (b, a). */
export function venueCloseEvent(
  pair: PairView,
  c: VenueCloseFill,
  mode: Mode,
  open: OrderRecord[],
  now: number,
): { e: string } & Record<string, unknown> {
  const f = c.fill;
  return orderTradeUpdate(now, mode, {
    s: f.symbol,
    c: c.closeType === CloseType.ADL ? 'adl_autoclose' : `autoclose-${c.liquidationOrderId}`,
    S: f.side === Side.BUY ? 'BUY' : 'SELL',
    o: 'LIQUIDATION',
    f: 'IOC',
    q: f.qty,
    p: f.price,
    ap: averagePrice(pair.math, f.quote_qty, f.qty),
    x: 'CALCULATED',
    X: 'FILLED',
    i: 0,
    l: f.qty,
    z: f.qty,
    L: f.price,
    N: 'USDT',
    n: f.fee,
    t: Number(f.id),
    ...openNotionals(open, mode, f.position_side),
    m: false,
    R: mode === 'one_way',
    ot: 'LIQUIDATION',
    positionSide: f.position_side,
    rp: f.realized_pnl,
  });
}
