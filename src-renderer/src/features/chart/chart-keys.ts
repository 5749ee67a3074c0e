// The chart from the keyboard, once it has the focus (a Tab stop, role "application" named by the
// pair and interval): ← / → scroll back / forward in time by a tenth of the bars in view (with
// Shift half of them), + / − zoom in / out about the right edge, Home goes to the first candle
// loaded (older ones load from there, as a drag left does), End back to the latest. The keys act
// on lightweight-charts' time scale, as the mouse's drag and wheel do. The chart's summary (what a
// screen reader hears) is the candle at the view's right edge: the latest one unless scrolled back.
import {
  MismatchDirection,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type Time,
} from 'lightweight-charts';
import { fmt, fmtDateTime } from '../../lib/format.ts';

/** The zoom of one + (one − undoes it). */
const ZOOM = 1.25;
/** The fewest bars a zoom in leaves in view. */
const MIN_BARS = 10;

/** Pans or zooms the chart for `key`; whether it was one of the chart's keys. */
export function chartKey(chart: IChartApi, key: string, shift: boolean): boolean {
  const ts = chart.timeScale();
  const r = ts.getVisibleLogicalRange();
  if (r === null) return false;
  const bars = r.to - r.from;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowRight': {
      const step = Math.max(1, Math.round(bars / (shift ? 2 : 10)));
      ts.scrollToPosition(ts.scrollPosition() + (key === 'ArrowLeft' ? -step : step), false);
      return true;
    }
    case '+':
    case '=':
      ts.setVisibleLogicalRange({ from: r.to - Math.max(MIN_BARS, bars / ZOOM), to: r.to });
      return true;
    case '-':
    case '_':
      ts.setVisibleLogicalRange({ from: r.to - bars * ZOOM, to: r.to });
      return true;
    case 'Home':
      ts.setVisibleLogicalRange({ from: 0, to: bars });
      return true;
    case 'End':
      // (not scrollToRealTime, which glides there: the summary is read at once)
      ts.scrollToPosition(ts.options().rightOffset, false);
      return true;
    default:
      return false;
  }
}

/**
 * What a screen reader hears of the chart: the pair, the interval and the candle at the view's
 * right edge (open time, OHLC), "latest" when it is the last one; '' before there is any.
 */
export function chartSummary(
  chart: IChartApi,
  candles: ISeriesApi<'Candlestick'>,
  label: { symbol: string; interval: string; pd: number },
): string {
  const r = chart.timeScale().getVisibleLogicalRange();
  const last = candles.data().length - 1;
  if (r === null || last < 0) return '';
  const at = Math.max(0, Math.min(last, Math.floor(r.to)));
  const c = candles.dataByIndex(at, MismatchDirection.NearestLeft) as CandlestickData<Time> | null;
  if (c === null) return '';
  const when = fmtDateTime((c.time as number) * 1000).slice(0, label.interval === '1s' ? 19 : 16);
  const p = (v: number): string => fmt(v, label.pd);
  return (
    `${label.symbol} ${label.interval}, ${at === last ? 'latest' : 'scrolled back to the'} candle of ${when}: ` +
    `open ${p(c.open)}, high ${p(c.high)}, low ${p(c.low)}, close ${p(c.close)}`
  );
}

/** The least wall time between two summaries the chart's live region says of itself, as candles open. */
export const SAY_CANDLES_EVERY_MS = 30_000;

/**
 * When the chart's live region speaks: at once after the trader's own act (a chart key) and for
 * another pair or interval, but for a candle that opened meanwhile only when
 * {@link SAY_CANDLES_EVERY_MS} have passed since it last spoke. A 1m chart at the market's own pace
 * says each new candle, as before; a 1s chart, or a replay at 1000x whose 1m candles open 16 times a
 * second, said a sentence of OHLC every second or faster, so a screen reader never got to anything
 * else. The chart's description (read with its name on focus) is the summary as it stands.
 */
export class ChartVoice {
  private at = -Infinity;
  private topic = '';
  private last = '';

  /** Whether `text`, the summary of `topic` (pair and interval) at `now` (ms), is said now. */
  say(text: string, topic: string, now: number, asked: boolean): boolean {
    if (text === '' || text === this.last) return false;
    if (!asked && topic === this.topic && now - this.at < SAY_CANDLES_EVERY_MS) return false;
    this.at = now;
    this.topic = topic;
    this.last = text;
    return true;
  }
}
