// The close type (the native position history's close_type) of a close an algo order of the
// /binance dialect makes: Binance's order family, STOP_MARKET / STOP and TRAILING_STOP_MARKET a
// stop loss (3), TAKE_PROFIT_MARKET / TAKE_PROFIT a take profit (2), whichever side they close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseType } from '../../../src-shared/enums.ts';
import { houseLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
const MARK = 96000;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
});
afterAll(async () => svc?.close());

const ex = () => svc.venue.exchange;
const mark = (price: number) => setPrices(ex(), 'BTCUSDT', { mark: price });

/** A one-way account with a position of 0.010 BTCUSDT (BUY: long, SELL: short) taken from the house at the mark. */
function positioned(name: string, side: 'BUY' | 'SELL'): Creds {
  mark(MARK);
  const c = account(svc.venue, name, 100_000, 'one_way');
  const buy = side === 'BUY';
  houseLimit(ex(), buy ? 2 : 1, MARK.toFixed(1), '0.010');
  const order = { symbol: 'BTCUSDT', side: buy ? 1 : 2, position_side: 1, position_action: 1 } as const;
  placeOrder(ex(), c.id, { ...order, type: 2, qty: '0.010' });
  expect(ex().positions(c.id)[0]?.quantity).toBe(0.01);
  return c;
}

/** Places an algo order of `c` on the mark, the venue answering 200. */
async function algo(c: Creds, p: Record<string, string>): Promise<void> {
  const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/algoOrder', {
    algoType: 'CONDITIONAL',
    symbol: 'BTCUSDT',
    workingType: 'MARK_PRICE',
    ...p,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The close types of the closed positions of `c`, newest first. */
const closeTypes = (c: Creds): number[] =>
  svc.venue.trading.closedPositions({ accountId: c.id, limit: 10 }).map((x) => x.closeType);

describe('the close type of an algo order', () => {
  it('a STOP_MARKET sell closing a long is a stop loss (3)', async () => {
    const c = positioned('act-stop-sell', 'BUY');
    await algo(c, { side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: '95000', reduceOnly: 'true' });
    houseLimit(ex(), 1, '94990.0', '0.010');
    mark(95000);
    expect(closeTypes(c)).toEqual([CloseType.STOP_LOSS]);
  });

  it('a TAKE_PROFIT_MARKET sell closing a long (Close-All) is a take profit (2)', async () => {
    const c = positioned('act-tp-sell', 'BUY');
    await algo(c, { side: 'SELL', type: 'TAKE_PROFIT_MARKET', triggerPrice: '97000', closePosition: 'true' });
    houseLimit(ex(), 1, '96990.0', '0.010');
    mark(97000);
    expect(closeTypes(c)).toEqual([CloseType.TAKE_PROFIT]);
  });

  it('a STOP buy closing a short is a stop loss (3), a TAKE_PROFIT buy a take profit (2)', async () => {
    const c = positioned('act-buy-stop', 'SELL');
    await algo(c, {
      side: 'BUY',
      type: 'STOP',
      quantity: '0.010',
      price: '97100',
      triggerPrice: '97000',
      reduceOnly: 'true',
    });
    houseLimit(ex(), 2, '97050.0', '0.010');
    mark(97000);
    expect(closeTypes(c)).toEqual([CloseType.STOP_LOSS]);
    const d = positioned('act-buy-tp', 'SELL');
    await algo(d, {
      side: 'BUY',
      type: 'TAKE_PROFIT',
      quantity: '0.010',
      price: '95100',
      triggerPrice: '95000',
      reduceOnly: 'true',
    });
    houseLimit(ex(), 2, '95050.0', '0.010');
    mark(95000);
    expect(closeTypes(d)).toEqual([CloseType.TAKE_PROFIT]);
  });

  it('a TRAILING_STOP_MARKET is a stop loss (3)', async () => {
    const c = positioned('act-trail', 'BUY');
    await algo(c, {
      side: 'SELL',
      type: 'TRAILING_STOP_MARKET',
      quantity: '0.010',
      callbackRate: '1',
      reduceOnly: 'true',
    });
    mark(98000); // the peak: it fires at 97,020.0
    houseLimit(ex(), 1, '97000.0', '0.010');
    mark(97020);
    expect(closeTypes(c)).toEqual([CloseType.STOP_LOSS]);
  });
});
