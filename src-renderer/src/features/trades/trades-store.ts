// Recent trades of the current symbol, newest first, as pushed by `trade@{symbol}`.
import { createStore } from 'zustand/vanilla';
import type { Side } from '../../../../src-shared/enums.ts';

export interface RecentTrade {
  id: number;
  price: number;
  qty: number;
  time: number;
  /** Taker side. */
  side: Side;
}

/** One element of a `trade@` push (the push's data is an array of these). */
export interface TradePush {
  t: number;
  p: string;
  q: string;
  T: number;
  S: Side;
  s: string;
}

export const MAX_TRADES = 60;

export interface TradesState {
  symbol: string;
  trades: readonly RecentTrade[];
  actions: {
    reset(symbol: string): void;
    /** Adds trades oldest first; trades already listed (by id) are skipped. */
    add(batch: readonly RecentTrade[]): void;
  };
}

export function createTradesStore() {
  return createStore<TradesState>()((set, get) => ({
    symbol: '',
    trades: [],
    actions: {
      reset: (symbol) => set({ symbol, trades: [] }),
      add(batch) {
        if (batch.length === 0) return;
        // Pushes list trades oldest first; the view wants the newest first. The REST seed and the
        // stream may overlap, so ids already shown are skipped and the list is kept by id.
        const seen = new Set(get().trades.map((t) => t.id));
        const fresh = batch.filter((t) => !seen.has(t.id));
        if (fresh.length === 0) return;
        const merged = fresh.concat(get().trades).sort((a, b) => b.id - a.id);
        set({ trades: merged.slice(0, MAX_TRADES) });
      },
    },
  }));
}
