// Liquidation and bankruptcy prices of one position (Binance USD-M formula).
//
// LP is the mark at which margin ratio = 1, i.e. where the equity
//   WB - TMM1 + UPNL1 + s x Q x (p - EP)
// equals this position's maintenance margin Q x p x MMR - cum, with MMR/cum of the tier
// that the notional Q x p itself falls in. Solving for p in one tier gives
//   LP = (WB - TMM1 + UPNL1 + cum - s x Q x EP) / (Q x MMR - s x Q).
// Cross: WB = cross wallet, TMM1/UPNL1 = maintenance and UPnL of all other positions
// (held constant: LP is the price of this symbol at which the account liquidates if
// nothing else moves). Isolated: WB = the position's margin incl. added margin, TMM1 = UPNL1 = 0.
// Tier choice: equity minus maintenance is piecewise linear in p and strictly monotone
// (slope Q(1 - MMR) for longs, -Q(1 + MMR) for shorts, MMR < 1), so exactly one tier
// holds the root; it is the first tier (ascending) at whose cap the root has been passed.
// This never oscillates, unlike recomputing until the tier stops changing.
// Result 0 means no positive liquidation price: a long that cannot be liquidated at any
// price > 0, or a short already liquidatable at every price. In both cases the trigger
// "long: mark <= LP; short: mark >= LP" stays correct, so 0 is safe to compare against.
// Units: USDT prices, base quantities (magnitudes), USDT amounts. float64.

import type { Side } from './margin.ts';
import type { Bracket } from './tiers.ts';

export interface LiquidationInput {
  readonly side: Side;
  /** |Q|, base units. */
  readonly qty: number;
  /** EP, average entry price. */
  readonly entry: number;
  /** WB: cross wallet balance, or the isolated position's margin. */
  readonly wallet: number;
  /** TMM1: maintenance margin of the account's other positions (cross only). */
  readonly otherMaintenance?: number;
  /** UPNL1: unrealized PnL of the account's other positions (cross only). */
  readonly otherUpnl?: number;
  readonly brackets: readonly Bracket[];
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
  const { side: s, entry, wallet, brackets } = input;
  const q = Math.abs(input.qty);
  if (q === 0) return 0;
  const tmm1 = input.otherMaintenance ?? 0;
  const upnl1 = input.otherUpnl ?? 0;
  const base = wallet - tmm1 + upnl1;
  let chosen = brackets[brackets.length - 1];
  for (let i = 0; i < brackets.length - 1; i++) {
    const b = brackets[i];
    const p = b.cap / q;
    const surplus = base + s * q * (p - entry) - (b.cap * b.mmr - b.cum);
    // Long: surplus rises with p, so surplus >= 0 at the cap puts the root at or below it.
    // Short: surplus falls with p, so surplus <= 0 at the cap does.
    if (s * surplus >= 0) {
      chosen = b;
      break;
    }
  }
  const lp = liquidationPriceInTier(input, chosen);
  return lp > 0 ? lp : 0;
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
