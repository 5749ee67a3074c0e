// A liquidation's close order is named as Binance names it, "autoclose-" and the order id: every
// surface, the Binance user stream included, tells it apart by that name, and no client may
// choose one (order-checks.ts, checkClientOrderId).
const LIQUIDATION_CLIENT_ID = /^autoclose-\d+$/;

/** The client id of the liquidation close order `orderId`. */
export function liquidationClientId(orderId: number): string {
  return `autoclose-${orderId}`;
}

/** Whether a client id is a liquidation close order's. */
export function isLiquidationClientId(cid: string): boolean {
  return cid.startsWith('autoclose-') && LIQUIDATION_CLIENT_ID.test(cid);
}
