// Shorthands for the exchange's commands in tests and benches: each builds one command and runs it
// through Exchange.execute, the exchange's one door, so a test reads as the call it makes while
// the class keeps only its real interface (execute and the read views).
import type { PositionMode } from '../../src-shared/enums.ts';
import type { AccountSummary, OrderRecord, PlacementResult, PositionRecord } from '../../src-shared/types.ts';
import { HOUSE_ACCOUNT, type BotOrderInput, type Exchange, type OrderInput } from '../../src-main/trading/exchange.ts';
import type { CancelTarget } from '../../src-main/trading/commands.ts';
import type { AccountSpec, AccountState } from '../../src-main/trading/ports.ts';
import type { TriggerSpec } from '../../src-main/trading/commands.ts';

export function placeOrder(ex: Exchange, accountId: number, input: OrderInput): PlacementResult {
  return ex.execute({ kind: 'place', accountId, input });
}

/**
 * A limit order of `qty` at `price` on `symbol` that opens a position on its side (position side =
 * side, action open): hedge mode's usual test order, and the house's resting order.
 */
export function openingLimit(side: 1 | 2, price: string, qty: string, symbol = 'BTCUSDT') {
  return { symbol, side, position_side: side, position_action: 1, type: 1, price, qty };
}

/** A market order of `qty` on `symbol` that opens a position on its side. */
export function openingMarket(side: 1 | 2, qty: string, symbol = 'BTCUSDT') {
  return { symbol, side, position_side: side, position_action: 1, type: 2, qty };
}

/**
 * A trade on the tape between two accounts: `maker` rests a sell of `qty` BTCUSDT at `price` (by
 * default the mark, on the tick) and `taker` buys it at market. Returns the taker's answer.
 */
export function tapeTrade(
  ex: Exchange,
  maker: number,
  taker: number,
  qty: string,
  price = (Math.round(ex.pair('BTCUSDT')!.markPrice / 0.1) * 0.1).toFixed(1),
): PlacementResult {
  placeOrder(ex, maker, openingLimit(2, price, qty));
  return placeOrder(ex, taker, openingMarket(1, qty));
}

/** A good-till-cancel limit order on BTCUSDT that opens a position on its side (hedge mode's usual test order). */
export function openLimit(
  ex: Exchange,
  accountId: number,
  o: { side: 1 | 2; price: string; qty: string },
): PlacementResult {
  return placeOrder(ex, accountId, openingLimit(o.side, o.price, o.qty));
}

export function placeBotOrder(ex: Exchange, input: BotOrderInput, engineAccount = HOUSE_ACCOUNT): PlacementResult {
  return ex.execute({ kind: 'placeBot', input, engineAccount });
}

/** A house (market maker) limit order that opens on its side, good till cancelled: it rests, or crosses the book. */
export function houseLimit(ex: Exchange, side: 1 | 2, price: string, qty: string, symbol = 'BTCUSDT'): PlacementResult {
  return placeBotOrder(ex, { ...openingLimit(side, price, qty, symbol), time_in_force: 1 }, HOUSE_ACCOUNT);
}

export function cancelOrder(ex: Exchange, accountId: number, by: CancelTarget): OrderRecord {
  return ex.execute({ kind: 'cancel', accountId, ...by });
}

export function cancelAll(ex: Exchange, accountId: number, symbol: string): number {
  return ex.execute({ kind: 'cancelAll', accountId, symbol });
}

export function cancelBotOrder(ex: Exchange, symbol: string, orderId: number): { order_id: string; status: number } {
  return ex.execute({ kind: 'cancelBot', symbol, orderId });
}

export function setLeverage(
  ex: Exchange,
  accountId: number,
  symbol: string,
  leverage: number,
): { symbol: string; leverage: number; max_notional: string } {
  return ex.execute({ kind: 'setLeverage', accountId, symbol, leverage });
}

export function setMarginMode(
  ex: Exchange,
  accountId: number,
  symbol: string,
  marginMode: number,
): { symbol: string; margin_mode: number } {
  return ex.execute({ kind: 'setMarginMode', accountId, symbol, marginMode });
}

export function setPositionMode(ex: Exchange, accountId: number, mode: PositionMode): { position_mode: PositionMode } {
  return ex.execute({ kind: 'setPositionMode', accountId, mode });
}

export function setTpSl(
  ex: Exchange,
  accountId: number,
  symbol: string,
  positionSide: number,
  tp: TriggerSpec,
  sl: TriggerSpec,
): PositionRecord {
  return ex.execute({ kind: 'setTpSl', accountId, symbol, positionSide, tp, sl });
}

/** Paper deposit (positive) or withdrawal (negative) of `amount` units. */
export function deposit(ex: Exchange, accountId: number, amount: bigint): AccountSummary {
  return ex.execute({ kind: 'deposit', accountId, amount });
}

export function resetAccount(ex: Exchange, accountId: number, balance: bigint): AccountSummary {
  return ex.execute({ kind: 'reset', accountId, balance });
}

export function upsertAccount(ex: Exchange, spec: AccountSpec, now: number): AccountState {
  return ex.execute({ kind: 'upsertAccount', spec, now });
}

export function setPrices(
  ex: Exchange,
  symbol: string,
  p: { mark?: number; index?: number; fundingRate?: number; nextFundingTime?: number },
): void {
  ex.execute({ kind: 'prices', symbol, ...p });
}

export function settleFunding(ex: Exchange, symbol: string, rate: number, mark: number, time: number): number {
  return ex.execute({ kind: 'funding', symbol, rate, mark, time });
}

/**
 * One trade of `qty` BTCUSDT at the mark (on the tick) between two engine accounts: a house sell
 * rests, the next account's IOC buy takes it. The default 0.002 is over the 100 USDT minimum
 * notional. Returns the taker's answer.
 */
export function tradeAtMark(ex: Exchange, qty = '0.002'): PlacementResult {
  const price = ex.pair('BTCUSDT')!.markPrice.toFixed(1);
  const order = { symbol: 'BTCUSDT', position_action: 1, type: 1, price, qty };
  placeBotOrder(ex, { ...order, side: 2, position_side: 2 }, HOUSE_ACCOUNT);
  return placeBotOrder(ex, { ...order, side: 1, position_side: 1, time_in_force: 2 }, HOUSE_ACCOUNT + 1);
}
