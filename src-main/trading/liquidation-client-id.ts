// A liquidation's close order is named as Binance names it, "autoclose-" and the order id, and an
// auto-deleveraged counterparty's close order "adl_autoclose" (Binance's special client id): every
// surface, the Binance user stream and forceOrders included, tells them apart by that name (across
// a restart too: it is stored with the order), and no client may choose one (order-checks.ts,
// checkClientOrderId). A paper reset's close order is named the same way, "reset-" and the order
// id, and is reserved alike (it is no forced close: Binance's surfaces show it as a MARKET order).
// A position's take-profit / stop-loss close (tpsl.ts) is "tp-" / "sl-" and the order id, reserved
// too: the trading screen tells a fired trigger by that name (its toast, the triggers it spends), so a
// client's own "sl-1" close must not pass for one.
const LIQUIDATION_CLIENT_ID = /^autoclose-\d+$/;

/** The client id of the liquidation close order `orderId`. */
export function liquidationClientId(orderId: number): string {
  return `autoclose-${orderId}`;
}

/** Whether a client id is a liquidation close order's. */
function isLiquidationClientId(cid: string): boolean {
  return cid.startsWith('autoclose-') && LIQUIDATION_CLIENT_ID.test(cid);
}

/** The client id of every ADL close order (Binance's own, with no suffix). */
export const ADL_CLIENT_ID = 'adl_autoclose';

/** Whether a client id is a close order the venue forced: a liquidation's or an ADL's. */
export function isForcedCloseClientId(cid: string): boolean {
  return cid === ADL_CLIENT_ID || isLiquidationClientId(cid);
}

const RESET_CLIENT_ID = /^reset-\d+$/;

/** The client id of the paper reset's close order `orderId` (paper-reset.ts). */
export function resetClientId(orderId: number): string {
  return `reset-${orderId}`;
}

const TPSL_CLIENT_ID = /^(tp|sl)-\d+$/;

/** The client id of a position's take-profit (`tp`) or stop-loss (`sl`) close order `orderId` (tpsl.ts). */
export function tpslClientId(kind: 'tp' | 'sl', orderId: number): string {
  return `${kind}-${orderId}`;
}

/** Whether a client id is a position's take-profit / stop-loss close order's. */
export function isTpSlClientId(cid: string): boolean {
  return TPSL_CLIENT_ID.test(cid);
}

/** Whether a client id has a form the venue gives its own close orders (a liquidation's, an ADL's, a reset's). */
export function isVenueCloseClientId(cid: string): boolean {
  return isForcedCloseClientId(cid) || RESET_CLIENT_ID.test(cid);
}
