// The ledger: wallets, frozen order margin, position margin and the money figures derived
// from them (available balance, cross totals, account summary), plus deposits.
//
// Invariants
// - Every amount is a bigint of 1e-8 USDT. Values at the mark are SymbolMath.valueAt (the mark
//   rounded to 1e-8, the product exact, rounded once) and maintenance margins
//   maintenanceMarginUnits, so totals are sums of integers and the same state always gives the
//   same figures to the unit.
// - Per account: total deposits = wallet + fees paid - realized PnL + funding paid, exactly (a
//   wallet the insurance fund tops up is booked as a deposit from it). Every change of the
//   deposits total is stored with a transfer row of its cause, in the same unit.
// - An account's frozen total is the sum of its open orders' frozen margin; every change of an
//   order's margin moves both. A resting opening order freezes the initial margin and taker fee
//   of the part of it that would open (eachOpeningOrder: in one-way mode the part beyond the
//   net position it reduces); whatever is left is released when the order ends.
// - Floats appear only for display and risk thresholds of a position record (positionRisk).
import { Errors } from '../../src-shared/errors.ts';
import { MAX_PRICE_TICKS } from '../engine/types.ts';
import { MarginMode, PositionMode, PositionSide, Side } from '../../src-shared/enums.ts';
import { liquidationPrice, symbolLiquidationPrice, type LiquidationLeg } from '../risk/liquidation-price.ts';
import { maintenanceMargin, maintenanceMarginUnits } from '../risk/margin.ts';
import { ceilDiv, unitsToNumber } from '../risk/money.ts';
import { entryPrice, type PositionState } from '../risk/position.ts';
import { posKey, reject, rejectParam, type AccountLive, type LiveOrder, type TradingCore } from './core.ts';
import type { PairState } from './pair-state.ts';
import { TransferKind, type AccountMoney, type OrderState, type PositionRisk } from './ports.ts';

/** Value of a position at its pair's mark, units. */
export function markValue(p: PositionState, pair: PairState): bigint {
  return pair.math.valueAt(pair.markPrice, p.qty);
}

/** Unrealized PnL of a position at its pair's mark, units. */
export function upnlUnits(p: PositionState, pair: PairState): bigint {
  const d = markValue(p, pair) - p.cost;
  return p.side === PositionSide.LONG ? d : -d;
}

export interface CrossTotals {
  /** Unrealized PnL of the cross positions. */
  upnl: bigint;
  /** Initial margin of the cross positions at the mark. */
  im: bigint;
  /** Maintenance margin of the cross positions (0 unless asked for). */
  mm: bigint;
  /** Margin allocated to isolated positions. */
  isolated: bigint;
}

/**
 * Totals of an account's cross positions (all but those in `except`) and its isolated margin;
 * the maintenance margin only when `withMaintenance` (the available balance does not need it).
 */
export function crossTotals(
  core: TradingCore,
  a: AccountLive,
  except?: readonly PositionState[],
  withMaintenance = true,
): CrossTotals {
  let upnl = 0n;
  let im = 0n;
  let mm = 0n;
  let isolated = 0n;
  for (const p of a.positions.values()) {
    if (p.qty === 0) continue;
    if (p.marginMode === MarginMode.ISOLATED) {
      isolated += p.isolatedMargin;
      continue;
    }
    if (except?.includes(p)) continue;
    const pair = core.pairs.get(p.symbol)!;
    const value = markValue(p, pair);
    upnl += p.side === PositionSide.LONG ? value - p.cost : p.cost - value;
    im += ceilDiv(value, BigInt(p.leverage));
    if (withMaintenance) mm += maintenanceMarginUnits(pair.row.brackets, value);
  }
  return { upnl, im, mm, isolated };
}

/** Available balance, units (may be negative): what new orders may use. */
export function available(core: TradingCore, a: AccountLive): bigint {
  const t = crossTotals(core, a, undefined, false);
  return a.wallet + t.upnl - t.im - t.isolated - a.frozen;
}

/** What a change of an account's leverage on one pair asks of its margin (leverageChange). */
interface LeverageMargin {
  /** Initial margin the pair's cross positions and opening orders hold now. */
  held: bigint;
  /** Initial margin the pair's cross positions and opening orders need at the new leverage. */
  need: bigint;
  /** What the account can hold for them: the available balance plus what they hold now. */
  canHold: bigint;
  /** An isolated position the new leverage lowers whose margin would not cover its initial margin at it. */
  isolatedShort?: { p: PositionState; im: bigint };
}

/**
 * What an opening order of `notional` (exact units) freezes at `leverage`: its initial margin and
 * the fee at the taker rate. Placement, amendment and a leverage change all freeze by this.
 */
export function orderMargin(pair: PairState, notional: bigint, leverage: number): bigint {
  return ceilDiv(notional, BigInt(leverage)) + pair.math.fee(notional, false);
}

/**
 * Whether resting order `o` is margined: an opening (not reduce-only) limit order. A close or
 * reduce-only order never freezes anything; in one-way mode an opening order freezes only for the
 * part of it that would open (eachOpeningOrder), which may be none.
 */
export function freezesMargin(o: { reduceOnly: boolean; priceTicks: number }): boolean {
  return !o.reduceOnly && o.priceTicks !== 0;
}

/** An amendment being checked: resting order `o` taken at `priceTicks` with `lots` left. */
export interface AmendedOrder {
  o: OrderState;
  priceTicks: number;
  lots: number;
}

/**
 * One-way mode: the side whose orders reduce the account's net position on `symbol` (a long is
 * reduced by sells, a short by buys); 0 when the account holds none there, or in hedge mode.
 */
function reducingSide(a: AccountLive, symbol: string): number {
  if (a.mode !== PositionMode.ONE_WAY) return 0;
  if ((a.positions.get(posKey(symbol, PositionSide.LONG))?.qty ?? 0) > 0) return Side.SELL;
  if ((a.positions.get(posKey(symbol, PositionSide.SHORT))?.qty ?? 0) > 0) return Side.BUY;
  return 0;
}

/** Lots of the one-way net position on `symbol` that orders on `side` reduce (`side` is its reducing side). */
function positionLots(a: AccountLive, symbol: string, side: number): number {
  const p = a.positions.get(posKey(symbol, side === Side.SELL ? PositionSide.LONG : PositionSide.SHORT));
  return p?.qty ?? 0;
}

/**
 * The part of each of the account's resting opening orders on `pair` that would open a position,
 * `visit(o, lots, priceTicks)` for each: what order margin is frozen for. Hedge mode: what is left
 * of the order. One-way mode, where an order against the net position first reduces it: the
 * position is set against the opening orders on its reducing side oldest first (by id), and each
 * opens only what is left of it beyond what the position still covers after the older ones took
 * theirs. A sell of 1 against a long of 0.5 opens 0.5; of two sells of 0.5 against it the older
 * opens nothing and the newer 0.5. So however they fill, these orders never open more than the
 * parts they are margined for (Binance: an order is an opening one when its quantity passes
 * |position| less the open orders on its side). Reduce-only orders take no part: they never open.
 * `amended`: one order taken at another price and remaining quantity (an amendment being
 * checked). Reads only.
 */
export function eachOpeningOrder(
  a: AccountLive,
  pair: PairState,
  visit: (o: LiveOrder, lots: number, priceTicks: number) => void,
  amended?: AmendedOrder,
): void {
  const symbol = pair.row.symbol;
  const reducing = reducingSide(a, symbol);
  let against: LiveOrder[] | undefined;
  for (const o of a.orders.values()) {
    if (o.symbol !== symbol || !freezesMargin(o)) continue;
    if (o.side === reducing) (against ??= []).push(o);
    else if (o === amended?.o) visit(o, amended.lots, amended.priceTicks);
    else visit(o, o.qtyLots - o.filledLots, o.priceTicks);
  }
  if (against === undefined) return;
  // ids grow with placement, and an account's orders are kept in placement order; sorted all the same
  against.sort((x, y) => x.id - y.id);
  let cover = positionLots(a, symbol, reducing);
  for (const o of against) {
    const left = o === amended?.o ? amended.lots : o.qtyLots - o.filledLots;
    const covered = left < cover ? left : cover;
    cover -= covered;
    visit(o, left - covered, o === amended?.o ? amended.priceTicks : o.priceTicks);
  }
}

/**
 * Lots of the account's net position on `symbol` that a new opening order on `side` would
 * reduce, by eachOpeningOrder's rule for the newest order: in one-way mode the position against
 * the order, less what is left of the resting opening orders on the order's side; 0 when there
 * is none against it, and in hedge mode.
 */
export function reducedByNewOrder(a: AccountLive, symbol: string, side: number): number {
  if (reducingSide(a, symbol) !== side) return 0;
  let cover = positionLots(a, symbol, side);
  for (const o of a.orders.values()) {
    if (o.symbol !== symbol || o.side !== side || !freezesMargin(o)) continue;
    cover -= o.qtyLots - o.filledLots;
    if (cover <= 0) return 0;
  }
  return cover;
}

/**
 * The notional (USDT) the leverage's cap measures for an order on `positionSide` (hedge mode) or
 * `side` (one-way mode): what the side would hold if the account's opening orders on the pair
 * filled. Hedge mode: the side's position at the mark plus its opening orders at their price (a
 * market order at the mark). One-way mode: the net position when it is on the order's side
 * (buys long, sells short), at the mark, plus the part of each opening order on that side that
 * would open (eachOpeningOrder), at its price: an order against the position counts only what it
 * would flip, a plain close nothing. `amended`: as for eachOpeningOrder.
 */
export function capNotional(
  a: AccountLive,
  pair: PairState,
  positionSide: number,
  side: number,
  amended?: AmendedOrder,
): number {
  const { math } = pair;
  const symbol = pair.row.symbol;
  const tick = math.tickValue;
  const oneWay = a.mode === PositionMode.ONE_WAY;
  // the position on that side (a walk, not a keyed look-up: nothing allocated on the signed route)
  const held = oneWay ? (side === Side.BUY ? PositionSide.LONG : PositionSide.SHORT) : positionSide;
  let total = 0;
  for (const p of a.positions.values()) {
    if (p.symbol === symbol && p.side === held) total += p.qty * math.lotValue * pair.markPrice;
  }
  if (oneWay) {
    eachOpeningOrder(
      a,
      pair,
      (o, lots, priceTicks) => {
        if (o.side === side && lots > 0) total += lots * math.lotValue * priceTicks * tick;
      },
      amended,
    );
    return total;
  }
  for (const o of a.orders.values()) {
    if (o.symbol !== symbol || o.reduceOnly || o.positionSide !== positionSide) continue;
    const lots = o === amended?.o ? amended.lots : o.qtyLots - o.filledLots;
    const ticks = o === amended?.o ? amended.priceTicks : o.priceTicks;
    total += lots * math.lotValue * (ticks ? ticks * tick : pair.markPrice);
  }
  return total;
}

/**
 * Sets what each resting opening order of the account on `pair` freezes to the margin (and taker
 * fee) of the part of it that would open now (eachOpeningOrder), at the order's leverage: after a
 * leverage change, and in one-way mode whenever the net position or the opening orders on the
 * pair changed (a fill, an order gone, an amendment, an ADL close). The account's frozen total
 * stays the sum of its orders'; `changed` is told of each order whose margin moved. Returns
 * whether any did.
 */
export function remarginOrders(a: AccountLive, pair: PairState, changed: (o: LiveOrder) => void): boolean {
  let moved = false;
  eachOpeningOrder(a, pair, (o, lots, priceTicks) => {
    const frozen = lots > 0 ? orderMargin(pair, pair.math.notional(priceTicks, lots), o.leverage) : 0n;
    if (frozen === o.frozen) return;
    a.frozen += frozen - o.frozen;
    o.frozen = frozen;
    moved = true;
    changed(o);
  });
  return moved;
}

/**
 * The margin a leverage of `leverage` on `pair` would ask of account `a`: its cross positions on
 * the pair take their initial margin at that leverage, and its opening (not reduce-only) orders
 * there the margin they will freeze at it for the part of each that would open (eachOpeningOrder;
 * a leverage change re-margins them, see account-settings.ts); isolated positions keep their
 * margin, which must cover their initial margin at the new leverage. Exact units; reads only.
 */
export function leverageMargin(core: TradingCore, a: AccountLive, pair: PairState, leverage: number): LeverageMargin {
  const symbol = pair.row.symbol;
  const lev = BigInt(leverage);
  let held = 0n;
  let need = 0n;
  let isolatedShort: LeverageMargin['isolatedShort'];
  for (const p of a.positions.values()) {
    if (p.symbol !== symbol || p.qty === 0) continue;
    const im = ceilDiv(markValue(p, pair), lev);
    if (p.marginMode === MarginMode.ISOLATED) {
      if (leverage < p.leverage && im > p.isolatedMargin && isolatedShort === undefined) isolatedShort = { p, im };
      continue;
    }
    held += ceilDiv(markValue(p, pair), BigInt(p.leverage));
    need += im;
  }
  eachOpeningOrder(a, pair, (o, lots, priceTicks) => {
    held += o.frozen;
    if (lots > 0) need += orderMargin(pair, pair.math.notional(priceTicks, lots), leverage);
  });
  return { held, need, canHold: available(core, a) + held, isolatedShort };
}

/** The figures of an account's balance summary. */
export function accountMoney(core: TradingCore, a: AccountLive): AccountMoney {
  const t = crossTotals(core, a, undefined, false);
  let isoUpnl = 0n;
  for (const p of a.positions.values()) {
    if (p.qty > 0 && p.marginMode === MarginMode.ISOLATED) isoUpnl += upnlUnits(p, core.pairs.get(p.symbol)!);
  }
  const avail = a.wallet + t.upnl - t.im - t.isolated - a.frozen;
  return {
    id: a.id,
    wallet: a.wallet,
    deposits: a.deposits,
    frozen: a.frozen,
    available: avail < 0n ? 0n : avail,
    positionMargin: t.im + t.isolated,
    unrealizedPnl: t.upnl + isoUpnl,
    marginBalance: a.wallet + t.upnl + isoUpnl,
    mode: a.mode,
  };
}

/**
 * Margin, liquidation price, margin ratio and unrealized PnL of a position, for its record. A
 * cross position's liquidation price solves it together with the opposite side of the symbol
 * when the account holds both (hedge mode), so both sides show the same price.
 */
export function positionRisk(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  pair: PairState,
  entry: number,
): PositionRisk {
  const qty = pair.math.qtyOf(p.qty);
  const notional = qty * pair.markPrice;
  const upnl = unitsToNumber(upnlUnits(p, pair));
  const maint = maintenanceMargin(pair.row.brackets, notional);
  const s = p.side === PositionSide.LONG ? 1 : -1;
  if (p.marginMode === MarginMode.ISOLATED) {
    const margin = unitsToNumber(p.isolatedMargin);
    const equity = margin + upnl;
    return {
      margin,
      liquidationPrice: liquidationPrice({ side: s, qty, entry, wallet: margin, brackets: pair.row.brackets }),
      marginRatio: equity > 0 ? maint / equity : maint > 0 ? 1 : 0,
      unrealizedPnl: upnl,
    };
  }
  const opposite = a.positions.get(
    posKey(p.symbol, p.side === PositionSide.LONG ? PositionSide.SHORT : PositionSide.LONG),
  );
  const hedged = opposite !== undefined && opposite.qty > 0 && opposite.marginMode === MarginMode.CROSS;
  const legs: LiquidationLeg[] = [{ side: s, qty, entry }];
  if (hedged) {
    legs.push({
      side: opposite.side === PositionSide.LONG ? 1 : -1,
      qty: pair.math.qtyOf(opposite.qty),
      entry: entryPrice(opposite, pair.math.lotValue),
    });
  }
  const others = crossTotals(core, a, hedged ? [p, opposite] : [p]);
  const crossWallet = unitsToNumber(a.wallet - others.isolated);
  const otherMm = unitsToNumber(others.mm);
  const otherUpnl = unitsToNumber(others.upnl);
  // the opposite side's maintenance and PnL, for the account's margin ratio
  const oppositeMm = hedged ? unitsToNumber(maintenanceMarginUnits(pair.row.brackets, markValue(opposite, pair))) : 0;
  const oppositeUpnl = hedged ? unitsToNumber(upnlUnits(opposite, pair)) : 0;
  const equity = crossWallet + otherUpnl + oppositeUpnl + upnl;
  return {
    // the units the account's position_margin sums (crossTotals: value / leverage rounded up)
    margin: unitsToNumber(ceilDiv(markValue(p, pair), BigInt(p.leverage))),
    liquidationPrice: symbolLiquidationPrice({
      legs,
      wallet: crossWallet,
      otherMaintenance: otherMm,
      otherUpnl,
      brackets: pair.row.brackets,
      mark: pair.markPrice,
      maxPrice: MAX_PRICE_TICKS * pair.math.tickValue,
    }),
    marginRatio: equity > 0 ? (otherMm + oppositeMm + maint) / equity : 1,
    unrealizedPnl: upnl,
  };
}

/** Paper deposit (positive) or withdrawal (negative) of `amount` units. */
export function deposit(core: TradingCore, a: AccountLive, amount: bigint): void {
  if (amount === 0n) rejectParam(Errors.INVALID_PARAMETER, 'amount', 'must not be zero');
  if (amount < 0n && a.wallet + amount < 0n) reject(Errors.INSUFFICIENT_MARGIN, 'The wallet cannot go below zero');
  a.wallet += amount;
  a.deposits += amount;
  const now = core.now();
  const { repo } = core.deps;
  repo.tx(() => {
    repo.addDeposit(a.id, amount, now);
    repo.insertTransfer({ accountId: a.id, kind: TransferKind.DEPOSIT, time: now, amount });
  });
}

/** Sets the wallet to `balance` and books the difference as a deposit and a transfer of `kind` (paper reset). */
export function bookWalletTo(
  core: TradingCore,
  a: AccountLive,
  balance: bigint,
  time: number,
  kind: TransferKind = TransferKind.RESET,
): void {
  const delta = balance - a.wallet;
  a.wallet = balance;
  a.deposits += delta;
  core.writer.wallet(a);
  core.writer.flush();
  const { repo } = core.deps;
  if (delta !== 0n) {
    repo.tx(() => {
      repo.addDeposit(a.id, 0n, time, delta);
      repo.insertTransfer({ accountId: a.id, kind, time, amount: delta });
    });
  }
}
