// The quantity a percentage of the size slider stands for: a share of what can be opened (or
// of the position, when closing), never more than one order may carry (the pair's max_qty,
// which the API refuses with 3006 otherwise), rounded down to the quantity step. Pure: the
// view hands in the numbers.
import { toStep } from '../../lib/format.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';

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

/**
 * Where the size slider stands for a typed quantity: its share of what a percentage is taken of
 * (`wholes`, each side's; the larger one), in whole percents, 100 at most; 0 when nothing is typed
 * or there is no basis (so it follows the size typed as it follows a percentage).
 */
export function qtyShare(qty: DecimalInput, wholes: readonly number[]): number {
  const whole = Math.max(0, ...wholes.filter(Number.isFinite));
  if (qty.kind !== 'ok' || !(qty.n > 0) || !(whole > 0)) return 0;
  return Math.min(100, Math.round((qty.n / whole) * 100));
}

/** The largest quantity one order may carry: max_qty, or no cap when it is missing. */
export function capOf(maxQty: string): number {
  const cap = Number(maxQty);
  return cap > 0 ? cap : Infinity;
}

/** The percentage typed in the Size field (% mode): its digits and point, within 0..100; 0 when none. */
export function parsePct(typed: string): number {
  const n = pctNumber(typed.replace(/[^\d.]/g, ''));
  return Number.isNaN(n) ? 0 : Math.max(0, Math.min(100, n));
}

/**
 * What the Size field shows in % mode: the text as typed (digits and point) while it reads as the
 * percentage in force, so a point or a 0 being typed stays ("12." on the way to 12.5, "0." on the
 * way to 0.5), else the percentage itself ('' for 0, "100" for a typed 150, the slider's or a
 * mark's value once they moved it). Shown as the number alone, "12." read back as 12 and "12.5"
 * became "125", 100%.
 */
export function pctFieldText(typed: string | null, pct: number): string {
  if (typed !== null) {
    const text = typed.replace(/[^\d.]/g, '');
    if (pctNumber(text) === pct) return text;
  }
  return pct === 0 ? '' : String(pct);
}

/** A percentage's digits and point as a number: '' and a lone '.' are 0; NaN when not a number ("1.2.3"). */
function pctNumber(text: string): number {
  return text === '' || text === '.' ? 0 : Number(text);
}
