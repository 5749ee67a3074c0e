// A reduce-only order larger than its position is trimmed to the position on entry; POST order's
// answer says so (origQty), as GET order and the user stream do, in both position modes and for
// both answer types.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalVenue as Venue } from '../../../src-main/venue.ts';
import { placeOrder } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { ladder, midOf } from './book.ts';
import { account, injectService, type Injected } from './helpers.ts';
import { signedInject } from './raw.ts';

let svc: Injected;
let venue: Venue;
let app: FastifyInstance;
let mid: number;

beforeAll(async () => {
  svc = await injectService();
  venue = svc.venue;
  app = svc.app;
  venue.clock.pause();
  ladder(venue, 'trimmm', '1.000');
  mid = midOf(venue);
});
afterAll(async () => svc?.close());

/** A BTCUSDT short of 0.002 opened natively at market. */
function short(c: Creds, hedge: boolean): void {
  placeOrder(venue.exchange, c.id, {
    symbol: 'BTCUSDT',
    side: 2,
    position_side: hedge ? 2 : 1,
    position_action: 1,
    type: 2,
    qty: '0.002',
  });
}

async function post(c: Creds, params: Record<string, string>) {
  const r = await signedInject(app, c, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', ...params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function query(c: Creds, orderId: number) {
  const r = await signedInject(app, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId });
  expect(r.status).toBe(200);
  return r.body;
}

describe('a reduce-only order trimmed to its position answers the trimmed origQty', () => {
  const cases: Array<[string, 'one_way' | undefined, Record<string, string>]> = [
    ['one-way, reduceOnly=true', 'one_way', { reduceOnly: 'true' }],
    ['hedge, positionSide=SHORT', undefined, { positionSide: 'SHORT' }],
  ];

  it.each(cases)('%s: a market buy of 0.004 against a short of 0.002 (RESULT)', async (name, mode, close) => {
    const c = account(venue, `trm${name.length}${mode ?? 'h'}`, 100_000, mode);
    short(c, mode === undefined);
    const a = await post(c, { type: 'MARKET', quantity: '0.004', newOrderRespType: 'RESULT', ...close });
    expect(a).toMatchObject({ status: 'FILLED', origQty: '0.002', executedQty: '0.002', cumQty: '0.002' });
    expect(await query(c, a.orderId)).toMatchObject({ status: 'FILLED', origQty: '0.002', executedQty: '0.002' });
  });

  it.each(cases)(
    '%s: a resting limit buy of 0.004 against a short of 0.002 (ACK and RESULT)',
    async (name, mode, close) => {
      const c = account(venue, `trl${name.length}${mode ?? 'h'}`, 100_000, mode);
      short(c, mode === undefined);
      for (const respType of ['ACK', 'RESULT']) {
        const a = await post(c, {
          type: 'LIMIT',
          timeInForce: 'GTC',
          price: (mid - 50).toFixed(1),
          quantity: '0.004',
          newOrderRespType: respType,
          ...close,
        });
        // nothing filled: "0" in an ACK answer, the pair's decimals in a RESULT one (Binance's)
        expect(a).toMatchObject({ status: 'NEW', origQty: '0.002', executedQty: respType === 'ACK' ? '0' : '0.000' });
        expect(await query(c, a.orderId)).toMatchObject({ status: 'NEW', origQty: '0.002' });
      }
    },
  );

  it('an order the position does not trim answers the quantity sent', async () => {
    const c = account(venue, 'trmfull', 100_000, 'one_way');
    short(c, false);
    const a = await post(c, { type: 'MARKET', quantity: '0.001', reduceOnly: 'true', newOrderRespType: 'RESULT' });
    expect(a).toMatchObject({ status: 'FILLED', origQty: '0.001', executedQty: '0.001' });
  });
});
