// The current symbol's catalogue entry and display decimals, for views.
import type { SymbolEntry } from '../features/symbols/symbols-store.ts';
import { useServices, useSel } from './use-services.ts';

export interface SymbolView {
  symbol: string;
  entry: SymbolEntry | undefined;
  /** Price and quantity decimals (2 and 3 until the catalogue is loaded). */
  pd: number;
  qd: number;
}

export function useSymbolView(symbol?: string): SymbolView {
  const s = useServices();
  const current = useSel(s.workspace, (w) => w.symbol);
  const sym = symbol ?? current;
  const entry = useSel(s.symbols, (x) => x.bySymbol[sym]);
  return { symbol: sym, entry, pd: entry?.priceDecimals ?? 2, qd: entry?.qtyDecimals ?? 3 };
}

/** Decimals of any symbol, from the catalogue (fallback 2 / 3). */
export function useDecimals(): (symbol: string) => { pd: number; qd: number } {
  const s = useServices();
  const by = useSel(s.symbols, (x) => x.bySymbol);
  return (symbol) => ({ pd: by[symbol]?.priceDecimals ?? 2, qd: by[symbol]?.qtyDecimals ?? 3 });
}
