// The depth ladder's view of the local order book: grouped levels (by one of the pair's
// price_merges), cumulative totals, best bid/ask and the book's sync state. Written at most
// once per animation frame by book-feed.ts.
import { createStore } from 'zustand/vanilla';
import type { BookState, GroupedLevel, PriceLevel } from '../../../../src-shared/sdk/local-order-book.ts';

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
  /**
   * The best levels of each side as the book has them, not grouped (best first): what an order
   * crossing the book would take, at their own prices (the order form's fee estimate).
   */
  levels: { bids: readonly PriceLevel[]; asks: readonly PriceLevel[] };
  /** Update id of the shown book. */
  updateId: number;
  actions: {
    setStep(step: string): void;
  };
}

/** No book (yet). */
export const NO_LEVELS: BookViewState['levels'] = { bids: [], asks: [] };

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
    levels: NO_LEVELS,
    updateId: -1,
    actions: {
      setStep: (step) => set({ step }),
    },
  }));
}
