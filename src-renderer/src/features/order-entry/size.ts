// The quantity a percentage of the size slider stands for: a share of what can be opened (or
// of the position, when closing), never more than one order may carry (the pair's max_qty,
// which the API refuses with 3006 otherwise), rounded down to the quantity step. Pure: the
// view hands in the numbers.
import { toStep } from '../../lib/format.ts';

export interface PctQtyInput {
  /** 0..100. */
  pct: number;
  /** The whole of what the percentage is taken of: the largest open, or the position. */
  base: number;
  qtyStep: string;
  /** The pair's max_qty (decimal string); an empty or unusable value means no cap. */
  maxQty: string;
}

/** Quantity on the step, as a decimal string; '' when it rounds to nothing. */
export function pctQty(i: PctQtyInput): string {
  if (!(i.pct > 0) || !(i.base > 0)) return '';
  return toStep(Math.min((i.base * Math.min(100, i.pct)) / 100, capOf(i.maxQty)), i.qtyStep);
}

/** The largest quantity one order may carry: max_qty, or no cap when it is missing. */
export function capOf(maxQty: string): number {
  const cap = Number(maxQty);
  return cap > 0 ? cap : Infinity;
}
