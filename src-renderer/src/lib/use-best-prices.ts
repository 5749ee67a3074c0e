// The best bid and ask of a pair, for a price field that warns when its price crosses the book
// (the Modify dialog's, a position row's limit close: crossesBook in orders/amend-input.ts).
import { useEffect, useState } from 'react';
import { useServices, useSel } from './use-services.ts';

/** How often the book of a pair not on screen is read while the field that needs it is shown. */
const BOOK_READ_MS = 2000;

/**
 * The best bid and ask of `symbol`: the live book's when it is the pair on screen, else from a
 * depth read now and every BOOK_READ_MS (NaN until known, or when the read fails).
 */
export function useBestPrices(symbol: string): { bestBid: number; bestAsk: number } {
  const s = useServices();
  const onScreen = useSel(s.book, (b) => b.symbol === symbol && b.sync !== 'idle');
  const liveBid = useSel(s.book, (b) => b.bestBid);
  const liveAsk = useSel(s.book, (b) => b.bestAsk);
  const [read, setRead] = useState({ bestBid: NaN, bestAsk: NaN });
  useEffect(() => {
    if (onScreen) return;
    let live = true;
    const load = (): void => {
      s.api
        .depth(symbol, 5)
        .then((d) => {
          const best = (levels: readonly (readonly [string, string])[], pick: (...x: number[]) => number): number =>
            levels.length === 0 ? NaN : pick(...levels.map((l) => Number(l[0])));
          if (live) setRead({ bestBid: best(d.bids, Math.max), bestAsk: best(d.asks, Math.min) });
        })
        .catch(() => {
          // no book to compare with: nothing is said
          if (live) setRead({ bestBid: NaN, bestAsk: NaN });
        });
    };
    load();
    const timer = setInterval(load, BOOK_READ_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [s, symbol, onScreen]);
  return onScreen ? { bestBid: liveBid, bestAsk: liveAsk } : read;
}
