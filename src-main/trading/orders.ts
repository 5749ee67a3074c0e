// Order commands of users and bots: place, cancel one, cancel all, amend (modify) a user's
// resting limit order, cancel or trim a bot order. (House orders: house-orders.ts.)
//
// Invariants
// - A placement is checked completely (order-checks.ts) before the engine sees it; a rejected
//   order changes nothing but the order id it consumed (ids are never reused).
// - An accepted user order is tracked (account, client id, frozen margin) before the engine
//   runs, so its fills find it; bot orders are tracked only when cached (need_cache), else they
//   live for this command alone ('untracked') and are never stored or announced.
// - Every command ends with the turn writer's flush: its changes are one group-commit unit.
import { Errors } from '../../src-shared/errors.ts';
import { CloseType, MarginMode, OrderStatus, OrderType, PositionMode, TimeInForce } from '../../src-shared/enums.ts';
import { OrderFlag } from '../engine/types.ts';
import type { BotCancelResult, OrderRecord, PlacementResult } from '../../src-shared/types.ts';
import type { AmendTarget, BotOrderInput, CancelTarget, OrderInput } from './commands.ts';
import { formatMoney } from '../risk/money.ts';
import { applyPairSetting } from './account-settings.ts';
import {
  HOUSE_ACCOUNT,
  openOrdersOf,
  reject,
  rejectParam,
  type AccountLive,
  type LiveOrder,
  type TradingCore,
} from './core.ts';
import { drain, remargin } from './fills.ts';
import {
  checkAccountSide,
  checkBotOrder,
  checkClientOrderId,
  checkImmediate,
  checkShape,
  type CheckedShape,
} from './order-checks.ts';
import { checkAmendAccountSide } from './amend-checks.ts';
import { orderRecord } from './views.ts';

/**
 * General placement (signed users): validated, margined, stored before the answer. `closeType`:
 * the close type its closes record (a fired conditional order's family, conditional.ts; a user
 * close otherwise).
 */
export function placeUserOrder(
  core: TradingCore,
  a: AccountLive,
  input: OrderInput,
  closeType: number = CloseType.USER,
): PlacementResult {
  core.checkHealthy();
  const pair = core.requirePair(input.symbol);
  const s = checkShape(pair, input, a.mode);
  checkClientOrderId(input.client_order_id);
  const id = core.takeOrderId();
  // Generated ids have a form client-chosen ids may not take (checkClientOrderId), so they never collide.
  const clientOrderId = input.client_order_id || `api.${id}`;
  const c = checkAccountSide(core, a, input, s, clientOrderId);
  checkImmediate(pair, a.id, input.side, s, c.maxFill);
  // settings the order asked for apply only now that it is accepted
  if (c.settingsChange) applyPairSetting(core, a, pair.row.symbol, c.leverage, c.marginMode);
  const order = newOrder(core, {
    id,
    clientOrderId,
    input,
    shape: s,
    leverage: c.leverage,
    marginMode: c.marginMode,
    frozen: c.frozen,
    owner: { user: a },
    closeType,
  });
  core.orders.set(id, order);
  a.orders.set(id, order);
  a.clientIds.set(clientOrderId, id);
  a.frozen += c.frozen;
  submit(core, order, s, c.maxFill, null);
  core.writer.order(order);
  core.writer.flush();
  return placement(core, order);
}

/**
 * Every check a user placement meets (shape, client id, settings, reduce-only cap, notional,
 * leverage cap, margin, post-only / fill-or-kill against the book), in the same order, without
 * placing: a test order (Binance's POST /fapi/v1/order/test). Reads only; throws the refusal.
 */
export function checkUserOrder(core: TradingCore, a: AccountLive, input: OrderInput): void {
  const pair = core.requirePair(input.symbol);
  const s = checkShape(pair, input, a.mode);
  checkClientOrderId(input.client_order_id);
  // no id is taken: a generated client id cannot collide (checkClientOrderId keeps api.N out)
  const c = checkAccountSide(core, a, input, s, input.client_order_id || 'api.0');
  checkImmediate(pair, a.id, input.side, s, c.maxFill);
}

/** Bot placement: no margin, never stored; `need_cache` keeps it listed and cancellable. */
export function placeBotOrder(core: TradingCore, input: BotOrderInput, engineAccount: number): PlacementResult {
  core.checkHealthy();
  const pair = core.requirePair(input.symbol);
  const s = checkShape(pair, input, PositionMode.HEDGE);
  checkBotOrder(pair, input.leverage, s);
  checkClientOrderId(input.client_order_id);
  const track = input.need_cache === true;
  const id = core.takeOrderId();
  const clientOrderId = input.client_order_id || `bot.${id}`;
  if (track) {
    for (const o of core.orders.values()) {
      if (o.isBot && o.clientOrderId === clientOrderId) {
        reject(
          Errors.DUPLICATE_CLIENT_ORDER_ID,
          `client_order_id '${clientOrderId}' is already used by live bot order ${o.id}`,
        );
      }
    }
  }
  const order = newOrder(core, {
    id,
    clientOrderId,
    input,
    shape: s,
    leverage: input.leverage ?? 1,
    marginMode: input.margin_mode ?? MarginMode.CROSS,
    frozen: 0n,
    owner: { bot: engineAccount, cached: track },
  });
  if (track) core.orders.set(id, order);
  submit(core, order, s, -1, track ? null : order);
  core.writer.flush();
  return placement(core, order);
}

/**
 * Who places an order: a user's account (margined, stored; its engine account is its own id) or
 * a bot's engine account (no account, never stored; `cached` keeps it listed and cancellable).
 */
type OrderOwner = { user: AccountLive } | { bot: number; cached: boolean };

/** A checked order about to enter the book: its ids, input and shape, settings, margin and owner. */
interface NewOrder {
  id: number;
  clientOrderId: string;
  input: OrderInput;
  shape: CheckedShape;
  leverage: number;
  marginMode: number;
  /** Margin and fees frozen for it (0 for a bot order). */
  frozen: bigint;
  owner: OrderOwner;
  /** The close type its closes record: a user close unless said (a fired conditional order's). */
  closeType?: number;
}

function newOrder(core: TradingCore, n: NewOrder): LiveOrder {
  const { id, clientOrderId, input, shape: s, leverage, marginMode, frozen, owner, closeType } = n;
  const isBot = 'bot' in owner;
  const now = core.now();
  return {
    id,
    clientOrderId,
    accountId: isBot ? 0 : owner.user.id,
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    tif: s.tif,
    priceTicks: s.priceTicks,
    qtyLots: s.qtyLots,
    filledLots: 0,
    filledQuote: 0n,
    status: OrderStatus.NEW,
    leverage,
    marginMode,
    positionSide: s.positionSide,
    positionAction: s.action,
    reduceOnly: s.reduceOnly,
    frozen,
    totalFee: 0n,
    createdAt: now,
    updatedAt: now,
    isBot,
    engineAccount: isBot ? owner.bot : owner.user.id,
    closeType: closeType ?? CloseType.USER,
    cached: isBot && owner.cached,
  };
}

/** Sends a tracked (or, for an uncached bot order, `untracked`) order to the book and applies what it did. */
function submit(core: TradingCore, o: LiveOrder, s: CheckedShape, maxFill: number, untracked: LiveOrder | null): void {
  const pair = core.pairs.get(o.symbol)!;
  const flags = o.reduceOnly ? OrderFlag.ReduceOnly : 0;
  if (s.isMarket) pair.book.placeMarket(o.id, o.engineAccount, o.side, o.qtyLots, s.refTicks, flags, maxFill, 0, o.tif);
  else pair.book.placeLimit(o.id, o.engineAccount, o.side, o.priceTicks, o.qtyLots, o.tif, flags, maxFill);
  drain(core, pair, untracked);
}

function placement(core: TradingCore, o: LiveOrder): PlacementResult {
  const math = core.pairs.get(o.symbol)!.math;
  return {
    order_id: String(o.id),
    client_order_id: o.clientOrderId,
    status: o.status as PlacementResult['status'],
    filled_qty: math.formatQty(o.filledLots),
    filled_quote: formatMoney(o.filledQuote),
  };
}

/** Cancel one order of a user by id or client id. */
export function cancelOrder(core: TradingCore, a: AccountLive, by: CancelTarget): OrderRecord {
  const o = openOrderOf(core, a, by);
  const pair = core.requirePair(o.symbol);
  pair.book.cancel(o.id);
  drain(core, pair, null);
  core.writer.flush();
  return orderRecord(core, o);
}

/** A user's open order by id or client id (on the symbol named, if one is); 1102, or 3019 for a finished one. */
function openOrderOf(core: TradingCore, a: AccountLive, by: CancelTarget): LiveOrder {
  let id = by.orderId;
  if (id === undefined && by.clientOrderId !== undefined) id = a.clientIds.get(by.clientOrderId);
  // (an open order on another pair than the one named is none: the pair's finished one with that
  // client id is 3019, else 1102 naming what was asked for, never the other pair's order id)
  const found = id === undefined ? undefined : a.orders.get(id);
  const o = found && (by.symbol === undefined || found.symbol === by.symbol) ? found : undefined;
  if (!o) {
    // a finished order of this account (on the symbol named, if one is), found by id or by
    // client id alike, is 3019
    const { repo } = core.deps;
    const stored =
      by.orderId !== undefined
        ? repo.order(by.orderId)
        : by.clientOrderId !== undefined
          ? repo.orderByClientId(a.id, by.clientOrderId, by.symbol)
          : undefined;
    if (stored && stored.accountId === a.id && (by.symbol === undefined || stored.symbol === by.symbol)) {
      const which =
        by.orderId !== undefined ? `Order ${stored.id}` : `Order ${stored.id} (client_order_id '${by.clientOrderId}')`;
      reject(Errors.ORDER_NOT_CANCELLABLE, `${which} is no longer open (status ${stored.status})`);
    }
    const on = by.symbol === undefined ? '' : ` on ${by.symbol}`;
    reject(
      Errors.ORDER_NOT_FOUND,
      by.orderId !== undefined
        ? `No open order ${by.orderId}${on}`
        : `No open order with client_order_id '${by.clientOrderId}'${on}`,
    );
  }
  return o;
}

/**
 * Modifies a resting limit order of a user in place (Binance USD-M's modify): same id, client id,
 * side, time in force and settings, a new price and total quantity. Checked as a placement is
 * (tick, step, limits, band, then the account side: reduce-only cap, notional, leverage cap,
 * margin) before the book is touched; a refused amendment leaves the order as it was. The
 * order goes to the back of its level (Binance reorders every modified order) and, at a new
 * price, re-enters as a taker: it may trade at once. As Binance, two amendments cancel the order
 * instead: a total quantity not above what has filled, and a post-only order whose new price
 * would take. The frozen margin follows the new remaining quantity and price (in one-way mode
 * for the part that would open, and the newer orders against the position follow too).
 */
export function amendOrder(core: TradingCore, a: AccountLive, t: AmendTarget): OrderRecord {
  core.checkHealthy();
  const o = openOrderOf(core, a, t);
  const pair = core.requirePair(o.symbol);
  if (o.type !== OrderType.LIMIT) reject(Errors.INVALID_PARAMETER, 'Only limit orders can be modified');
  const s = checkShape(
    pair,
    {
      symbol: o.symbol,
      side: o.side,
      type: OrderType.LIMIT,
      position_side: o.positionSide,
      position_action: o.positionAction,
      qty: t.qty,
      price: t.price,
      time_in_force: o.tif,
      ...(o.reduceOnly ? { reduce_only: true } : {}),
    },
    a.mode,
  );
  const cancelsIt =
    s.qtyLots <= o.filledLots ||
    (o.tif === TimeInForce.GTX && s.priceTicks !== o.priceTicks && pair.book.wouldTake(o.side, s.priceTicks));
  if (cancelsIt) {
    pair.book.cancel(o.id);
    drain(core, pair, null);
    core.writer.flush();
    return orderRecord(core, o);
  }
  const c = checkAmendAccountSide(core, a, pair, o, s);
  const remaining = c.maxFill > 0 ? Math.min(s.qtyLots - o.filledLots, c.maxFill) : s.qtyLots - o.filledLots;
  if (s.priceTicks === o.priceTicks && remaining === o.qtyLots - o.filledLots) {
    reject(
      Errors.INVALID_PARAMETER,
      `Order ${o.id} already rests at ${pair.math.formatPrice(o.priceTicks)} with ${pair.math.formatQty(remaining)} left: nothing to modify`,
      'no_change',
    );
  }
  // the margin follows before the book runs: fills of a re-entering order release it in proportion
  a.frozen += c.frozen - o.frozen;
  o.frozen = c.frozen;
  core.writer.wallet(a);
  pair.book.amend(o.id, s.priceTicks, s.qtyLots, o.engineAccount, c.maxFill, true);
  drain(core, pair, null);
  // one-way: the newer orders against the position take what the amended one now leaves them
  if (a.mode === PositionMode.ONE_WAY && !o.reduceOnly) remargin(core, a, pair);
  core.writer.flush();
  return orderRecord(core, o);
}

/** Cancel all open orders of a user on a symbol; returns how many. */
export function cancelAll(core: TradingCore, a: AccountLive, symbol: string): number {
  const pair = core.requirePair(symbol);
  const ids = openOrdersOf(a, symbol).map((o) => o.id);
  for (const id of ids) pair.book.cancel(id);
  drain(core, pair, null);
  core.writer.flush();
  return ids.length;
}

/** Cancel a bot order (cached or not) by id. */
export function cancelBotOrder(core: TradingCore, symbol: string, orderId: number): BotCancelResult {
  const pair = core.requirePair(symbol);
  const account = pair.book.orderAccount(orderId);
  if (account < HOUSE_ACCOUNT || core.reservedAccounts.has(account))
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${symbol}`);
  pair.book.cancel(orderId);
  drain(core, pair, null);
  core.writer.flush();
  return { order_id: String(orderId), status: OrderStatus.CANCELED };
}

/**
 * Reduces a resting bot order to `lots` remaining lots in place: its place in the queue is kept
 * (engine trimOrder), so the orders behind it stay behind. 0 cancels it; `lots` must be below
 * what the order has left (growing an order would have to requeue it: place a new one instead).
 */
export function trimBotOrder(
  core: TradingCore,
  symbol: string,
  orderId: number,
  lots: number,
): { order_id: string; remaining_lots: number } {
  const pair = core.requirePair(symbol);
  const view = pair.book.getOrder(orderId);
  if (!view || view.account < HOUSE_ACCOUNT || core.reservedAccounts.has(view.account))
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${symbol}`);
  if (!Number.isSafeInteger(lots) || lots < 0 || lots >= view.remainingLots) {
    rejectParam(
      Errors.INVALID_PARAMETER,
      'lots',
      `must be an integer from 0 to ${view.remainingLots - 1} (the order has ${view.remainingLots} left), got ${lots}`,
    );
  }
  pair.book.trimOrder(orderId, lots);
  drain(core, pair, null);
  core.writer.flush();
  return { order_id: String(orderId), remaining_lots: lots };
}
