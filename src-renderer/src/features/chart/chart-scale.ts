// The candles' price scale: linear (the default) or logarithmic, where an equal move in percent
// takes an equal height (a month of a trending pair, or a coin that went up tenfold, reads evenly).
// The chart draws its axis, crosshair and every line's label on either; what is set, dragged or
// drawn on it stays a price.
//
// No percent scale: lightweight-charts measures each series on one from that series' own first
// value in view, so an indicator over the candles (an MA, BOLL, VWAP) would be drawn off them.
import { PriceScaleMode, type IChartApi } from 'lightweight-charts';

export type ScaleMode = 'linear' | 'log';

/** The library's mode for each of ours. */
export const SCALE_MODE: Record<ScaleMode, PriceScaleMode> = {
  linear: PriceScaleMode.Normal,
  log: PriceScaleMode.Logarithmic,
};

/** A stored mode read back; anything else (none stored, damaged, a mode no longer offered) is linear. */
export function readScale(text: string | null): ScaleMode {
  return text === 'log' ? 'log' : 'linear';
}

/** Puts the candles' price scale of `chart` in `mode`; returns the mode the chart took, read back from it ('' if none of ours). */
export function applyScale(chart: IChartApi, mode: ScaleMode): ScaleMode | '' {
  chart.priceScale('right').applyOptions({ mode: SCALE_MODE[mode] });
  const now = chart.priceScale('right').options().mode;
  return (Object.keys(SCALE_MODE) as ScaleMode[]).find((k) => SCALE_MODE[k] === now) ?? '';
}
