// A position's exact bookkeeping: what an opening or closing fill does to it.
//
// Invariants
// - qty (lots) >= 0; cost is the exact sum (1e-8 USDT) of the entry notionals still open, so
//   entry price = cost / qty. A partial close removes floor(cost x closed / qty) of it and the
//   last close removes the rest, so over a position's life realized PnL = exit amounts - entry
//   amounts, to the unit.
// - Isolated margin is released in the same proportion; its last close releases all of it.
// - realizedPnl is price PnL only; fees (openFee, closeFee) and funding (fundingFee, positive =
//   paid) are kept apart, as the spec's records show them apart.
// - Pure: no clock (times are passed in), no I/O.
import { MarginMode, PositionSide, WorkingType } from '../../src-shared/enums.ts';
import { ceilDiv } from './money.ts';

export type HedgeSide = 1 | 2;

export interface PositionState {
  id: number;
  accountId: number;
  symbol: string;
  /** 1 long, 2 short. In one-way mode the side of the net position. */
  side: HedgeSide;
  qty: number;
  cost: bigint;
  marginMode: 1 | 2;
  leverage: number;
  isolatedMargin: bigint;
  realizedPnl: bigint;
  openFee: bigint;
  closeFee: bigint;
  fundingFee: bigint;
  openQtyTotal: number;
  closeQtyTotal: number;
  openAmount: bigint;
  closeAmount: bigint;
  /** Take-profit / stop-loss trigger prices in ticks (0 = none) and what they watch (1 mark, 2 last). */
  tpTicks: number;
  tpTrigger: 1 | 2;
  slTicks: number;
  slTrigger: 1 | 2;
  createdAt: number;
  updatedAt: number;
}

/** What a new, still flat position is made of: its id, owner, pair, side, margin settings and time. */
export interface NewPosition {
  id: number;
  accountId: number;
  symbol: string;
  side: HedgeSide;
  marginMode: 1 | 2;
  leverage: number;
  now: number;
}

export function newPosition({ id, accountId, symbol, side, marginMode, leverage, now }: NewPosition): PositionState {
  return {
    id,
    accountId,
    symbol,
    side,
    qty: 0,
    cost: 0n,
    marginMode,
    leverage,
    isolatedMargin: 0n,
    realizedPnl: 0n,
    openFee: 0n,
    closeFee: 0n,
    fundingFee: 0n,
    openQtyTotal: 0,
    closeQtyTotal: 0,
    openAmount: 0n,
    closeAmount: 0n,
    tpTicks: 0,
    tpTrigger: 1,
    slTicks: 0,
    slTrigger: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The position has a take-profit or a stop-loss set on the last trade price (working type 2). */
export function watchesLastPrice(p: PositionState): boolean {
  return (
    (p.tpTicks !== 0 && p.tpTrigger === WorkingType.LAST_PRICE) ||
    (p.slTicks !== 0 && p.slTrigger === WorkingType.LAST_PRICE)
  );
}

export function sign(side: HedgeSide): 1n | -1n {
  return side === PositionSide.LONG ? 1n : -1n;
}

/** Adds an opening fill of `lots` worth `notional`; returns the isolated margin it locks. */
export function applyOpen(p: PositionState, lots: number, notional: bigint, fee: bigint, now: number): bigint {
  p.qty += lots;
  p.cost += notional;
  p.openFee += fee;
  p.openQtyTotal += lots;
  p.openAmount += notional;
  p.updatedAt = now;
  if (p.marginMode === MarginMode.ISOLATED) {
    const m = ceilDiv(notional, BigInt(p.leverage));
    p.isolatedMargin += m;
    return m;
  }
  return 0n;
}

export interface CloseResult {
  /** Price PnL of this close, 1e-8 USDT. */
  pnl: bigint;
  /** Isolated margin released (0 in cross). */
  released: bigint;
  /** True when the position is now flat. */
  flat: boolean;
}

/** Removes `lots` (<= qty) closed at `notional`. */
export function applyClose(p: PositionState, lots: number, notional: bigint, fee: bigint, now: number): CloseResult {
  if (lots <= 0 || lots > p.qty) throw new RangeError(`close of ${lots} lots on a position of ${p.qty}`);
  const q = BigInt(p.qty);
  const l = BigInt(lots);
  const flat = lots === p.qty;
  const costOut = flat ? p.cost : (p.cost * l) / q;
  const released = flat ? p.isolatedMargin : (p.isolatedMargin * l) / q;
  const pnl = sign(p.side) * (notional - costOut);
  p.qty -= lots;
  p.cost -= costOut;
  p.isolatedMargin -= released;
  p.realizedPnl += pnl;
  p.closeFee += fee;
  p.closeQtyTotal += lots;
  p.closeAmount += notional;
  p.updatedAt = now;
  return { pnl, released, flat };
}

/** Average entry price as a float (display and risk thresholds). */
export function entryPrice(p: PositionState, lotValue: number): number {
  if (p.qty === 0) return 0;
  return Number(p.cost) / 1e8 / (p.qty * lotValue);
}
