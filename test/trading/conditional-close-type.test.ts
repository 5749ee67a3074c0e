// The close type a conditional order's close records (closed positions' close_type): Binance's
// order family of the conditional order, as the position take-profit / stop-loss record theirs.
// The stop family (a sell firing as the price falls to its trigger, a buy as it rises, every
// trailing stop) is a stop loss (3); the take-profit family (a sell firing as the price rises, a
// buy as it falls) a take profit (2); a plain order's close stays a user close (1). A stop-limit's
// order resting across a restart keeps its family: it is the stored conditional order's.
import { describe, expect, it } from 'vitest';
import { CloseType, ConditionalStatus, OrderStatus, TriggerDirection } from '../../src-shared/enums.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { houseLimit, placeOrder, setPrices } from '../helpers/exchange-commands.ts';
import { conditionalNow, longQty, openLong, placeStop as place } from './conditional-kit.ts';
import { btc, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 100_000n * USDT, simulate: false });

const RISES = TriggerDirection.RISES_TO;
const FALLS = TriggerDirection.FALLS_TO;

/** The close types of the closed positions of `u`, newest first. */
const closeTypes = (v: Venue, u: number): number[] =>
  v.trading.closedPositions({ accountId: u, limit: 10 }).map((c) => c.closeType);

/** A short of `qty` BTCUSDT sold at market into a house bid at `price`; the mark there. */
function openShort(v: Venue, u: number, price = '96000.0', qty = '0.010'): void {
  setPrices(v.exchange, 'BTCUSDT', { mark: Number(price) });
  houseLimit(v.exchange, 1, price, qty);
  expect(placeOrder(v.exchange, u, btc({ side: 2, position_side: 2, position_action: 1, type: 2, qty }))).toMatchObject(
    { status: OrderStatus.FILLED },
  );
}

describe('the close type of a conditional order', () => {
  it('a stop-market sell closing a long as the mark falls to it is a stop loss (3)', () => {
    const v = venue();
    const u = user(v, 'ct-stop-sell');
    openLong(v, u);
    const c = place(v.exchange, u, { trigger_price: '95000.0', trigger_direction: FALLS });
    houseLimit(v.exchange, 1, '94990.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 });
    expect(conditionalNow(v, u, c).status).toBe(ConditionalStatus.TRIGGERED);
    expect(longQty(v, u)).toBe(0);
    expect(closeTypes(v, u)).toEqual([CloseType.STOP_LOSS]);
    expect(v.trading.closedPositions({ accountId: u, closeType: CloseType.STOP_LOSS, limit: 5 })).toHaveLength(1);
  });

  it('a take-profit sell closing a long as the mark rises to it is a take profit (2)', () => {
    const v = venue();
    const u = user(v, 'ct-tp-sell');
    openLong(v, u);
    const c = place(v.exchange, u, {
      qty: undefined,
      close_position: true,
      trigger_price: '97000.0',
      trigger_direction: RISES,
    });
    houseLimit(v.exchange, 1, '96990.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    expect(conditionalNow(v, u, c).status).toBe(ConditionalStatus.TRIGGERED);
    expect(closeTypes(v, u)).toEqual([CloseType.TAKE_PROFIT]);
  });

  it('a buy stop closing a short as the mark rises to it is a stop loss (3); a buy falling to it a take profit (2)', () => {
    const v = venue();
    const u = user(v, 'ct-buy');
    openShort(v, u);
    const stop = place(v.exchange, u, {
      side: 1,
      position_side: 2,
      trigger_price: '97000.0',
      trigger_direction: RISES,
    });
    houseLimit(v.exchange, 2, '97010.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    expect(conditionalNow(v, u, stop).status).toBe(ConditionalStatus.TRIGGERED);
    openShort(v, u, '96000.0');
    const tp = place(v.exchange, u, { side: 1, position_side: 2, trigger_price: '95000.0', trigger_direction: FALLS });
    houseLimit(v.exchange, 2, '95010.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 });
    expect(conditionalNow(v, u, tp).status).toBe(ConditionalStatus.TRIGGERED);
    expect(closeTypes(v, u)).toEqual([CloseType.TAKE_PROFIT, CloseType.STOP_LOSS]);
  });

  it('a trailing stop is a stop loss (3), even where it fires above the entry', () => {
    const v = venue();
    const u = user(v, 'ct-trail');
    openLong(v, u);
    const c = place(v.exchange, u, { trigger_price: undefined, trigger_direction: undefined, callback_rate: '1.0' });
    setPrices(v.exchange, 'BTCUSDT', { mark: 98000 }); // the peak: its trigger 97,020.0
    houseLimit(v.exchange, 1, '97000.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97020 });
    expect(conditionalNow(v, u, c).status).toBe(ConditionalStatus.TRIGGERED);
    expect(longQty(v, u)).toBe(0);
    expect(closeTypes(v, u)).toEqual([CloseType.STOP_LOSS]);
  });

  it('a plain market or limit close is still a user close (1), and an open by a conditional order changes nothing', () => {
    const v = venue();
    const u = user(v, 'ct-plain');
    openLong(v, u);
    houseLimit(v.exchange, 1, '96000.0', '0.010');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2 }));
    openLong(v, u);
    houseLimit(v.exchange, 1, '96000.0', '0.010');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, price: '96000.0' }));
    // a stop that opened the long (a buy rising to its trigger), then a plain close
    const open = place(v.exchange, u, {
      side: 1,
      position_action: 1,
      reduce_only: false,
      trigger_price: '97000.0',
      trigger_direction: RISES,
    });
    houseLimit(v.exchange, 2, '97000.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    expect(conditionalNow(v, u, open).status).toBe(ConditionalStatus.TRIGGERED);
    expect(longQty(v, u)).toBe(0.01);
    houseLimit(v.exchange, 1, '97000.0', '0.010');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2 }));
    expect(closeTypes(v, u)).toEqual([CloseType.USER, CloseType.USER, CloseType.USER]);
  });

  it('a stop that closes part of the long leaves the close type to the order that closes the rest, as a take-profit / stop-loss does', () => {
    const v = venue();
    const u = user(v, 'ct-part');
    openLong(v, u);
    place(v.exchange, u, { qty: '0.004', trigger_price: '95000.0', trigger_direction: FALLS });
    houseLimit(v.exchange, 1, '94990.0', '0.004');
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 });
    expect(longQty(v, u)).toBe(0.006);
    expect(closeTypes(v, u)).toEqual([]);
    houseLimit(v.exchange, 1, '95000.0', '0.006');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.006' }));
    expect(closeTypes(v, u)).toEqual([CloseType.USER]);
  });

  it("a stop-limit's order resting across a restart still closes as a stop loss (3)", async () => {
    const dir = dataDir('perpdesk-ct-');
    const v1 = venue(dir);
    const u = user(v1, 'ct-keep');
    openLong(v1, u);
    // fires at 95,000.0 and rests its sell at 95,100.0 (nothing bids there yet)
    const c = place(v1.exchange, u, {
      type: 1,
      price: '95100.0',
      time_in_force: 1,
      trigger_price: '95000.0',
      trigger_direction: FALLS,
    });
    setPrices(v1.exchange, 'BTCUSDT', { mark: 95000 });
    const fired = conditionalNow(v1, u, c);
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(v1.exchange.liveOrder(u, Number(fired.order_id))).toMatchObject({ status: OrderStatus.NEW });
    await v1.close();
    const v2 = venue(dir);
    setPrices(v2.exchange, 'BTCUSDT', { mark: 95100 });
    houseLimit(v2.exchange, 1, '95100.0', '0.010'); // a bid that takes the resting sell
    expect(longQty(v2, u)).toBe(0);
    expect(closeTypes(v2, u)).toEqual([CloseType.STOP_LOSS]);
  });
});
