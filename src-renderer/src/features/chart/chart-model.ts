// The chart: a small class that owns one lightweight-charts instance outside React. It creates
// the chart (candles + a volume histogram on its own scale at the bottom), takes whole data
// sets, live updates (`series.update`, so a push costs one bar, not a redraw of the set),
// older history prepended, and a set of horizontal price lines diffed by id; `dispose()`
// removes everything. React only hands it a container and reads its legend callbacks.
//
// Price lines off the visible price range show no axis label: lightweight-charts draws none for
// one such line, but it lays overlapping labels out as a group and shifts the group into view, so
// two lines at one off-screen price (an order at the take-profit) had their labels pinned to the
// axis' edge, as if at a price on the chart (the library has no option for this; its
// `alignLabels: false` would also let labels on screen overlap). The model checks the lines'
// coordinates four times a second (the range moves with data, zoom and drags of the axis, not
// all of which have an event) and turns each label on only while its price is in view; the
// container's data-axis-labels lists the lines whose label the chart is told to draw.
//
// A line given as `movable` (an open order's, a waiting stop's, a take-profit's, a stop-loss') can
// be dragged to a new price (line-drag.ts), which goes to `onLineMoved`; the model shows it where
// it is held until told otherwise. The "+" and the bell at the crosshair are price-pick.ts.
//
// Times: candles carry ms open times; the chart gets seconds (UTC). Candles given to it must
// be ascending by open time; an update older than the last bar is ignored (lightweight-charts
// would throw on it).
//
// Size: live updates only append, and a fast simulator appends many bars per second, so while
// the view follows the newest bar the model keeps at most MAX_BARS (dropping the oldest in
// one setData every TRIM_SLACK bars); scrolled back, nothing is dropped. `onTrimmed` tells the
// feed that older bars may be loaded again.
import {
  CandlestickSeries,
  HistogramSeries,
  createChart,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type LogicalRange,
  type MouseEventParams,
  type Time,
  type TickMarkFormatter,
} from 'lightweight-charts';
import type { Candle } from '../../../../src-shared/types.ts';
import { initialBarSpacing, rightOffsetFor } from './bar-spacing.ts';
import { cutAtEdge } from './time-axis-edges.ts';
import { LineDrag, type LineDragHost } from './line-drag.ts';
import { PricePick, type PickTarget } from './price-pick.ts';
import { snapPrice, type MovableLine } from './line-geometry.ts';
import { IndicatorLayer, type IndicatorReading } from './indicator-layer.ts';
import type { IndicatorSlot } from './indicator-settings.ts';
import { DrawingLayer, type DrawingEvents, type DrawingHost } from './drawing-layer.ts';
import type { Drawing, DrawingKind } from './drawings.ts';
import { FillLayer } from './fill-layer.ts';
import type { FillMark } from './fill-marks.ts';
import type { PriceLineSpec } from './price-lines.ts';
import { barAtOrBefore } from './bar-times.ts';
import { mergeLatest } from './candle-refresh.ts';
import { CHART_COLORS, LINE_STYLE, bar, charWidth, tradingChartOptions, volumeBar } from './chart-style.ts';
import { applyScale, type ScaleMode } from './chart-scale.ts';
import { LastPriceLabel } from './last-price.ts';

/** What the legend shows: the bar under the crosshair, or the latest one. */
export interface LegendBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** Whether this is the latest bar (no crosshair over the chart). */
  latest: boolean;
  /** The indicators drawn, their values at this bar (indicator-layer.ts). */
  indicators: IndicatorReading[];
}

/** Bars kept while the view follows the newest bar; older ones are dropped (and reloadable). */
const MAX_BARS = 3000;
const TRIM_SLACK = 500;

export interface ChartModelOptions {
  onLegend?: (bar: LegendBar | null) => void;
  /** Called when the view nears the oldest loaded bar (scrolling left). */
  onNeedOlder?: () => void;
  /** Bars from the left edge at which `onNeedOlder` fires. */
  olderThreshold?: number;
  /** The oldest bars were dropped to bound memory and drawing cost. */
  onTrimmed?: () => void;
  /** A movable line was dropped at `price` (tick-snapped, the pair's decimals); settles when done. */
  onLineMoved?: (id: string, price: string) => Promise<unknown>;
  /** A movable line was double-clicked (line-drag.ts). */
  onLineOpened?: (id: string) => void;
  /** The chart's "+" (`limit`) or bell (`alert`) was pressed at `price` (tick-snapped, the pair's decimals): price-pick.ts. */
  onPricePick?: (price: string, target: PickTarget) => void;
  /** The trader's drawings made, moved, removed with the mouse (drawing-layer.ts). */
  drawings?: DrawingEvents;
}

/** How often the price lines' labels are checked against the visible price range, ms. */
const LABEL_CHECK_MS = 250;

export class ChartModel {
  readonly chart: IChartApi;
  /** (its data read by the chart's summary, chart-keys.ts) */
  readonly candles: ISeriesApi<'Candlestick'>;
  private readonly volume: ISeriesApi<'Histogram'>;
  private readonly lastPrice: LastPriceLabel;
  private readonly opts: ChartModelOptions;
  /** `held`: the price a drag shows the line at, until the model is told a new spec or it is let go. */
  private readonly lines = new Map<string, { spec: PriceLineSpec; line: IPriceLine; label: boolean; held?: number }>();
  private readonly drag: LineDrag | null;
  private readonly pick: PricePick | null;
  private readonly studies: IndicatorLayer;
  readonly fills: FillLayer;
  private readonly sketch: DrawingLayer | null;
  /** The bars' open times (ms), as the drawings place their points. */
  private times: number[] = [];
  private priceDecimals = 2;
  private tick = 0.01;
  private readonly container: HTMLElement;
  private readonly labelTimer: ReturnType<typeof setInterval>;
  /** Ascending by open time; the model's own copy, so legends and prepends need no feed. */
  private data: Candle[] = [];
  private disposed = false;
  private readonly onCrosshair = (p: MouseEventParams<Time>): void => this.crosshair(p);
  private readonly onRange = (r: LogicalRange | null): void => this.rangeChanged(r);
  /** Hides a time-axis label that would stick out of the axis (time-axis-edges.ts); null: the usual text. */
  private readonly edgeLabels: TickMarkFormatter = (time, type) => {
    const ts = this.chart.timeScale();
    return cutAtEdge(ts.timeToCoordinate(time), type, charWidth(), ts.width()) ? '' : null;
  };

  constructor(container: HTMLElement, opts: ChartModelOptions = {}) {
    this.opts = opts;
    this.container = container;
    this.chart = createChart(container, tradingChartOptions(this.edgeLabels));
    this.candles = this.chart.addSeries(CandlestickSeries, {
      upColor: CHART_COLORS.up,
      downColor: CHART_COLORS.down,
      borderUpColor: CHART_COLORS.up,
      borderDownColor: CHART_COLORS.down,
      wickUpColor: CHART_COLORS.up,
      wickDownColor: CHART_COLORS.down,
      // the close of the last candle in view: last-price.ts labels the newest one's
      lastValueVisible: false,
    });
    this.lastPrice = new LastPriceLabel(this.candles);
    this.volume = this.chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    this.chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    this.studies = new IndicatorLayer(this.chart);
    this.fills = new FillLayer(this.candles, this.chart.timeScale());
    this.chart.subscribeCrosshairMove(this.onCrosshair);
    this.chart.timeScale().subscribeVisibleLogicalRangeChange(this.onRange);
    this.labelTimer = setInterval(() => this.syncLabels(), LABEL_CHECK_MS);
    const host = this.dragHost();
    // before the "+" and the line drag: an armed tool's press is the drawing's
    this.sketch = opts.drawings ? new DrawingLayer(container, this.sketchHost(), opts.drawings) : null;
    this.pick = opts.onPricePick ? new PricePick(container, host, opts.onPricePick) : null;
    this.drag = opts.onLineMoved ? new LineDrag(container, host, opts.onLineMoved, opts.onLineOpened) : null;
  }

  /** Price precision and tick of the symbol; `seconds` shows seconds on the time axis (1s bars). */
  configure(priceDecimals: number, tick: number, seconds: boolean): void {
    this.priceDecimals = priceDecimals;
    this.tick = tick > 0 ? tick : 10 ** -priceDecimals;
    // the axis and crosshair labels group thousands like every other price on the screen; the
    // series' own format, not the chart's, so an RSI pane keeps its two decimals
    const grouped = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: priceDecimals,
      maximumFractionDigits: priceDecimals,
    });
    const priceFormat = { type: 'custom' as const, minMove: this.tick, formatter: (p: number) => grouped.format(p) };
    this.candles.applyOptions({ priceFormat });
    this.studies.setPriceFormat(priceFormat);
    this.chart.applyOptions({ timeScale: { secondsVisible: seconds } });
  }

  /**
   * Replaces all bars (ascending by open time) and shows the newest at the default zoom: a new
   * symbol or interval starts from a fresh view, not from the previous one's zoom and scroll.
   */
  setCandles(candles: readonly Candle[]): void {
    this.data = candles.slice();
    this.setAll();
    const ts = this.chart.timeScale();
    // a short history is spread out rather than left as a sliver at the right edge
    const spacing = initialBarSpacing(this.data.length, ts.width());
    ts.applyOptions({ barSpacing: spacing, rightOffset: rightOffsetFor(spacing) });
    ts.resetTimeScale();
    ts.scrollToRealTime();
    this.emitLatest();
  }

  /**
   * The latest bars again, of the pair and interval shown (candle-refresh.ts): older bars kept, the
   * view kept where it was, zoom and scroll, following the newest bar if it did. False, nothing
   * changed, when they do not reach back to the newest bar held: then `setCandles` starts afresh.
   */
  refresh(latest: readonly Candle[]): boolean {
    const merged = mergeLatest(this.data, latest);
    if (merged === null) return false;
    const ts = this.chart.timeScale();
    const range = ts.getVisibleLogicalRange();
    // following the newest bar: as far right of it as before; scrolled back: the same bars in view
    const following = range === null || range.to >= this.data.length - 1;
    const position = ts.scrollPosition();
    this.data = merged;
    this.setAll();
    if (following || range === null) ts.scrollToPosition(position, false);
    else ts.setVisibleLogicalRange(range);
    if (!this.hovering) this.emitLatest();
    return true;
  }

  /** Adds older bars (ascending, all older than the first one shown) without moving the view. */
  prepend(older: readonly Candle[]): number {
    const first = this.data.length > 0 ? this.data[0][0] : Infinity;
    const fresh = older.filter((c) => c[0] < first);
    if (fresh.length === 0) return 0;
    const range = this.chart.timeScale().getVisibleLogicalRange();
    this.data = fresh.concat(this.data);
    this.setAll();
    // Logical indexes count from the first bar: shift the view by what was added.
    if (range !== null)
      this.chart.timeScale().setVisibleLogicalRange({ from: range.from + fresh.length, to: range.to + fresh.length });
    return fresh.length;
  }

  /** Applies the current (or a new) candle. */
  update(c: Candle): void {
    const n = this.data.length;
    if (n > 0 && c[0] < this.data[n - 1][0]) return;
    if (n > 0 && c[0] === this.data[n - 1][0]) this.data[n - 1] = c;
    else this.data.push(c);
    this.candles.update(bar(c));
    this.volume.update(volumeBar(c));
    this.studies.update(c);
    this.lastPrice.follow(c, this.inView);
    this.times[this.data.length - 1] = c[0];
    if (this.data.length > n) this.fillsChanged(c[0]);
    if (this.data.length > MAX_BARS + TRIM_SLACK) this.trim();
    if (!this.hovering) this.emitLatest();
  }

  /** Drops the oldest bars down to MAX_BARS, only while the newest bar is in view. */
  private trim(): void {
    const range = this.chart.timeScale().getVisibleLogicalRange();
    if (range === null || range.to < this.data.length - 2) return;
    const drop = this.data.length - MAX_BARS;
    this.data = this.data.slice(drop);
    this.setAll();
    // The view was on the newest bar: keep following it (a fixed logical range would not).
    this.chart.timeScale().scrollToRealTime();
    this.opts.onTrimmed?.();
  }

  /** Draws the indicator slots that are on (indicator-settings.ts), computed over the bars loaded. */
  setIndicators(slots: readonly IndicatorSlot[]): void {
    this.studies.setSlots(slots);
    this.container.dataset.indicators = this.studies.ids().join(' ');
    if (!this.hovering) this.emitLatest();
  }

  /** The candles' price scale, linear or logarithmic (chart-scale.ts); data-scale says what the chart took. */
  setScale(mode: ScaleMode): void {
    this.container.dataset.scale = applyScale(this.chart, mode);
  }

  /** The pair's drawings (drawings.ts); the armed drawing tool (null: none). */
  setDrawings(list: readonly Drawing[]): void {
    this.sketch?.setDrawings(list);
  }

  setDrawMode(mode: DrawingKind | null): void {
    this.sketch?.setMode(mode);
  }

  /** The account's fills on this pair, marked on their bars (fill-layer.ts); `qtyText` writes a quantity. */
  setFills(fills: readonly FillMark[], qtyText: (q: number) => string): void {
    this.fills.setFills(fills, qtyText, this.times);
    this.container.dataset.fills = this.fills.drawn;
  }

  /** The bars changed (all of them, or one appended at `newBar`): the fills' marks follow. */
  private fillsChanged(newBar?: number): void {
    this.fills.barsChanged(this.times, newBar);
    this.container.dataset.fills = this.fills.drawn;
  }

  /** Every bar's candle, volume and indicators drawn anew from `data`. */
  private setAll(): void {
    this.times = this.data.map((c) => c[0]);
    this.candles.setData(this.data.map(bar));
    this.volume.setData(this.data.map(volumeBar));
    this.studies.setBars(this.data);
    this.lastPrice.follow(this.data[this.data.length - 1], this.inView);
    this.fillsChanged();
  }

  /** Open time (ms) of the newest bar, or undefined when empty. */
  get newestOpenTime(): number | undefined {
    return this.data[this.data.length - 1]?.[0];
  }

  /** Open time (ms) of the oldest bar, or undefined when empty. */
  get oldestOpenTime(): number | undefined {
    return this.data[0]?.[0];
  }

  get size(): number {
    return this.data.length;
  }

  /** Shows exactly these price lines: new ones are created, changed ones updated, others removed. */
  setPriceLines(specs: readonly PriceLineSpec[]): void {
    const keep = new Set<string>();
    for (const spec of specs) {
      if (!(spec.price > 0)) continue;
      keep.add(spec.id);
      const cur = this.lines.get(spec.id);
      const label = this.inView(spec.price);
      const options = {
        price: spec.price,
        color: spec.color,
        title: spec.title,
        lineWidth: 1 as const,
        lineStyle: LINE_STYLE[spec.style ?? 'solid'],
        axisLabelVisible: label,
      };
      if (cur === undefined) this.lines.set(spec.id, { spec, line: this.candles.createPriceLine(options), label });
      else if (
        cur.spec.price !== spec.price ||
        cur.spec.title !== spec.title ||
        cur.spec.color !== spec.color ||
        cur.spec.style !== spec.style
      ) {
        cur.line.applyOptions(options);
        cur.spec = spec;
        cur.label = label;
        cur.held = undefined;
      }
    }
    for (const [id, l] of this.lines) {
      if (keep.has(id)) continue;
      this.candles.removePriceLine(l.line);
      this.lines.delete(id);
      this.drag?.removed(id);
    }
    this.syncLabels();
  }

  /** Whether `price` is within the candles' visible price range (false before there is one). */
  private readonly inView = (price: number): boolean => {
    const y = this.candles.priceToCoordinate(price);
    return y !== null && y >= 0 && y <= this.chart.paneSize(0).height;
  };

  /** Each line's axis label on while its price is in view, off while not (see the header). */
  private syncLabels(): void {
    if (this.disposed) return;
    this.lastPrice.sync(this.inView);
    const shown: string[] = [];
    for (const [id, l] of this.lines) {
      const label = this.inView(l.held ?? l.spec.price);
      if (label !== l.label) {
        l.line.applyOptions({ axisLabelVisible: label });
        l.label = label;
      }
      // what the chart was told, read back from it
      if (l.line.options().axisLabelVisible) shown.push(id);
    }
    const text = shown.sort().join(' ');
    if (this.container.dataset.axisLabels !== text) this.container.dataset.axisLabels = text;
  }

  /** Ids of the price lines shown (tests, debugging). */
  priceLineIds(): string[] {
    return [...this.lines.keys()];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.labelTimer);
    this.drag?.dispose();
    this.pick?.dispose();
    this.sketch?.dispose();
    this.chart.unsubscribeCrosshairMove(this.onCrosshair);
    this.chart.timeScale().unsubscribeVisibleLogicalRangeChange(this.onRange);
    this.lines.clear();
    this.studies.dispose();
    this.fills.dispose();
    this.chart.remove();
  }

  // ---- internals

  /** The chart as drawing-layer.ts sees it. */
  private sketchHost(): DrawingHost {
    return {
      chart: this.chart,
      series: this.candles,
      times: () => this.times,
      pane: () => this.chart.paneSize(0),
      snap: (p) => {
        const s = snapPrice(p, this.tick, this.priceDecimals);
        return s === null ? null : Number(s);
      },
      format: (p) => this.candles.priceFormatter().format(p),
    };
  }

  /** The chart as line-drag.ts sees it. */
  private dragHost(): LineDragHost {
    return {
      movable: () => {
        const out: MovableLine[] = [];
        for (const [id, l] of this.lines)
          if (l.spec.movable)
            out.push({ id, price: l.spec.price, y: this.candles.priceToCoordinate(l.held ?? l.spec.price) });
        return out;
      },
      pane: () => this.chart.paneSize(0),
      priceAt: (y) => snapPrice(this.candles.coordinateToPrice(y), this.tick, this.priceDecimals),
      preview: (id, price) => {
        const l = this.lines.get(id);
        if (l === undefined || this.disposed) return;
        l.held = price === null ? undefined : Number(price);
        const p = l.held ?? l.spec.price;
        l.label = this.inView(p);
        l.line.applyOptions({ price: p, lineWidth: price === null ? 1 : 2, axisLabelVisible: l.label });
      },
    };
  }

  private hovering = false;

  private crosshair(p: MouseEventParams<Time>): void {
    // the "+" and the bell ride the candles' pane only, not an indicator's under it
    this.pick?.move(p.point === undefined || (p.paneIndex ?? 0) !== 0 ? null : p.point.y);
    const d = p.time === undefined ? undefined : (p.seriesData.get(this.candles) as CandlestickData<Time> | undefined);
    if (d === undefined || d.open === undefined) {
      this.hovering = false;
      this.emitLatest();
      return;
    }
    this.hovering = true;
    const v = p.seriesData.get(this.volume) as HistogramData<Time> | undefined;
    this.opts.onLegend?.({
      time: (d.time as number) * 1000,
      open: d.open,
      high: d.high,
      low: d.low,
      close: d.close,
      volume: v?.value ?? 0,
      latest: false,
      indicators: this.studies.readings(this.indexOf(d.time as number, p.logical)),
    });
  }

  private emitLatest(): void {
    const c = this.data[this.data.length - 1];
    if (c === undefined) {
      this.opts.onLegend?.(null);
      return;
    }
    this.opts.onLegend?.({
      time: c[0],
      open: Number(c[2]),
      high: Number(c[3]),
      low: Number(c[4]),
      close: Number(c[5]),
      volume: Number(c[6]),
      latest: true,
      indicators: this.studies.readings(this.data.length - 1),
    });
  }

  /** The index in `data` of the bar opened at `sec` (the crosshair's logical index, checked, else a search). */
  private indexOf(sec: number, logical: number | undefined): number {
    const at = logical === undefined ? -1 : Math.round(logical);
    return this.times[at] === sec * 1000 ? at : barAtOrBefore(this.times, sec * 1000);
  }

  private rangeChanged(r: LogicalRange | null): void {
    // the labels are cached by time, not by place: drop them so the ones at the edges are judged again
    this.chart.applyOptions({ timeScale: { tickMarkFormatter: this.edgeLabels } });
    if (r === null || this.data.length === 0) return;
    if (r.from < (this.opts.olderThreshold ?? 15)) this.opts.onNeedOlder?.();
  }
}
