// Which dataset a replay reads of a kind when none is pinned (docs/replay.md "What a replayed pair
// is made of"): the best coverage of the span first (a dataset covering it, else one covering its
// start, else the first to begin within it), then the market preferred (USD-M), then the finest
// candle interval or the kinds' order; and a pair's main data, the richest kind there is (depth,
// else trades / aggTrades, else klines). Pure, on the datasets' extents only, so the venue's plan
// (src-main/replay/plan.ts) and the Replay dialog's "Automatic" (which names the pick) share one rule.
import { INTERVAL_MS as CANDLE_MS, INTERVALS } from './intervals.ts';

/**
 * The venue's rule for a pair's name, which a replay lists a dataset's symbol as (routes, streams,
 * --replay): a symbol outside it (every COIN-M one, `BTCUSD_PERP`; USD-M delivery contracts,
 * `BTCUSDT_250627`) can be imported but not replayed, and the Replay dialog does not offer it.
 */
export function isReplayableSymbol(symbol: string): boolean {
  return /^[A-Z0-9]{2,30}$/.test(symbol);
}

/** What the pick reads of a dataset. */
export interface PickDataset {
  readonly market: string;
  readonly kind: string;
  /** Candle interval for the candle kinds, '' otherwise. */
  readonly interval: string;
  /** ms of the first and last row (candles: open times), null while empty. */
  readonly firstTime: number | null;
  readonly lastTime: number | null;
}

/** The span a replay asks for: [start, until], until = Infinity when open-ended (to the data's end). */
export interface PickSpan {
  start: number;
  until: number;
}

/** Candle intervals a replay reads, finest first (the shared list). */
const INTERVAL_RANK: readonly string[] = INTERVALS;

/** ms of the fixed-length candle intervals (1M, a calendar month, is not read by a replay). */
export const INTERVAL_MS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(CANDLE_MS).filter(([interval]) => interval !== '1M'),
);

/** ms after a dataset's last row (a candle's period, else 1 ms). */
export function endOf(d: PickDataset): number {
  return d.lastTime! + (INTERVAL_MS[d.interval] ?? 1);
}

/**
 * 0: the dataset covers the whole span; 1: it covers the start (and ends within the span); 2: it
 * begins within the span, after the start (a start in a gap between datasets); 3: none of these.
 */
export function coverage(d: PickDataset, span: PickSpan): number {
  const first = d.firstTime!;
  if (first <= span.start && endOf(d) > span.start) return endOf(d) > span.until ? 0 : 1;
  return first > span.start && first <= span.until ? 2 : 3;
}

/** Datasets by how they meet the span (coverage), of those beginning within it the first to begin first. */
function bySpan(a: PickDataset, b: PickDataset, span: PickSpan): number {
  const ca = coverage(a, span);
  return ca - coverage(b, span) || (ca === 2 ? a.firstTime! - b.firstTime! : 0);
}

/**
 * The dataset of `kind` to read: the best coverage of the span first (a dataset covering it,
 * else one with data within it), then the market preferred (USD-M, or a pinned main dataset's),
 * then the finest interval.
 */
export function smallest<T extends PickDataset>(
  list: readonly T[],
  kind: string,
  span: PickSpan,
  market = 'um',
): T | null {
  const c = list.filter((d) => d.kind === kind && d.lastTime !== null && INTERVAL_MS[d.interval] !== undefined);
  c.sort(
    (a, b) =>
      bySpan(a, b, span) ||
      (a.market === market ? 0 : 1) - (b.market === market ? 0 : 1) ||
      INTERVAL_RANK.indexOf(a.interval) - INTERVAL_RANK.indexOf(b.interval),
  );
  return c[0] ?? null;
}

/** The dataset of one of `kinds` to read: the best coverage of the span, then the market preferred, then the kinds' order. */
export function preferUm<T extends PickDataset>(
  list: readonly T[],
  kinds: string[],
  span: PickSpan,
  market = 'um',
): T | null {
  const c = list.filter((d) => kinds.includes(d.kind) && d.lastTime !== null);
  c.sort(
    (a, b) =>
      bySpan(a, b, span) ||
      (a.market === market ? 0 : 1) - (b.market === market ? 0 : 1) ||
      kinds.indexOf(a.kind) - kinds.indexOf(b.kind),
  );
  return c[0] ?? null;
}

/** The span a main dataset is replayed over: from the start to its end, or `until` before it. */
function playedBy(span: PickSpan, main: PickDataset): PickSpan {
  return { start: span.start, until: Math.min(span.until, endOf(main)) };
}

/**
 * The trades read beside a depth dataset (the book's prints): those with data from the start to
 * the depth's end (or `until`), else none. Another day's trades would play no print, but their
 * last one before the start would give the pair its start price (weeks off) in place of the book's.
 */
export function tradesBeside<T extends PickDataset>(
  all: readonly T[],
  span: PickSpan,
  depth: PickDataset,
  market = 'um',
): T | null {
  const played = playedBy(span, depth);
  const t = preferUm(all, ['trades', 'aggTrades'], played, market);
  return t !== null && coverage(t, played) < 3 ? t : null;
}

/**
 * The klines read beside a richer main dataset (the start price when there is no trade before the
 * start): those with data in its span, as tradesBeside, else none (another year's candles would
 * be listed as read in the status, and their last close taken as the pair's start price).
 */
export function klinesBeside<T extends PickDataset>(
  all: readonly T[],
  span: PickSpan,
  main: PickDataset,
  market = 'um',
): T | null {
  const played = playedBy(span, main);
  const k = smallest(all, 'klines', played, market);
  return k !== null && coverage(k, played) < 3 ? k : null;
}

const DAY = 86_400_000;

/**
 * How a main dataset meets the span's start: 0 at it (it covers the start, or begins later on
 * the start's UTC day, where the replay starts at its first row), 1 after it within the span (a
 * start in a gap of the data), 2 not at all.
 */
function reach(d: PickDataset, span: PickSpan): number {
  const c = coverage(d, span);
  if (c <= 1) return 0;
  if (c === 3) return 2;
  return Math.floor(d.firstTime! / DAY) === Math.floor(span.start / DAY) ? 0 : 1;
}

/**
 * A pair's main data with nothing pinned: the richest kind whose data meets the span best
 * (reach: at its start, else within it, else the richest there is, which the plan then refuses),
 * each kind's dataset as picked above. So 2021 klines beside a 2025 trades day replay 2021 from
 * the klines; a richer kind not read is not returned (no depth beside a trades replay).
 */
export function autoMain<T extends PickDataset>(
  all: readonly T[],
  span: PickSpan,
): { kind: 'depth' | 'trades' | 'klines'; main: T; depth: T | null; trades: T | null; klines: T | null } | null {
  const depth = preferUm(all, ['depth'], span);
  const trades = preferUm(all, ['trades', 'aggTrades'], span);
  const klines = smallest(all, 'klines', span);
  const kinds = [
    { kind: 'depth' as const, d: depth },
    { kind: 'trades' as const, d: trades },
    { kind: 'klines' as const, d: klines },
  ].filter((k) => k.d !== null);
  if (kinds.length === 0) return null;
  const best = Math.min(...kinds.map((k) => reach(k.d!, span)));
  const { kind, d } = kinds.find((k) => reach(k.d!, span) === best)!;
  return {
    kind,
    main: d!,
    depth: kind === 'depth' ? depth : null,
    trades: kind === 'depth' ? tradesBeside(all, span, d!) : kind === 'trades' ? trades : null,
    klines: kind === 'klines' ? klines : klinesBeside(all, span, d!),
  };
}
