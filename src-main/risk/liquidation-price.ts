// Liquidation and bankruptcy prices (Binance USD-M formulas, reference/exchange.md).
//
// LP is the mark of one symbol at which the margin ratio reaches 1: where the equity
//   WB - TMM1 + UPNL1 + sum over the symbol's legs of s x Q x (p - EP)
// equals the legs' maintenance margin, sum of Q x p x MMR - cum, each leg with the MMR/cum of
// the tier its own notional Q x p falls in. In one tier combination this is linear in p:
//   LP = (WB - TMM1 + UPNL1 + sum cum - sum s x Q x EP) / (sum Q x MMR - sum s x Q).
// One leg is the one-way (or isolated) formula; hedge mode, cross, solves the symbol's long and
// short together (Binance's hedge-mode formula: + cumL + cumS - QL x EPL + QS x EPS over
// QL x MMRL + QS x MMRS - QL + QS), so both sides show the same price: holding the other side's
// PnL at today's mark would give a price where the account is not liquidatable.
// Cross: WB = cross wallet, TMM1/UPNL1 = maintenance and UPnL of the positions of other symbols
// (held constant: LP is the price of this symbol at which the account liquidates if nothing
// else moves). Isolated: WB = the position's margin incl. added margin, TMM1 = UPNL1 = 0.
// Tiers: the surplus f(p) = equity - maintenance is continuous and piecewise linear, with a
// kink wherever a leg's notional crosses a tier cap (p = cap / Q). Each piece gives its root
// by the formula above; a root is taken from the piece where f changes sign, the sign read
// once at every kink, so a root on a kink is found once and no recomputing can oscillate.
// Maintenance is convex in the notional (MMR never falls), so f is concave: at most two roots.
// One leg has one (slope Q(1 - MMR) > 0 for a long, -Q(1 + MMR) < 0 for a short); a hedged
// pair may have a second one where the tiers' rising MMRs turn the slope (huge notionals):
// the one nearest the mark is reported (the lowest without a mark). A hedged pair's root where a
// leg's notional passes the last tier's cap is not one: no tier allows a position that large, so the price is no
// level a trader can act on (a hedged pair long 0.05, short 0.02 at 96,000 had one at 168 billion,
// its long worth 8.4 billion against BTCUSDT's 1.8 billion cap); nor is one above the highest price
// the pair can trade at (`maxPrice`: no order, so no trade and no mark, goes there; a hedged pair long
// 0.010, short 0.008 had one at 95.9 billion, within the caps); without another, the pair has none.
// Result 0 means no positive liquidation price: an account that cannot be liquidated by this
// symbol's price, or one already liquidatable at every price. In the one-leg case the trigger
// "long: mark <= LP; short: mark >= LP" stays correct, so 0 is safe to compare against (the
// venue liquidates by the margin ratio itself, liquidation.ts).
// Units: USDT prices, base quantities (magnitudes), USDT amounts. float64.

import type { Side } from './margin.ts';
import { bracketFor, type Bracket } from './tiers.ts';

/** One position of the symbol: side, |Q| and entry. */
export interface LiquidationLeg {
  readonly side: Side;
  /** |Q|, base units. */
  readonly qty: number;
  /** EP, average entry price. */
  readonly entry: number;
}

/** What backs the symbol's positions. */
interface Backing {
  /** WB: cross wallet balance, or the isolated position's margin. */
  readonly wallet: number;
  /** TMM1: maintenance margin of the account's positions of other symbols (cross only). */
  readonly otherMaintenance?: number;
  /** UPNL1: unrealized PnL of the account's positions of other symbols (cross only). */
  readonly otherUpnl?: number;
}

export interface LiquidationInput extends LiquidationLeg, Backing {
  readonly brackets: readonly Bracket[];
}

export interface SymbolLiquidationInput extends Backing {
  /** The symbol's positions in the same margin: one (one-way, isolated) or a hedged long and short. */
  readonly legs: readonly LiquidationLeg[];
  readonly brackets: readonly Bracket[];
  /** The symbol's mark, to pick between two roots (see header). */
  readonly mark?: number;
  /** The highest price the pair trades at: a hedged pair's root above it is none (see header). */
  readonly maxPrice?: number;
}

/** The single-tier formula for the tier's MMR and cum; may be <= 0 (no liquidation price in that tier). */
export function liquidationPriceInTier(
  position: Omit<LiquidationInput, 'brackets'>,
  tier: Pick<Bracket, 'mmr' | 'cum'>,
): number {
  const { side: s, entry, wallet, otherMaintenance = 0, otherUpnl = 0 } = position;
  const q = Math.abs(position.qty);
  return (wallet - otherMaintenance + otherUpnl + tier.cum - s * q * entry) / (q * tier.mmr - s * q);
}

/** Mark price at which the position's margin ratio reaches 100%; 0 if none (see header). */
export function liquidationPrice(input: LiquidationInput): number {
  return symbolLiquidationPrice({ ...input, legs: [input] });
}

/** Mark price of a symbol at which the account's margin ratio reaches 100%, its legs solved together; 0 if none. */
export function symbolLiquidationPrice(input: SymbolLiquidationInput): number {
  const { brackets, wallet } = input;
  const legs = input.legs.filter((l) => Math.abs(l.qty) > 0);
  if (legs.length === 0) return 0;
  const base = wallet - (input.otherMaintenance ?? 0) + (input.otherUpnl ?? 0);
  // kinks: where a leg's notional reaches a tier cap (the last tier has no upper kink)
  const kinks = new Set<number>();
  for (const l of legs) for (let i = 0; i < brackets.length - 1; i++) kinks.add(brackets[i].cap / Math.abs(l.qty));
  const ends = [0, ...[...kinks].sort((x, y) => x - y), Infinity];
  const roots: number[] = [];
  // f(lo) <= 0 (liquidatable at the piece's lower end), read with the previous piece's formula
  let liqAtLo = false;
  for (let k = 0; k + 1 < ends.length; k++) {
    const lo = ends[k];
    const hi = ends[k + 1];
    // every leg's tier inside the piece, read at an inner point
    const inner = hi === Infinity ? lo * 2 + 1 : (lo + hi) / 2;
    // f(p) = num - den x p on this piece
    let cum = 0;
    let sqe = 0;
    let den = 0;
    for (const l of legs) {
      const q = Math.abs(l.qty);
      const tier = bracketFor(brackets, q * inner);
      cum += tier.cum;
      sqe += l.side * q * l.entry;
      den += q * tier.mmr - l.side * q;
    }
    const num = base + cum - sqe;
    if (k === 0) liqAtLo = num <= 0;
    const liqAtHi = hi === Infinity ? den > 0 || (den === 0 && num <= 0) : num - den * hi <= 0;
    if (liqAtHi !== liqAtLo) {
      const r = den === 0 ? lo : Math.min(Math.max(num / den, lo), hi);
      if (r > 0) roots.push(r);
    }
    liqAtLo = liqAtHi;
  }
  // (the last cap: the largest notional any tier allows; a hedged pair's only: one leg's one root
  // is its liquidation price whatever the tier, as the one-way formula gives it)
  const cap = legs.length > 1 ? brackets[brackets.length - 1].cap : Infinity;
  const top = legs.length > 1 ? (input.maxPrice ?? Infinity) : Infinity;
  const largest = Math.max(...legs.map((l) => Math.abs(l.qty)));
  const reachable = roots.filter((r) => largest * r <= cap && r <= top);
  if (reachable.length === 0) return 0;
  const mark = input.mark;
  if (mark === undefined || !(mark > 0)) return reachable[0];
  return reachable.reduce((best, r) => (Math.abs(r - mark) < Math.abs(best - mark) ? r : best));
}

/**
 * BP = EP - s x WB / Q: the mark at which the margin WB is exactly lost. Not clamped: a
 * long backed by WB >= Q x EP gets BP <= 0 (it can never go bankrupt).
 */
export function bankruptcyPrice(s: Side, qty: number, entry: number, wallet: number): number {
  const q = Math.abs(qty);
  if (!(q > 0)) throw new RangeError('bankruptcy price needs a non-zero quantity');
  return entry - (s * wallet) / q;
}
