// Order commands: place (user and bot), cancel one, cancel all, cancel a bot order, amend
// (modify) a user's resting limit order, trim a bot order.
//
// Invariants
// - A placement is checked completely (order-checks.ts) before the engine sees it; a rejected
//   order changes nothing but the order id it consumed (ids are never reused).
// - An accepted user order is tracked (account, client id, frozen margin) before the engine
//   runs, so its fills find it; bot orders are tracked only when cached (need_cache), else they
//   live for this command alone ('untracked') and are never stored or announced.
// - Every command ends with the turn writer's flush: its changes are one group-commit unit.
import { Errors } from '../../src-shared/errors.ts';
import {
  CloseType,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionMode,
  Side,
  SymbolStatus,
  TimeInForce,
} from '../../src-shared/enums.ts';
import { MAX_PRICE_TICKS, OrderFlag, StpMode } from '../engine/types.ts';
import type { OrderRecord, PlacementResult } from '../../src-shared/types.ts';
import type { AmendTarget, BotOrderInput, CancelTarget, Command, OrderInput } from './commands.ts';
import { formatMoney } from '../risk/money.ts';
import { applyPairSetting } from './account-settings.ts';
import { HOUSE_ACCOUNT, openOrdersOf, reject, type AccountLive, type LiveOrder, type TradingCore } from './core.ts';
import { drain, recordUntrackedTrade } from './fills.ts';
import type { PairState } from './pair-state.ts';
import {
  checkAccountSide,
  checkAmendAccountSide,
  checkClientOrderId,
  checkImmediate,
  checkShape,
  type CheckedShape,
} from './order-checks.ts';
import { orderRecord } from './views.ts';

/** General placement (signed users): validated, margined, stored before the answer. */
export function placeUserOrder(core: TradingCore, a: AccountLive, input: OrderInput): PlacementResult {
  core.checkHealthy();
  const pair = core.requirePair(input.symbol);
  const s = checkShape(pair, input, a.mode);
  checkClientOrderId(input.client_order_id);
  const id = core.takeOrderId();
  // Generated ids have a form client-chosen ids may not take (checkClientOrderId), so they never collide.
  const clientOrderId = input.client_order_id || `api.${id}`;
  const c = checkAccountSide(core, a, pair, input, s, clientOrderId);
  checkImmediate(pair, a.id, input.side, s, c.maxFill);
  // settings the order asked for apply only now that it is accepted
  if (c.settingsChange) applyPairSetting(core, a, pair.row.symbol, c.leverage, c.marginMode);
  const order = newOrder(
    core,
    id,
    clientOrderId,
    a.id,
    input,
    s,
    c.leverage,
    c.marginMode,
    c.frozen,
    false,
    a.id,
    false,
  );
  core.orders.set(id, order);
  a.orders.set(id, order);
  a.clientIds.set(clientOrderId, id);
  a.frozen += c.frozen;
  submit(core, order, s.isMarket, s.refTicks, c.maxFill, null);
  core.writer.order(order);
  core.writer.flush();
  return placement(core, order);
}

/** Bot placement: no margin, never stored; `need_cache` keeps it listed and cancellable. */
export function placeBotOrder(core: TradingCore, input: BotOrderInput, engineAccount: number): PlacementResult {
  core.checkHealthy();
  const pair = core.requirePair(input.symbol);
  const s = checkShape(pair, input, PositionMode.HEDGE);
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
  const order = newOrder(
    core,
    id,
    clientOrderId,
    0,
    input,
    s,
    input.leverage ?? 1,
    input.margin_mode ?? MarginMode.CROSS,
    0n,
    true,
    engineAccount,
    track,
  );
  if (track) core.orders.set(id, order);
  submit(core, order, s.isMarket, s.refTicks, -1, track ? null : order);
  core.writer.flush();
  return placement(core, order);
}

/**
 * House placement in ticks and lots (commands.ts 'houseOrder'): the checks a bot order of the
 * same price and size passes (checkShape: trading status, size within min/max, price within
 * the band around the mark, the same codes), then the engine; never tracked, stored or
 * announced, so only a user order it trades with is booked (on the user's side, as for any bot
 * order). What it saves against 'placeBot' is the decimal strings both ways and the order object.
 */
export function placeHouseOrder(
  core: TradingCore,
  c: Extract<Command, { kind: 'houseOrder' }>,
): { orderId: number; filledLots: number } {
  core.checkHealthy();
  const pair = core.requirePair(c.symbol);
  if (c.tif !== TimeInForce.GTC && c.tif !== TimeInForce.IOC)
    reject(Errors.INVALID_PARAMETER, 'a house order is GTC (1) or IOC (2)');
  if (c.expireOwn !== undefined && typeof c.expireOwn !== 'boolean')
    reject(Errors.INVALID_PARAMETER, 'expireOwn must be true or false');
  checkHouseOrder(pair, c.side, c.account, c.lots, c.priceTicks);
  const id = core.takeOrderId();
  pair.book.placeLimit(
    id,
    c.account,
    c.side,
    c.priceTicks,
    c.lots,
    c.tif,
    0,
    -1,
    c.expireOwn === true ? StpMode.ExpireMaker : 0,
  );
  const filledLots = drain(core, pair, null, id);
  core.writer.flush();
  return { orderId: id, filledLots };
}

/** What a house order must be (houseOrder, and the two orders of a housePrint); rejects with a bot order's codes. */
function checkHouseOrder(pair: PairState, side: number, account: number, lots: number, priceTicks: number): void {
  const { row, math } = pair;
  if (row.status !== SymbolStatus.TRADING)
    reject(Errors.SYMBOL_NOT_TRADING, `${row.symbol} is not trading (status ${row.status})`);
  if (side !== Side.BUY && side !== Side.SELL) reject(Errors.INVALID_PARAMETER, 'side must be 1 (buy) or 2 (sell)');
  if (!Number.isSafeInteger(account) || account < HOUSE_ACCOUNT)
    reject(Errors.INVALID_PARAMETER, `account ${account} is not a house engine account`);
  if (!Number.isSafeInteger(lots) || lots < 1)
    reject(Errors.INVALID_PARAMETER, `lots must be a positive integer, got ${lots}`);
  if (lots < pair.minLots)
    reject(Errors.QTY_BELOW_MIN, `qty ${math.formatQty(lots)} is below the minimum ${row.minQty}`);
  if (lots > pair.maxLots)
    reject(Errors.QTY_ABOVE_MAX, `qty ${math.formatQty(lots)} is above the maximum ${row.maxQty}`);
  if (!Number.isSafeInteger(priceTicks) || priceTicks < 1 || priceTicks > MAX_PRICE_TICKS)
    reject(Errors.INVALID_PARAMETER, `price ticks ${priceTicks} are out of range`);
  // the band exactly as checkShape draws it
  const mark = pair.markPrice;
  const px = priceTicks * math.tickValue;
  if (side === Side.BUY && px > mark * (1 + pair.bandRatio) * (1 + 1e-12)) {
    reject(
      Errors.PRICE_OUTSIDE_BAND,
      `A buy above ${math.roundPrice(mark * (1 + pair.bandRatio))} (mark ${math.roundPrice(mark)} + ${pair.bandRatio * 100}%) is outside the price band`,
    );
  }
  if (side === Side.SELL && px < mark * (1 - pair.bandRatio) * (1 - 1e-12)) {
    reject(
      Errors.PRICE_OUTSIDE_BAND,
      `A sell below ${math.roundPrice(mark * (1 - pair.bandRatio))} (mark ${math.roundPrice(mark)} - ${pair.bandRatio * 100}%) is outside the price band`,
    );
  }
}

/**
 * A print between two house accounts that meets nobody else's order (commands.ts 'housePrint'):
 * checked as its two house orders (the maker's of lots + rest on the resting side, the taker's
 * IOC of lots) and for what it may meet, then the maker's order rests with `rest` lots and the
 * trade is booked as the engine would book it between two untracked orders. The engine would
 * have matched the taker with the maker's new order alone (nothing else at the price or better
 * on the resting side; nothing crossing on the taker's side but the maker's own orders, which its
 * order cancels with expireOwn), so only the order's transient level (lots + rest, then rest)
 * and the taker's order id are not seen.
 */
export function housePrint(
  core: TradingCore,
  c: Extract<Command, { kind: 'housePrint' }>,
): { orderId: number; filledLots: number } {
  core.checkHealthy();
  const pair = core.requirePair(c.symbol);
  const takerSide = c.takerSide;
  if (takerSide !== Side.BUY && takerSide !== Side.SELL)
    reject(Errors.INVALID_PARAMETER, 'takerSide must be 1 (buy) or 2 (sell)');
  const restSide = takerSide === Side.BUY ? Side.SELL : Side.BUY;
  if (typeof c.expireOwn !== 'boolean') reject(Errors.INVALID_PARAMETER, 'expireOwn must be true or false');
  if (!Number.isSafeInteger(c.rest) || c.rest < 0)
    reject(Errors.INVALID_PARAMETER, `rest must be a non-negative integer, got ${c.rest}`);
  if (c.maker === c.taker) reject(Errors.INVALID_PARAMETER, 'the maker and the taker are two accounts');
  checkHouseOrder(pair, restSide, c.maker, c.lots + c.rest, c.priceTicks);
  checkHouseOrder(pair, takerSide, c.taker, c.lots, c.priceTicks);
  const book = pair.book;
  const P = c.priceTicks;
  const restBest = restSide === Side.BUY ? book.bestBid() : book.bestAsk();
  if (restBest !== 0 && (restSide === Side.BUY ? restBest >= P : restBest <= P)) {
    reject(
      Errors.INVALID_PARAMETER,
      'the resting side shows the price or better: the print would meet those orders (a houseOrder takes them)',
    );
  }
  const across = takerSide === Side.BUY ? book.bestBid() : book.bestAsk();
  if (across !== 0 && (takerSide === Side.BUY ? across >= P : across <= P)) {
    // only the maker's own orders, which its order cancels as it meets them
    if (!c.expireOwn || c.rest === 0 || book.fokFillable(c.maker, restSide, P, 1, StpMode.ExpireMaker)) {
      reject(
        Errors.INVALID_PARAMETER,
        "the taker's side shows the price or through it: the maker's order would meet those orders",
      );
    }
  }
  let id = 0;
  if (c.rest > 0) {
    id = core.takeOrderId();
    book.placeLimit(id, c.maker, restSide, P, c.rest, TimeInForce.GTC, 0, -1, c.expireOwn ? StpMode.ExpireMaker : 0);
    drain(core, pair, null);
  }
  recordUntrackedTrade(core, pair, P, c.lots, takerSide);
  core.writer.flush();
  return { orderId: id, filledLots: c.lots };
}

function newOrder(
  core: TradingCore,
  id: number,
  clientOrderId: string,
  accountId: number,
  input: OrderInput,
  s: CheckedShape,
  leverage: number,
  marginMode: number,
  frozen: bigint,
  isBot: boolean,
  engineAccount: number,
  cached: boolean,
): LiveOrder {
  const now = core.now();
  return {
    id,
    clientOrderId,
    accountId,
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
    engineAccount,
    closeType: CloseType.USER,
    cached,
  };
}

function submit(
  core: TradingCore,
  o: LiveOrder,
  isMarket: boolean,
  refTicks: number,
  maxFill: number,
  untracked: LiveOrder | null,
): void {
  const pair = core.pairs.get(o.symbol)!;
  const flags = o.reduceOnly ? OrderFlag.ReduceOnly : 0;
  if (isMarket) pair.book.placeMarket(o.id, o.engineAccount, o.side, o.qtyLots, refTicks, flags, maxFill);
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
  const o = id === undefined ? undefined : a.orders.get(id);
  if (o && by.symbol !== undefined && o.symbol !== by.symbol) {
    reject(Errors.ORDER_NOT_FOUND, `No open order ${o.id} on ${by.symbol}`);
  }
  if (!o) {
    // a finished order of this account (on the symbol named, if one is), found by id or by
    // client id alike, is 3019
    const { repo } = core.deps;
    const stored =
      id !== undefined
        ? repo.order(id)
        : by.clientOrderId !== undefined
          ? repo.orderByClientId(a.id, by.clientOrderId, by.symbol)
          : undefined;
    if (stored && stored.accountId === a.id && (by.symbol === undefined || stored.symbol === by.symbol)) {
      const which =
        by.orderId !== undefined ? `Order ${stored.id}` : `Order ${stored.id} (client_order_id '${by.clientOrderId}')`;
      reject(Errors.ORDER_NOT_CANCELLABLE, `${which} is no longer open (status ${stored.status})`);
    }
    reject(
      Errors.ORDER_NOT_FOUND,
      by.orderId !== undefined
        ? `No open order ${by.orderId}`
        : `No open order with client_order_id '${by.clientOrderId}'`,
    );
  }
  return o;
}

/** A new price and total quantity (filled part included, as Binance) for a resting order. */

/**
 * Modifies a resting limit order of a user in place (Binance USD-M's modify): same id, client id,
 * side, time in force and settings, a new price and total quantity. Checked as a placement is
 * (tick, step, limits, band, then the account side: reduce-only cap, notional, leverage cap,
 * margin) before the book is touched; a refused amendment leaves the order as it was. The
 * order goes to the back of its level (Binance reorders every modified order) and, at a new
 * price, re-enters as a taker: it may trade at once. As Binance, two amendments cancel the order
 * instead: a total quantity not above what has filled, and a post-only order whose new price
 * would take. The frozen margin follows the new remaining quantity and price.
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
  const c = checkAmendAccountSide(core, a, pair, o, s.priceTicks, s.qtyLots);
  const remaining = c.maxFill > 0 ? Math.min(s.qtyLots - o.filledLots, c.maxFill) : s.qtyLots - o.filledLots;
  if (s.priceTicks === o.priceTicks && remaining === o.qtyLots - o.filledLots) {
    reject(
      Errors.INVALID_PARAMETER,
      `Order ${o.id} already rests at ${pair.math.formatPrice(o.priceTicks)} with ${pair.math.formatQty(remaining)} left: nothing to modify`,
    );
  }
  // the margin follows before the book runs: fills of a re-entering order release it in proportion
  a.frozen += c.frozen - o.frozen;
  o.frozen = c.frozen;
  core.writer.wallet(a);
  pair.book.amend(o.id, s.priceTicks, s.qtyLots, o.engineAccount, c.maxFill, true);
  drain(core, pair, null);
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
export function cancelBotOrder(
  core: TradingCore,
  symbol: string,
  orderId: number,
): { order_id: string; status: number } {
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
    reject(
      Errors.INVALID_PARAMETER,
      `lots must be an integer from 0 to ${view.remainingLots - 1} (the order has ${view.remainingLots} left), got ${lots}`,
    );
  }
  pair.book.trimOrder(orderId, lots);
  drain(core, pair, null);
  core.writer.flush();
  return { order_id: String(orderId), remaining_lots: lots };
}

/**
 * Reduces a resting house order to `lots` in place (commands.ts 'houseTrim'): 0 cancels it as
 * cancelBot does, a smaller size trims it as trimBot does (priority kept); the refusals are
 * theirs. Answers the lots left, as a number (no order id string to build).
 */
export function trimHouseOrder(core: TradingCore, symbol: string, orderId: number, lots: number): number {
  const pair = core.requirePair(symbol);
  const book = pair.book;
  if (book.orderAccount(orderId) < HOUSE_ACCOUNT)
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${symbol}`);
  if (lots === 0) book.cancel(orderId);
  else {
    const left = book.orderRemaining(orderId);
    if (!Number.isSafeInteger(lots) || lots < 0 || lots >= left) {
      reject(
        Errors.INVALID_PARAMETER,
        `lots must be an integer from 0 to ${left - 1} (the order has ${left} left), got ${lots}`,
      );
    }
    book.trimOrder(orderId, lots);
  }
  drain(core, pair, null);
  core.writer.flush();
  return lots;
}

/**
 * Grows the last resting house order of a level to `lots` in place (commands.ts 'houseGrow'):
 * the queue an added order of the difference would make (nobody is behind it), one order fewer.
 * Refused: not a live house order, not a growth, above the pair's maximum quantity, or an order
 * with others behind it (growing it would put its new lots ahead of theirs).
 */
export function growHouseOrder(core: TradingCore, symbol: string, orderId: number, lots: number): number {
  core.checkHealthy();
  const pair = core.requirePair(symbol);
  const book = pair.book;
  if (book.orderAccount(orderId) < HOUSE_ACCOUNT)
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${symbol}`);
  const left = book.orderRemaining(orderId);
  if (!Number.isSafeInteger(lots) || lots <= left || lots > pair.maxLots) {
    reject(
      Errors.INVALID_PARAMETER,
      `lots must be an integer from ${left + 1} to ${pair.maxLots} (the order has ${left} left), got ${lots}`,
    );
  }
  if (!book.isLastInLevel(orderId))
    reject(Errors.INVALID_PARAMETER, `order ${orderId} has orders queued behind it: growing it would pass them`);
  // an amendment that grows loses priority: to the back of the level, where the order already is
  book.amend(orderId, book.orderPriceTicks(orderId), book.orderFilledLots(orderId) + lots);
  drain(core, pair, null);
  core.writer.flush();
  return lots;
}
