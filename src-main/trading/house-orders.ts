// House orders: the replay's and the simulator's fast path in ticks and lots (commands.ts
// 'houseOrder', 'housePrint', 'houseTrim', 'houseGrow'). A house order passes the shape checks a
// bot order of the same price and size passes (status, size, band), with a bot order's codes, but
// not the minimum notional: a replay's historical levels keep the sizes the history had. It is
// never tracked, stored or announced, so only a user order it meets is booked (on the user's side).
import { Errors } from '../../src-shared/errors.ts';
import { Side, SymbolStatus, TimeInForce } from '../../src-shared/enums.ts';
import { MAX_PRICE_TICKS, StpMode } from '../engine/types.ts';
import type { Command } from './commands.ts';
import { HOUSE_ACCOUNT, reject, type TradingCore } from './core.ts';
import { drain, recordUntrackedTrade } from './fills.ts';
import type { PairState } from './pair-state.ts';

/**
 * House placement in ticks and lots (commands.ts 'houseOrder'): the shape checks a bot order of
 * the same price and size passes (checkShape: trading status, size within min/max, price within
 * the band around the mark, the same codes; not the minimum notional), then the engine; never tracked, stored or
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
export function checkHouseOrder(
  pair: PairState,
  side: number,
  account: number,
  lots: number,
  priceTicks: number,
): void {
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
  checkHousePrint(pair, c.maker, c.taker, c.takerSide, c.priceTicks, c.lots, c.rest, c.expireOwn);
  const takerSide = c.takerSide;
  const restSide = takerSide === Side.BUY ? Side.SELL : Side.BUY;
  const book = pair.book;
  const P = c.priceTicks;
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

/**
 * What a housePrint must be (its two house orders, and nothing but the maker's new order for the
 * taker to meet); rejects with the command's codes and messages, in its order.
 */
// eslint-disable-next-line max-params -- per print: the command's own numbers (the house desk's too), nothing allocated per call
export function checkHousePrint(
  pair: PairState,
  maker: number,
  taker: number,
  takerSide: number,
  P: number,
  lots: number,
  rest: number,
  expireOwn: boolean,
): void {
  if (takerSide !== Side.BUY && takerSide !== Side.SELL)
    reject(Errors.INVALID_PARAMETER, 'takerSide must be 1 (buy) or 2 (sell)');
  const restSide = takerSide === Side.BUY ? Side.SELL : Side.BUY;
  if (typeof expireOwn !== 'boolean') reject(Errors.INVALID_PARAMETER, 'expireOwn must be true or false');
  if (!Number.isSafeInteger(rest) || rest < 0)
    reject(Errors.INVALID_PARAMETER, `rest must be a non-negative integer, got ${rest}`);
  if (maker === taker) reject(Errors.INVALID_PARAMETER, 'the maker and the taker are two accounts');
  checkHouseOrder(pair, restSide, maker, lots + rest, P);
  checkHouseOrder(pair, takerSide, taker, lots, P);
  const book = pair.book;
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
    if (!expireOwn || rest === 0 || book.fokFillable(maker, restSide, P, 1, StpMode.ExpireMaker)) {
      reject(
        Errors.INVALID_PARAMETER,
        "the taker's side shows the price or through it: the maker's order would meet those orders",
      );
    }
  }
}

/**
 * Reduces a resting house order to `lots` in place (commands.ts 'houseTrim'): 0 cancels it as
 * cancelBot does, a smaller size trims it as trimBot does (priority kept); the refusals are
 * theirs. Answers the lots left, as a number (no order id string to build).
 */
export function trimHouseOrder(core: TradingCore, symbol: string, orderId: number, lots: number): number {
  return trimHouseOrderOf(core, core.requirePair(symbol), orderId, lots);
}

/** trimHouseOrder on a pair found (the house desk's trim). */
export function trimHouseOrderOf(core: TradingCore, pair: PairState, orderId: number, lots: number): number {
  const book = pair.book;
  if (book.orderAccount(orderId) < HOUSE_ACCOUNT)
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${pair.row.symbol}`);
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
  return growHouseOrderOf(core, core.requirePair(symbol), orderId, lots);
}

/** growHouseOrder on a pair found, the venue's health checked (the house desk's grow). */
export function growHouseOrderOf(core: TradingCore, pair: PairState, orderId: number, lots: number): number {
  const book = pair.book;
  if (book.orderAccount(orderId) < HOUSE_ACCOUNT)
    reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${pair.row.symbol}`);
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
