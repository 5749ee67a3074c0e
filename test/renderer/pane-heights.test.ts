// The indicators' panes under the candles keep room for their scale (pane-heights.ts): before, RSI and
// MACD together on a 1440x900 screen were each 55 px of the chart's 478, RSI's axis with one tick and a half.
import { describe, expect, it } from 'vitest';
import {
  MIN_CANDLES_PX,
  MIN_PANE_PX,
  PANE_SHARE,
  paneStretch,
} from '../../src-renderer/src/features/chart/pane-heights.ts';

/** The heights, px, lightweight-charts gives the candles and each indicator pane. */
function heights(height: number, panes: number): { candles: number; pane: number } {
  const s = paneStretch(height, panes);
  const total = s.candles + s.indicator * panes;
  return { candles: (height * s.candles) / total, pane: (height * s.indicator) / total };
}

describe('the indicator panes’ heights', () => {
  it('are 0.3 of the candles’ on a tall chart', () => {
    expect(paneStretch(900, 2)).toEqual({ candles: 1, indicator: PANE_SHARE });
    const h = heights(700, 1);
    expect(h.pane / h.candles).toBeCloseTo(PANE_SHARE);
  });

  it('take from the candles on a shorter chart, so each pane keeps room for its scale', () => {
    // RSI and MACD on the chart of a 1440x900 screen: its panes 478 px together
    const h = heights(478, 2);
    expect(h.pane).toBeCloseTo(MIN_PANE_PX);
    expect(h.candles).toBeCloseTo(478 - 2 * MIN_PANE_PX);
  });

  it('never leave the candles under their least height for it, nor a pane under its share', () => {
    // too short for both least heights: the candles keep theirs, the panes share the rest
    const h = heights(300, 2);
    expect(h.candles).toBeCloseTo(MIN_CANDLES_PX);
    expect(h.pane).toBeCloseTo((300 - MIN_CANDLES_PX) / 2);
    // shorter still: each pane its share
    expect(heights(150, 2).pane).toBeCloseTo(150 * (PANE_SHARE / (1 + 2 * PANE_SHARE)));
    for (const height of [150, 200, 260, 300, 340, 400, 478, 500, 700])
      for (const panes of [1, 2]) {
        const x = heights(height, panes);
        const share = (height * PANE_SHARE) / (1 + PANE_SHARE * panes);
        expect(x.pane, `${height} px, ${panes} panes`).toBeGreaterThanOrEqual(share - 1e-9);
        expect(x.candles + panes * x.pane).toBeCloseTo(height);
      }
  });
});
