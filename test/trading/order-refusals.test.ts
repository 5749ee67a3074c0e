// Refusals the core makes as Binance does: a post-only order that would take (3022), a FOK that
// cannot fill whole (3023), the per-pair open-order limit (3021). Each leaves no order behind
// (no record, no frozen margin, the book untouched); time in force and reduce-only stay on the
// order record across a restart.
import { btc, refusal, venueKit } from './venues.ts';
import { openingLimit, placeBotOrder, placeOrder, setPositionMode } from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { MAX_OPEN_ORDERS_PER_PAIR } from '../../src-main/trading/order-checks.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import type { PlacementResult } from '../../src-shared/types.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 1_000_000n * USDT });

/** A house limit order, good till cancelled and cached (listed, cancellable). */
function bot(v: Venue, side: 1 | 2, price: string, qty: string) {
  return placeBotOrder(v.exchange, { ...openingLimit(side, price, qty), time_in_force: 1, need_cache: true });
}

/** Account `u`'s BTCUSDT buy opening (adding to) a long: a limit of 0.010 unless `o` says otherwise. */
function openLong(v: Venue, u: number, o: Partial<OrderInput>): PlacementResult {
  return placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, ...o }));
}

function orderCount(v: Venue, accountId: number): number {
  return Number(
    (v.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE account_id = ?').get(accountId) as { n: number }).n,
  );
}

describe('post-only and fill-or-kill refusals', () => {
  it('a GTX buy at or above the best ask is 3022 and leaves nothing; below it rests as GTX', () => {
    const v = venue();
    const u = user(v, 'gtx00001');
    bot(v, 2, '95000.0', '0.004');
    const depthBefore = v.exchange.pair('BTCUSDT')!.book.depth();
    expect(refusal(() => openLong(v, u, { price: '95000.0', time_in_force: 4 })).code).toBe(
      Errors.POST_ONLY_WOULD_TAKE.code,
    );
    expect(orderCount(v, u)).toBe(0);
    expect(v.exchange.openOrders(u)).toHaveLength(0);
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    expect(v.exchange.pair('BTCUSDT')!.book.depth()).toEqual(depthBefore);
    const r = openLong(v, u, { price: '94999.9', time_in_force: 4 });
    expect(r.status).toBe(1);
    expect(v.trading.order(Number(r.order_id))?.tif).toBe(4);
  });

  it('a FOK larger than the crossing liquidity is 3023 and leaves nothing; one that fits fills whole', () => {
    const v = venue();
    const u = user(v, 'fok00001');
    bot(v, 2, '95000.0', '0.004');
    bot(v, 2, '95001.0', '0.004');
    expect(refusal(() => openLong(v, u, { price: '95000.0', qty: '0.005', time_in_force: 3 })).code).toBe(
      Errors.FOK_NOT_FILLABLE.code,
    );
    // nothing crosses at all: also 3023 (the engine would expire it whole)
    expect(refusal(() => openLong(v, u, { price: '94000.0', qty: '0.002', time_in_force: 3 })).code).toBe(
      Errors.FOK_NOT_FILLABLE.code,
    );
    expect(orderCount(v, u)).toBe(0);
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    const r = openLong(v, u, { price: '95001.0', qty: '0.008', time_in_force: 3 });
    expect(r.status).toBe(3);
    expect(r.filled_qty).toBe('0.008');
  });

  it('a FOK that only its own resting order could fill is 3023 (self-trade prevention counted)', () => {
    const v = venue();
    const u = user(v, 'fok00002');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 2, position_action: 1, price: '95000.0', qty: '0.010' }));
    bot(v, 2, '95001.0', '0.004');
    expect(refusal(() => openLong(v, u, { price: '95001.0', qty: '0.004', time_in_force: 3 })).code).toBe(
      Errors.FOK_NOT_FILLABLE.code,
    );
    // another account fills at once from the same book
    const w = user(v, 'fok00003');
    expect(openLong(v, w, { price: '95001.0', qty: '0.014', time_in_force: 3 }).status).toBe(3);
  });
});

describe('open-order limit', () => {
  it(`the ${MAX_OPEN_ORDERS_PER_PAIR + 1}th open order on a pair is 3021; other pairs and a freed slot are fine`, () => {
    const v = venue();
    const u = user(v, 'lim00001');
    let last = '';
    for (let i = 0; i < MAX_OPEN_ORDERS_PER_PAIR; i++) {
      last = openLong(v, u, { price: (90000 - i).toFixed(1), qty: '0.002' }).order_id;
    }
    expect(refusal(() => openLong(v, u, { price: '80000.0', qty: '0.002' })).code).toBe(
      Errors.TOO_MANY_OPEN_ORDERS.code,
    );
    const eth = v.exchange.pair('ETHUSDT')!;
    const ethPrice = eth.math.formatPrice(Math.round((eth.markPrice * 0.95) / eth.math.tickValue));
    expect(
      placeOrder(v.exchange, u, {
        symbol: 'ETHUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: ethPrice,
        qty: '0.100',
      }).status,
    ).toBe(1);
    v.exchange.execute({ kind: 'cancel', accountId: u, symbol: 'BTCUSDT', orderId: Number(last) });
    expect(openLong(v, u, { price: '80000.0', qty: '0.002' }).status).toBe(1);
  });
});

describe('time in force and reduce-only on the record', () => {
  it('survive a restart', () => {
    const dir = dataDir('perpdesk-tif-');
    const v1 = venue(dir);
    const u = user(v1, 'tif00001');
    setPositionMode(v1.exchange, u, 'one_way');
    bot(v1, 2, '95000.0', '0.050');
    openLong(v1, u, { type: 2, qty: '0.020' });
    const gtx = openLong(v1, u, { price: '94000.0', time_in_force: 4 });
    const ro = placeOrder(
      v1.exchange,
      u,
      btc({ side: 2, position_side: 1, position_action: 2, price: '99000.0', reduce_only: true }),
    );
    v1.close();
    const v2 = venue(dir);
    expect(v2.trading.order(Number(gtx.order_id))).toMatchObject({ tif: 4, reduceOnly: false });
    expect(v2.trading.order(Number(ro.order_id))).toMatchObject({ tif: 1, reduceOnly: true });
    expect(v2.exchange.liveOrder(u, Number(ro.order_id))).toMatchObject({ tif: 1, reduceOnly: true, status: 1 });
  });
});
