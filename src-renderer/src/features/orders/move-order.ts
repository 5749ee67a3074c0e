// An open limit order dragged to a new price on the chart (chart/line-drag.ts): Binance's modify
// (PUT /fapi/v1/order) with the new price and the order's own total, as the Modify dialog sends
// it. The order is read live from the store: one that filled or was cancelled while its line was
// held is not sent, and says so. What the venue made of it (modified, or filled at once when the
// price crossed) or why it refused is a toast; the returned promise rejects on a refusal, so the
// line goes back.
import type { Services } from '../../lib/services.ts';
import { refusalText } from '../../lib/frame.ts';
import { amendedTitle } from './amend-input.ts';

export async function moveOrder(s: Services, orderId: string, price: string): Promise<void> {
  const toasts = s.toasts.getState().actions;
  const o = s.orders.getState().orders.find((x) => x.id === orderId);
  if (o === undefined) {
    toasts.push({
      kind: 'error',
      title: `Order #${orderId} is no longer open`,
      body: 'It filled or was cancelled meanwhile.',
    });
    throw new Error('order gone');
  }
  const entry = s.symbols.getState().bySymbol[o.symbol];
  const pd = entry?.priceDecimals ?? 2;
  const qd = entry?.qtyDecimals ?? 3;
  try {
    const r = await s.orders.getState().actions.amend(o, price, o.qty);
    toasts.push({ kind: 'success', title: amendedTitle(r, pd, qd, entry?.general.base_asset ?? '') });
  } catch (e) {
    toasts.push({ kind: 'error', title: `Move of ${o.symbol} #${o.id} refused`, body: refusalText(e) });
    throw e;
  }
}
