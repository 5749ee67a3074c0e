// How wide a chart's bars start out. The usual 7 px suits a full history; a young one (a new
// listing, or 1M bars over a few months) would sit as a thin sliver at the right edge, so a
// short history is spread over about 60% of the width, up to 40 px a bar.

/** The default spacing (px per bar), as lightweight-charts' own default is close to. */
export const DEFAULT_BAR_SPACING = 7;
/** Empty bars right of the newest one at the default spacing. */
export const DEFAULT_RIGHT_OFFSET = 6;
export const MAX_BAR_SPACING = 40;

/** Initial px per bar for `bars` bars on a time scale `width` px wide (0 before layout). */
export function initialBarSpacing(bars: number, width: number): number {
  if (bars <= 0 || !(width > 0)) return DEFAULT_BAR_SPACING;
  const spread = (width * 0.6) / bars;
  return Math.min(MAX_BAR_SPACING, Math.max(DEFAULT_BAR_SPACING, spread));
}

/** Empty bars right of the newest one: about the same gap in pixels whatever the spacing (at least one bar). */
export function rightOffsetFor(spacing: number): number {
  return Math.max(1, Math.round((DEFAULT_RIGHT_OFFSET * DEFAULT_BAR_SPACING) / spacing));
}
