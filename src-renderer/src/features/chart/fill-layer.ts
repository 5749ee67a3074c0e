// The account's fills on the chart's candles (fill-marks.ts groups them): an arrow up under the bar
// for the buys in it, an arrow down over it for the sells, with the quantity ("B 0.012") where it
// has room: marks of one side closer than their text is wide show the arrow alone (a bot filling
// on every bar drew a smear of overlapping figures), and zooming in brings the text back. Redone
// when the fills or the bars change (another interval groups them anew), or the zoom changes how
// many bars a text spans.
import {
  createSeriesMarkers,
  type ITimeScaleApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { Side } from '../../../../src-shared/enums.ts';
import { CHART_COLORS, charWidth } from './chart-style.ts';
import { barMarks, labelledMarks, takesFills, type BarMark, type FillMark } from './fill-marks.ts';

/** Room between two texts, px. */
const TEXT_GAP_PX = 6;

export class FillLayer {
  private readonly markers: ISeriesMarkersPluginApi<Time>;
  private fills: readonly FillMark[] = [];
  private qtyText: (q: number) => string = String;
  private shown = '';
  private readonly timeScale: ITimeScaleApi<Time>;
  private times: readonly number[] = [];
  private marks: BarMark[] = [];
  /** The longest text drawn, in characters. */
  private widest = 0;
  /** How many bars apart two texts of one side must be at the zoom they were drawn for. */
  private minGap = 0;

  constructor(series: ISeriesApi<'Candlestick'>, timeScale: ITimeScaleApi<Time>) {
    this.markers = createSeriesMarkers(series, []);
    this.timeScale = timeScale;
    timeScale.subscribeVisibleLogicalRangeChange(this.zoomed);
  }

  /** The fills to mark, and how a quantity is written (the pair's decimals). */
  setFills(fills: readonly FillMark[], qtyText: (q: number) => string, times: readonly number[]): void {
    this.fills = fills;
    this.qtyText = qtyText;
    this.draw(times);
  }

  /** The bars changed: all of them (`newBar` undefined) or a new one appended at that open time. */
  barsChanged(times: readonly number[], newBar?: number): void {
    if (this.fills.length === 0 && this.shown === '') return;
    if (newBar !== undefined && !takesFills(newBar, this.fills)) return;
    this.draw(times);
  }

  /** The marks of the bar opened at `time` (ms), its buys before its sells, as last drawn: the legend's. */
  at(time: number): BarMark[] {
    return this.marks.filter((m) => m.time === time);
  }

  /** The marks drawn, `B:<time>:<qty>` / `S:...`, for tests. */
  get drawn(): string {
    return this.shown;
  }

  dispose(): void {
    this.timeScale.unsubscribeVisibleLogicalRangeChange(this.zoomed);
    this.markers.detach();
  }

  /** How many bars the longest text spans at the current zoom, with room between two. */
  private gap(): number {
    const spacing = this.timeScale.options().barSpacing;
    return spacing > 0 ? Math.ceil((this.widest * charWidth() + TEXT_GAP_PX) / spacing) : 1;
  }

  /** A scroll or a zoom: drawn again only when the zoom changed how many bars a text spans. */
  private readonly zoomed = (): void => {
    if (this.shown !== '' && this.gap() !== this.minGap) this.draw(this.times);
  };

  private textOf(side: Side, qty: number): string {
    return `${side === Side.BUY ? 'B' : 'S'} ${this.qtyText(qty)}`;
  }

  private draw(times: readonly number[]): void {
    this.times = times;
    const marks = barMarks(times, this.fills);
    this.marks = marks;
    const texts = marks.map((m) => this.textOf(m.side, m.qty));
    this.widest = texts.reduce((w, t) => Math.max(w, t.length), 0);
    this.minGap = this.gap();
    const labelled = labelledMarks(marks, times, this.minGap);
    this.markers.setMarkers(
      marks.map((m, i) => {
        const buy = m.side === Side.BUY;
        return {
          time: Math.floor(m.time / 1000) as UTCTimestamp,
          position: buy ? 'belowBar' : 'aboveBar',
          shape: buy ? 'arrowUp' : 'arrowDown',
          color: buy ? CHART_COLORS.up : CHART_COLORS.down,
          text: labelled[i] ? texts[i] : '',
          size: 1,
        };
      }),
    );
    this.shown = marks.map((m) => `${m.side === Side.BUY ? 'B' : 'S'}:${m.time}:${this.qtyText(m.qty)}`).join(' ');
  }
}
