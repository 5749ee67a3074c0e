// An alert's price field (the Alerts tab's): the level typed, and `A`, which is no letter typed
// there (no price has one): in the new alert's field it is what `A` does anywhere, the focus there.
import type { KeyboardEvent } from 'react';
import { parseDecimalInput } from '../order-entry/decimal-input.ts';

/** The level typed, as the decimal text an alert keeps, or why it is not one. */
export function levelOf(text: string, pd: number): { price: string } | { error: string } {
  const r = parseDecimalInput(text);
  if (r.kind === 'empty') return { error: 'Type the price to be told of.' };
  if (r.kind !== 'ok' || !(r.n > 0)) return { error: `"${text.trim()}" is not a price above 0.` };
  const [whole, frac = ''] = r.value.split('.');
  if (frac.length > pd) return { error: `At most ${pd} decimal${pd === 1 ? '' : 's'} on this pair.` };
  return { price: pd > 0 ? `${whole}.${frac.padEnd(pd, '0')}` : whole };
}

/**
 * `A` in an alert's price field: not typed (a second `A` typed "a" into the level, then refused:
 * '"a95969.7a96472.7" is not a price above 0.'). True when the key was taken.
 */
export function alertFieldKey(e: KeyboardEvent<HTMLInputElement>): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.key.toLowerCase() !== 'a') return false;
  e.preventDefault();
  return true;
}
