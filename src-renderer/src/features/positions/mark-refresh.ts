// A position's liquidation price and margin ratio are the service's figures: they need the pair's
// maintenance tiers (which the screen does not have) and the other positions at the same instant.
// The service pushes positions only when a command changes them, and the user feed reads them
// again every 5 s; meanwhile the row's mark, PnL and margin move with every mark price. A replay
// step or seek moves the mark by hours of history at once (and a fast replay a lot within 5 s),
// which left those figures, and the balance's, minutes or hours behind the mark beside them. So a
// move of any position's mark by more than MARK_JUMP from the mark its record was computed at
// reads the positions and the balance again at once, at most once per MIN_GAP_MS.
import type { StoreApi } from 'zustand/vanilla';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { reportBugs } from '../../lib/service-failure.ts';

/** Share of the mark a move must exceed to read the positions again (5 bp). */
const MARK_JUMP = 0.0005;
/** Least time between two such reads, ms. */
const MIN_GAP_MS = 1000;

/** Whether any position's live mark is more than MARK_JUMP away from its record's. */
export function markJumped(
  positions: readonly Pick<PositionRecord, 'symbol' | 'mark_price'>[],
  markOf: (symbol: string) => number | undefined,
): boolean {
  return positions.some((p) => {
    const mark = markOf(p.symbol);
    return (
      mark !== undefined && mark > 0 && p.mark_price > 0 && Math.abs(mark - p.mark_price) > MARK_JUMP * p.mark_price
    );
  });
}

/** Calls `refresh` when the marks jump away from the positions' records (see above); returns the stop. */
export function watchMarkJumps(deps: {
  tickers: StoreApi<{ tickers: Readonly<Record<string, { mark: number } | undefined>> }>;
  positions: StoreApi<{ positions: readonly PositionRecord[] }>;
  refresh: () => Promise<unknown>;
  now?: () => number;
}): () => void {
  const now = deps.now ?? Date.now;
  let busy = false;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const check = (): void => {
    if (stopped || busy || timer !== null) return;
    const tickers = deps.tickers.getState().tickers;
    if (!markJumped(deps.positions.getState().positions, (s) => tickers[s]?.mark)) return;
    const wait = last + MIN_GAP_MS - now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = null;
        check();
      }, wait);
      return;
    }
    busy = true;
    last = now();
    void deps
      .refresh()
      // (the service cannot be reached: the user feed's poll and status say so)
      .catch(reportBugs)
      .finally(() => {
        busy = false;
        check();
      });
  };
  const offTickers = deps.tickers.subscribe(check);
  const offPositions = deps.positions.subscribe(check);
  return () => {
    stopped = true;
    offTickers();
    offPositions();
    if (timer !== null) clearTimeout(timer);
  };
}
