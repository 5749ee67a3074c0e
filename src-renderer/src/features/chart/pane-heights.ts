// How tall the indicators' panes under the candles are (indicator-layer.ts). Each is 0.3 of the
// candles' height while the chart is tall enough; a shorter chart takes from the candles first, down to
// MIN_CANDLES_PX, so that a pane keeps MIN_PANE_PX: room for its scale's ticks. Before, each pane had a
// stretch of 0.3 against the candles' 2 (lightweight-charts doubles the first pane's as a second is
// added): RSI and MACD together at 1440x900 were 55 px each, RSI's axis with one tick and a half and
// MACD's with one.

/** An indicator pane's height against the candles' (1) on a tall enough chart. */
export const PANE_SHARE = 0.3;
/** The least height of an indicator pane, px, while the candles keep MIN_CANDLES_PX. */
export const MIN_PANE_PX = 96;
/** The least height the candles give up to, px. */
export const MIN_CANDLES_PX = 140;

/**
 * The stretch factors of the candles' pane and of each of `panes` indicator panes for panes of
 * `height` px together (their sum; lightweight-charts shares the height by them).
 */
export function paneStretch(height: number, panes: number): { candles: number; indicator: number } {
  const shared = { candles: 1, indicator: PANE_SHARE };
  if (panes === 0 || !(height > 0)) return shared;
  const byShare = (height * PANE_SHARE) / (1 + PANE_SHARE * panes);
  if (byShare >= MIN_PANE_PX) return shared;
  const pane = Math.max(byShare, Math.min(MIN_PANE_PX, (height - MIN_CANDLES_PX) / panes));
  return { candles: height - pane * panes, indicator: pane };
}
