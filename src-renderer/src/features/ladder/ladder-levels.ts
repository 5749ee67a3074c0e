// The ladder's levels as data (no DOM): which levels a side draws with the keyboard's focused
// one kept in sight, a focused level across a change of grouping, the bars' widths, and your own
// resting orders' size on each level (the mark beside a level's price).
import type { GroupedLevel } from '../../../../src-shared/sdk/local-order-book.ts';
import { groupPrice } from '../../../../src-shared/sdk/grouped-view.ts';
import { MAX_DECIMALS, formatFixed, parseFixed } from '../../../../src-shared/decimal.ts';
import { OrderType, Side } from '../../../../src-shared/enums.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';

/** A level of one side of the book. */
export interface Level {
  side: 'ask' | 'bid';
  price: string;
}

/**
 * `levels` (asks: dir 1, rising from the best; bids: -1, falling; the first of the side's `all`)
 * with the focused level at `price` kept in sight: made up, sizes "—", in its place when the book
 * no longer has it, so its row stays where it was. A place past the `fit` rows the side shows, a
 * level the book still has but better levels pushed down, or a gone one, is the last row shown,
 * the levels between left out (the column is still in price order, and the row is not wrapped out
 * of sight with its focus ring); the levels kept before it are before it already, so its row is
 * never moved (a moved row would lose the focus).
 */
export function keepHeld(
  levels: GroupedLevel[],
  all: readonly GroupedLevel[],
  price: string | null,
  dir: 1 | -1,
  fit: number,
): GroupedLevel[] {
  if (price === null) return levels;
  const live = all.findIndex((l) => l.price === price);
  if (live >= 0) return live < fit ? levels : [...levels.slice(0, Math.max(fit - 1, 0)), all[live]];
  const ghost = { price, qty: '', total: '' } as GroupedLevel;
  const p = Number(price);
  let at = levels.findIndex((l) => (Number(l.price) - p) * dir > 0);
  if (at < 0) at = levels.length;
  return at >= fit
    ? [...levels.slice(0, Math.max(fit - 1, 0)), ghost]
    : [...levels.slice(0, at), ghost, ...levels.slice(at)];
}

/**
 * `level` (a group at the step `from`) at the step `to`: the best of the side's `levels` (grouped
 * at `to`) inside its group, else the group at `to` that holds its price (a bid's rounds down, an
 * ask's up).
 */
export function regroup(level: Level | null, from: string, to: string, levels: readonly GroupedLevel[]): Level | null {
  if (level === null) return null;
  const up = level.side === 'ask';
  const inside = levels.find((l) => groupPrice(l.price, from, up) === level.price);
  const price = inside?.price ?? groupPrice(level.price, to, up);
  return price === null || price === level.price ? level : { side: level.side, price };
}

/** Whether `price` is among the first `fit` of `levels` (shown on its side). */
export function shown(levels: GroupedLevel[], price: string, fit: number): boolean {
  const i = levels.findIndex((l) => l.price === price);
  return i >= 0 && i < fit;
}

export function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.abs(b) * 1e-12 + 1e-12;
}

/**
 * A bar's width in % of the widest (the deepest total shown), to the half percent: a level whose
 * own figures did not change keeps its width when the deepest total moves a little, and its row
 * is not drawn again.
 */
export function barWidth(value: string, maxTotal: number): number {
  // (a focused level kept in sight from deeper in the book may hold more than the deepest shown)
  return maxTotal > 0 ? Math.min(Math.round((Number(value) / maxTotal) * 200) / 2, 100) : 0;
}

/**
 * Your resting orders' size still open on each group of one side of `symbol`'s book at `step`
 * (the rows' grouping): a buy rests among the bids, its group rounded down, a sell among the
 * asks, rounded up, as the book groups its levels; group price (written as the rows write it)
 * -> the summed remaining size, exact. Market orders rest nowhere and are left out.
 */
export function ownLevels(
  orders: readonly OrderRecord[],
  symbol: string,
  side: Level['side'],
  step: string,
): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (step === '') return out;
  const sums = new Map<string, bigint>();
  const want = side === 'ask' ? Side.SELL : Side.BUY;
  for (const o of orders) {
    if (o.symbol !== symbol || o.side !== want || o.type !== OrderType.LIMIT) continue;
    const group = groupPrice(o.price, step, side === 'ask');
    const qty = parseFixed(o.qty, MAX_DECIMALS);
    const filled = parseFixed(o.filled_qty, MAX_DECIMALS, { allowZero: true });
    if (group === null || !qty.ok || !filled.ok || qty.value <= filled.value) continue;
    sums.set(group, (sums.get(group) ?? 0n) + qty.value - filled.value);
  }
  for (const [price, units] of sums) out.set(price, formatFixed(units, MAX_DECIMALS).replace(/\.?0+$/, ''));
  return out;
}
