// The latest candles loaded again for the pair and interval the chart already shows (the feed's
// reload after the socket reconnects, chart-feed.ts). Until 2026-12-07 such a reload replaced every
// bar and reset the view, so a trader scrolled back in history, or zoomed in, was thrown to the
// newest candles at the default zoom by a short outage, and the older history loaded by scrolling
// was gone. Now the bars older than the answer's first are kept as they were (closed candles do not
// change) and the rest are the answer's: the bars keep their places, so the chart's view stays
// where the trader left it (chart-model.ts refresh).
import type { Candle } from '../../../../src-shared/types.ts';

/**
 * `held` (ascending by open time) with `latest` (ascending) in place of its bars from `latest`'s first
 * on; null when `latest` does not reach back to `held`'s newest bar (an outage longer than the
 * answer: the two would leave a hole between them) or either is empty.
 */
export function mergeLatest(held: readonly Candle[], latest: readonly Candle[]): Candle[] | null {
  if (held.length === 0 || latest.length === 0) return null;
  const first = latest[0][0];
  if (first > held[held.length - 1][0]) return null;
  let keep = held.length;
  while (keep > 0 && held[keep - 1][0] >= first) keep--;
  return held.slice(0, keep).concat(latest);
}
