// The depth ladder's view of the local order book: grouped levels (by one of the pair's
// price_merges), cumulative totals, best bid/ask and the book's sync state. Written at most
// once per animation frame by book-feed.ts.
import { createStore } from 'zustand/vanilla';
import type { BookState, GroupedLevel } from '../../../../src-shared/sdk/local-order-book.ts';

export interface BookViewState {
  symbol: string;
  /** 'idle' before the first subscription. */
  sync: BookState | 'idle';
  /** Grouping step (one of price_merges); '' until the symbol is known. */
  step: string;
  /** The step the shown rows are grouped by: trails `step` until the next frame regroups. */
  rowsStep: string;
  bids: readonly GroupedLevel[];
  asks: readonly GroupedLevel[];
  bestBid: number;
  bestAsk: number;
  /** Update id of the shown book. */
  updateId: number;
  actions: {
    setStep(step: string): void;
  };
}

export function createBookStore() {
  return createStore<BookViewState>()((set) => ({
    symbol: '',
    sync: 'idle',
    step: '',
    rowsStep: '',
    bids: [],
    asks: [],
    bestBid: NaN,
    bestAsk: NaN,
    updateId: -1,
    actions: {
      setStep: (step) => set({ step }),
    },
  }));
}
