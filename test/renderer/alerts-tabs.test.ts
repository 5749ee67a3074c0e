// Two tabs on one address (src-renderer/src/features/alerts/alerts-feed.ts): an alert one tab fires
// (maybe the one in the background) is toasted in the other too when it takes the list from its
// storage event, once a tab, and never again on a reload; the desktop notification is the firing
// tab's alone (toasts/notice-prefs.ts noticeOf). The storage events are handed over by hand here, as
// the browser hands them to the tab that did not write.
import { describe, expect, it } from 'vitest';
import { watchAlerts } from '../../src-renderer/src/features/alerts/alerts-feed.ts';
import { ALERTS_KEY, createAlertsStore } from '../../src-renderer/src/features/alerts/alerts-store.ts';
import { createSymbolsStore } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import { createTickerStore } from '../../src-renderer/src/features/topbar/ticker-store.ts';
import { noticeOf } from '../../src-renderer/src/features/toasts/notice-prefs.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';

type Change = { key: string | null; newValue: string | null };

/** One localStorage shared by the tabs of a browser. */
function browserStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

/**
 * The browser's lock manager as alert-claim.ts uses it (navigator.locks, one for the tabs of an
 * origin): an alert's claim is granted to the first tab that asks, never to another after it.
 */
function lockManager() {
  const held = new Set<string>();
  return async (id: string): Promise<boolean> => (held.has(id) ? false : (held.add(id), true));
}

/** A tab: its own stores and feed on the shared storage; `hear` is its storage event. */
function tab(storage: ReturnType<typeof browserStorage>, claim?: (id: string) => Promise<boolean>) {
  const listeners = new Set<(e: Change) => void>();
  const win = {
    addEventListener: (_t: 'storage', f: (e: Change) => void) => void listeners.add(f),
    removeEventListener: (_t: 'storage', f: (e: Change) => void) => void listeners.delete(f),
  };
  const alerts = createAlertsStore(storage, () => 1);
  const tickers = createTickerStore();
  const toasts = createToastsStore();
  const stop = watchAlerts({
    alerts,
    tickers,
    symbols: createSymbolsStore({} as never),
    toasts,
    now: () => 2,
    win,
    ...(claim === undefined ? {} : { claim }),
  });
  const hear = (): void => {
    for (const f of listeners) f({ key: ALERTS_KEY, newValue: storage.getItem(ALERTS_KEY) });
  };
  const alertToasts = () => toasts.getState().toasts.filter((t) => t.kind === 'alert');
  return { alerts, tickers, toasts, stop, hear, alertToasts };
}

const PREFS = { alert: true, fill: true, margin: true, liquidation: true };

describe('price alerts in two tabs', () => {
  it('toasts an alert the other tab fired in this one too, once, with no second desktop notification', () => {
    const storage = browserStorage();
    const front = tab(storage);
    const back = tab(storage);
    try {
      expect(front.alerts.getState().actions.add('BTCUSDT', '96000.0', 95000).ok).toBe(true);
      back.hear();
      // the tab in the background sees the price first and fires it
      back.tickers.getState().actions.applyLast('BTCUSDT', 96000.5);
      expect(back.alertToasts()).toHaveLength(1);
      expect(noticeOf(back.alertToasts()[0], PREFS)).not.toBeNull();

      // the tab in front takes the list: its toast too, in the same words, with no notification
      front.hear();
      const shown = front.alertToasts();
      expect(shown.map((t) => [t.title, t.body])).toEqual([['Price alert: BTCUSDT ≥ 96,000.0', 'Last price 96,000.5']]);
      expect(noticeOf(shown[0], PREFS)).toBeNull();
      expect(front.alerts.getState().alerts[0].fired).toEqual({ at: 2, last: 96000.5 });

      // the same list again (another write of the other tab): no second toast
      front.hear();
      expect(front.alertToasts()).toHaveLength(1);
      expect(front.alertToasts()[0].rev).toBe(0);

      // a reload of either tab: the fired alert is listed, not toasted again
      const reloaded = tab(storage);
      reloaded.hear();
      expect(reloaded.alertToasts()).toHaveLength(0);
      reloaded.stop();
    } finally {
      front.stop();
      back.stop();
    }
  });

  // Both tabs saw the level before either's storage write reached the other: both fired it, both
  // toasted it as their own, and each gave a desktop notification, two for one alert.
  it('gives one desktop notification when both tabs see the level before either hears the other', async () => {
    const storage = browserStorage();
    const claim = lockManager();
    const front = tab(storage, claim);
    const back = tab(storage, claim);
    try {
      expect(front.alerts.getState().actions.add('BTCUSDT', '96000.0', 95000).ok).toBe(true);
      back.hear();
      back.tickers.getState().actions.applyLast('BTCUSDT', 96000.5);
      front.tickers.getState().actions.applyLast('BTCUSDT', 96000.2);
      await new Promise((r) => setTimeout(r, 0));
      // each tab toasts it once; one of them, the first to claim it, gives the notification
      expect(back.alertToasts()).toHaveLength(1);
      expect(front.alertToasts()).toHaveLength(1);
      const notices = [...back.alertToasts(), ...front.alertToasts()].filter((t) => noticeOf(t, PREFS) !== null);
      expect(notices.map((t) => t.body)).toEqual(['Last price 96,000.5']);
      // the storage events then: no toast again, the alert fired in both
      front.hear();
      back.hear();
      expect(back.alertToasts()).toHaveLength(1);
      expect(front.alertToasts()).toHaveLength(1);
      expect(front.alerts.getState().alerts[0].fired).toBeDefined();
      expect(back.alerts.getState().alerts[0].fired).toBeDefined();
    } finally {
      front.stop();
      back.stop();
    }
  });
});
