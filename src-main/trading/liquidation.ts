// Liquidation, insurance fund and auto-deleveraging, checked on every mark price change, with the
// margin calls short of it (margin-call.ts).
//
// Invariants
// - An isolated position is liquidated when its maintenance margin reaches its equity
//   (margin + PnL); the cross account when the cross maintenance reaches the cross equity
//   (wallet - isolated margin + cross PnL). Both sides are bigint units (ledger.ts).
// - A liquidation cancels the orders that could add to the positions (they end EXPIRED, status 6,
//   as the reference lifecycle has it, so they read apart from a user's cancels), closes each with an IOC
//   that may trade only down to the bankruptcy price (close type 4), closes any rest at the
//   bankruptcy price against the insurance fund (6), and, when the fund cannot cover,
//   deleverages profitable opposite positions in ADL order (5).
// - Bankruptcy price: isolated, where the position's margin is gone; cross, where its share of the
//   cross wallet is gone, the cross equity shared among the positions by maintenance margin
//   (crossShares), so closing them all at their bankruptcy prices leaves the wallet at zero. Off the
//   tick it is taken on the trader's side (a long's up, a short's down) by the IOC's limit and the
//   bankruptcy and ADL closes alike, so no close there loses more than the margin (the wallet is
//   left at zero or a part of a tick above it, which the clearance fee takes).
// - Each liquidated position then pays the fund a clearance fee (risk/liquidation-fee.ts): the
//   rate x the notional its closes (4 and 6) traded, at most what they left of its margin
//   (isolated: its margin + realized PnL - fees of the close; cross: what is left of the cross
//   wallet, position after position), never taking the wallet below zero. It is its own ledger
//   item (a liquidation_fees row, the account identity's `liquidation fees`), joins the closed
//   position's close fee and the liquidation event, and is stored in the wallets' commit. ADL
//   counterparties and every other close pay none.
// - A wallet left below zero is covered and booked as a deposit (an INSURANCE_COVER transfer), and
//   so is what an isolated position's closes took beyond its margin (its IOC's taker fee on a fill
//   at the bankruptcy price), which is never taken from the cross wallet; so the account identity
//   (deposits = wallet + fees + liquidation fees - PnL + funding) still holds.
// - The fund never goes below zero. A loss it cannot take whole sends the bankrupt close to ADL;
//   what nothing can take (a wallet deficit once the position is gone, or a bankrupt rest with no
//   opposite position left, the house market maker holding none) the fund pays down to zero and
//   the house backstop (core.houseBackstop, the operator's money) the rest: fund - backstop moves
//   by exactly the loss. Both are stored with the same commit.
// - checkRisk does not re-enter itself (a liquidation's trades move no mark) and does nothing
//   once a store write has failed.
import { CloseType, MarginMode, OrderStatus, PositionMode, PositionSide, TimeInForce } from '../../src-shared/enums.ts';
import { MAX_PRICE_TICKS, OrderFlag } from '../engine/types.ts';
import { liquidationFee } from '../risk/liquidation-fee.ts';
import { bankruptcyPrice } from '../risk/liquidation-price.ts';
import { maintenanceMarginUnits } from '../risk/margin.ts';
import { formatMoney, unitsToNumber } from '../risk/money.ts';
import { entryPrice, type PositionState } from '../risk/position.ts';
import { posKey, type AccountLive, type LiveOrder, type TradingCore } from './core.ts';
import { TransferKind, type LiquidationFeeState } from './ports.ts';
import {
  closeLots,
  drain,
  filledVenueOrder,
  recordSyntheticTrade,
  remargin,
  venueCloseOrder,
  type VenueClose,
} from './fills.ts';
import { crossTotals, markValue, upnlUnits } from './ledger.ts';
import { markText } from './pair-figures.ts';
import type { PairState } from './pair-state.ts';
import { ADL_CLIENT_ID, liquidationClientId } from './liquidation-client-id.ts';
import { adlQueue } from './adl-queue.ts';
import { checkTriggers } from './tpsl.ts';
import { checkConditionals } from './conditional.ts';
import { dropGoneCalls, marginCall } from './margin-call.ts';

/** Liquidations, then take-profit / stop-loss triggers, for the pair's current prices. */
export function checkRisk(core: TradingCore, pair: PairState): void {
  if (core.checkingRisk || core.fatal) return;
  core.checkingRisk = true;
  try {
    for (const a of [...core.accounts.values()]) {
      if (a.positions.size === 0) continue;
      liquidateIfNeeded(core, a, pair);
    }
    checkTriggers(core, pair);
    checkConditionals(core, pair);
  } finally {
    core.checkingRisk = false;
  }
}

function liquidateIfNeeded(core: TradingCore, a: AccountLive, pair: PairState): void {
  dropGoneCalls(a);
  // isolated positions on this pair
  for (const p of [...a.positions.values()]) {
    if (p.symbol !== pair.row.symbol || p.qty === 0 || p.marginMode !== MarginMode.ISOLATED) continue;
    const equity = p.isolatedMargin + upnlUnits(p, pair);
    const mm = maintenanceMarginUnits(pair.row.brackets, markValue(p, pair));
    if (mm >= equity) liquidate(core, a, [p], p.isolatedMargin);
    else marginCall(core, a, { isolated: p, wallet: p.isolatedMargin, mm, equity });
  }
  // cross: the whole cross account
  let hasCrossHere = false;
  for (const p of a.positions.values())
    if (p.symbol === pair.row.symbol && p.qty > 0 && p.marginMode === MarginMode.CROSS) hasCrossHere = true;
  if (!hasCrossHere) return;
  const t = crossTotals(core, a);
  const equity = a.wallet - t.isolated + t.upnl;
  if (t.mm > 0n && t.mm >= equity) {
    const cross = [...a.positions.values()].filter((p) => p.qty > 0 && p.marginMode === MarginMode.CROSS);
    liquidate(core, a, cross, a.wallet - t.isolated);
  } else marginCall(core, a, { isolated: null, wallet: a.wallet - t.isolated, mm: t.mm, equity });
}

/** Liquidates `positions` of an account whose margin (isolated margin or cross wallet) is `wallet` units. */
function liquidate(core: TradingCore, a: AccountLive, positions: PositionState[], walletUnits: bigint): void {
  const symbols = new Set(positions.map((p) => p.symbol));
  const crossAll = positions.some((p) => p.marginMode === MarginMode.CROSS);
  for (const o of [...a.orders.values()]) {
    // a cross liquidation: every order on cross margin (any pair's could add to the cross
    // positions); an isolated one: the orders of its pairs. An isolated position's orders (its
    // take-profit) stand through a cross liquidation: they neither add to nor draw on the cross margin.
    if (crossAll ? o.marginMode === MarginMode.CROSS : symbols.has(o.symbol)) {
      const pair = core.pairs.get(o.symbol)!;
      o.liquidated = true; // ends EXPIRED (fills.ts)
      pair.book.cancel(o.id);
      drain(core, pair, null);
    }
  }
  const time = core.now();
  const w = core.writer;
  const closed: Liquidated[] = [];
  const backstopBefore = core.houseBackstop;
  const shares = crossAll ? crossShares(core, positions, walletUnits) : null;
  for (const p of positions) {
    if (p.qty === 0) continue;
    const pair = core.pairs.get(p.symbol)!;
    const qtyBefore = p.qty;
    const entry = entryPrice(p, pair.math.lotValue);
    const s = p.side === PositionSide.LONG ? 1 : -1;
    const bp = bankruptcyPrice(
      s,
      p.qty * pair.math.lotValue,
      entry,
      p.marginMode === MarginMode.ISOLATED ? unitsToNumber(p.isolatedMargin) : unitsToNumber(shares!.get(p)!),
    );
    // the liquidation's close order: its id names the liquidation's records (event, bankruptcy fills)
    const id = core.takeOrderId();
    closed.push({
      p,
      margin: p.isolatedMargin,
      closeAmount: p.closeAmount,
      realized: p.realizedPnl,
      closeFee: p.closeFee,
      fee: 0n,
      note: {
        symbol: p.symbol,
        position_side: p.side,
        quantity: pair.math.qtyOf(p.qty),
        mark_price: markText(pair.markPrice),
        bankruptcy_price: markText(bp),
        order_id: String(id),
      },
    });
    // 1. IOC close in the market, which may trade only down to the bankruptcy price. A price off
    // the tick is taken on the trader's side (a long's up, a short's down), by the IOC and the
    // bankruptcy close alike: at the tick beyond it the position would lose more than its margin
    const bpTicks = Math.max(1, s === 1 ? pair.math.ticksCeil(bp) : pair.math.ticksFloor(bp));
    const limit = bp > 0 && bpTicks < MAX_PRICE_TICKS;
    const order = venueCloseOrder(core, a, p, {
      id,
      clientOrderId: liquidationClientId(id),
      closeType: CloseType.LIQUIDATION,
      time,
      ...(limit ? { priceTicks: bpTicks } : {}),
    });
    if (limit) pair.book.placeLimit(id, a.id, order.side, bpTicks, p.qty, TimeInForce.IOC, OrderFlag.ReduceOnly, p.qty);
    else
      pair.book.placeMarket(
        id,
        a.id,
        order.side,
        p.qty,
        Math.max(1, pair.math.ticksRound(pair.markPrice)),
        OrderFlag.ReduceOnly,
        p.qty,
      );
    drain(core, pair, null);
    w.order(order);
    // 2. the rest at the bankruptcy price against the fund, or by ADL: fills of the same order
    const live = a.positions.get(posKey(p.symbol, p.side));
    if (live && live.qty > 0) closeAtBankruptcy(core, a, live, bpTicks, { time, order });
    if (qtyBefore > 0) core.trimQueue.add(p);
    // the ADL counterparties' close orders follow what ADL left of their positions, in this command
    drain(core, pair, null);
  }
  const fees = chargeClearanceFees(core, a, closed, crossAll, time);
  // announced before the command's own events (fills, positions, balance), as the liquidation
  // comes first; once the commit stores it, like them
  for (const l of closed)
    w.announce({
      accountId: a.id,
      kind: 'liquidation',
      data: { ...l.note, liquidation_fee: formatMoney(l.fee), time },
    });
  // A wallet below zero is covered: by the fund down to zero, the rest by the house backstop (the
  // position is gone, nothing is left to deleverage). The cover is booked as a deposit, so the
  // account's identity (deposits = wallet + fees + liquidation fees - PnL + funding) still holds.
  // An isolated position's closes are covered beyond its margin alike (its IOC's taker fee at the
  // bankruptcy price): they never take the trader's cross money.
  let cover = crossAll ? 0n : isolatedDeficit(closed);
  if (a.wallet + cover < 0n) cover = -a.wallet;
  if (cover > 0n) {
    absorbLoss(core, cover);
    a.wallet += cover;
    a.deposits += cover;
    w.wallet(a);
  }
  const { repo, settings } = core.deps;
  settings.set('insurance_fund', String(core.insurance));
  if (core.houseBackstop !== backstopBefore) settings.set('house_backstop', String(core.houseBackstop));
  w.flush();
  if (cover > 0n || fees.length > 0) {
    repo.tx(() => {
      if (fees.length > 0) repo.insertLiquidationFees(fees);
      if (cover > 0n) {
        repo.addDeposit(a.id, 0n, time, cover);
        repo.insertTransfer({ accountId: a.id, kind: TransferKind.INSURANCE_COVER, time, amount: cover });
      }
    });
  }
}

/**
 * The part of the cross wallet each liquidated cross position stands on, units: the cross equity
 * (wallet + the positions' unrealized PnL at mark) is shared by maintenance margin, e_i = equity x
 * MM_i / sum MM, and a position's share is e_i - its unrealized PnL. So at its bankruptcy price,
 * BP_i = entry - s x share / Q = mark - s x e_i / Q, each position loses beyond the mark its part of
 * the equity (the shares add up to the wallet: closing every position there leaves it at zero), a
 * position in profit is not given the others' loss, and one position gets the whole wallet
 * (BP = entry - s x wallet / Q, as isolated).
 */
function crossShares(core: TradingCore, positions: PositionState[], walletUnits: bigint): Map<PositionState, bigint> {
  const figures = positions.map((p) => {
    const pair = core.pairs.get(p.symbol)!;
    return { p, upnl: upnlUnits(p, pair), mm: maintenanceMarginUnits(pair.row.brackets, markValue(p, pair)) };
  });
  const equity = figures.reduce((sum, f) => sum + f.upnl, walletUnits);
  const mmSum = figures.reduce((sum, f) => sum + f.mm, 0n);
  const shares = new Map<PositionState, bigint>();
  for (const f of figures) {
    // a maintenance of zero everywhere (no tier charges it): an equal part
    const part = mmSum > 0n ? (equity * f.mm) / mmSum : equity / BigInt(figures.length);
    shares.set(f.p, part - f.upnl);
  }
  return shares;
}

/**
 * What the closes of liquidated isolated positions took beyond their margins, units: the IOC's
 * taker fee on top of a fill at (or by a part of a tick above) the bankruptcy price; 0 when they
 * left some of it (the clearance fee, charged first, takes at most what they left).
 */
function isolatedDeficit(closed: readonly Liquidated[]): bigint {
  let deficit = 0n;
  for (const l of closed) {
    const left = l.margin + (l.p.realizedPnl - l.realized) - (l.p.closeFee - l.closeFee - l.fee);
    if (left < 0n) deficit -= left;
  }
  return deficit;
}

/** A liquidation's time and its close order (whose rest its bankruptcy closes fill). */
interface Liquidation {
  time: number;
  order: LiveOrder;
}

/** A position a liquidation closes: its figures before the close (the clearance fee is worked from what the close changed). */
interface Liquidated {
  p: PositionState;
  /** Isolated margin before the close (0 in cross). */
  margin: bigint;
  closeAmount: bigint;
  realized: bigint;
  closeFee: bigint;
  /** The clearance fee charged (set by chargeClearanceFees). */
  fee: bigint;
  /** The liquidation event's figures, taken before the close. */
  note: {
    symbol: string;
    position_side: number;
    quantity: number;
    mark_price: string;
    bankruptcy_price: string;
    /** The liquidation's close order (client order id autoclose-<id>). */
    order_id: string;
  };
}

/**
 * Charges each closed position its clearance fee into the insurance fund: min(rate x the notional
 * its closes traded, the margin they left). Isolated: its margin + realized PnL - fees of the
 * close; cross: the cross wallet (wallet - isolated margin) the closes left, position after
 * position; neither ever takes the wallet below zero. Returns the rows to store.
 */
function chargeClearanceFees(
  core: TradingCore,
  a: AccountLive,
  closed: Liquidated[],
  cross: boolean,
  time: number,
): LiquidationFeeState[] {
  const rows: LiquidationFeeState[] = [];
  let room = cross ? a.wallet - crossTotals(core, a, undefined, false).isolated : a.wallet;
  for (const l of closed) {
    const { p } = l;
    const left = l.margin + (p.realizedPnl - l.realized) - (p.closeFee - l.closeFee);
    l.fee = liquidationFee(p.closeAmount - l.closeAmount, cross || room < left ? room : left);
    if (l.fee === 0n) continue;
    room -= l.fee;
    a.wallet -= l.fee;
    core.insurance += l.fee;
    // the fee is part of what closing the position cost: its close fee and history record say so
    p.closeFee += l.fee;
    if (p.qty > 0) core.writer.position(p);
    else core.writer.amendClosed(p);
    rows.push({ accountId: a.id, symbol: p.symbol, positionSide: p.side, positionId: p.id, time, fee: l.fee });
  }
  if (rows.length > 0) core.writer.wallet(a);
  return rows;
}

/** Closes the rest of a liquidated position at its bankruptcy price, on the tick (close type 6). */
function closeAtBankruptcy(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  bpTicks: number,
  liq: Liquidation,
): void {
  const pair = core.pairs.get(p.symbol)!;
  const s = p.side === PositionSide.LONG ? 1 : -1;
  const lots = p.qty;
  const notional = pair.math.notional(bpTicks, lots);
  // The fund takes the position over at BP and closes it at mark: it wins or loses the gap.
  const markTicks = Math.max(1, pair.math.ticksRound(pair.markPrice));
  const fundPnl = BigInt(s) * (pair.math.notional(markTicks, lots) - notional);
  if (core.insurance + fundPnl < 0n) {
    autoDeleverage(core, a, p, bpTicks, liq);
    return;
  }
  core.insurance += fundPnl;
  bankruptcyClose(core, a, p, liq, { priceTicks: bpTicks, lots });
}

/**
 * Closes `lots` of the liquidated position `p` at the bankruptcy price (close type 6): a fill of
 * the liquidation's order, so the order's filled quantity and its trades are what closed.
 */
function bankruptcyClose(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  liq: Liquidation,
  at: { priceTicks: number; lots: number },
): void {
  const { priceTicks: bpTicks, lots } = at;
  const notional = core.pairs.get(p.symbol)!.math.notional(bpTicks, lots);
  const o = liq.order;
  bookClose(core, a, p, {
    priceTicks: bpTicks,
    lots,
    notional,
    time: liq.time,
    closeType: CloseType.BANKRUPTCY,
    orderId: o.id,
  });
  o.filledLots += lots;
  o.filledQuote += notional;
  o.status = o.filledLots >= o.qtyLots ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
  o.updatedAt = liq.time;
  core.writer.order(o);
  core.writer.orderEvent(o);
}

/** Books a venue close of a position (no fee) into its wallet and records it as a synthetic trade. */
function bookClose(core: TradingCore, a: AccountLive, p: PositionState, close: VenueClose): void {
  const pnl = closeLots(core, a, p, close.lots, close.notional, 0n, close.time, close.closeType);
  a.wallet += pnl;
  core.writer.wallet(a);
  recordSyntheticTrade(core, a, p, close, pnl);
}

/** The fund cannot cover: reduce profitable opposite positions at the bankruptcy price (ADL). */
function autoDeleverage(core: TradingCore, a: AccountLive, p: PositionState, bpTicks: number, liq: Liquidation): void {
  const pair = core.pairs.get(p.symbol)!;
  const opposite = p.side === PositionSide.LONG ? PositionSide.SHORT : PositionSide.LONG;
  let rest = p.qty;
  for (const c of adlQueue(core, p.symbol, opposite, a)) {
    if (rest === 0) break;
    const lots = Math.min(rest, c.pos.qty);
    const notional = pair.math.notional(bpTicks, lots);
    // the counterparty's close is an order of its own, as Binance's adl_autoclose orders
    const adl = filledVenueOrder(core, c.acct, c.pos, {
      id: core.takeOrderId(),
      clientOrderId: ADL_CLIENT_ID,
      closeType: CloseType.ADL,
      time: liq.time,
      priceTicks: bpTicks,
      lots,
      notional,
    });
    bookClose(core, c.acct, c.pos, {
      priceTicks: bpTicks,
      lots,
      notional,
      time: liq.time,
      closeType: CloseType.ADL,
      orderId: adl.id,
    });
    // a one-way counterparty's orders against the position it lost are margined for more of them
    if (c.acct.mode === PositionMode.ONE_WAY) remargin(core, c.acct, pair);
    bankruptcyClose(core, a, p, liq, { priceTicks: bpTicks, lots });
    rest -= lots;
  }
  if (rest > 0) {
    // nobody left to deleverage: the fund takes the remainder over as far as it can, the house
    // backstop pays what the fund cannot
    const notional = pair.math.notional(bpTicks, rest);
    const markTicks = Math.max(1, pair.math.ticksRound(pair.markPrice));
    const fundPnl = BigInt(p.side === PositionSide.LONG ? 1 : -1) * (pair.math.notional(markTicks, rest) - notional);
    if (fundPnl >= 0n) core.insurance += fundPnl;
    else absorbLoss(core, -fundPnl);
    bankruptcyClose(core, a, p, liq, { priceTicks: bpTicks, lots: rest });
  }
}

/** A loss of `units` (> 0) nothing else can take: the fund pays down to zero, the house backstop the rest. */
function absorbLoss(core: TradingCore, units: bigint): void {
  const fromFund = core.insurance <= 0n ? 0n : units < core.insurance ? units : core.insurance;
  core.insurance -= fromFund;
  core.houseBackstop += units - fromFund;
}
