// An order's avg_price is filled_quote / filled_qty exactly (half up at 8 decimals, trailing zeros
// past the price's precision left off), not a float rounded to the tick; the Binance dialect's
// avgPrice is the same figure at 8 decimals. A market buy of 0.030 over 0.010 @ 95,000.0 and
// 0.020 @ 95,000.1: 950 + 1,900.002 = 2,850.002 USDT, / 0.030 = 95,000.0666... -> 95000.06666667.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { openingLimit, placeOrder } from '../helpers/exchange-commands.ts';
import { dataOf, makeAccount, orderBody, signed, type Creds } from '../helpers/signed.ts';
import { signedInject } from './binance/raw.ts';

let t: TestApp;
let a: Creds;

beforeAll(async () => {
  t = await makeApp({ simulate: false }, { rateLimit: false });
  a = makeAccount(t.venue, 'average');
  const mm = makeAccount(t.venue, 'averagemm');
  placeOrder(t.venue.exchange, mm.id, openingLimit(2, '95000.0', '0.010'));
  placeOrder(t.venue.exchange, mm.id, openingLimit(2, '95000.1', '0.020'));
  placeOrder(t.venue.exchange, mm.id, openingLimit(2, '95100.0', '0.010'));
});
afterAll(async () => t?.close());

describe('avg_price', () => {
  it('is the exact average of the fills, and the Binance avgPrice says the same', async () => {
    const placed = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ type: 2, price: undefined, qty: '0.030' }),
      }),
    );
    expect(placed.filled_quote).toBe('2850.00200000');
    const order = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: placed.order_id } }),
    );
    expect(order).toMatchObject({ filled_qty: '0.030', filled_quote: '2850.00200000', avg_price: '95000.06666667' });
    const bn = await signedInject(t.app, a, 'GET', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: Number(placed.order_id),
    });
    expect(bn.body.avgPrice, JSON.stringify(bn.body)).toBe('95000.06666667');
  });

  it("at one price it is that price at the pair's precision; before a fill 0.0", async () => {
    const filled = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', {
        json: orderBody({ type: 2, price: undefined, qty: '0.010' }),
      }),
    );
    const order = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: filled.order_id } }),
    );
    expect(order.avg_price).toBe('95100.0');
    const resting = dataOf(
      await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ price: '90000.0' }) }),
    );
    const rec = dataOf(
      await signed(t.app, a, 'GET', '/fapi/v1/order', { query: { symbol: 'BTCUSDT', order_id: resting.order_id } }),
    );
    expect(rec.avg_price).toBe('0.0');
  });
});
