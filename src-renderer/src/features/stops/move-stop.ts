// A waiting stop's line dragged to a new trigger on the chart (chart/line-drag.ts): the venue's
// modify in place (PUT /fapi/v1/conditional/order) with that trigger alone, so the stop keeps its
// direction, the price it watches, its order and amount. The stop is read live from the store: one
// that fired or was cancelled while its line was held is not sent, and says so. What the venue
// made of it, or why it refused (3026: dropped where the watched price already is, past it in the
// stop's direction), is a toast; the returned promise rejects on a refusal, so the line goes back.
import type { Services } from '../../lib/services.ts';
import { stopModifiable, stopModified } from './stop-amend.ts';
import { refusalText } from '../../lib/frame.ts';

export async function moveStop(s: Services, stopId: string, trigger: string): Promise<void> {
  const toasts = s.toasts.getState().actions;
  const c = s.stopOrders.getState().stops.find((x) => x.id === stopId);
  if (c === undefined || !stopModifiable(c)) {
    toasts.push({
      kind: 'error',
      title: `Stop #${stopId} not moved`,
      body: c === undefined ? 'It fired or was cancelled meanwhile.' : 'A trailing stop’s trigger follows the price.',
    });
    throw new Error('stop not movable');
  }
  const entry = s.symbols.getState().bySymbol[c.symbol];
  const d = { pd: entry?.priceDecimals ?? 2, qd: entry?.qtyDecimals ?? 3, base: entry?.general.base_asset ?? '' };
  try {
    const r = await s.stopOrders.getState().actions.amend(c, { trigger_price: trigger });
    toasts.push({ kind: 'success', ...stopModified(r, d) });
  } catch (e) {
    toasts.push({ kind: 'error', title: `Move of stop ${c.symbol} #${c.id} refused`, body: refusalText(e) });
    throw e;
  }
}
