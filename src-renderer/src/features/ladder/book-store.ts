// The depth ladder's view of the local order book: grouped levels (by one of the pair's
// price_merges), cumulative totals, best bid/ask and the book's sync state. Written at most
// once per animation frame by book-feed.ts. The grouping the trader picks is kept per pair in
// the browser's storage (as the interval and the tab are): a reload or a return to the pair shows
// the book at that grouping again. Another tab on the same address keeps its picks in the same
// entry: it is read afresh for each pick and each pair shown, so neither tab writes its own old
// picks over the other's (before, a grouping picked for BTCUSDT in one tab was gone, at the next
// visit, once the other tab picked one for ETHUSDT).
import { createStore } from 'zustand/vanilla';
import { browserStorage, type KeyValueStorage } from '../../lib/browser-storage.ts';
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
    /** The trader's grouping for the pair shown: kept for it (stepFor). */
    setStep(step: string): void;
    /** The grouping to show `symbol` at: the one kept for it if the pair still offers it, else its finest. */
    stepFor(symbol: string, merges: readonly string[]): string;
  };
}

/** The storage entry of the groupings kept: a JSON object, pair -> step. */
export const GROUPING_KEY = 'perpdesk.grouping';

/** No book (yet). */
export const NO_LEVELS: BookViewState['levels'] = { bids: [], asks: [] };

/** The groupings stored (pair -> step); empty when none, when the entry is damaged or the storage throws. */
function readKept(storage: KeyValueStorage | null): Record<string, string> {
  const kept: Record<string, string> = {};
  try {
    const raw: unknown = JSON.parse(storage?.getItem(GROUPING_KEY) ?? '{}');
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
      for (const [pair, step] of Object.entries(raw)) if (typeof step === 'string') kept[pair] = step;
  } catch {
    // storage that throws, or an entry that is not JSON: no grouping kept
  }
  return kept;
}

export function createBookStore(storage: KeyValueStorage | null = browserStorage()) {
  // this tab's picks; what the storage holds (another tab's picks too) goes over them when read
  let kept = readKept(storage);
  return createStore<BookViewState>()((set, get) => ({
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
      setStep: (step) => {
        set({ step });
        const pair = get().symbol;
        if (pair === '') return;
        const stored = readKept(storage);
        kept = { ...kept, ...stored, [pair]: step };
        if (stored[pair] === step) return;
        try {
          storage?.setItem(GROUPING_KEY, JSON.stringify(kept));
        } catch {
          // storage full or disabled: the grouping holds until the page closes
        }
      },
      stepFor: (symbol, merges) => {
        const k = readKept(storage)[symbol] ?? kept[symbol];
        return k !== undefined && merges.includes(k) ? k : (merges[0] ?? '');
      },
    },
  }));
}
