// Closing a position at market: close orders (PositionAction.CLOSE, which the server makes
// reduce-only) of the whole size on the opposite side. Hedge mode names the position side
// being closed; one-way mode only accepts PositionSide.LONG and reduces the net position the
// sell (of a long) or the buy (of a short) is against, so the side is what matters there.
// An order may not be larger than the pair's max_qty (the venue refuses it whole: "qty 21560.86
// is above the maximum 20000"), while a position may be (built from several orders), so a
// position larger than that is closed by several orders of at most max_qty each, sent one after
// the other; one the book did not fill whole (the price band stopped it) ends the sequence,
// what is left staying open as it is (the fills say what was closed).
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { OrderRequest, PlacementResult, PositionRecord } from '../../../../src-shared/types.ts';
import { positionDirection } from './position-direction.ts';
import type { StoreApi } from 'zustand/vanilla';
import type { AccountState } from '../account/account-store.ts';
import {
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
} from '../../../../src-shared/enums.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { priceFieldCheck } from '../order-entry/input-checks.ts';
import { crossesBook } from '../orders/amend-input.ts';

export function closeOrder(p: PositionRecord, qtyDecimals: number, oneWay: boolean): OrderRequest {
  const d = positionDirection(p);
  return {
    symbol: p.symbol,
    side: d.long ? Side.SELL : Side.BUY,
    position_side: oneWay || d.long ? PositionSide.LONG : PositionSide.SHORT,
    position_action: PositionAction.CLOSE,
    type: OrderType.MARKET,
    qty: d.size.toFixed(qtyDecimals),
  };
}

/**
 * The close orders of the whole position, in the order they are sent: one, or with `maxQty` (the
 * pair's max_qty, a decimal string) below the size, as many as it takes of at most max_qty each
 * (whole steps of the quantity's decimals, the last one the rest).
 */
export function closeOrders(p: PositionRecord, qtyDecimals: number, oneWay: boolean, maxQty?: string): OrderRequest[] {
  const whole = closeOrder(p, qtyDecimals, oneWay);
  const scale = 10 ** qtyDecimals;
  const lots = Math.round(Number(whole.qty) * scale);
  const maxLots = maxQty === undefined ? NaN : Math.floor(Number(maxQty) * scale + 1e-6);
  if (!(maxLots > 0) || lots <= maxLots) return [whole];
  const out: OrderRequest[] = [];
  for (let left = lots; left > 0; left -= maxLots)
    out.push({ ...whole, qty: (Math.min(left, maxLots) / scale).toFixed(qtyDecimals) });
  return out;
}

/**
 * The limit close of the whole position at the typed price (a row's "Limit", limit-close.tsx): the
 * orders of `closeOrders` as GTC limit orders at that price (a close, so reduce-only: the venue
 * trims a resting one as the position shrinks and cancels it when the position is gone), or why
 * the price is not one to send: empty, not a number, not above 0, off the pair's tick (`tick`
 * undefined: not known yet, the venue's 3003 says it).
 */
export function limitCloseOrders(
  p: PositionRecord,
  priceText: string,
  qtyDecimals: number,
  oneWay: boolean,
  pair: { tick?: string; maxQty?: string },
): { orders: OrderRequest[] } | { error: string } {
  const price = parseDecimalInput(priceText);
  if (price.kind === 'empty') return { error: 'Type the price to close at.' };
  const bad = priceFieldCheck(price, pair.tick);
  if (bad !== null || price.kind !== 'ok') return { error: bad ?? 'Not a price.' };
  const orders = closeOrders(p, qtyDecimals, oneWay, pair.maxQty).map((o): OrderRequest => ({
    ...o,
    type: OrderType.LIMIT,
    price: price.value,
    time_in_force: TimeInForce.GTC,
  }));
  return { orders };
}

/**
 * Whether the limit close at the typed price crosses the book, as the Modify dialog says it: the
 * sell of a long at or below the best bid, the buy of a short at or above the best ask trades at
 * once as a taker instead of resting (said, not refused); null when it rests or is not known.
 */
export function limitCloseCrosses(
  p: Pick<PositionRecord, 'position_side' | 'quantity'>,
  priceText: string,
  book: { bestBid: number; bestAsk: number },
  pd: number,
): string | null {
  return crossesBook(priceText, positionDirection(p).long ? Side.SELL : Side.BUY, book, pd);
}

/** The price a limit close starts from: the last trade's, else the mark's, at the pair's decimals. */
export function limitClosePrefill(last: number | undefined, mark: number | undefined, pd: number): string {
  const px = last !== undefined && last > 0 ? last : mark !== undefined && mark > 0 ? mark : NaN;
  return Number.isFinite(px) ? px.toFixed(pd) : '';
}

/** Sends the close orders of `closeOrders`; answers the last one sent. */
export async function closePosition(
  api: RestClient,
  p: PositionRecord,
  qtyDecimals: number,
  oneWay: boolean,
  maxQty?: string,
): Promise<PlacementResult> {
  const orders = closeOrders(p, qtyDecimals, oneWay, maxQty);
  let last: PlacementResult | undefined;
  for (const order of orders) {
    last = await api.placeOrder(order);
    // the book did not take all of it (the price band): the rest waits for the trader
    if (last.status !== OrderStatus.FILLED) break;
  }
  return last as PlacementResult;
}

/**
 * Whether the account is in one-way mode, as a close needs it: its summary read first when it has
 * not come yet (in that moment after the screen opened, a one-way short was closed as a hedge
 * one, position_side 2, and refused 3012).
 */
export async function accountOneWay(account: StoreApi<AccountState>): Promise<boolean> {
  if (account.getState().summary === null) await account.getState().actions.refresh();
  return account.getState().summary?.position_mode === 'one_way';
}
