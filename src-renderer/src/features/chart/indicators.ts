// The chart's technical indicators, computed from its candles: moving average (MA), exponential
// moving average (EMA), Bollinger bands (BOLL), volume-weighted average price (VWAP) over the UTC
// day, relative strength index (RSI) and MACD, with the formulas trading terminals use (TradingView's
// `ta.*`, which Binance's chart follows):
//
// - MA(n): the mean of the last n closes.
// - EMA(n): alpha = 2 / (n + 1); its first value, at the n-th close, is the MA(n) there, then
//   alpha * close + (1 - alpha) * the previous EMA.
// - BOLL(n, k): the MA(n), and k population standard deviations of the same n closes above and below.
// - VWAP: the sum of typical price (high + low + close) / 3 times volume over the sum of volume, both
//   from the first bar of the bar's UTC day (a bar of a day or longer is its own anchor, so its VWAP
//   is its typical price; a day with no volume yet shows the typical price).
// - RSI(n): Wilder's averages of the gains and of the losses of the closes' changes, the first one
//   the plain mean of the first n changes, then (previous * (n - 1) + this one) / n;
//   100 - 100 / (1 + gain / loss), 100 when the loss average is 0, 0 when the gain average is.
// - MACD(f, s, g): EMA(f) - EMA(s) of the closes, its signal the EMA(g) of the MACD (its first value
//   the mean of the first g MACD values), the histogram the MACD less the signal.
//
// A value that the history loaded does not reach yet (fewer bars than the period) is NaN, not drawn.
// Each indicator works bar by bar (`step`): bar i from bar i's candle and the values at i - 1, so a
// live update of the newest bar costs one step, and the whole set (a new pair, older history
// loaded) is the same steps from the first bar: the two always agree. No DOM here (unit tests).

/** A candle as the indicators read it: open time (ms) and numbers. */
export interface IndicatorBar {
  time: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export type IndicatorKind = 'ma' | 'ema' | 'boll' | 'vwap' | 'rsi' | 'macd';

/** Where an indicator is drawn: over the candles, or in a pane of its own under them. */
type IndicatorPlace = 'overlay' | 'pane';

/** What each kind draws and takes. */
export interface IndicatorKindInfo {
  name: string;
  place: IndicatorPlace;
  /** Its lines' names (the legend's order); MACD's last one is a histogram. */
  lines: readonly string[];
  /** Its parameters' names, in order (none for VWAP). */
  params: readonly string[];
  /** Whether its values are prices (the pair's decimals) rather than an index (RSI: 2 decimals). */
  priced: boolean;
}

export const INDICATOR_KINDS: Readonly<Record<IndicatorKind, IndicatorKindInfo>> = {
  ma: { name: 'MA', place: 'overlay', lines: ['MA'], params: ['Period'], priced: true },
  ema: { name: 'EMA', place: 'overlay', lines: ['EMA'], params: ['Period'], priced: true },
  boll: {
    name: 'BOLL',
    place: 'overlay',
    lines: ['Middle', 'Upper', 'Lower'],
    params: ['Period', 'Deviations'],
    priced: true,
  },
  vwap: { name: 'VWAP', place: 'overlay', lines: ['VWAP'], params: [], priced: true },
  rsi: { name: 'RSI', place: 'pane', lines: ['RSI'], params: ['Period'], priced: false },
  macd: {
    name: 'MACD',
    place: 'pane',
    lines: ['MACD', 'Signal', 'Histogram'],
    params: ['Fast', 'Slow', 'Signal'],
    priced: true,
  },
};

const DAY_MS = 86_400_000;

/**
 * Whether VWAP starts anew after bar i within intraday bars: bar i + 1 opens another UTC day than
 * bar i, and bar i is not a day's (or longer) bar. The line is drawn broken there, not as a jump
 * from one day's average to the next day's first price (bars of a day or longer are each their own
 * day, and their line runs on).
 */
export function vwapBreakAfter(bars: readonly { time: number }[], i: number): boolean {
  const a = bars[i];
  const b = bars[i + 1];
  if (a === undefined || b === undefined) return false;
  return Math.floor(a.time / DAY_MS) !== Math.floor(b.time / DAY_MS) && a.time % DAY_MS !== 0;
}

/** The values of one indicator, a line per array, an element per bar (NaN: none there). */
export type IndicatorLines = number[][];

/** The mean of `src` over the `n` elements ending at `i` (all of them there). */
function meanEnding(src: readonly number[], i: number, n: number): number {
  let sum = 0;
  for (let j = i - n + 1; j <= i; j++) sum += src[j];
  return sum / n;
}

/**
 * The EMA(n) at i of `src`, whose values exist from `first`: NaN before its n-th value, the mean of
 * the first n there, then from `prev` (the EMA at i - 1).
 */
function emaAt(src: readonly number[], i: number, n: number, first: number, prev: number): number {
  const seed = first + n - 1;
  if (!(i >= seed)) return NaN;
  if (i === seed) return meanEnding(src, i, n);
  const alpha = 2 / (n + 1);
  return alpha * src[i] + (1 - alpha) * prev;
}

/** One indicator's running values over a set of bars. */
export class IndicatorSeries {
  readonly kind: IndicatorKind;
  readonly params: readonly number[];
  /** The values drawn: INDICATOR_KINDS[kind].lines, in order. */
  readonly lines: IndicatorLines;
  /** Running sums and averages the next step starts from (VWAP's, RSI's, MACD's EMAs). */
  private readonly state: number[][];
  /** The closes, as the MA, BOLL and EMA seeds read them. */
  private readonly closes: number[] = [];

  constructor(kind: IndicatorKind, params: readonly number[]) {
    this.kind = kind;
    this.params = params;
    this.lines = INDICATOR_KINDS[kind].lines.map(() => []);
    this.state = [[], []];
  }

  /** Every value anew from these bars (ascending by time). */
  compute(bars: readonly IndicatorBar[]): void {
    this.truncate(0);
    for (let i = 0; i < bars.length; i++) this.step(bars, i);
  }

  /**
   * The newest bar changed or a newer one came: its values from the bar before's. `bars` is the set
   * computed before with its last bar replaced or one appended.
   */
  update(bars: readonly IndicatorBar[]): void {
    const i = bars.length - 1;
    if (i < 0) return;
    if (i > this.closes.length) {
      this.compute(bars);
      return;
    }
    this.truncate(i);
    this.step(bars, i);
  }

  /** The values at bar i, in the order of the kind's lines. */
  valuesAt(i: number): number[] {
    return this.lines.map((l) => l[i] ?? NaN);
  }

  private truncate(n: number): void {
    this.closes.length = Math.min(this.closes.length, n);
    for (const l of this.lines) l.length = Math.min(l.length, n);
    for (const s of this.state) s.length = Math.min(s.length, n);
  }

  private step(bars: readonly IndicatorBar[], i: number): void {
    const b = bars[i];
    this.closes[i] = b.close;
    const p = this.params;
    switch (this.kind) {
      case 'ma':
        this.lines[0][i] = i >= p[0] - 1 ? meanEnding(this.closes, i, p[0]) : NaN;
        return;
      case 'ema':
        this.lines[0][i] = emaAt(this.closes, i, p[0], 0, this.lines[0][i - 1]);
        return;
      case 'boll':
        this.boll(i);
        return;
      case 'vwap':
        this.vwap(bars, i);
        return;
      case 'rsi':
        this.rsi(i);
        return;
      case 'macd':
        this.macd(i);
    }
  }

  private boll(i: number): void {
    const [n, k] = this.params;
    if (i < n - 1) {
      for (const l of this.lines) l[i] = NaN;
      return;
    }
    const mid = meanEnding(this.closes, i, n);
    let sq = 0;
    for (let j = i - n + 1; j <= i; j++) sq += (this.closes[j] - mid) ** 2;
    const sd = Math.sqrt(sq / n);
    this.lines[0][i] = mid;
    this.lines[1][i] = mid + k * sd;
    this.lines[2][i] = mid - k * sd;
  }

  private vwap(bars: readonly IndicatorBar[], i: number): void {
    const b = bars[i];
    const typical = (b.high + b.low + b.close) / 3;
    const [pv, v] = this.state;
    const sameDay = i > 0 && Math.floor(bars[i - 1].time / DAY_MS) === Math.floor(b.time / DAY_MS);
    pv[i] = (sameDay ? pv[i - 1] : 0) + typical * b.volume;
    v[i] = (sameDay ? v[i - 1] : 0) + b.volume;
    this.lines[0][i] = v[i] > 0 ? pv[i] / v[i] : typical;
  }

  private rsi(i: number): void {
    const n = this.params[0];
    const [gain, loss] = this.state;
    if (i < n) {
      gain[i] = NaN;
      loss[i] = NaN;
      this.lines[0][i] = NaN;
      return;
    }
    const change = (j: number): number => this.closes[j] - this.closes[j - 1];
    if (i === n) {
      let g = 0;
      let l = 0;
      for (let j = 1; j <= n; j++) {
        const d = change(j);
        if (d > 0) g += d;
        else l -= d;
      }
      gain[i] = g / n;
      loss[i] = l / n;
    } else {
      const d = change(i);
      gain[i] = (gain[i - 1] * (n - 1) + Math.max(d, 0)) / n;
      loss[i] = (loss[i - 1] * (n - 1) + Math.max(-d, 0)) / n;
    }
    this.lines[0][i] = loss[i] === 0 ? 100 : gain[i] === 0 ? 0 : 100 - 100 / (1 + gain[i] / loss[i]);
  }

  private macd(i: number): void {
    const [f, s, g] = this.params;
    const [fast, slow] = this.state;
    const [macd, signal, hist] = this.lines;
    fast[i] = emaAt(this.closes, i, f, 0, fast[i - 1]);
    slow[i] = emaAt(this.closes, i, s, 0, slow[i - 1]);
    macd[i] = fast[i] - slow[i];
    signal[i] = emaAt(macd, i, g, Math.max(f, s) - 1, signal[i - 1]);
    hist[i] = macd[i] - signal[i];
  }
}
