// The time axis' labels at its edges. lightweight-charts centres each label on its bar and moves
// one inside the axis only when that edge is fixed (`fixLeftEdge` / `fixRightEdge`, which would
// stop the scroll back into older history), so a label on a bar near the left edge was drawn half
// outside the axis: "6:00" for "06:00". The chart's tickMarkFormatter hides such a label instead
// (the next one, drawn whole, is the first), judging by the longest text its kind of tick mark
// can have; the chart drops its cached labels whenever the range moves.
import { TickMarkType } from 'lightweight-charts';

/** Characters in the longest label of each kind (en-US): 2026, Dec, 31, 23:59, 23:59:59. */
const LONGEST: Record<TickMarkType, number> = {
  [TickMarkType.Year]: 4,
  [TickMarkType.Month]: 3,
  [TickMarkType.DayOfMonth]: 2,
  [TickMarkType.Time]: 5,
  [TickMarkType.TimeWithSeconds]: 8,
};

/**
 * Whether a label of kind `type` centred at `x` (px from the axis' left edge; null: off the
 * scale) would stick out of an axis `width` px wide, in a font whose characters are `charWidth` px.
 */
export function cutAtEdge(x: number | null, type: TickMarkType, charWidth: number, width: number): boolean {
  if (x === null) return false;
  const half = ((LONGEST[type] ?? 8) * charWidth) / 2;
  return x - half < 0 || x + half > width;
}
