// The candles' price scale: linear (the default), logarithmic (equal moves in percent take equal
// heights: years of a trending pair on one screen) or in percent from the first bar in view (how
// far price has come since the left edge). The chart draws its own axis, crosshair and price-line
// labels in each mode; what the screen draws on the axis itself (a horizontal line's label,
// drawing-layer.ts) is written here the way lightweight-charts writes it, so the two agree.
import { PriceScaleMode, type IChartApi, type ISeriesApi } from 'lightweight-charts';
import type { Candle } from '../../../../src-shared/types.ts';

export type ScaleMode = 'linear' | 'log' | 'percent';

/** The library's mode for each of ours. */
export const SCALE_MODE: Record<ScaleMode, PriceScaleMode> = {
  linear: PriceScaleMode.Normal,
  log: PriceScaleMode.Logarithmic,
  percent: PriceScaleMode.Percentage,
};

/** A stored mode read back; anything else (none stored, damaged) is linear. */
export function readScale(text: string | null): ScaleMode {
  return text === 'log' || text === 'percent' ? text : 'linear';
}

/**
 * The base a percent scale measures from, as lightweight-charts takes it: the close of the first
 * bar at or after the visible logical range's left edge rounded down (its "first value"); null
 * when no bar is in view.
 */
export function percentBase(bars: readonly Candle[], from: number): number | null {
  const b = bars[Math.max(0, Math.floor(from))];
  return b === undefined ? null : Number(b[5]);
}

/**
 * A percent as the chart writes it on a percent scale (its axis, crosshair and price lines, given
 * as the chart's percentage formatter) and the screen on its own axis labels: two decimals, grouped
 * as every other figure of the screen, a true minus sign (the width of a plus), and "%"; a value
 * that rounds to 0.00 has no sign.
 */
export function percentLabel(v: number): string {
  const text = Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${v < 0 && text !== '0.00' ? '\u2212' : ''}${text}%`;
}

/** `price` in percent of `base`, as lightweight-charts reckons it (a negative base turns the sign), written by percentLabel. */
export function percentText(price: number, base: number): string {
  const p = (100 * (price - base)) / base;
  return percentLabel(base < 0 ? -p : p);
}

/** The candles' price scale of one chart in the mode asked, and prices written as its axis writes them. */
export class PriceScaleState {
  private mode: ScaleMode = 'linear';
  private readonly chart: IChartApi;
  private readonly bars: () => readonly Candle[];
  private readonly series: ISeriesApi<'Candlestick'>;
  /** The chart's element: its data-scale is the mode the chart was told, read back. */
  private readonly box: { dataset: Record<string, string | undefined> };

  constructor(
    chart: IChartApi,
    series: ISeriesApi<'Candlestick'>,
    bars: () => readonly Candle[],
    box: { dataset: Record<string, string | undefined> },
  ) {
    this.chart = chart;
    this.bars = bars;
    this.series = series;
    this.box = box;
  }

  set(mode: ScaleMode): void {
    this.mode = mode;
    this.chart.priceScale('right').applyOptions({ mode: SCALE_MODE[mode] });
    // what the chart was told, read back from it (the tests' and the eye's)
    const now = this.chart.priceScale('right').options().mode;
    this.box.dataset.scale = (Object.keys(SCALE_MODE) as ScaleMode[]).find((k) => SCALE_MODE[k] === now) ?? '';
  }

  /** `price` as the axis writes it: the pair's price, or its percent of the first bar in view. */
  label(price: number): string {
    if (this.mode !== 'percent') return this.series.priceFormatter().format(price);
    const data = this.bars();
    const range = this.chart.timeScale().getVisibleLogicalRange();
    const base = range === null ? null : percentBase(data, range.from);
    return base === null || base === 0 ? this.series.priceFormatter().format(price) : percentText(price, base);
  }
}
