// Which datasets a replay reads for each symbol (docs/replay.md "What a replayed pair is made
// of"): the richest data there is decides the pair's source (an L2 depth dataset, else trades /
// aggTrades, else klines), beside the mark, index, premium and funding datasets when there are
// any. Of several datasets of a kind, the one covering the span asked for is read (else one with
// data within it: from the start, else the first to begin), USD-M preferred, then the finest
// interval. The plan is checked against the start and until asked for (RangeError naming the
// symbol and what is wrong: a start before or after all the symbol's data of the kind, or a span
// in a gap between its datasets, naming them), and the pairs' data must overlap in time.
// A start earlier on the UTC day of the main data's first event starts at that event
// (replayStart); a span with no row of the main data in it is refused (checkSpanRows), which
// reads the data, where the plan itself reads only the datasets' extents (and rows for specs).
// Datasets pinned by id (pins.ts) replace the choice for their role: a pinned depth, trades or
// klines dataset makes the pair's source that kind (the richest pinned), and the span checks are
// then made on it alone, naming it; a pinned mark, index, premium or funding dataset must have
// data within the span (it would not be read otherwise).
import type { HistCandle, HistTrade, ReplayData, ReplayDataset, ReplaySpecs } from './ports.ts';
import { datasetName, resolvePins, roleOf, type Pins } from './pins.ts';
import { dataSpecs } from './specs.ts';
import {
  autoMain,
  coverage,
  endOf,
  INTERVAL_MS,
  klinesBeside,
  preferUm,
  smallest,
  tradesBeside,
} from '../../src-shared/replay-pick.ts';

export { INTERVAL_MS };

export type SourceKind = 'depth' | 'trades' | 'klines';

/** What one replayed symbol is made from. */
export interface SymbolSource {
  symbol: string;
  kind: SourceKind;
  depth: ReplayDataset | null;
  trades: ReplayDataset | null;
  klines: ReplayDataset | null;
  mark: ReplayDataset | null;
  index: ReplayDataset | null;
  funding: ReplayDataset | null;
  /** premiumIndexKlines: the funding rate is derived from them when there is no fundingRate dataset. */
  premium: ReplayDataset | null;
  /** The specs the pair is listed with (from the main dataset). */
  specs: ReplaySpecs;
  /** ms after the last event of the main data. */
  end: number;
  /** The main dataset was pinned (pins.ts): span refusals name it. */
  mainPinned?: boolean;
}

/** The span a replay asks for: [start, until], until = Infinity when open-ended (to the data's end). */
interface Span {
  start: number;
  until: number;
}

const spanOf = (start: number, until?: number): Span => ({
  start,
  until: until === undefined ? Number.POSITIVE_INFINITY : Math.max(start, until),
});

/**
 * Whether a dataset has data within the span (coverage 0 to 2). A mark, index, premium or funding
 * dataset with none (another year's) is not read: the replay runs as without it (its documented
 * default: the mark from the prints, funding every 8 h), rather than a mark frozen at the
 * dataset's last candle or no funding settled at all.
 */
function within(d: ReplayDataset, span: Span): boolean {
  return coverage(d, span) < 3;
}

const iso = (t: number): string => new Date(t).toISOString();

const DAY = 86_400_000;
const sameUtcDay = (a: number, b: number): boolean => Math.floor(a / DAY) === Math.floor(b / DAY);

/** The datasets of a kind a source kind reads (the main data's kinds). */
const SOURCE_KINDS: Readonly<Record<SourceKind, readonly string[]>> = {
  depth: ['depth'],
  trades: ['trades', 'aggTrades'],
  klines: ['klines'],
};

/** A symbol's main data for a span (the richest kind there is) and its datasets of each kind. */
interface Chosen {
  symbol: string;
  kind: SourceKind;
  main: ReplayDataset;
  depth: ReplayDataset | null;
  trades: ReplayDataset | null;
  klines: ReplayDataset | null;
  /** The main dataset was pinned. */
  mainPinned: boolean;
}

/** The pinned main dataset of a symbol: the richest pinned (depth, else trades, else klines), or null. */
function pinnedMain(pins: Pins): ReplayDataset | null {
  return pins.depth ?? pins.trades ?? pins.klines ?? null;
}

/**
 * The datasets of a symbol's main data for a span: null when it has no depth, trades or klines.
 * A pinned main dataset decides the kind (a pinned klines dataset replays klines, trades or not):
 * the richer kinds are then not read, and the other roles prefer its market.
 */
function chooseMain(symbol: string, all: ReplayDataset[], span: Span, pins: Pins = {}): Chosen | null {
  const pinned = pinnedMain(pins);
  if (pinned === null) {
    const auto = autoMain(all, span);
    return auto === null ? null : { symbol, ...auto, mainPinned: false };
  }
  const kind: SourceKind = pins.depth ? 'depth' : pins.trades ? 'trades' : 'klines';
  const m = pinned.market;
  // (beside a pinned depth dataset, trades with data in its span: tradesBeside)
  const trades = kind === 'klines' ? null : (pins.trades ?? tradesBeside(all, span, pinned, m));
  // (a pinned klines dataset is the main one, or checked beside it in planSymbol)
  const klines = pins.klines ?? klinesBeside(all, span, pinned, m);
  return { symbol, kind, main: pinned, depth: pins.depth ?? null, trades, klines, mainPinned: true };
}

/** The main data of a symbol's source kind the checks are made on: the pinned dataset alone, else all of the kind. */
function mainList(all: ReplayDataset[], c: Chosen): ReplayDataset[] {
  return c.mainPinned ? [c.main] : datasetsOf(all, c.kind);
}

/** ms after the last row of a main dataset: its last candle's end, else 1 ms after its last event. */
function mainEnd(d: ReplayDataset): number {
  return d.kind === 'klines' ? d.lastTime! + INTERVAL_MS[d.interval] : d.lastTime! + 1;
}

/**
 * Where a replay asked to start at `start` starts: at the latest first event of the symbols'
 * main data (all their datasets of the kind) when it falls later on the same UTC day as `start` (`--replay TRXUSDT@2025-04-14` on
 * a recording whose first event is at 00:00:00.061: there is no market before it, and no price
 * but a later one), else at `start` (a start further before the data is refused by the plan).
 */
export function replayStart(
  data: ReplayData,
  symbols: readonly string[],
  start: number,
  until?: number,
  pinIds?: readonly number[],
): number {
  const pins = resolvePins(data, symbols, pinIds);
  let out = start;
  for (const symbol of symbols) {
    const all = data.datasets(symbol);
    const c = chooseMain(symbol, all, spanOf(start, until), pins.get(symbol));
    // the first event of all the symbol's data of that kind (of the pinned dataset): a start in a
    // gap between two of its datasets is no start before the data (it shows the last price before the gap, Session)
    const first = c === null ? null : extentOf(mainList(all, c)).first;
    if (first !== null && first > out && sameUtcDay(first, start)) out = first;
  }
  return out;
}

/** A symbol's datasets of a source kind a replay can read (klines of a fixed-length interval, as smallest() picks them). */
function datasetsOf(all: ReplayDataset[], kind: SourceKind): ReplayDataset[] {
  return all.filter(
    (d) =>
      SOURCE_KINDS[kind].includes(d.kind) &&
      d.lastTime !== null &&
      (d.kind !== 'klines' || INTERVAL_MS[d.interval] !== undefined),
  );
}

/**
 * The end a refusal names (its "to"): a candle dataset's last candle's end, an event dataset's last
 * event, as the catalogue's last_time (its end, 1 ms later, read as the start refused).
 */
function shownEnd(d: ReplayDataset): number {
  return INTERVAL_MS[d.interval] === undefined ? d.lastTime! : endOf(d);
}

/** The extent of main datasets together (a symbol's data of a source kind): [first, end), and the end named. */
function extentOf(same: ReplayDataset[]): { first: number; end: number; shown: number } {
  return {
    first: Math.min(...same.map((d) => d.firstTime!)),
    end: Math.max(...same.map(mainEnd)),
    shown: Math.max(...same.map(shownEnd)),
  };
}

/** The datasets named in a refusal: `spot 1m klines from ... to ...`, in time order. */
function namedSpans(list: ReplayDataset[]): string {
  return [...list]
    .sort((a, b) => a.firstTime! - b.firstTime!)
    .map(
      (d) =>
        `${d.market} ${d.interval === '' ? '' : `${d.interval} `}${d.kind} from ${iso(d.firstTime!)} to ${iso(shownEnd(d))}`,
    )
    .join(', ');
}

/**
 * A symbol's main data for a span, checked against its start: RangeError naming what is wrong.
 * What is refused is said of all the symbol's data of the kind (every dataset): a start before
 * the first of them, after the last, or a span lying in a gap between them. A start in such a gap
 * with data within the span is replayed from the dataset where the data resumes (docs/replay.md,
 * Session: started in a gap, the pair shows the last price before it until the data resumes).
 */
function chooseChecked(symbol: string, all: ReplayDataset[], span: Span, pins?: Pins): Chosen {
  const c = chooseMain(symbol, all, span, pins);
  if (c === null) throw new RangeError(`${symbol} has no depth, trades or klines dataset to replay`);
  const { main, kind } = c;
  const cover = coverage(main, span);
  if (cover <= 1) return c;
  const list = mainList(all, c);
  const x = extentOf(list);
  const several = list.length > 1 ? ` (${list.length} datasets: ${namedSpans(list)})` : '';
  // (of several datasets, the source's kind: trades and aggTrades together)
  const what = list.length > 1 ? kind : main.kind;
  const subject = c.mainPinned ? `the pinned ${datasetName(main)}` : `the ${what} data of ${symbol}`;
  if (x.first > span.start) {
    throw new RangeError(
      `${subject} starts at ${iso(x.first)}, after the replay start ` +
        `(${iso(span.start)}; a start earlier on that UTC day starts at its first event)${several}`,
    );
  }
  if (x.end <= span.start) {
    throw new RangeError(
      `${subject} ends before the replay start (${iso(span.start)}): it runs from ` +
        `${iso(x.first)} to ${iso(x.shown)}${several}`,
    );
  }
  // the start lies in a gap between datasets (none covers it: each ends before it or begins after it)
  if (cover === 2) return c;
  const stops = Math.max(...list.filter((d) => d.firstTime! <= span.start).map(shownEnd));
  const resumes = Math.min(...list.filter((d) => d.firstTime! > span.start).map((d) => d.firstTime!));
  throw new RangeError(
    `${symbol} has no ${kind} data from ${iso(span.start)} to ${iso(span.until)}: the span lies in a gap of its ` +
      `data, which stops at ${iso(stops)} and resumes at ${iso(resumes)}; none of its ${list.length} ${kind} ` +
      `datasets has data in it: ${namedSpans(list)}`,
  );
}

/**
 * A pinned dataset beside the main one (mark, index, premium, funding; trades beside depth, klines),
 * checked to have data within the span replayed (`to` names its end), as it would not be read
 * otherwise (RangeError naming it).
 */
function pinnedWithin(d: ReplayDataset | undefined, span: Span, to: string): ReplayDataset | undefined {
  if (d === undefined || within(d, span)) return d;
  throw new RangeError(
    `the pinned ${datasetName(d)} has no data from the replay start (${iso(span.start)}) to ${to}: ` +
      `it runs from ${iso(d.firstTime!)} to ${iso(shownEnd(d))}`,
  );
}

/**
 * An L2 pair's book is built from a REST snapshot, the diffs after it only change it: a depth
 * dataset with no snapshot up to the end of the span played (a recorder's diff stream alone) would
 * leave the book empty for the whole replay, every market order expiring unfilled. Refused
 * (RangeError naming the dataset and the trades that can be replayed instead), an index look-up.
 */
function checkBookAnchor(data: ReplayData, depth: ReplayDataset, trades: ReplayDataset | null, played: Span): void {
  if (data.depthAnchor === undefined || data.depthAnchor(depth.id, played.until) !== null) return;
  const instead =
    trades === null
      ? 'import a REST snapshot of the book into it, or replay trades or klines of the pair'
      : `import a REST snapshot of the book into it, or replay the trades alone: pin ${datasetName(trades)}`;
  throw new RangeError(
    `the ${datasetName(depth)} holds no order book snapshot up to ${iso(Math.min(played.until, shownEnd(depth)))}: ` +
      `its diffs alone cannot build the book, which would stay empty for the whole replay; ${instead}`,
  );
}

/** One symbol's plan; RangeError when it has nothing to replay or its data misses the start. */
function planSymbol(data: ReplayData, symbol: string, span: Span, pins: Pins = {}): SymbolSource {
  const all = data.datasets(symbol);
  const { depth, trades, klines, kind, main, mainPinned } = chooseChecked(symbol, all, span, pins);
  // the span the other roles are read over: the one replayed, which ends with the main data at
  // the latest (a funding dataset beginning after it, open-ended span or not, would settle
  // nothing in the replay but show its first row, weeks away, as the next funding time)
  const played: Span = { start: span.start, until: Math.min(span.until, mainEnd(main)) };
  const to = played.until < span.until ? `the end of the data (${iso(shownEnd(main))})` : iso(span.until);
  const pinned = (d: ReplayDataset | undefined): ReplayDataset | undefined => pinnedWithin(d, played, to);
  // pinned beside the main dataset (trades beside depth, klines beside either): data within the span too
  for (const d of [depth, trades, klines]) if (d !== main && d !== null && d === pins[roleOf(d)]) pinned(d);
  if (depth !== null) checkBookAnchor(data, depth, trades, played);
  const specs = main.specsSource === 'inferred' ? dataSpecs(data, main, trades) : main.specs;
  const aux = all.filter((d) => d.lastTime !== null && within(d, played));
  // the roles not pinned prefer a pinned main dataset's market (USD-M otherwise)
  const m = mainPinned ? main.market : 'um';
  return {
    symbol,
    kind,
    depth,
    trades,
    klines,
    mark: pinned(pins.mark) ?? smallest(aux, 'markPriceKlines', played, m),
    index: pinned(pins.index) ?? smallest(aux, 'indexPriceKlines', played, m),
    funding: pinned(pins.funding) ?? preferUm(aux, ['fundingRate'], played, m),
    premium: pinned(pins.premium) ?? smallest(aux, 'premiumIndexKlines', played, m),
    specs,
    end: mainEnd(main),
    ...(mainPinned ? { mainPinned } : {}),
  };
}

/**
 * Chooses each symbol's datasets (docs/replay.md "Market"), those pinned by id (`pinIds`, pins.ts)
 * for their roles: RangeError naming the symbol (or the pinned dataset) when it has nothing to
 * replay or its data does not reach past `start`.
 */
export function planSources(
  data: ReplayData,
  symbols: readonly string[],
  start: number,
  until?: number,
  pinIds?: readonly number[],
): SymbolSource[] {
  if (symbols.length === 0) throw new RangeError('a replay needs at least one symbol');
  if (new Set(symbols).size !== symbols.length) throw new RangeError('a replay lists each symbol once');
  const pins = resolvePins(data, symbols, pinIds);
  // replayed together, the pairs' data (all their datasets of the kind they are replayed from, or
  // the pinned one) must share some time: checked first, as no start can mend it
  const span = spanOf(start, until);
  const chosen = symbols.map((symbol) => {
    const all = data.datasets(symbol);
    const c = chooseMain(symbol, all, span, pins.get(symbol));
    if (c === null) throw new RangeError(`${symbol} has no depth, trades or klines dataset to replay`);
    return { symbol, ...extentOf(mainList(all, c)) };
  });
  const latestFirst = chosen.reduce((a, b) => (b.first > a.first ? b : a));
  const earliestEnd = chosen.reduce((a, b) => (b.end < a.end ? b : a));
  if (latestFirst.first >= earliestEnd.end) {
    throw new RangeError(
      `the data of ${earliestEnd.symbol} (${iso(earliestEnd.first)} to ${iso(earliestEnd.shown)}) and ${latestFirst.symbol} ` +
        `(${iso(latestFirst.first)} to ${iso(latestFirst.shown)}) do not overlap in time`,
    );
  }
  return symbols.map((symbol) => planSymbol(data, symbol, span, pins.get(symbol)));
}

/** ms of the first row of a main dataset in [from, to): a depth event, a trade, a candle's open; null when none is. */
function firstRow(data: ReplayData, d: ReplayDataset, from: number, to: number): number | null {
  let t: number | undefined;
  if (d.kind === 'depth') for (const ev of data.depth(d.id, from)) return ev.time < to ? ev.time : null;
  else if (d.kind === 'klines') for (const c of data.candles(d.id, from, to - 1)) return c.openTime;
  else if (data.tradeBlocks) {
    for (const b of data.tradeBlocks(d.id, from)) {
      // (a block may hold only trades before `from`: start = count)
      if (b.start >= b.count) continue;
      t = b.time[b.start];
      break;
    }
  } else for (const x of data.trades(d.id, from)) return x.time < to ? x.time : null;
  return t !== undefined && t < to ? t : null;
}

/** ms at which the last row of a main dataset before `at` ends, when the port can tell (null otherwise). */
function lastRowEnd(data: ReplayData, d: ReplayDataset, at: number): number | null {
  if (d.kind === 'klines') {
    const c = data.lastCandle?.(d.id, at - 1) ?? null;
    return c === null ? null : c.openTime + INTERVAL_MS[d.interval];
  }
  if (d.kind === 'trades' || d.kind === 'aggTrades') return data.lastTrade?.(d.id, at - 1)?.time ?? null;
  return null;
}

/**
 * Every symbol's main data has a row (a depth event, a trade, a candle opening) in [start, until):
 * a span lying wholly in a gap of the data is refused, naming the gap (RangeError). A span only
 * partly in a gap is replayed over what there is (docs/replay.md, Session).
 */
export function checkSpanRows(
  data: ReplayData,
  sources: readonly Pick<SymbolSource, 'symbol' | 'depth' | 'trades' | 'klines' | 'mainPinned'>[],
  start: number,
  until: number,
): void {
  for (const src of sources) {
    const main = (src.depth ?? src.trades ?? src.klines)!;
    if (firstRow(data, main, start, until) !== null) continue;
    // a pinned dataset is named: it alone was asked for
    const inPin = src.mainPinned ? ` in the pinned ${datasetName(main)}` : '';
    const before = lastRowEnd(data, main, start);
    if (main.kind === 'klines' && before !== null && before > start) {
      // inside one candle: a klines replay plays a candle from its open (its prints), so a span
      // that starts after a candle's open and ends before the next one opens has nothing to play
      throw new RangeError(
        `${src.symbol}'s ${main.interval} candles have none opening from ${iso(start)} to ${iso(until)}${inPin}: ` +
          `a klines replay plays each candle from its open, so a span inside one candle has nothing to play ` +
          `(start at a candle's open, or make the span or the split at least ${main.interval})`,
      );
    }
    const next = firstRow(data, main, start, Number.MAX_SAFE_INTEGER);
    const parts = [before === null ? '' : `stops at ${iso(before)}`, next === null ? '' : `resumes at ${iso(next)}`];
    const where = parts.filter((x) => x !== '').join(' and ');
    throw new RangeError(
      `${src.symbol} has no ${main.kind} data from ${iso(start)} to ${iso(until)}${inPin}` +
        (where === '' ? '' : `: the span lies in a gap of its data, which ${where}`),
    );
  }
}

/**
 * A sweep job's span checked as its replay will check it, before any job starts: the start it
 * will take (replayStart), the datasets' extents against it, and rows in the span (without
 * reading the rows the specs are read from). RangeError naming what is wrong.
 */
export function checkSpan(
  data: ReplayData,
  symbols: readonly string[],
  start: number,
  until: number,
  pinIds?: readonly number[],
): void {
  const at = replayStart(data, symbols, start, until, pinIds);
  if (!(until > at)) throw new RangeError(`the data begins at ${iso(at)}, at or after the span's end (${iso(until)})`);
  const pins = resolvePins(data, symbols, pinIds);
  const chosen = symbols.map((symbol) =>
    chooseChecked(symbol, data.datasets(symbol), spanOf(at, until), pins.get(symbol)),
  );
  checkSpanRows(data, chosen, at, until);
}

/**
 * The last trade of the pair's trades at or before the start (an index look-up), null when there
 * is none: the price the pair starts with, also for its mark and index (symbol-replay.ts: then the
 * L2 snapshot the book starts from does not replace them with its mid).
 */
export function startTrade(data: ReplayData, src: SymbolSource, start: number): HistTrade | null {
  return src.trades ? (data.lastTrade?.(src.trades.id, start) ?? null) : null;
}

const WEEK = 7 * 86_400_000;

/** The last candle opened at or before `at`: the port's look-up, else a week back (every interval up to 1w). */
export function lastCandle(data: ReplayData, id: number, at: number): HistCandle | null {
  if (data.lastCandle) return data.lastCandle(id, at);
  let pick: HistCandle | null = null;
  for (const k of data.candles(id, at - WEEK, at)) pick = k;
  return pick;
}
