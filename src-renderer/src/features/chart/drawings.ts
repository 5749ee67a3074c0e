// What the trader draws on the chart (the tools at its left edge, drawing-layer.ts): trend lines,
// between two points of time and price, and horizontal lines at a price. A drawing belongs to its
// pair and shows on every interval: its points are times (ms) and prices, not bars, so a trend line
// drawn on 1m stands at the same moments on 1h. Kept in the browser (drawings-store.ts). This
// module is the pure part: the records, reading them back, where a point of time falls between the
// bars loaded, and which drawing is under the pointer. No DOM here (unit tests).
import { barAtOrBefore } from './bar-times.ts';

/** A point of a drawing: a moment (ms, may lie between bars or past the newest) and a price. */
export interface Anchor {
  time: number;
  price: number;
}

/** What a drawing is, wherever it is kept. */
export type DrawingShape = { kind: 'trend'; a: Anchor; b: Anchor } | { kind: 'hline'; price: number };

/** A drawing of a pair, with its identity. */
export type Drawing = DrawingShape & { id: string; symbol: string };

export type DrawingKind = Drawing['kind'];

/** Drawings kept per pair: the oldest goes when a new one would pass it. */
export const MAX_DRAWINGS_PER_PAIR = 100;

/** How far from a drawing, in px, the pointer still takes it; from a selected line's end, its handle. */
const HIT_PX = 5;
const HANDLE_PX = 7;

const goodPrice = (p: unknown): p is number => typeof p === 'number' && Number.isFinite(p) && p > 0;
const goodTime = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t) && t >= 0;
const goodAnchor = (a: unknown): a is Anchor =>
  a !== null && typeof a === 'object' && goodTime((a as Anchor).time) && goodPrice((a as Anchor).price);

/** One stored record read as a drawing, or null when it is not one. */
function readOne(e: unknown): Drawing | null {
  if (e === null || typeof e !== 'object') return null;
  const d = e as Record<string, unknown>;
  if (typeof d.id !== 'string' || typeof d.symbol !== 'string' || d.id === '' || d.symbol === '') return null;
  if (d.kind === 'hline' && goodPrice(d.price)) return { id: d.id, symbol: d.symbol, kind: 'hline', price: d.price };
  if (d.kind === 'trend' && goodAnchor(d.a) && goodAnchor(d.b))
    return {
      id: d.id,
      symbol: d.symbol,
      kind: 'trend',
      a: { time: d.a.time, price: d.a.price },
      b: { time: d.b.time, price: d.b.price },
    };
  return null;
}

/** The stored drawings (a JSON array); damaged records are dropped, unreadable text is none. */
export function readDrawings(text: string | null): Drawing[] {
  let stored: unknown;
  try {
    stored = text === null ? [] : JSON.parse(text);
  } catch {
    stored = [];
  }
  if (!Array.isArray(stored)) return [];
  const out: Drawing[] = [];
  const ids = new Set<string>();
  for (const e of stored) {
    const d = readOne(e);
    if (d === null || ids.has(d.id)) continue;
    ids.add(d.id);
    out.push(d);
  }
  return capPerPair(out);
}

/** At most MAX_DRAWINGS_PER_PAIR per pair, the newest (last) kept. */
export function capPerPair(list: readonly Drawing[]): Drawing[] {
  const count = new Map<string, number>();
  const keep: Drawing[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const n = count.get(list[i].symbol) ?? 0;
    if (n >= MAX_DRAWINGS_PER_PAIR) continue;
    count.set(list[i].symbol, n + 1);
    keep.push(list[i]);
  }
  return keep.reverse();
}

/** The drawing moved by `dt` ms and `dp` in price (a whole drag); null when a price would not stay above 0. */
export function shifted(d: Drawing, dt: number, dp: number): Drawing | null {
  if (d.kind === 'hline') return d.price + dp > 0 ? { ...d, price: d.price + dp } : null;
  const a = { time: d.a.time + dt, price: d.a.price + dp };
  const b = { time: d.b.time + dt, price: d.b.price + dp };
  return a.price > 0 && b.price > 0 && a.time >= 0 && b.time >= 0 ? { ...d, a, b } : null;
}

// ---- time against the bars loaded

/**
 * Where moment `t` (ms) falls among the bars' open times (ascending): a fractional bar index, as
 * lightweight-charts' logical index counts them. Between two bars it is interpolated; before the
 * first and after the newest it goes on at the newest bars' spacing. NaN with no bars.
 */
export function logicalAt(times: readonly number[], t: number): number {
  const n = times.length;
  if (n === 0) return NaN;
  const step = n > 1 ? times[n - 1] - times[n - 2] : 60_000;
  if (t >= times[n - 1]) return n - 1 + (t - times[n - 1]) / step;
  if (t <= times[0]) return (t - times[0]) / (n > 1 ? times[1] - times[0] : step);
  // inside: between the bar at or before t and the next one
  const lo = barAtOrBefore(times, t);
  return lo + (t - times[lo]) / (times[lo + 1] - times[lo]);
}

/** The moment (ms) at fractional bar index `logical`: logicalAt's inverse. NaN with no bars. */
export function timeAt(times: readonly number[], logical: number): number {
  const n = times.length;
  if (n === 0 || !Number.isFinite(logical)) return NaN;
  const step = n > 1 ? times[n - 1] - times[n - 2] : 60_000;
  if (logical >= n - 1) return times[n - 1] + (logical - (n - 1)) * step;
  if (logical <= 0) return times[0] + logical * (n > 1 ? times[1] - times[0] : step);
  const i = Math.floor(logical);
  return times[i] + (logical - i) * (times[i + 1] - times[i]);
}

// ---- what is under the pointer

/** A drawing where it is on the pane, px (hline: y only; a null coordinate: off the pane's scale). */
export type Placed =
  | { id: string; kind: 'hline'; y: number | null }
  | { id: string; kind: 'trend'; x1: number | null; y1: number | null; x2: number | null; y2: number | null };

/** A point on the pane, px. */
interface Point {
  x: number;
  y: number;
}

/** The distance, px, from `p` to the segment from `a` to `b`. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** The drawing nearest to (x, y) within HIT_PX, the last drawn winning a tie; null when none. */
export function drawingAt(placed: readonly Placed[], x: number, y: number): string | null {
  let best: string | null = null;
  let dist = HIT_PX;
  for (const p of placed) {
    let d = Infinity;
    if (p.kind === 'hline') d = p.y === null ? Infinity : Math.abs(p.y - y);
    else if (p.x1 !== null && p.y1 !== null && p.x2 !== null && p.y2 !== null)
      d = segmentDistance({ x, y }, { x: p.x1, y: p.y1 }, { x: p.x2, y: p.y2 });
    if (d <= dist) {
      best = p.id;
      dist = d;
    }
  }
  return best;
}

/** Which end of a placed trend line (x, y) is on (within HANDLE_PX), or null. */
export function handleAt(p: Placed | undefined, x: number, y: number): 'a' | 'b' | null {
  if (p === undefined || p.kind !== 'trend') return null;
  const near = (hx: number | null, hy: number | null): boolean =>
    hx !== null && hy !== null && Math.hypot(x - hx, y - hy) <= HANDLE_PX;
  if (near(p.x2, p.y2)) return 'b';
  if (near(p.x1, p.y1)) return 'a';
  return null;
}
