// The symbol catalogue as the screen sees it, read from the public API. Every price and
// quantity on screen is formatted with the decimals kept here (price_precision and
// qty_precision of /fapi/v1/symbols).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FuturesSymbol, GeneralSymbol } from '../../../../src-shared/types.ts';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';

type SymbolTag = 'new' | 'meme' | 'innovation';
const SYMBOL_TAGS: readonly SymbolTag[] = ['new', 'meme', 'innovation'];

export interface SymbolEntry {
  general: GeneralSymbol;
  futures: FuturesSymbol;
  tags: SymbolTag[];
  /** Decimals of prices and quantities on screen. */
  priceDecimals: number;
  qtyDecimals: number;
}

export interface SymbolsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  entries: SymbolEntry[];
  bySymbol: Record<string, SymbolEntry>;
  actions: {
    load(): Promise<void>;
  };
}

export function createSymbolsStore(api: RestClient) {
  return createStore<SymbolsState>()((set) => ({
    status: 'idle',
    error: null,
    entries: [],
    bySymbol: {},
    actions: {
      async load() {
        set({ status: 'loading', error: null });
        try {
          // Tags are not a field of the records; the API's tag filter tells which pair has which.
          const [general, futures, ...tagged] = await Promise.all([
            api.generalSymbols(),
            api.futuresSymbols(),
            ...SYMBOL_TAGS.map((tag) => api.futuresSymbols({ tag })),
          ]);
          const byFutures = new Map(futures.map((f) => [f.symbol, f]));
          const entries: SymbolEntry[] = general
            .filter((g) => byFutures.has(g.symbol))
            .map((g) => {
              const f = byFutures.get(g.symbol)!;
              return {
                general: g,
                futures: f,
                tags: SYMBOL_TAGS.filter((_, i) => tagged[i].some((t) => t.symbol === g.symbol)),
                priceDecimals: f.price_precision,
                qtyDecimals: f.qty_precision,
              };
            });
          set({ status: 'ready', entries, bySymbol: Object.fromEntries(entries.map((e) => [e.general.symbol, e])) });
        } catch (err) {
          set({ status: 'error', error: err instanceof Error ? err.message : String(err) });
        }
      },
    },
  }));
}

/**
 * Loads the catalogue again whenever the connection (re)opens while the last load failed: a
 * screen opened while the service was down or restarting gets its pairs, and with them its
 * chart, book and trades, once the service is back, not only after a reload or the picker's Retry.
 */
export function reloadWhenOpen(
  store: StoreApi<SymbolsState>,
  conn: { onOpen(listener: () => void): () => void },
): () => void {
  return conn.onOpen(() => {
    if (store.getState().status === 'error') void store.getState().actions.load();
  });
}
