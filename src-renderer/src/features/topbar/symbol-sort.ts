// Sorting of the pair picker's rows by a column. Pure (no DOM), so it is unit-tested under Node.
// Pairs without a figure for the column (no ticker yet) go last in either direction; ties keep
// the catalogue's order (Array.prototype.sort is stable).
import type { SymbolEntry } from '../symbols/symbols-store.ts';
import { change24, fundingRate, quoteVolume24, type Ticker } from './ticker-store.ts';

export type SortKey = 'pair' | 'last' | 'change' | 'volume' | 'funding' | 'leverage';
export interface SortSpec {
  key: SortKey;
  /** 1 ascending, -1 descending. */
  dir: 1 | -1;
}

/** The column's figure for one pair, NaN when unknown. */
function figure(e: SymbolEntry, t: Ticker | undefined, key: Exclude<SortKey, 'pair'>): number {
  switch (key) {
    case 'last':
      return t?.last ?? NaN;
    case 'change':
      return change24(t);
    case 'volume':
      return quoteVolume24(t);
    case 'funding':
      // a pair that settles none (paused, delisted) has no rate: last, as the column's "—"
      return fundingRate(t);
    case 'leverage':
      return e.futures.max_leverage;
  }
}

export function sortEntries(
  entries: readonly SymbolEntry[],
  sort: SortSpec | null,
  tickers: Record<string, Ticker>,
): SymbolEntry[] {
  const out = entries.slice();
  if (sort === null) return out;
  if (sort.key === 'pair') return out.sort((a, b) => sort.dir * a.general.symbol.localeCompare(b.general.symbol));
  const key = sort.key;
  return out.sort((a, b) => {
    const x = figure(a, tickers[a.general.symbol], key);
    const y = figure(b, tickers[b.general.symbol], key);
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn || yn) return xn === yn ? 0 : xn ? 1 : -1;
    return sort.dir * (x - y);
  });
}

/** A click on a column's header: a new column sorts descending (pair: A-Z), the same one flips. */
export function nextSort(cur: SortSpec | null, key: SortKey): SortSpec {
  if (cur !== null && cur.key === key) return { key, dir: cur.dir === 1 ? -1 : 1 };
  return { key, dir: key === 'pair' ? 1 : -1 };
}
