// Short-lived notices: fills, liquidations, margin calls, funding payments, price alerts, rejected requests. At most
// MAX_TOASTS are shown; each leaves after its own time unless hovered (the view pauses it).
import { createStore } from 'zustand/vanilla';

type ToastKind = 'fill' | 'liquidation' | 'margin' | 'funding' | 'alert' | 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  /** Toasts with the same key replace each other (e.g. the fills of one order). */
  key?: string;
  /** Bumped when the toast is replaced, so its timer starts again. */
  rev: number;
  kind: ToastKind;
  title: string;
  body?: string;
  /** ms on screen. */
  ttl: number;
  /** false: no desktop notification for it (another tab gave it: a price alert fired there). */
  notify?: false;
}

const MAX_TOASTS = 5;

export interface ToastsState {
  toasts: readonly Toast[];
  actions: {
    push(t: Omit<Toast, 'id' | 'ttl' | 'rev'> & { ttl?: number }): number;
    dismiss(id: number): void;
  };
}

const TTL: Record<ToastKind, number> = {
  fill: 5000,
  liquidation: 12000,
  margin: 20000,
  funding: 7000,
  // an alert is what the trader asked to be told: long enough to be seen on coming back
  alert: 60000,
  error: 8000,
  success: 4000,
  info: 5000,
};

export function createToastsStore() {
  let next = 1;
  return createStore<ToastsState>()((set, get) => ({
    toasts: [],
    actions: {
      push(t) {
        const same = t.key === undefined ? undefined : get().toasts.find((x) => x.key === t.key);
        if (same) {
          const replaced: Toast = { ...same, ...t, id: same.id, rev: same.rev + 1, ttl: t.ttl ?? TTL[t.kind] };
          set({ toasts: get().toasts.map((x) => (x.id === same.id ? replaced : x)) });
          return same.id;
        }
        const id = next++;
        const toast: Toast = { ...t, id, rev: 0, ttl: t.ttl ?? TTL[t.kind] };
        set({ toasts: [...get().toasts, toast].slice(-MAX_TOASTS) });
        return id;
      },
      dismiss(id) {
        set({ toasts: get().toasts.filter((t) => t.id !== id) });
      },
    },
  }));
}
