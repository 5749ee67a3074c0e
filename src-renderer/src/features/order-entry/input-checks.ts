// What the venue will refuse in a price or size as typed, said under the field before anything is
// sent: a price off the pair's tick (3003), a size off its step (3004) or under its minimum (3005).
// The venue's own step arithmetic (src-shared/decimal.ts, the scale its order checks use) decides,
// so the screen and the venue cannot disagree on what a multiple is. Said, not enforced: the order
// still goes if sent, and the venue's answer is the last word (one rule at a time; here all of
// them at once, while typing).
import { createScale } from '../../../../src-shared/decimal.ts';
import type { FuturesSymbol } from '../../../../src-shared/types.ts';
import type { DecimalInput } from './decimal-input.ts';

/** Whether `value` (a decimal string the API accepts) is off the step `step`. */
function offStep(value: string, step: string): boolean {
  try {
    const r = createScale(step).toUnits(value);
    return !r.ok && r.reason === 'off_step';
  } catch {
    // a step the scale cannot take (never in the catalogue): nothing to say
    return false;
  }
}

/** A typed limit price's problem, or null: off the tick. */
export function priceCheck(price: DecimalInput, tick: string): string | null {
  if (price.kind !== 'ok' || !(price.n > 0)) return null;
  return offStep(price.value, tick) ? `Not on the tick: the venue takes multiples of ${tick}.` : null;
}

/** A typed size's problem, or null: off the step, or under the pair's minimum. */
export function sizeCheck(qty: DecimalInput, f: Pick<FuturesSymbol, 'qty_step' | 'min_qty'>): string | null {
  if (qty.kind !== 'ok' || !(qty.n > 0)) return null;
  if (offStep(qty.value, f.qty_step)) return `Not on the step: the venue takes multiples of ${f.qty_step}.`;
  if (qty.n < Number(f.min_qty)) return `Under the minimum of ${f.min_qty}: the venue refuses it.`;
  return null;
}
