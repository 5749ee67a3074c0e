// Order checks: everything a placement must pass before the engine sees it.
//
// Invariants
// - Pure with respect to state: a check reads the pair and the account and throws ApiError
//   (with the registry code and a message naming the limit); it changes nothing, so a
//   rejected order leaves no trace. Settings an order asks for are returned, not applied.
// - Order of checks is part of the API: symbol status, type/side/TIF, position side and
//   action (before quantity and price: an order on the wrong side is told so, not that its
//   price is outside the band for that side), quantity, price and band, then the account
//   side (settings, client id, open-order limit, reduce-only cap, notional, leverage cap,
//   margin), last the book: a post-only order that would take and a FOK order that cannot fill
//   whole are refused (3022 / 3023) rather than kept as EXPIRED, as Binance refuses them.
// - The leverage cap and the margin count what an order would open: in one-way mode an order
//   against the net position opens only the part beyond what it reduces (ledger.ts
//   eachOpeningOrder), so a plain order that only closes needs neither.
import { Errors } from '../../src-shared/errors.ts';
import {
  MarginMode,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
  SymbolStatus,
  TimeInForce,
} from '../../src-shared/enums.ts';
import { MAX_PRICE_TICKS } from '../engine/types.ts';
import type { OrderInput } from './commands.ts';
import { formatMoney, unitsToNumber } from '../risk/money.ts';
import { maxNotionalFor } from '../risk/tiers.ts';
import {
  openOrdersOf,
  posKey,
  positionsOf,
  reducibleLots,
  reject,
  rejectParam,
  type AccountLive,
  type TradingCore,
} from './core.ts';
import { available, capNotional, leverageMargin, orderMargin, reducedByNewOrder } from './ledger.ts';
import type { PairState } from './pair-state.ts';
import { isTpSlClientId, isVenueCloseClientId } from './liquidation-client-id.ts';

/** What the order-independent checks established about an order. */
export interface CheckedShape {
  isMarket: boolean;
  tif: number;
  positionSide: number;
  action: number;
  reduceOnly: boolean;
  qtyLots: number;
  priceTicks: number;
  /** The mark in ticks (at least 1): a market order's protection reference and margin price. */
  refTicks: number;
}

/** The account side of a user order: the settings it trades at and what it freezes. */
export interface CheckedAccount {
  leverage: number;
  marginMode: number;
  /** The order changes the pair setting (leverage / margin mode) once accepted. */
  settingsChange: boolean;
  frozen: bigint;
  /** Reduce-only cap in lots, -1 for none. */
  maxFill: number;
}

const ISOLATED_OR_CROSS = 'margin_mode must be 1 (isolated) or 2 (cross)';
/** The venue's generated client ids (api.<order id>, bot.<order id>): a client may not choose one. */
const GENERATED_CLIENT_ID = /^(api|bot)\.\d+$/;

/**
 * A client-chosen id may use Binance's characters (the route schema checks them) but not the
 * generated forms, so a generated id never collides with a chosen one. A conditional order's own
 * id (`order` false: never an order's, its order is named api.<id>) may have a take-profit /
 * stop-loss close's form (a clientAlgoId `sl-1`).
 */
export function checkClientOrderId(cid: string | undefined, order = true): void {
  if (cid === undefined) return;
  if (
    (cid.indexOf('.') > 0 && GENERATED_CLIENT_ID.test(cid)) ||
    isVenueCloseClientId(cid) ||
    (order && isTpSlClientId(cid))
  ) {
    rejectParam(
      Errors.INVALID_PARAMETER,
      'client_order_id',
      `'${cid}' has the form of the venue's generated ids (api.<n>, bot.<n>, autoclose-<n>, adl_autoclose, reset-<n>, tp-<n>, sl-<n>)`,
    );
  }
}

/** Open orders an account may have on one pair (Binance's default MAX_NUM_ORDERS). */
export const MAX_OPEN_ORDERS_PER_PAIR = 200;

/** Type, side, time in force, position side and action, quantity, price and band (unless `band` is false). */
export function checkShape(pair: PairState, input: OrderInput, mode: PositionMode, band = true): CheckedShape {
  const { row, math } = pair;
  if (row.status !== SymbolStatus.TRADING)
    reject(Errors.SYMBOL_NOT_TRADING, `${row.symbol} is not trading (status ${row.status})`);
  const isMarket = input.type === OrderType.MARKET;
  if (input.type !== OrderType.LIMIT && input.type !== OrderType.MARKET)
    rejectParam(Errors.INVALID_PARAMETER, 'type', 'must be 1 (limit) or 2 (market)');
  if (input.side !== Side.BUY && input.side !== Side.SELL)
    rejectParam(Errors.INVALID_PARAMETER, 'side', 'must be 1 (buy) or 2 (sell)');
  if (isMarket && !row.allowMarket) reject(Errors.MARKET_NOT_ALLOWED, `Market orders are not allowed on ${row.symbol}`);
  const asked: number = input.time_in_force ?? TimeInForce.GTC;
  if (
    asked !== TimeInForce.GTC &&
    asked !== TimeInForce.IOC &&
    asked !== TimeInForce.FOK &&
    asked !== TimeInForce.GTX
  ) {
    rejectParam(Errors.INVALID_PARAMETER, 'time_in_force', 'must be 1 GTC, 2 IOC, 3 FOK or 4 GTX');
  }
  // a market order never rests: GTC and IOC are IOC; FOK and GTX keep their rule (checkImmediate)
  const tif = isMarket && asked !== TimeInForce.FOK && asked !== TimeInForce.GTX ? TimeInForce.IOC : asked;

  // position side and action, before quantity and price
  const positionSide: number = input.position_side;
  const action: number = input.position_action;
  if (positionSide !== PositionSide.LONG && positionSide !== PositionSide.SHORT)
    rejectParam(Errors.INVALID_PARAMETER, 'position_side', 'must be 1 (long) or 2 (short)');
  if (action !== PositionAction.OPEN && action !== PositionAction.CLOSE)
    rejectParam(Errors.INVALID_PARAMETER, 'position_action', 'must be 1 (open) or 2 (close)');
  let reduceOnly = input.reduce_only === true || (mode === PositionMode.ONE_WAY && action === PositionAction.CLOSE);
  if (mode === PositionMode.HEDGE) {
    const expectedSide =
      (positionSide === PositionSide.LONG) === (action === PositionAction.OPEN) ? Side.BUY : Side.SELL;
    if (input.side !== expectedSide) {
      const doing = action === PositionAction.OPEN ? 'opening' : 'closing';
      const which = positionSide === PositionSide.LONG ? 'long' : 'short';
      const needed = expectedSide === Side.BUY ? 'buy' : 'sell';
      reject(Errors.POSITION_SIDE_MISMATCH, `In hedge mode ${doing} a ${which} is a ${needed} (side ${expectedSide})`);
    }
    if (action === PositionAction.OPEN && input.reduce_only === true) {
      reject(
        Errors.REDUCE_ONLY_REJECTED,
        'In hedge mode an order that opens (position_action 1) cannot be reduce-only; close with position_action 2',
      );
    }
    if (action === PositionAction.CLOSE) reduceOnly = true;
  } else if (positionSide !== PositionSide.LONG) {
    reject(Errors.POSITION_SIDE_MISMATCH, 'In one-way mode position_side is 1');
  }

  // quantity
  const q = math.qty.toUnits(input.qty);
  if (!q.ok) {
    if (q.reason === 'off_step')
      reject(Errors.QTY_OFF_STEP, `qty ${input.qty} is not a multiple of the step ${row.stepSize}`);
    if (q.reason === 'zero')
      rejectParam(Errors.INVALID_PARAMETER, 'qty', `must be greater than zero (got '${input.qty}')`, 'not_positive');
    if (q.reason === 'range') {
      rejectParam(
        Errors.INVALID_PARAMETER,
        'qty',
        `${input.qty} is out of range: above the maximum ${row.maxQty}`,
        'too_large',
      );
    }
    rejectParam(Errors.INVALID_PARAMETER, 'qty', `must be a positive decimal string (got '${input.qty}')`);
  }
  const qtyLots = q.value;
  if (qtyLots < math.qty.mustToUnits(row.minQty))
    reject(Errors.QTY_BELOW_MIN, `qty ${input.qty} is below the minimum ${row.minQty}`);
  if (qtyLots > math.qty.mustToUnits(row.maxQty))
    reject(Errors.QTY_ABOVE_MAX, `qty ${input.qty} is above the maximum ${row.maxQty}`);

  // price
  let priceTicks = 0;
  if (isMarket) {
    if (input.price !== undefined && input.price !== '') reject(Errors.PRICE_NOT_ALLOWED);
  } else {
    if (input.price === undefined || input.price === '') reject(Errors.PRICE_REQUIRED);
    const pr = math.price.toUnits(input.price);
    const tooLarge = () =>
      rejectParam(
        Errors.INVALID_PARAMETER,
        'price',
        `${input.price} is out of range: above the maximum ${math.formatPrice(MAX_PRICE_TICKS)}`,
        'too_large',
      );
    if (!pr.ok) {
      if (pr.reason === 'off_step')
        reject(Errors.PRICE_OFF_TICK, `price ${input.price} is not a multiple of the tick ${row.tickSize}`);
      if (pr.reason === 'range') tooLarge();
      if (pr.reason === 'zero')
        rejectParam(
          Errors.INVALID_PARAMETER,
          'price',
          `must be greater than zero (got '${input.price}')`,
          'not_positive',
        );
      rejectParam(Errors.INVALID_PARAMETER, 'price', `must be a positive decimal string (got '${input.price}')`);
    }
    priceTicks = pr.value;
    if (priceTicks > MAX_PRICE_TICKS) tooLarge();
    const mark = pair.markPrice;
    const hi = mark * (1 + pair.bandRatio);
    const lo = mark * (1 - pair.bandRatio);
    const px = priceTicks * math.tickValue;
    if (band && input.side === Side.BUY && px > hi * (1 + 1e-12)) {
      reject(
        Errors.PRICE_OUTSIDE_BAND,
        `A buy above ${math.roundPrice(hi)} (mark ${math.roundPrice(mark)} + ${pair.bandRatio * 100}%) is outside the price band`,
      );
    }
    if (band && input.side === Side.SELL && px < lo * (1 - 1e-12)) {
      reject(
        Errors.PRICE_OUTSIDE_BAND,
        `A sell below ${math.roundPrice(lo)} (mark ${math.roundPrice(mark)} - ${pair.bandRatio * 100}%) is outside the price band`,
      );
    }
  }
  const refTicks = Math.max(1, math.ticksRound(pair.markPrice));
  // one-way mode: position_action 2 is reduce-only, so an order sent reduce_only with 1 is
  // recorded as 2: its record, which has no reduce_only field, then tells that it never opens
  const recorded = reduceOnly ? PositionAction.CLOSE : action;
  return { isMarket, tif, positionSide, action: recorded, reduceOnly, qtyLots, priceTicks, refTicks };
}

/**
 * Settings, client id (`clientOrderId`, the input's or the generated one), reduce-only cap,
 * minimum notional, leverage cap and margin of a user order on `input.symbol`.
 */
export function checkAccountSide(
  core: TradingCore,
  a: AccountLive,
  input: OrderInput,
  s: CheckedShape,
  clientOrderId: string,
): CheckedAccount {
  const pair = core.requirePair(input.symbol);
  const { row, math } = pair;
  const current = core.pairSetting(a, pair);
  const leverage = input.leverage ?? current.leverage;
  const marginMode: number = input.margin_mode ?? current.marginMode;
  if (marginMode !== current.marginMode) checkMarginModeChange(core, a, row.symbol, marginMode);
  // a leverage the order sets applies before it freezes its margin: what is available at it
  const availableAt = leverage !== current.leverage ? checkLeverage(core, a, pair, leverage).available : undefined;
  const settingsChange = leverage !== current.leverage || marginMode !== current.marginMode;
  if (a.clientIds.has(clientOrderId)) {
    reject(
      Errors.DUPLICATE_CLIENT_ORDER_ID,
      `client_order_id '${clientOrderId}' is already used by live order ${a.clientIds.get(clientOrderId)}`,
    );
  }
  // counting walks the account's orders, so only an account that could be at the limit pays it
  if (a.orders.size >= MAX_OPEN_ORDERS_PER_PAIR && openOrdersOf(a, row.symbol).length >= MAX_OPEN_ORDERS_PER_PAIR) {
    reject(Errors.TOO_MANY_OPEN_ORDERS, `At most ${MAX_OPEN_ORDERS_PER_PAIR} open orders per account on ${row.symbol}`);
  }
  let frozen = 0n;
  let maxFill = -1;
  if (s.reduceOnly) {
    const reducible = reducibleLots(a, row.symbol, s.positionSide, input.side);
    if (reducible <= 0) rejectNothingToReduce(a, row.symbol, s.positionSide, input.side, 'this order');
    maxFill = reducible;
  } else {
    const ticks = s.isMarket ? s.refTicks : s.priceTicks;
    checkMinNotional(pair, ticks, s.qtyLots);
    // in one-way mode an order against the net position first reduces it: only the rest opens
    // (ledger.ts eachOpeningOrder), and only that counts against the cap and freezes margin
    const oneWay = a.mode === PositionMode.ONE_WAY;
    const opens = oneWay ? s.qtyLots - Math.min(s.qtyLots, reducedByNewOrder(a, row.symbol, input.side)) : s.qtyLots;
    const notional = opens === s.qtyLots ? math.notional(ticks, s.qtyLots) : math.notional(ticks, opens);
    const existing = capNotional(a, pair, s.positionSide, input.side);
    const maxNotional = maxNotionalFor(row.brackets, leverage);
    const wanted = existing + unitsToNumber(notional);
    if (wanted > maxNotional) {
      reject(
        Errors.LEVERAGE_INVALID,
        `At ${leverage}x the position may hold at most ${maxNotional} USDT notional on ${row.symbol}; this order would make it ${wanted.toFixed(2)}`,
      );
    }
    frozen = opens > 0 ? orderMargin(pair, notional, leverage) : 0n;
    const avail = availableAt ?? available(core, a);
    if (frozen > avail) {
      reject(
        Errors.INSUFFICIENT_MARGIN,
        `Order needs ${formatMoney(frozen, 2)} USDT of margin and fees; available is ${formatMoney(avail < 0n ? 0n : avail, 2)} USDT` +
          (availableAt === undefined
            ? ''
            : ` at ${leverage}x (the pair's positions and orders counted at the order's leverage; the pair is at ${current.leverage}x)`),
      );
    }
  }
  return { leverage, marginMode, settingsChange, frozen, maxFill };
}

/**
 * The book side of an order, read as the engine will decide on entry: a post-only (GTX) order
 * that would take is 3022, a FOK order that cannot fill whole (its reduce-only cap applied,
 * self-trade prevention counted) 3023. A market order is decided at the edge of its price band,
 * the farthest it may sweep (the engine's marketLimit). Reads only.
 */
export function checkImmediate(
  pair: PairState,
  engineAccount: number,
  side: number,
  s: CheckedShape,
  maxFill: number,
): void {
  if (s.tif !== TimeInForce.GTX && s.tif !== TimeInForce.FOK) return;
  const { book, math, row } = pair;
  const limit = s.isMarket ? book.marketLimit(side, s.refTicks) : s.priceTicks;
  const at = s.isMarket
    ? `at market (within the price band, ${side === Side.BUY ? 'up' : 'down'} to ${math.formatPrice(limit)})`
    : `at ${math.formatPrice(limit)}`;
  if (s.tif === TimeInForce.GTX && book.wouldTake(side, limit)) {
    reject(Errors.POST_ONLY_WOULD_TAKE, `A post-only order ${at} would take liquidity on ${row.symbol}`);
  }
  if (s.tif === TimeInForce.FOK) {
    const qty = maxFill > 0 && maxFill < s.qtyLots ? maxFill : s.qtyLots;
    if (!book.fokFillable(engineAccount, side, limit, qty)) {
      reject(
        Errors.FOK_NOT_FILLABLE,
        `A fill-or-kill order of ${math.formatQty(qty)} ${at} cannot fill completely on ${row.symbol}`,
      );
    }
  }
}

/**
 * What a bot order shares with a user order's account side, having no account: the leverage it
 * names within the pair's range (3013) and, unless it is reduce-only, the minimum notional
 * (3007; a market order at the mark, as checkAccountSide). Numbers only, nothing allocated: the
 * bot route is benchmarked.
 */
export function checkBotOrder(pair: PairState, leverage: number | undefined, s: CheckedShape): void {
  if (leverage !== undefined) checkLeverageRange(pair, leverage);
  if (!s.reduceOnly) checkMinNotional(pair, s.isMarket ? s.refTicks : s.priceTicks, s.qtyLots);
}

/** A notional as it is (99.9 x 1.001 = "99.9999", never rounded up to the minimum it misses), at least 2 decimals. */
function exactNotional(units: bigint): string {
  return formatMoney(units).replace(/(\.\d\d\d*?)0+$/, '$1');
}

/** 3007 when priceTicks x qtyLots is below the pair's minimum notional. */
export function checkMinNotional(pair: PairState, priceTicks: number, qtyLots: number): void {
  if (priceTicks * qtyLots < pair.minNotionalTickLots) {
    reject(
      Errors.NOTIONAL_BELOW_MIN,
      `Order notional ${exactNotional(pair.math.notional(priceTicks, qtyLots))} is below the minimum ${pair.row.minNotional} USDT`,
    );
  }
}

/** 3013 unless leverage is an integer from 1 to the pair's maximum. */
function checkLeverageRange(pair: PairState, leverage: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > pair.row.maxLeverage) {
    reject(
      Errors.LEVERAGE_INVALID,
      `leverage must be an integer from 1 to ${pair.row.maxLeverage} on ${pair.row.symbol}`,
    );
  }
}

const CAP_SIDES = [
  [PositionSide.LONG, Side.BUY],
  [PositionSide.SHORT, Side.SELL],
] as const;

/** The notional at the mark of the account's position on that side of the pair (0 without one). */
function positionNotional(a: AccountLive, pair: PairState, positionSide: number): number {
  let total = 0;
  for (const p of positionsOf(a, pair.row.symbol)) {
    if (p.side === positionSide) total += p.qty * pair.math.lotValue * pair.markPrice;
  }
  return total;
}

/**
 * Checks a leverage for an account's pair: its range, the notional cap of its tier (each side's
 * position and opening orders, as an order is capped), and, for a lower leverage, the margin (ledger.ts leverageMargin): the pair's cross
 * positions and opening orders must fit in what the account can hold at it, and an isolated
 * position's margin must cover its initial margin at it (3009 otherwise, as Binance's -2028).
 * Returns the notional cap (USDT) and the available balance the account would have at it.
 */
export function checkLeverage(
  core: TradingCore,
  a: AccountLive,
  pair: PairState,
  leverage: number,
): { maxNotional: number; available: bigint } {
  const symbol = pair.row.symbol;
  checkLeverageRange(pair, leverage);
  const maxNotional = maxNotionalFor(pair.row.brackets, leverage);
  // each side as an order is capped (capNotional): its position at the mark plus its opening
  // orders at their price, which fill into it at this leverage
  for (const [positionSide, side] of CAP_SIDES) {
    const held = positionNotional(a, pair, positionSide);
    const notional = capNotional(a, pair, positionSide, side);
    if (notional > maxNotional) {
      const what =
        notional > held
          ? `the ${positionSide === PositionSide.LONG ? 'long' : 'short'} side with its open orders holds`
          : 'the position holds';
      reject(
        Errors.LEVERAGE_INVALID,
        `a ${leverage}x position on ${symbol} may hold at most ${maxNotional} USDT notional; ${what} ${notional.toFixed(2)}`,
      );
    }
  }
  const m = leverageMargin(core, a, pair, leverage);
  if (m.isolatedShort !== undefined) {
    const { p, im } = m.isolatedShort;
    reject(
      Errors.INSUFFICIENT_MARGIN,
      `Leverage ${leverage}x is too low for the isolated ${p.side === PositionSide.LONG ? 'long' : 'short'} position on ${symbol}: it needs ${formatMoney(im, 2)} USDT of initial margin and holds ${formatMoney(p.isolatedMargin, 2)} USDT`,
    );
  }
  if (m.need > m.held && m.need > m.canHold) {
    reject(
      Errors.INSUFFICIENT_MARGIN,
      `Leverage ${leverage}x is too low for the account's margin: the positions and open orders on ${symbol} would need ${formatMoney(m.need, 2)} USDT of initial margin; the account can hold ${formatMoney(m.canHold < 0n ? 0n : m.canHold, 2)} USDT for them`,
    );
  }
  return { maxNotional, available: m.canHold - m.need };
}

export function checkMarginModeValue(marginMode: number): asserts marginMode is MarginMode {
  if (marginMode !== MarginMode.ISOLATED && marginMode !== MarginMode.CROSS)
    reject(Errors.INVALID_PARAMETER, ISOLATED_OR_CROSS);
}

/**
 * Refuses (3014) a change of the pair's margin mode while the account holds a position or an open
 * order on it; a waiting conditional order is an open order here, as for a position-mode change
 * (account-settings.ts checkPositionMode) and as Binance's conditional orders were open orders,
 * but for one that names the mode being set (its margin_mode): it fires in that mode whatever the
 * pair's is, so the change is its own (two isolated breakout stops on a cross pair: the first to
 * fire was refused 3014 for the other).
 */
export function checkMarginModeChange(core: TradingCore, a: AccountLive, symbol: string, marginMode: number): void {
  checkMarginModeValue(marginMode);
  const positions = positionsOf(a, symbol).length;
  let waiting = 0;
  for (const c of core.conditionals.values())
    if (c.accountId === a.id && c.symbol === symbol && c.marginMode !== marginMode) waiting++;
  const orders = openOrdersOf(a, symbol).length + waiting;
  if (positions > 0 || orders > 0) {
    reject(
      Errors.MARGIN_MODE_CHANGE_REFUSED,
      `Margin mode of ${symbol} cannot change while the account has ${blockers(positions, orders, waiting)} on it`,
      orders > 0 ? 'open_orders' : 'position',
    );
  }
}

/**
 * What blocks a margin-mode or position-mode change, in words ("a position and 2 open orders"):
 * `orders` the open orders, `waiting` the waiting conditional orders among them, which the Open
 * orders tab does not list ("1 open order (a waiting conditional order)": the Stops tab's).
 */
export function blockers(positions: number, orders: number, waiting = 0): string {
  const p = positions === 0 ? '' : positions === 1 ? 'a position' : `${positions} positions`;
  let o = orders === 0 ? '' : orders === 1 ? '1 open order' : `${orders} open orders`;
  if (waiting > 0) {
    const what = waiting === 1 ? 'a waiting conditional order' : 'waiting conditional orders';
    o += waiting === orders ? ` (${what})` : ` (${waiting} of them ${what})`;
  }
  return p && o ? `${p} and ${o}` : p || o;
}

/**
 * Refuses a reduce-only order (`what`) that has nothing to reduce, whatever made it reduce-only
 * (reduce_only, or position_action 2): 3018 when there is no position it could reduce (hedge: none
 * on its side; one-way: none on the pair), 3010 when the one-way position is on the order's own
 * side, which the order would increase.
 */
export function rejectNothingToReduce(
  a: AccountLive,
  symbol: string,
  positionSide: number,
  side: number,
  what: string,
): never {
  if (a.mode === PositionMode.ONE_WAY) {
    const own = side === Side.BUY ? 'long' : 'short';
    if ((a.positions.get(posKey(symbol, side === Side.BUY ? PositionSide.LONG : PositionSide.SHORT))?.qty ?? 0) > 0) {
      reject(
        Errors.REDUCE_ONLY_REJECTED,
        `The position on ${symbol} is ${own}: a reduce-only ${side === Side.BUY ? 'buy' : 'sell'} would increase it`,
      );
    }
    reject(Errors.NO_POSITION_TO_CLOSE, `No position on ${symbol} for ${what} to reduce`);
  }
  const which = positionSide === PositionSide.LONG ? 'long' : 'short';
  reject(Errors.NO_POSITION_TO_CLOSE, `No ${which} position on ${symbol} for ${what} to reduce`);
}
