// Checks the waiting price alerts against every last price the screen receives (the ticker store:
// the current pair's trades as they come, every pair's price record every 2 s) and tells of each
// one that fires: a toast that stays a minute, which is also a desktop notification while the
// window is away (toasts/toast-notices.ts). An alert on another pair can so fire up to 2 s late, and a
// spike between two of those reads that came back is not seen: the last price is sampled, as on a
// venue's own alert service. An alert already reached when the screen opens fires at once.
// Another tab of the same venue changing the list (its storage event) is taken here, so the tabs
// keep one list.
import type { StoreApi } from 'zustand/vanilla';
import { fmt } from '../../lib/format.ts';
import type { SymbolsState } from '../symbols/symbols-store.ts';
import type { TickerState } from '../topbar/ticker-store.ts';
import type { ToastsState } from '../toasts/toasts-store.ts';
import { condition } from './alert-rules.ts';
import { ALERTS_KEY, type AlertsState } from './alerts-store.ts';

/** The decimals of a decimal text ("96000.10" -> 2). */
const decimalsOf = (text: string): number => text.split('.')[1]?.length ?? 0;

export function watchAlerts(deps: {
  alerts: StoreApi<AlertsState>;
  tickers: StoreApi<TickerState>;
  symbols: StoreApi<SymbolsState>;
  toasts: StoreApi<ToastsState>;
  /** Market time now, ms: when an alert fired. */
  now: () => number;
}): () => void {
  const { alerts, tickers, symbols, toasts, now } = deps;
  const check = (): void => {
    const waiting = new Set(alerts.getState().alerts.flatMap((a) => (a.fired === undefined ? [a.symbol] : [])));
    const all = tickers.getState().tickers;
    for (const symbol of waiting) {
      const last = all[symbol]?.last ?? NaN;
      const fired = alerts.getState().actions.check(symbol, last, now());
      const pd = symbols.getState().bySymbol[symbol]?.priceDecimals;
      for (const a of fired)
        toasts.getState().actions.push({
          kind: 'alert',
          key: `alert:${a.id}`,
          title: `Price alert: ${symbol} ${condition(a)} ${fmt(a.price, decimalsOf(a.price))}`,
          body: `Last price ${fmt(last, pd ?? decimalsOf(a.price))}`,
        });
    }
  };
  check();
  const onStorage = (e: StorageEvent): void => {
    if (e.key !== ALERTS_KEY && e.key !== null) return;
    // (a null key: the other tab cleared the whole storage)
    alerts.getState().actions.stored(e.key === null ? null : e.newValue);
    check();
  };
  window.addEventListener('storage', onStorage);
  const off = tickers.subscribe((t, prev) => {
    if (t.tickers !== prev.tickers) check();
  });
  return () => {
    off();
    window.removeEventListener('storage', onStorage);
  };
}
