// Alerts set and moved from the chart (the bell at the crosshair, an alert's line dragged): the
// store's answer as a toast, since the chart has no field to show it beside. A refused move
// rejects, so the line goes back (chart/line-drag.ts).
import type { Services } from '../../lib/services.ts';
import { fmt } from '../../lib/format.ts';
import { condition } from './alert-rules.ts';
import { askNotifications } from '../toasts/toast-notices.ts';

const lastOf = (s: Services, symbol: string): number => s.tickers.getState().tickers[symbol]?.last ?? NaN;
/** A level as the screen writes prices: grouped, in the decimals it has ("96064.9" -> "96,064.9"). */
const shown = (price: string): string => fmt(price, price.split('.')[1]?.length ?? 0);

/** A new alert on `symbol` at `price` (the chart's tick-snapped price). */
export function alertAt(s: Services, symbol: string, price: string): void {
  const toasts = s.toasts.getState().actions;
  const r = s.alerts.getState().actions.add(symbol, price, lastOf(s, symbol));
  if (!r.ok) {
    toasts.push({ kind: 'error', title: 'Alert not set', body: r.error });
    return;
  }
  void askNotifications();
  toasts.push({
    kind: 'success',
    key: 'alert-set',
    title: `Alert set: ${symbol} ${condition(r.alert)} ${shown(price)}`,
    body: 'In the Alerts tab; drag its line to move it.',
  });
}

/** The alert `id` dragged to `price`; rejects (the line goes back) when refused. */
export async function moveAlertTo(s: Services, id: string, price: string): Promise<void> {
  const a = s.alerts.getState().alerts.find((x) => x.id === id);
  const r = s.alerts.getState().actions.move(id, price, a === undefined ? NaN : lastOf(s, a.symbol));
  if (!r.ok) {
    s.toasts.getState().actions.push({ kind: 'error', title: 'Alert not moved', body: r.error });
    throw new Error(r.error);
  }
  s.toasts.getState().actions.push({
    kind: 'success',
    key: 'alert-set',
    title: `Alert moved: ${r.alert.symbol} ${condition(r.alert)} ${shown(price)}`,
  });
}
