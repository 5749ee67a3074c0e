// The isolated margin dialog's figures: the amount as the API takes it (thousands separators
// accepted, as the order form; at most 8 decimals, above 0, within the most the service says may
// move, compared exactly, to the unit, as the service compares it), and the liquidation price the
// new margin would give. Pure: the dialog and the tests share it; the service's figures rule (it
// checks the amount again, exactly).
//
// The estimate: the liquidation price is linear in the margin WB within one maintenance tier
// (exchange.md: LP = (WB + cum - s x Q x EP) / (Q x MMR - s x Q)), so from the record's own
// liquidation price and margin it moves by (new margin - margin) / (Q x (MMR - s)), with the
// tier's cum included exactly; a position without one is estimated from the first tier.
import { parseFixed } from '../../../../src-shared/decimal.ts';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { liquidationPrice } from '../order-entry/preview.ts';
import { positionDirection } from './position-direction.ts';

export type MarginAmountInput = { ok: true; value: string; n: number } | { ok: false; error: string | null };

/** USDT has 8 decimals: the API refuses more. */
const USDT_DECIMALS = 8;

/**
 * The typed amount as the API's decimal string; `max` the most that may move now, as the service
 * answers it (null while it is not known). An empty field is no error yet (error null).
 */
export function marginAmountInput(text: string, max: string | null): MarginAmountInput {
  const r = parseDecimalInput(text);
  if (r.kind === 'empty') return { ok: false, error: null };
  if (r.kind === 'negative') return { ok: false, error: 'The amount must be above 0.' };
  if (r.kind === 'invalid')
    return { ok: false, error: `"${r.text}" is not an amount: use digits and a decimal point, e.g. 250.5.` };
  const decimals = r.value.split('.')[1]?.length ?? 0;
  if (decimals > USDT_DECIMALS) return { ok: false, error: `At most ${USDT_DECIMALS} decimals (USDT).` };
  if (!(r.n > 0)) return { ok: false, error: 'The amount must be above 0.' };
  if (max !== null && units(r.value) > units(max))
    return { ok: false, error: `At most ${moneyDown(max)} USDT can move now.` };
  return { ok: true, value: r.value, n: r.n };
}

/**
 * A USDT amount in units of 1e-8, exactly, as the service compares it with the most (a double has
 * 15 to 17 digits: 999999951.02000001 and 999999951.02 are the same double, so one unit above a
 * large balance passed as within it, and the service refused it with 3009).
 */
function units(text: string): bigint {
  const r = parseFixed(text, USDT_DECIMALS, { allowZero: true });
  return r.ok ? r.value : 0n;
}

/**
 * A most that may move, as the screen writes money (2 decimals, grouped: "9,881.19"), cut down to
 * the cent rather than rounded, so the figure said can move: 9881.19850258 is "9,881.19", never
 * "9,881.20", which is more than may move.
 */
export function moneyDown(max: string): string {
  const [whole, frac = ''] = max.trim().split('.');
  return fmt(`${whole}.${frac.padEnd(2, '0').slice(0, 2)}`, 2);
}

/** A decimal string without the zeros that end its fraction ("596.50000000" -> "596.5"). */
export function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** The fields of a position record the estimate reads. */
export type MarginPosition = Pick<
  PositionRecord,
  'position_side' | 'quantity' | 'entry_price' | 'margin' | 'liquidation_price' | 'maintenance_margin_rate'
>;

/** The liquidation price at a margin of `margin` USDT; NaN when there would be none. */
export function liquidationAtMargin(p: MarginPosition, margin: number): number {
  const d = positionDirection(p);
  const mmr = p.maintenance_margin_rate;
  if (!(d.size > 0) || !Number.isFinite(margin)) return NaN;
  if (p.liquidation_price > 0) {
    const lp = p.liquidation_price + (margin - p.margin) / (d.size * (mmr - d.sign));
    return lp > 0 && Number.isFinite(lp) ? lp : NaN;
  }
  return liquidationPrice({ long: d.long, qty: d.size, entry: p.entry_price, walletBacking: margin, mmr });
}
