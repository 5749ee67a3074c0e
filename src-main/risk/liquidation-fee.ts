// The liquidation clearance fee: what a liquidated position pays the insurance fund on top of its
// trading fees (Binance USD-M books it as INSURANCE_CLEAR income; its exchangeInfo publishes the
// rate per symbol as `liquidationFee`).
//
// Invariants and limits
// - One rate for every pair (the catalogue holds no per-pair figure): LIQUIDATION_FEE_RATE is the
//   only source; the Binance facade's exchangeInfo reads it (trading/pair-figures.ts).
// - The fee is rate x the liquidated notional at the close prices, rounded half up to 1e-8 USDT
//   as trading fees are, and never more than the margin the close left (`room`), never below 0:
//   a liquidation takes what is left of the position's margin, never the trader's other money.
// - Pure, exact (bigint units).
import { mulRate, parseRate } from './money.ts';

/** The liquidation clearance fee rate, as a decimal string (Binance's `liquidationFee`, 1.25 %). */
export const LIQUIDATION_FEE_RATE = '0.0125';

const RATE = parseRate(LIQUIDATION_FEE_RATE);

/**
 * The clearance fee of a liquidation that closed `notional` units (the close prices' value) and
 * left `room` units of margin: min(rate x notional, room), 0 when nothing is left.
 */
export function liquidationFee(notional: bigint, room: bigint): bigint {
  if (room <= 0n || notional <= 0n) return 0n;
  const fee = mulRate(notional, RATE);
  return fee < room ? fee : room;
}
