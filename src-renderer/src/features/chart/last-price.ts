// The last price's label on the chart's price axis. lightweight-charts labels a candlestick
// series with the close of the last candle in view, not of the newest one (its axis view reads
// `lastValueData(false)`, while the dashed price line reads the last bar), so a chart scrolled
// back in time showed an old candle's close, "92,580.1" in red, beside the dashed line of the last
// price, 95,991.4, until 2026-12-07 (`e2e/chart-last-price.spec.ts`). The series' own label is
// off (chart-model.ts); this price line, with no line of its own, labels the newest candle's close
// in its colour, the series' dashed line beside it. Off the visible price range it shows no label,
// as the other lines' labels (the model's syncLabels).
import type { IPriceLine, ISeriesApi } from 'lightweight-charts';
import type { Candle } from '../../../../src-shared/types.ts';
import { CHART_COLORS } from './chart-style.ts';

export class LastPriceLabel {
  private line: IPriceLine | null = null;
  private price = NaN;
  private color = '';
  private label = false;
  private readonly series: ISeriesApi<'Candlestick'>;

  constructor(series: ISeriesApi<'Candlestick'>) {
    this.series = series;
  }

  /** Labels the newest candle's close (none: no label), in its colour. */
  follow(newest: Candle | undefined, inView: (price: number) => boolean): void {
    if (newest === undefined) {
      if (this.line !== null) this.series.removePriceLine(this.line);
      this.line = null;
      this.price = NaN;
      return;
    }
    const price = Number(newest[5]);
    const color = price >= Number(newest[2]) ? CHART_COLORS.up : CHART_COLORS.down;
    const label = inView(price);
    // a push that moves none of them (most of a candle's trades) costs the chart nothing
    if (this.line !== null && price === this.price && color === this.color && label === this.label) return;
    this.price = price;
    this.color = color;
    this.label = label;
    const options = { price, color, lineVisible: false, axisLabelVisible: label, title: '' };
    if (this.line === null) this.line = this.series.createPriceLine(options);
    else this.line.applyOptions(options);
  }

  /** The label on while the price is in view, off while not (the range moves with zoom and drags). */
  sync(inView: (price: number) => boolean): void {
    if (this.line === null) return;
    const label = inView(this.price);
    if (label === this.label) return;
    this.label = label;
    this.line.applyOptions({ axisLabelVisible: label });
  }
}
