// What the venue will refuse in a price or size as typed, said under the field before anything is
// sent: a price off the pair's tick (3003), a size off its step (3004), under its minimum (3005)
// or over its maximum (3006), and an opening order worth less than the pair's minimum notional at
// the price it would go at (3007), and a post-only order whose price reaches the other side of the
// book (3022).
// The venue's own step arithmetic (src-shared/decimal.ts, the scale its order checks use) decides,
// so the screen and the venue cannot disagree on what a multiple is. Said, not enforced: the order
// still goes if sent, and the venue's answer is the last word (one rule at a time; here all of
// them at once, while typing).
import { createScale } from '../../../../src-shared/decimal.ts';
import { Side } from '../../../../src-shared/enums.ts';
import type { FuturesSymbol } from '../../../../src-shared/types.ts';
import { decimalsOf, fmt } from '../../lib/format.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';
import { NOT_A_NUMBER } from './order-model.ts';

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

/** A typed size's problem, or null: off the step, under the pair's minimum or over its maximum. */
export function sizeCheck(
  qty: DecimalInput,
  f: Pick<FuturesSymbol, 'qty_step' | 'min_qty'> & Partial<Pick<FuturesSymbol, 'max_qty'>>,
): string | null {
  if (qty.kind !== 'ok' || !(qty.n > 0)) return null;
  if (offStep(qty.value, f.qty_step)) return `Not on the step: the venue takes multiples of ${f.qty_step}.`;
  if (qty.n < Number(f.min_qty)) return `Under the minimum of ${f.min_qty}: the venue refuses it.`;
  if (f.max_qty !== undefined && qty.n > Number(f.max_qty))
    return `Over the maximum of ${fmt(f.max_qty, decimalsOf(f.max_qty))} in one order: the venue refuses it.`;
  return null;
}

/**
 * An opening order's value under the pair's minimum notional, or null: `notional` is the
 * smaller of the two sides' at the price each would go at (NaN or 0 when there is none yet).
 * A reduce-only order and a close are not held to it.
 */
export function notionalCheck(notional: number, minNotional: string | undefined): string | null {
  const min = Number(minNotional);
  if (!(notional > 0) || !(min > 0) || notional >= min) return null;
  return `Worth ${notional.toFixed(2)} USDT at this price: the venue takes at least ${minNotional} USDT for an order that is not reduce-only.`;
}

/**
 * A post-only limit order that would take, or null (order-model.ts postOnlyTakes): a buy at or
 * above the best ask, a sell at or below the best bid, which the venue refuses whole (3022).
 */
export function postOnlyCheck(takes: { side: Side; best: number } | null, pd: number): string | null {
  if (takes === null) return null;
  const [what, best] =
    takes.side === Side.BUY ? ['buy', 'at or above the best ask'] : ['sell', 'at or below the best bid'];
  return `Post-only: a ${what} ${best} (${fmt(takes.best, pd)}) would take liquidity, and the venue refuses it.`;
}

// The dialogs' fields (Modify order, Modify stop, TP/SL) say under each field, as it is typed,
// what the order form says under its own: a text that is not a number, a number not above 0,
// then the checks above; one message a field. An empty field is the caller's to judge (a
// removal in TP/SL, "is empty" when a Modify is sent).

/** A typed price's problem in a dialog, or null: not a number, not above 0, off the tick (`tick` undefined: unknown yet). */
export function priceFieldCheck(price: DecimalInput, tick: string | undefined): string | null {
  if (price.kind === 'invalid') return `Not a price: ${NOT_A_NUMBER}.`;
  if (price.kind === 'negative' || (price.kind === 'ok' && !(price.n > 0))) return 'A price is above 0.';
  return tick === undefined ? null : priceCheck(price, tick);
}

/** A typed amount's problem in a dialog, or null: not a number, not above 0, then sizeCheck. */
export function amountFieldCheck(
  qty: DecimalInput,
  f: (Pick<FuturesSymbol, 'qty_step' | 'min_qty'> & Partial<Pick<FuturesSymbol, 'max_qty'>>) | undefined,
): string | null {
  if (qty.kind === 'invalid') return `Not an amount: ${NOT_A_NUMBER}.`;
  if (qty.kind === 'negative' || (qty.kind === 'ok' && !(qty.n > 0))) return 'Amount must be above 0.';
  return f === undefined ? null : sizeCheck(qty, f);
}
