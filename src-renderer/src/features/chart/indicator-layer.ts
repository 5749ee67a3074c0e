// The indicators on the chart (indicators.ts computes them): each slot turned on is a set of
// lightweight-charts series, MA, EMA, BOLL and VWAP as lines over the candles on their price scale,
// RSI (with its 70 / 30 levels, always in view) and MACD (two lines and a histogram) each in a pane of its own under
// the candles, in that order. ChartModel hands the layer its bars as they change: a whole set
// (`setBars`: a new pair or interval, older history, a trim) is computed anew, a live update of the
// newest bar (`update`) costs one step of each indicator and one point of each series. A slot
// whose parameters change is drawn anew; the others are kept. `readings` gives the values at a bar
// for the legend.
import {
  HistogramSeries,
  LineSeries,
  LineStyle,
  type AutoscaleInfo,
  type HistogramData,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type PriceFormat,
  type Time,
  type UTCTimestamp,
  type WhitespaceData,
} from 'lightweight-charts';
import type { Candle } from '../../../../src-shared/types.ts';
import { INDICATOR_KINDS, IndicatorSeries, vwapBreakAfter, type IndicatorBar } from './indicators.ts';
import { slotLabel, type IndicatorSlot } from './indicator-settings.ts';
import { paneStretch } from './pane-heights.ts';

/** An indicator's values at one bar, for the legend. */
export interface IndicatorReading {
  id: string;
  /** `MA(7)`, `MACD(12, 26, 9)`. */
  label: string;
  colors: readonly string[];
  /** One per line (NaN: none at that bar). */
  values: readonly number[];
  /** Prices (the pair's decimals) or an index (RSI). */
  priced: boolean;
}

const RSI_LEVELS = [70, 30];
/**
 * The RSI pane's scale: the RSI's range in view, widened to take both levels in, so a market whose
 * RSI stays between 27 and 51 (BTCUSDT 1d) still shows the 70 line (it was off the pane).
 */
const rsiAutoscale = (base: () => AutoscaleInfo | null): AutoscaleInfo => {
  const r = base()?.priceRange;
  const low = Math.min(...RSI_LEVELS);
  const high = Math.max(...RSI_LEVELS);
  return { priceRange: { minValue: Math.min(r?.minValue ?? low, low), maxValue: Math.max(r?.maxValue ?? high, high) } };
};
/** RSI is an index from 0 to 100, whatever the pair's prices. */
const RSI_FORMAT: PriceFormat = { type: 'price', precision: 2, minMove: 0.01 };
const HIST_UP = 'rgba(46, 189, 133, 0.55)';
const HIST_DOWN = 'rgba(246, 70, 93, 0.55)';

type Drawn = ISeriesApi<'Line'> | ISeriesApi<'Histogram'>;

interface Shown {
  slot: IndicatorSlot;
  /** Identity of what is drawn: the slot's parameters (colours are fixed per slot). */
  key: string;
  calc: IndicatorSeries;
  series: Drawn[];
}

const toSec = (ms: number): UTCTimestamp => Math.floor(ms / 1000) as UTCTimestamp;

function toBar(c: Candle): IndicatorBar {
  return { time: c[0], high: Number(c[3]), low: Number(c[4]), close: Number(c[5]), volume: Number(c[6]) };
}

const keyOf = (s: IndicatorSlot): string => `${s.id}:${s.params.join(',')}`;

export class IndicatorLayer {
  private readonly chart: IChartApi;
  private readonly shown = new Map<string, Shown>();
  private bars: IndicatorBar[] = [];
  /** The pair's price format (ChartModel.configure), for the indicators whose values are prices. */
  private priceFormat: PriceFormat = { type: 'price', precision: 2, minMove: 0.01 };

  /** Fits the panes' heights again as the chart's height changes (pane-heights.ts). */
  private readonly resized: ResizeObserver | null;

  constructor(chart: IChartApi) {
    this.chart = chart;
    this.resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => this.fitPanes());
    this.resized?.observe(chart.chartElement());
  }

  /** Draws exactly the slots that are on; a pane's indicators are laid out again when that set changes. */
  setSlots(slots: readonly IndicatorSlot[]): void {
    const on = slots.filter((s) => s.on);
    const wanted = new Map(on.map((s) => [s.id, keyOf(s)]));
    const panes = (list: Iterable<{ id: string; key: string; kind: IndicatorSlot['kind'] }>): string =>
      [...list]
        .filter((s) => INDICATOR_KINDS[s.kind].place === 'pane')
        .map((s) => s.key)
        .join(' ');
    const panesBefore = panes([...this.shown.values()].map((x) => ({ ...x.slot, key: x.key })));
    const panesAfter = panes(on.map((s) => ({ ...s, key: keyOf(s) })));
    for (const [id, x] of this.shown) {
      const moved = panesBefore !== panesAfter && INDICATOR_KINDS[x.slot.kind].place === 'pane';
      if (wanted.get(id) === x.key && !moved) continue;
      for (const series of x.series) this.chart.removeSeries(series);
      this.shown.delete(id);
    }
    const kept = new Map(this.shown);
    this.shown.clear();
    // in the slots' order, so the legend reads the same whatever was changed last
    for (const slot of on) {
      const had = kept.get(slot.id);
      if (had !== undefined) {
        this.shown.set(slot.id, had);
        continue;
      }
      const x: Shown = {
        slot,
        key: keyOf(slot),
        calc: new IndicatorSeries(slot.kind, slot.params),
        series: this.draw(slot),
      };
      x.calc.compute(this.bars);
      this.setData(x);
      this.shown.set(slot.id, x);
    }
    this.fitPanes();
  }

  /** The pair's price format, for every indicator whose values are prices (all but RSI). */
  setPriceFormat(format: PriceFormat): void {
    this.priceFormat = format;
    for (const x of this.shown.values())
      if (INDICATOR_KINDS[x.slot.kind].priced)
        for (const series of x.series) series.applyOptions({ priceFormat: format });
  }

  /** A whole new set of bars (ascending by open time): every indicator computed anew. */
  setBars(candles: readonly Candle[]): void {
    this.bars = candles.map(toBar);
    for (const x of this.shown.values()) {
      x.calc.compute(this.bars);
      this.setData(x);
    }
  }

  /** The newest bar changed, or `c` is a newer one (ChartModel checked the order). */
  update(c: Candle): void {
    const n = this.bars.length;
    const b = toBar(c);
    if (n > 0 && this.bars[n - 1].time === b.time) this.bars[n - 1] = b;
    else this.bars.push(b);
    const i = this.bars.length - 1;
    const time = toSec(b.time);
    for (const x of this.shown.values()) {
      x.calc.update(this.bars);
      // a new day's first bar: the VWAP's segment into it from the day before is hidden (point())
      if (x.slot.kind === 'vwap' && i > n - 1 && vwapBreakAfter(this.bars, i - 1))
        (x.series[0] as ISeriesApi<'Line'>).update(
          this.point(x, 0, i - 1, toSec(this.bars[i - 1].time)) as LineData<Time>,
          true,
        );
      x.series.forEach((series, line) =>
        (series as ISeriesApi<'Line'>).update(this.point(x, line, i, time) as LineData<Time>),
      );
    }
  }

  /** The indicators' values at bar i, in the slots' order. */
  readings(i: number): IndicatorReading[] {
    const out: IndicatorReading[] = [];
    for (const x of this.shown.values())
      out.push({
        id: x.slot.id,
        label: slotLabel(x.slot),
        colors: x.slot.colors,
        values: x.calc.valuesAt(i),
        priced: INDICATOR_KINDS[x.slot.kind].priced,
      });
    return out;
  }

  /** Ids of the slots drawn (tests, debugging), in the order drawn. */
  ids(): string[] {
    return [...this.shown.keys()];
  }

  dispose(): void {
    this.resized?.disconnect();
    this.shown.clear();
  }

  // ---- internals

  private draw(slot: IndicatorSlot): Drawn[] {
    const info = INDICATOR_KINDS[slot.kind];
    const pane = info.place === 'pane' ? this.chart.panes().length : 0;
    const series = info.lines.map((_, line): Drawn => {
      const common = {
        lastValueVisible: false,
        priceLineVisible: false,
        title: '',
        priceFormat: info.priced ? this.priceFormat : RSI_FORMAT,
        ...(slot.kind === 'rsi' ? { autoscaleInfoProvider: rsiAutoscale } : {}),
      };
      if (slot.kind === 'macd' && line === 2) return this.chart.addSeries(HistogramSeries, common, pane);
      return this.chart.addSeries(
        LineSeries,
        { ...common, color: slot.colors[line], lineWidth: 1, crosshairMarkerVisible: false },
        pane,
      );
    });
    if (slot.kind === 'rsi')
      for (const level of RSI_LEVELS)
        series[0].createPriceLine({
          price: level,
          color: '#5e6673',
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: false,
          title: '',
        });
    return series;
  }

  /** The candles' and the indicator panes' shares of the chart's height (pane-heights.ts). */
  private fitPanes(): void {
    const panes = this.chart.panes();
    if (panes.length < 2) return;
    // the panes' height together: the chart's less its time axis and the 1 px separators
    const height = this.chart.chartElement().clientHeight - this.chart.timeScale().height() - (panes.length - 1);
    const s = paneStretch(height, panes.length - 1);
    panes.forEach((p, i) => p.setStretchFactor(i === 0 ? s.candles : s.indicator));
  }

  private setData(x: Shown): void {
    x.series.forEach((series, line) => {
      const data = this.bars.map((b, i) => this.point(x, line, i, toSec(b.time)));
      (series as ISeriesApi<'Line'>).setData(data as LineData<Time>[]);
    });
  }

  /** The point of line `line` of `x` at bar i: whitespace where it has no value. */
  private point(
    x: Shown,
    line: number,
    i: number,
    time: UTCTimestamp,
  ): LineData<Time> | HistogramData<Time> | WhitespaceData<Time> {
    const value = x.calc.lines[line][i];
    if (!Number.isFinite(value)) return { time };
    if (x.slot.kind === 'macd' && line === 2) return { time, value, color: value >= 0 ? HIST_UP : HIST_DOWN };
    // a line's segment takes its first point's colour: the last bar of a VWAP's day hides the jump to the next
    if (x.slot.kind === 'vwap' && vwapBreakAfter(this.bars, i)) return { time, value, color: 'transparent' };
    return { time, value };
  }
}
