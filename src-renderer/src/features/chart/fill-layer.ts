// The account's fills on the chart's candles (fill-marks.ts groups them): an arrow up under the bar
// for the buys in it, an arrow down over it for the sells, with the quantity ("B 0.012"). Redone
// when the fills or the bars change (another interval groups them anew).
import {
  createSeriesMarkers,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { Side } from '../../../../src-shared/enums.ts';
import { CHART_COLORS } from './chart-style.ts';
import { barMarks, takesFills, type FillMark } from './fill-marks.ts';

export class FillLayer {
  private readonly markers: ISeriesMarkersPluginApi<Time>;
  private fills: readonly FillMark[] = [];
  private qtyText: (q: number) => string = String;
  private shown = '';

  constructor(series: ISeriesApi<'Candlestick'>) {
    this.markers = createSeriesMarkers(series, []);
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

  /** The marks drawn, `B:<time>:<qty>` / `S:...`, for tests. */
  get drawn(): string {
    return this.shown;
  }

  dispose(): void {
    this.markers.detach();
  }

  private draw(times: readonly number[]): void {
    const marks = barMarks(times, this.fills);
    this.markers.setMarkers(
      marks.map((m) => {
        const buy = m.side === Side.BUY;
        return {
          time: Math.floor(m.time / 1000) as UTCTimestamp,
          position: buy ? 'belowBar' : 'aboveBar',
          shape: buy ? 'arrowUp' : 'arrowDown',
          color: buy ? CHART_COLORS.up : CHART_COLORS.down,
          text: `${buy ? 'B' : 'S'} ${this.qtyText(m.qty)}`,
          size: 1,
        };
      }),
    );
    this.shown = marks.map((m) => `${m.side === Side.BUY ? 'B' : 'S'}:${m.time}:${this.qtyText(m.qty)}`).join(' ');
  }
}
