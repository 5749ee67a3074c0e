// LocalOrderBook's grouped (ladder) view: levels summed into groups of a price step, with
// cumulative sizes. Exact: prices and sizes are read as bigint units through src-shared/decimal.ts
// (the wire grammar there; a level it refuses is left out of the view), sums keep the most
// decimals any summand was written with, and group prices are written with the step's decimals.

import { MAX_DECIMALS, formatFixed, parseFixed, rescaleFixed } from '../decimal.ts';
import type { GroupedLevel, PriceLevel } from './depth-types.ts';

/** An exact non-negative decimal: `units` of 10^-scale, `scale` the decimals it was written with. */
export interface Dec {
  units: bigint;
  scale: number;
}

/** Reads a wire decimal at the decimals it is written with ("1.50" -> 150n at scale 2). */
function parseDec(text: string): Dec | null {
  if (typeof text !== 'string') return null;
  const dot = text.indexOf('.');
  const scale = dot < 0 ? 0 : text.length - dot - 1;
  if (scale > MAX_DECIMALS) return null;
  const r = parseFixed(text, scale, { allowZero: true });
  return r.ok ? { units: r.value, scale } : null;
}

/** `d` in units of 10^-scale; `scale` is never below `d.scale`, so this is exact. */
function at(d: Dec, scale: number): bigint {
  return rescaleFixed(d.units, d.scale, scale, 'trunc');
}

function addDec(acc: Dec, x: Dec): void {
  if (x.scale > acc.scale) {
    acc.units = at(acc, x.scale);
    acc.scale = x.scale;
  }
  acc.units += at(x, acc.scale);
}

function sameDec(x: Dec, y: Dec): boolean {
  const scale = Math.max(x.scale, y.scale);
  return at(x, scale) === at(y, scale);
}

/** The step of `grouped()`: a positive decimal string. */
export function parseStep(step: string): Dec {
  const s = parseDec(step);
  if (s === null || s.units <= 0n) throw new RangeError(`grouped: invalid step ${JSON.stringify(step)}`);
  return s;
}

/**
 * The price of the group that holds `price` at `step` (a bid's rounds down, an ask's up), written
 * as `groupSide` writes it; null for a price or step it cannot read.
 */
export function groupPrice(price: string, step: string, roundUp: boolean): string | null {
  const p = parseDec(price);
  const s = parseDec(step);
  if (p === null || s === null || s.units <= 0n) return null;
  const scale = Math.max(p.scale, s.scale);
  const units = at(p, scale);
  const stepUnits = at(s, scale);
  let g = (units / stepUnits) * stepUnits;
  if (roundUp && g < units) g += stepUnits;
  return formatFixed(rescaleFixed(g, scale, s.scale, 'trunc'), s.scale);
}

/** The best `n` groups of one side's levels (best first): bids round down to the step, asks up. */
export function groupSide(levels: readonly PriceLevel[], step: Dec, n: number, roundUp: boolean): GroupedLevel[] {
  const out: GroupedLevel[] = [];
  if (n <= 0) return out;
  let key: Dec | null = null;
  let qty: Dec = { units: 0n, scale: 0 };
  const total: Dec = { units: 0n, scale: 0 };
  const flush = (k: Dec): void => {
    addDec(total, qty);
    // `k` is a multiple of the step, so it is exact at the step's own scale.
    const price = formatFixed(rescaleFixed(k.units, k.scale, step.scale, 'trunc'), step.scale);
    out.push({ price, qty: formatFixed(qty.units, qty.scale), total: formatFixed(total.units, total.scale) });
  };
  for (const [p, q] of levels) {
    const price = parseDec(p);
    const size = parseDec(q);
    if (price === null || size === null) continue;
    const scale = Math.max(price.scale, step.scale);
    const units = at(price, scale);
    const stepUnits = at(step, scale);
    let g = (units / stepUnits) * stepUnits;
    if (roundUp && g < units) g += stepUnits;
    const group: Dec = { units: g, scale };
    if (key === null || !sameDec(key, group)) {
      if (key !== null) flush(key);
      if (out.length >= n) return out;
      key = group;
      qty = { units: 0n, scale: 0 };
    }
    addDec(qty, size);
  }
  if (key !== null && out.length < n) flush(key);
  return out;
}
