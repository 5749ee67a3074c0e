// Position margin and PnL formulas (Binance USD-M semantics, reference/exchange.md).
//
// Units: prices in USDT per base unit, quantities in base units, amounts in USDT, rates
// and ratios as fractions (0.004 = 0.40%). Quantities are taken as magnitudes (|Q|); the
// direction is the separate side s = +1 long, -1 short.
// Limits: float64 throughout (except maintenanceMarginUnits, bigint). These produce prices, ratios and thresholds for display and
// triggers; exact money accounting (balances, fees, realized PnL) is done elsewhere in
// decimal, so callers must not book these results as money without rounding them.

import { bracketFor } from './tiers.ts';
import type { Bracket } from './tiers.ts';

/** +1 long, -1 short. */
export type Side = 1 | -1;

/** Position value at the mark, USDT: |Q| x mark. */
export function notional(qty: number, mark: number): number {
  return Math.abs(qty) * mark;
}

/** s x |Q| x (mark - entry): positive when the position is in profit. */
export function unrealizedPnl(s: Side, qty: number, entry: number, mark: number): number {
  return s * Math.abs(qty) * (mark - entry);
}

export function initialMargin(notionalValue: number, leverage: number): number {
  if (!(leverage > 0)) throw new RangeError(`leverage must be > 0, got ${leverage}`);
  return notionalValue / leverage;
}

/** notional x MMR - cum for a known tier. */
export function maintenanceMarginAt(notionalValue: number, mmr: number, cum: number): number {
  return notionalValue * mmr - cum;
}

/** Maintenance margin with the tier of the notional itself. */
export function maintenanceMargin(brackets: readonly Bracket[], notionalValue: number): number {
  const b = bracketFor(brackets, notionalValue);
  return maintenanceMarginAt(notionalValue, b.mmr, b.cum);
}

/**
 * Maintenance margin in 1e-8 USDT units of a notional in units: notional x MMR rounded half up,
 * minus cum. Exact apart from that one rounding (MMRs have at most 6 decimals, cum is exact in
 * micro-USDT: tiers.ts), so cross totals are sums of integers.
 */
export function maintenanceMarginUnits(brackets: readonly Bracket[], notionalUnits: bigint): bigint {
  const b = bracketFor(brackets, Number(notionalUnits) / 1e8);
  const ppm = BigInt(Math.round(b.mmr * 1_000_000));
  const cum = BigInt(Math.round(b.cum * 1e8));
  return (notionalUnits * ppm + 500_000n) / 1_000_000n - cum;
}

/**
 * maintenance / (wallet + UPnL); liquidation at >= 1. With nothing to maintain the ratio
 * is 0; with equity <= 0 against a positive maintenance it is Infinity (liquidate), which
 * keeps the "ratio >= 1 liquidates" test right where the quotient's sign would flip.
 */
export function marginRatio(maintenance: number, wallet: number, upnl: number): number {
  if (maintenance <= 0) return 0;
  const equity = wallet + upnl;
  if (equity <= 0) return Infinity;
  return maintenance / equity;
}

/** Return on equity of the position: UPnL / initial margin (Binance's ROE). */
export function roe(upnl: number, initialMarginValue: number): number {
  if (!(initialMarginValue > 0)) throw new RangeError(`initial margin must be > 0, got ${initialMarginValue}`);
  return upnl / initialMarginValue;
}

/**
 * Taker fee for closing |Q| at a price. Break-even uses the entry price here, so the
 * break-even price stays put while the mark moves (Binance's examples are reproduced so).
 */
export function estimatedClosingFee(qty: number, price: number, takerRate: number): number {
  return Math.abs(qty) * price * takerRate;
}

/** BEP = entry + s x (fees paid so far + estimated closing fee) / |Q|. Funding is excluded, as Binance does. */
export function breakEvenPrice(s: Side, qty: number, entry: number, feesPaid: number, closingFee: number): number {
  const q = Math.abs(qty);
  if (!(q > 0)) throw new RangeError('break-even price needs a non-zero quantity');
  return entry + (s * (feesPaid + closingFee)) / q;
}
