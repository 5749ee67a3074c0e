// The trader's price alerts (alert-rules.ts): set from the Alerts tab, the chart's bell at the
// crosshair or the `A` key, moved by dragging their line on the chart, checked by alerts-feed.ts
// against every last price the screen receives. They are the screen's, not the venue's: kept in
// this browser's storage for the venue's address (the desktop app's window keeps them across
// restarts, a replay venue on its own address has its own), and a fired alert stays in the list,
// marked, until removed.
import { createStore } from 'zustand/vanilla';
import { capped, moveAlert, reached, readAlerts, setAlert, type AlertSetting, type PriceAlert } from './alert-rules.ts';

const KEY = 'perpdesk.alerts';

/** Where the list is kept (localStorage in the screen; a map in the tests). */
type AlertStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface AlertsState {
  alerts: readonly PriceAlert[];
  /** The keyboard asked for the Alerts tab's price field: the view focuses it and says so (focused). */
  focusWanted: boolean;
  actions: {
    /** An alert on `symbol` at `price`, its side from `last` (alert-rules.ts setAlert). */
    add(symbol: string, price: string, last: number): AlertSetting;
    /** Moves a waiting alert to `price`, its side from `last` again. */
    move(id: string, price: string, last: number): AlertSetting;
    remove(id: string): void;
    /** Removes every fired alert. */
    clearFired(): void;
    /** The waiting alerts on `symbol` this last price reaches, marked fired (wall time `now`). */
    check(symbol: string, last: number, now: number): PriceAlert[];
    focusPrice(): void;
    focused(): void;
  };
}

function browserStorage(): AlertStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // storage disabled (a sandboxed frame throws on the getter)
    return null;
  }
}

export function createAlertsStore(storage: AlertStorage | null = browserStorage()) {
  let loaded: PriceAlert[] = [];
  try {
    loaded = readAlerts(storage?.getItem(KEY) ?? null);
  } catch {
    // storage that throws on read: no alerts remembered
  }
  let seq = 0;
  const nextId = (now: number): string => `${now.toString(36)}-${(seq++).toString(36)}`;
  const store = createStore<AlertsState>()((set, get) => {
    const put = (alerts: PriceAlert[]): void => set({ alerts: capped(alerts) });
    return {
      alerts: loaded,
      focusWanted: false,
      actions: {
        add(symbol, price, last) {
          const now = Date.now();
          const r = setAlert({ id: nextId(now), symbol, price, last, now });
          if (r.ok) put([...get().alerts, r.alert]);
          return r;
        },
        move(id, price, last) {
          const cur = get().alerts.find((a) => a.id === id);
          if (cur === undefined) return { ok: false, error: 'That alert is gone.' };
          if (cur.fired !== undefined) return { ok: false, error: 'That alert has fired.' };
          const r = moveAlert(cur, price, last);
          if (r.ok) put(get().alerts.map((a) => (a.id === id ? r.alert : a)));
          return r;
        },
        remove(id) {
          put(get().alerts.filter((a) => a.id !== id));
        },
        clearFired() {
          put(get().alerts.filter((a) => a.fired === undefined));
        },
        check(symbol, last, now) {
          const hit = get().alerts.filter((a) => a.symbol === symbol && reached(a, last));
          if (hit.length === 0) return [];
          const fired = new Map(hit.map((a) => [a.id, { ...a, fired: { at: now, last } }]));
          put(get().alerts.map((a) => fired.get(a.id) ?? a));
          return [...fired.values()];
        },
        focusPrice: () => set({ focusWanted: true }),
        focused: () => set({ focusWanted: false }),
      },
    };
  });
  store.subscribe((s, prev) => {
    if (s.alerts === prev.alerts || storage === null) return;
    try {
      storage.setItem(KEY, JSON.stringify(s.alerts));
    } catch {
      // storage full or disabled: the alerts hold for this visit only
    }
  });
  return store;
}
