// The symbol catalogue as the screen sees it, read from the public API.
import { createStore } from 'zustand/vanilla';
import type { FuturesSymbol, GeneralSymbol } from '../../../../src-shared/types.ts';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';

export type SymbolTag = 'new' | 'meme' | 'innovation';
export const SYMBOL_TAGS: readonly SymbolTag[] = ['new', 'meme', 'innovation'];

export interface SymbolEntry {
  general: GeneralSymbol;
  futures: FuturesSymbol;
  tags: SymbolTag[];
}

export interface SymbolsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  entries: SymbolEntry[];
  actions: {
    load(): Promise<void>;
  };
}

export function createSymbolsStore(api: RestClient) {
  return createStore<SymbolsState>()((set) => ({
    status: 'idle',
    error: null,
    entries: [],
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
          const bySymbol = new Map(futures.map((f) => [f.symbol, f]));
          const entries = general
            .filter((g) => bySymbol.has(g.symbol))
            .map((g) => ({
              general: g,
              futures: bySymbol.get(g.symbol)!,
              tags: SYMBOL_TAGS.filter((_, i) => tagged[i].some((f) => f.symbol === g.symbol)),
            }));
          set({ status: 'ready', entries });
        } catch (err) {
          set({ status: 'error', error: err instanceof Error ? err.message : String(err) });
        }
      },
    },
  }));
}
