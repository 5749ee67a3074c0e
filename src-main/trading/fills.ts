// Fills and positions: the engine's events applied to orders, positions and wallets.
//
// Invariants
// - Every event the book reported for a command is applied before the command ends (drain
//   loops until the sink and the trim queue are empty: trimming close orders can make the book
//   report more).
// - A fill books its price PnL and fee into the wallet and the position at once; order margin
//   frozen for the filled part is released in proportion, all of it on the last fill. In one-way
//   mode, where what an order freezes depends on the net position it reduces (ledger.ts
//   eachOpeningOrder), the account's orders on the pair are re-margined when the drain ends.
// - In one-way mode a fill first reduces the opposite net position, then opens with the rest;
//   in hedge mode a reduce-only order only ever closes the position of its side.
// - No resting reduce-only order exceeds the position it reduces (trimCloseOrders after every
//   shrink); at zero the book cancels it. Within one command, where one taker may meet several
//   of an account's close orders, the book asks the reduce-only guard (core.ts closeGuard)
//   before each trades and trims or cancels it the same way: no fill closes more than the
//   position, so every trade moves a position on both of its sides.
// - Bot orders never touch the ledger: only their counterparties' fills are booked.
// - A trade only notes its price for the last-price triggers (TradingCore.noteTrade, when the pair
//   has any armed, a position's or a conditional order's); they fire after the command (tpsl.ts,
//   conditional.ts), never while its events are applied.
import { ApiError, Errors } from '../../src-shared/errors.ts';
import {
  OrderStatus,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
  TimeInForce,
  TradeRole,
} from '../../src-shared/enums.ts';
import type { EngineEvent } from '../engine/index.ts';
import { ExpireReason, RejectReason } from '../engine/types.ts';
import { applyClose, applyOpen, newPosition, type HedgeSide, type PositionState } from '../risk/position.ts';
import { posKey, type AccountLive, type LiveOrder, type TradingCore } from './core.ts';
import type { TradeEvent } from './events.ts';
import { freezesMargin, remarginOrders } from './ledger.ts';
import { stampBookTime, type PairState } from './pair-state.ts';
import type { TradeState } from './ports.ts';

/**
 * Applies everything the engine reported for the last command(s) on this pair; returns the lots
 * order `takerId` took as a taker (0 when none is named).
 */
export function drain(core: TradingCore, pair: PairState, untracked: LiveOrder | null, takerId = 0): number {
  let taken = 0;
  for (;;) {
    // (no new array for the empty take that ends every drain)
    if (pair.sink.events.length > 0) {
      const events = pair.sink.take();
      for (const e of events) {
        if (e.type === 'trade' && e.takerId === takerId) taken += e.qtyLots;
        apply(core, pair, e, untracked);
      }
    }
    if (core.trimQueue.size === 0) break;
    // positions that shrank, here or by a venue close with no book event (ADL, bankruptcy): trim
    // or cancel the reduce-only orders resting against them, each in its own pair's book (a
    // trim sent to another pair's book is refused there as an unknown order)
    const queue = [...core.trimQueue];
    core.trimQueue.clear();
    for (const p of queue) {
      const own = core.pairs.get(p.symbol) ?? pair;
      trimCloseOrders(core, own, p);
      if (own !== pair) drain(core, own, null);
    }
  }
  // one-way accounts whose net position or opening orders here changed: what their orders freeze follows
  if (core.remarginQueue.size > 0) {
    for (const a of core.remarginQueue) remargin(core, a, pair);
    core.remarginQueue.clear();
  }
  stampBookTime(pair, core.now()); // the book's last change (Binance's depth T): this command's time
  return taken;
}

/**
 * Re-margins account `a`'s opening orders on `pair` (ledger.ts remarginOrders), marking the
 * changed ones and the wallet for the store: in one-way mode after the net position or the
 * orders against it changed. An order the position now covers less of freezes more, one it
 * covers more of less. A rise is not checked against the available balance (the order is
 * accepted already), which may then be below zero until an order ends or the position moves.
 */
export function remargin(core: TradingCore, a: AccountLive, pair: PairState): void {
  const w = core.writer;
  if (remarginOrders(a, pair, (o) => w.order(o))) w.wallet(a);
}

/**
 * A trade no tracked order took part in, booked without the engine (a house print: orders.ts
 * housePrint): its trade id, the pair's last price and the 'trade' event, as apply() books an
 * engine trade between two untracked orders.
 */
export function recordUntrackedTrade(
  core: TradingCore,
  pair: PairState,
  priceTicks: number,
  qtyLots: number,
  takerSide: number,
): void {
  const time = core.now();
  const tradeId = core.takeTradeId();
  pair.lastPriceTicks = priceTicks;
  if (pair.lastWatch.size !== 0 || pair.lastConditionals !== 0) core.noteTrade(pair, priceTicks);
  core.events.emit('trade', { symbol: pair.row.symbol, tradeId, priceTicks, qtyLots, takerSide, time });
}

function lookup(core: TradingCore, id: number, untracked: LiveOrder | null): LiveOrder | undefined {
  return core.orders.get(id) ?? (untracked && untracked.id === id ? untracked : undefined);
}

function apply(core: TradingCore, pair: PairState, e: EngineEvent, untracked: LiveOrder | null): void {
  switch (e.type) {
    case 'level':
      // nothing is built when nobody listens (a replay with no client changes levels millions of times)
      if (core.events.has('level'))
        core.events.emit('level', {
          symbol: pair.row.symbol,
          updateId: e.updateId,
          side: e.side,
          priceTicks: e.priceTicks,
          totalLots: e.totalLots,
        });
      return;
    case 'accepted': {
      const o = lookup(core, e.orderId, untracked);
      if (o && o.qtyLots !== e.qtyLots) o.qtyLots = e.qtyLots; // trimmed to the reduce-only cap
      if (o) touch(core, o);
      return;
    }
    case 'rejected': {
      const o = lookup(core, e.orderId, untracked);
      if (o) {
        finish(core, o, OrderStatus.REJECTED);
        if (e.reason === RejectReason.NothingToReduce) throw new ApiError(Errors.REDUCE_ONLY_REJECTED);
      }
      throw new ApiError(Errors.INTERNAL, `engine refused the command (reason ${e.reason})`);
    }
    case 'trade': {
      const time = core.now();
      const tradeId = core.takeTradeId();
      pair.lastPriceTicks = e.priceTicks;
      // last-price triggers are checked once the command is over, never inside its drain
      if (pair.lastWatch.size !== 0 || pair.lastConditionals !== 0) core.noteTrade(pair, e.priceTicks);
      // the print both fills read and the 'trade' event announces: one object per trade
      const print: TradeEvent = {
        symbol: pair.row.symbol,
        tradeId,
        priceTicks: e.priceTicks,
        qtyLots: e.qtyLots,
        takerSide: e.takerSide,
        time,
      };
      // no order is tracked (a replay's house orders meeting each other): nothing to look up
      if (core.orders.size > 0 || untracked !== null) {
        const maker = lookup(core, e.makerId, untracked);
        const taker = lookup(core, e.takerId, untracked);
        if (maker) fill(core, pair, maker, print, true);
        if (taker) fill(core, pair, taker, print, false);
      }
      core.events.emit('trade', print);
      return;
    }
    case 'partiallyFilled': {
      const o = lookup(core, e.orderId, untracked);
      if (o) {
        o.status = OrderStatus.PARTIALLY_FILLED;
        touch(core, o);
      }
      return;
    }
    case 'filled': {
      const o = lookup(core, e.orderId, untracked);
      if (o) finish(core, o, OrderStatus.FILLED);
      return;
    }
    case 'amended': {
      const o = lookup(core, e.orderId, untracked);
      if (o) {
        o.qtyLots = e.qtyLots;
        o.priceTicks = e.priceTicks;
        touch(core, o);
      }
      return;
    }
    case 'cancelled': {
      // a user's cancel or a reduce-only trim to zero is CANCELED; a liquidation's is EXPIRED
      // (reference lifecycle: EXPIRED for IOC/FOK/GTX, self-trade prevention, liquidation)
      const o = lookup(core, e.orderId, untracked);
      if (o) finish(core, o, o.liquidated === true ? OrderStatus.EXPIRED : OrderStatus.CANCELED);
      return;
    }
    case 'expired': {
      // IOC/FOK remainders, GTX that would take and self-trade prevention alike; the last is
      // marked, for the Binance facade's EXPIRED_IN_MATCH
      const o = lookup(core, e.orderId, untracked);
      if (o) {
        if (e.reason === ExpireReason.SelfTrade) o.expiredInMatch = true;
        finish(core, o, OrderStatus.EXPIRED);
      }
      return;
    }
  }
}

function touch(core: TradingCore, o: LiveOrder): void {
  o.updatedAt = core.now();
  if (!o.isBot) core.writer.order(o);
  core.writer.orderEvent(o);
}

/** The order reached a final status: release what it froze and forget it. */
function finish(core: TradingCore, o: LiveOrder, status: number): void {
  o.status = status;
  o.updatedAt = core.now();
  if (!o.isBot) {
    const a = core.accounts.get(o.accountId);
    if (a) {
      a.frozen -= o.frozen;
      o.frozen = 0n;
      a.orders.delete(o.id);
      if (a.clientIds.get(o.clientOrderId) === o.id) a.clientIds.delete(o.clientOrderId);
      // one-way: the position it would have reduced now covers the next order against it
      if (a.mode === PositionMode.ONE_WAY && freezesMargin(o) && a.orders.size > 0) core.remarginQueue.add(a);
      core.writer.wallet(a); // available balance changed
    }
    core.writer.order(o);
  }
  core.orders.delete(o.id);
  core.writer.orderEvent(o);
}

/** Books one side of a trade (`print`) for order `o`: the order, its wallet, position and trade record. */
function fill(core: TradingCore, pair: PairState, o: LiveOrder, print: TradeEvent, isMaker: boolean): void {
  const { priceTicks, qtyLots: lots, tradeId, time } = print;
  const remainingBefore = o.qtyLots - o.filledLots;
  const notional = pair.math.notional(priceTicks, lots);
  o.filledLots += lots;
  o.filledQuote += notional;
  o.updatedAt = time;
  if (o.isBot) return;
  const a = core.accounts.get(o.accountId);
  if (!a) return;
  const w = core.writer;
  const fee = pair.math.fee(notional, isMaker);
  o.totalFee += fee;
  // one-way: the net position moves, so the margin of the orders against it is worked again
  // once the drain ends; the release below is then corrected to the part that still opens
  if (a.mode === PositionMode.ONE_WAY) core.remarginQueue.add(a);
  if (o.frozen > 0n) {
    const rel = lots >= remainingBefore ? o.frozen : (o.frozen * BigInt(lots)) / BigInt(remainingBefore);
    o.frozen -= rel;
    a.frozen -= rel;
  }
  w.order(o);

  let pnl = 0n;
  let isClose = false;
  let positionSide = o.positionSide;
  if (a.mode === PositionMode.HEDGE) {
    const key = posKey(o.symbol, o.positionSide);
    if (o.reduceOnly) {
      const p = a.positions.get(key);
      if (p && p.qty > 0) {
        pnl = closeLots(core, a, p, Math.min(lots, p.qty), notional, fee, time, o.closeType);
        isClose = true;
      }
    } else {
      const p = positionFor(core, a, o.positionSide as HedgeSide, o, time);
      applyOpen(p, lots, notional, fee, time);
      w.position(p);
    }
  } else {
    // one-way: a fill first reduces an opposite net position, then opens with the rest
    const opposite = a.positions.get(posKey(o.symbol, o.side === Side.BUY ? PositionSide.SHORT : PositionSide.LONG));
    let rest = lots;
    if (opposite && opposite.qty > 0) {
      const closing = Math.min(rest, opposite.qty);
      const closeNotional = closing === lots ? notional : pair.math.notional(priceTicks, closing);
      const closeFee = closing === lots ? fee : (fee * BigInt(closing)) / BigInt(lots);
      positionSide = opposite.side;
      pnl = closeLots(core, a, opposite, closing, closeNotional, closeFee, time, o.closeType);
      isClose = true;
      rest -= closing;
      if (rest > 0) {
        const p = positionFor(core, a, o.side as HedgeSide, o, time);
        applyOpen(p, rest, notional - closeNotional, fee - closeFee, time);
        w.position(p);
      }
    } else if (!o.reduceOnly) {
      positionSide = o.side;
      const p = positionFor(core, a, o.side as HedgeSide, o, time);
      applyOpen(p, lots, notional, fee, time);
      w.position(p);
    }
  }
  a.wallet += pnl - fee;
  w.wallet(a);
  w.trade({
    id: tradeId,
    orderId: o.id,
    accountId: a.id,
    symbol: o.symbol,
    side: o.side,
    positionSide,
    priceTicks,
    qtyLots: lots,
    quote: notional,
    fee,
    feeRate: isMaker ? pair.row.makerFeeRate : pair.row.takerFeeRate,
    role: isMaker ? TradeRole.MAKER : TradeRole.TAKER,
    isClose,
    realizedPnl: pnl,
    createdAt: time,
  });
}

/** The account's position on the order's pair and `side`, a new one (with the order's margin settings) when flat. */
function positionFor(core: TradingCore, a: AccountLive, side: HedgeSide, o: LiveOrder, time: number): PositionState {
  const key = posKey(o.symbol, side);
  let p = a.positions.get(key);
  if (!p || p.qty === 0) {
    p = newPosition({
      id: core.takePositionId(),
      accountId: a.id,
      symbol: o.symbol,
      side,
      marginMode: o.marginMode as 1 | 2,
      leverage: o.leverage,
      now: time,
    });
    a.positions.set(key, p);
  }
  return p;
}

/**
 * Closes `lots` of a position at `notional`; returns the price PnL (the caller books it).
 * Runs per closing fill, so it takes plain values: an options object would allocate per fill.
 */
// eslint-disable-next-line max-params -- per closing fill: plain values, nothing allocated per call
export function closeLots(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  lots: number,
  notional: bigint,
  fee: bigint,
  time: number,
  closeType: number,
): bigint {
  const r = applyClose(p, lots, notional, fee, time);
  core.writer.position(p);
  if (r.flat) {
    core.writer.closedPosition(p, closeType);
    a.positions.delete(posKey(p.symbol, p.side));
  }
  core.trimQueue.add(p);
  return r.pnl;
}

/** After a position shrank, no resting close order may exceed it; at zero they are cancelled. */
function trimCloseOrders(core: TradingCore, pair: PairState, p: PositionState): void {
  const a = core.accounts.get(p.accountId);
  if (!a) return;
  for (const o of a.orders.values()) {
    if (o.symbol !== p.symbol || !o.reduceOnly) continue;
    const reduces = a.mode === PositionMode.HEDGE ? o.positionSide === p.side : o.side !== p.side;
    if (!reduces) continue;
    const remaining = o.qtyLots - o.filledLots;
    if (remaining > p.qty) pair.book.trimOrder(o.id, p.qty);
  }
}

/** A close the venue books itself at one price, with no fee (bankruptcy, ADL, paper reset). */
export interface VenueClose {
  priceTicks: number;
  lots: number;
  /** priceTicks x lots in 1e-8 USDT. */
  notional: bigint;
  closeType: number;
  time: number;
  /**
   * The order the close fills (a bankruptcy close, 6: the liquidation's order; an ADL close, 5: the
   * counterparty's adl_autoclose order; a paper reset's close at the mark, 1: its reset-<id> order).
   */
  orderId: number;
}

/** A fill that did not come from the book (a VenueClose of `p` that realized `pnl`): recorded like any fill. */
export function recordSyntheticTrade(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  close: VenueClose,
  pnl: bigint,
): void {
  const { priceTicks, lots, notional, time } = close;
  const trade: TradeState = {
    id: core.takeTradeId(),
    orderId: close.orderId,
    accountId: a.id,
    symbol: p.symbol,
    side: p.side === PositionSide.LONG ? Side.SELL : Side.BUY,
    positionSide: p.side,
    priceTicks,
    qtyLots: lots,
    quote: notional,
    fee: 0n,
    feeRate: '0',
    role: TradeRole.TAKER,
    isClose: true,
    realizedPnl: pnl,
    createdAt: time,
  };
  core.writer.trade(trade);
}

/** The order id, client order id, close type and time of a close order the venue sends. */
export interface VenueCloseOrder {
  id: number;
  clientOrderId: string;
  closeType: number;
  time: number;
  /** A limit order's price (the liquidation's IOC down to the bankruptcy price); absent: a market order. */
  priceTicks?: number;
}

/** The order record of a close the venue sends for position `p` of account `a` (not yet tracked). */
function venueOrder(a: AccountLive, p: PositionState, close: VenueCloseOrder): LiveOrder {
  const { id, clientOrderId, closeType, time, priceTicks } = close;
  return {
    id,
    clientOrderId,
    accountId: a.id,
    symbol: p.symbol,
    side: p.side === PositionSide.LONG ? Side.SELL : Side.BUY,
    type: priceTicks === undefined ? OrderType.MARKET : OrderType.LIMIT,
    tif: TimeInForce.IOC,
    priceTicks: priceTicks ?? 0,
    qtyLots: p.qty,
    filledLots: 0,
    filledQuote: 0n,
    status: OrderStatus.NEW,
    leverage: p.leverage,
    marginMode: p.marginMode,
    positionSide: a.mode === PositionMode.HEDGE ? p.side : PositionSide.LONG,
    positionAction: PositionAction.CLOSE,
    reduceOnly: true,
    frozen: 0n,
    totalFee: 0n,
    createdAt: time,
    updatedAt: time,
    isBot: false,
    engineAccount: a.id,
    closeType,
  };
}

/**
 * Places a reduce-only order the venue itself sends for an account (liquidation IOC, TP/SL
 * market close): tracked like a user order so its fills are booked and stored.
 */
export function venueCloseOrder(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  close: VenueCloseOrder,
): LiveOrder {
  const order = venueOrder(a, p, close);
  core.orders.set(order.id, order);
  a.orders.set(order.id, order);
  a.clientIds.set(order.clientOrderId, order.id);
  return order;
}

/**
 * The order of a close the venue books itself (an ADL close at `priceTicks`, a LIMIT; a paper
 * reset's at the mark, a MARKET: VenueClose with this order's id), filled whole at once: stored
 * and announced, never tracked (it is over).
 */
export function filledVenueOrder(
  core: TradingCore,
  a: AccountLive,
  p: PositionState,
  close: VenueCloseOrder & { lots: number; notional: bigint },
): LiveOrder {
  const order = venueOrder(a, p, close);
  order.qtyLots = close.lots;
  order.filledLots = close.lots;
  order.filledQuote = close.notional;
  order.status = OrderStatus.FILLED;
  core.writer.order(order);
  core.writer.orderEvent(order);
  return order;
}
