// Checks the waiting price alerts against every last price the screen receives (the ticker store:
// the current pair's trades as they come, each update's every trade, so a level a trade reached
// fires, at that trade's price, though the update's last trade came back; every pair's price record every 2 s) and tells of each
// one that fires: a toast that stays a minute, which is also a desktop notification while the
// window is away (toasts/toast-notices.ts). An alert on another pair can so fire up to 2 s late, and a
// spike between two of those reads that came back is not seen: the last price is sampled, as on a
// venue's own alert service. An alert already reached when the screen opens fires at once.
// Another tab of the same venue changing the list (its storage event) is taken here, so the tabs
// keep one list. Each tab checks the prices itself, so the first to see a level fires its alert,
// maybe a tab in the background: an alert the list taken from another tab newly marks fired is
// toasted here too, so the trader sees it in the tab they look at (once a tab: an alert already
// fired here, or at load, is not toasted again). Its desktop notification is the firing tab's
// alone: this tab's toast gives none. Two tabs that see the level before either hears the other
// both fire it, each toasting it once, and the one the browser's lock manager grants the alert's
// claim to (alert-claim.ts) alone gives the notification.
import type { StorageChange, StorageEvents } from '../../lib/browser-storage.ts';
import type { StoreApi } from 'zustand/vanilla';
import { fmt } from '../../lib/format.ts';
import type { PriceAlert } from './alert-rules.ts';
import type { SymbolsState } from '../symbols/symbols-store.ts';
import type { TickerState } from '../topbar/ticker-store.ts';
import type { ToastsState } from '../toasts/toasts-store.ts';
import { condition } from './alert-rules.ts';
import type { AlertClaim } from './alert-claim.ts';
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
  /** Where other tabs' writes are heard: the page's window. */
  win: StorageEvents;
  /**
   * The tabs' claim of an alert before it fires (alert-claim.ts): the tab granted it gives the
   * desktop notification, another fires it with a toast only. None: this tab fires at once.
   */
  claim?: AlertClaim;
}): () => void {
  const { alerts, tickers, symbols, toasts, now, win, claim } = deps;
  /** `notify` false: another tab fired it and gave its desktop notification. */
  const toast = (a: PriceAlert, last: number, notify: boolean): void => {
    const pd = symbols.getState().bySymbol[a.symbol]?.priceDecimals;
    toasts.getState().actions.push({
      kind: 'alert',
      key: `alert:${a.id}`,
      title: `Price alert: ${a.symbol} ${condition(a)} ${fmt(a.price, decimalsOf(a.price))}`,
      body: `Last price ${fmt(last, pd ?? decimalsOf(a.price))}`,
      ...(notify ? {} : { notify: false }),
    });
  };
  /** Alerts whose claim is asked and not answered yet: not asked again meanwhile. */
  const claiming = new Set<string>();
  let stopped = false;
  /** Fires the alerts a price reached (from the store's `reaching`): at once, or once claimed. */
  const fire = (hits: PriceAlert[]): void => {
    const marked = (h: PriceAlert, notify: boolean): void => {
      for (const a of alerts.getState().actions.fire([h])) toast(a, a.fired!.last, notify);
    };
    for (const h of hits) {
      if (claim === undefined) {
        marked(h, true);
        continue;
      }
      if (claiming.has(h.id)) continue;
      claiming.add(h.id);
      // (fired meanwhile by the list of the tab granted it: its storage event toasted it here)
      const answered = (won: boolean): void => {
        claiming.delete(h.id);
        if (!stopped) marked(h, won);
      };
      claim(h.id).then(answered, () => answered(true));
    }
  };
  const check = (): void => {
    const waiting = new Set(alerts.getState().alerts.flatMap((a) => (a.fired === undefined ? [a.symbol] : [])));
    const all = tickers.getState().tickers;
    for (const symbol of waiting) {
      const last = all[symbol]?.last ?? NaN;
      // a price from before an alert was set (a poll answer that took its time) does not fire it
      const from = { lastAt: all[symbol]?.lastAt ?? 0 };
      fire(alerts.getState().actions.reaching(symbol, last, now(), from));
    }
  };
  check();
  const onStorage = (e: StorageChange): void => {
    if (e.key !== ALERTS_KEY && e.key !== null) return;
    const waiting = new Set(alerts.getState().alerts.flatMap((a) => (a.fired === undefined ? [a.id] : [])));
    // (a null key: the other tab cleared the whole storage)
    alerts.getState().actions.stored(e.key === null ? null : e.newValue);
    // fired by the other tab while waiting here: the trader may be looking at this one
    for (const a of alerts.getState().alerts)
      if (a.fired !== undefined && waiting.has(a.id)) toast(a, a.fired.last, false);
    check();
  };
  win.addEventListener('storage', onStorage);
  const off = tickers.subscribe((t, prev) => {
    // the pair on screen's trades of this update first: a level one of them reached fires at the
    // price of the first that reached it, though the last came back
    const r = t.traded;
    if (r !== null && r !== prev.traded) fire(alerts.getState().actions.reaching(r.symbol, NaN, now(), r));
    if (t.tickers !== prev.tickers) check();
  });
  return () => {
    stopped = true;
    off();
    win.removeEventListener('storage', onStorage);
  };
}
