// What the conditional-order tests share (conditional, trailing-stop, conditional-price-protect):
// a stop placed on BTCUSDT, a long opened at a price, a print between two house accounts, the
// long's size, a conditional order read back.
import { expect } from 'vitest';
import { OrderStatus, PositionSide, TriggerDirection } from '../../src-shared/enums.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalInput } from '../../src-main/trading/commands.ts';
import { HOUSE_ACCOUNT, type Exchange } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { houseLimit, placeBotOrder, placeOrder, setPrices } from '../helpers/exchange-commands.ts';
import { btc } from './venues.ts';

/** A conditional order of `accountId`: a stop-market sell of 0.010 closing a long as the price falls to 95,000, unless `o` says otherwise. */
export function placeStop(ex: Exchange, accountId: number, o: Partial<ConditionalInput>): ConditionalOrderRecord {
  const input: ConditionalInput = {
    symbol: 'BTCUSDT',
    side: 2,
    position_side: 1,
    position_action: 2,
    type: 2,
    qty: '0.010',
    trigger_price: '95000.0',
    trigger_direction: TriggerDirection.FALLS_TO,
    ...o,
  };
  return ex.execute({ kind: 'placeConditional', accountId, input });
}

/** A long of `qty` BTCUSDT opened at market against a house sell at `price`; the mark (and the last price) there. */
export function openLong(v: Venue, u: number, price = '96000.0', qty = '0.010'): void {
  setPrices(v.exchange, 'BTCUSDT', { mark: Number(price) });
  houseLimit(v.exchange, 2, price, qty);
  expect(placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, type: 2, qty }))).toMatchObject(
    { status: OrderStatus.FILLED },
  );
}

/**
 * One print at `price` between two house accounts (a sell rests, an IOC buy takes it). `restAt`:
 * the mark the sell is placed at (then back to the mark before), so a print can be further from
 * the mark than the price band lets a new sell go, as a sell resting while the mark ran away is.
 */
export function print(v: Venue, price: string, o: { qty?: string; restAt?: number } = {}): void {
  const order = { symbol: 'BTCUSDT', position_action: 1, type: 1, price, qty: o.qty ?? '0.002' };
  const mark = v.exchange.pair('BTCUSDT')!.markPrice;
  if (o.restAt !== undefined) setPrices(v.exchange, 'BTCUSDT', { mark: o.restAt });
  placeBotOrder(v.exchange, { ...order, side: 2, position_side: 2, time_in_force: 1 }, HOUSE_ACCOUNT + 2);
  if (o.restAt !== undefined) setPrices(v.exchange, 'BTCUSDT', { mark });
  placeBotOrder(v.exchange, { ...order, side: 1, position_side: 1, time_in_force: 2 }, HOUSE_ACCOUNT + 3);
}

/** The BTCUSDT long of `u`, in BTC (0 without one). */
export const longQty = (v: Venue, u: number): number =>
  Number(v.exchange.positions(u).find((p) => p.position_side === PositionSide.LONG)?.quantity ?? 0);

/** The conditional order `c` of `u` as the venue has it now. */
export const conditionalNow = (v: Venue, u: number, c: ConditionalOrderRecord): ConditionalOrderRecord =>
  v.exchange.conditional(u, { id: Number(c.id) })!;
