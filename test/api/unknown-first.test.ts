// An unknown parameter is named before a missing or invalid one (docs/api-input-rules.md): a bot
// that sent a name the route does not take learns that, not what the route missed. Until
// 2026-12-07 `DELETE /fapi/v1/bot/order?symbol=BTCUSDT&client_order_id=x` answered 1002 "Missing
// required query parameter 'order_id'" (the validator stops at its first error, and it checks
// `required` first), never naming the client_order_id the route does not take.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError, orderBody, plain } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
});
afterAll(() => t.close());

describe('an unknown parameter comes first', () => {
  it('beside a missing query parameter: 1003 naming the unknown one', async () => {
    const r = await plain(t.app, 'DELETE', '/fapi/v1/bot/order?symbol=BTCUSDT&client_order_id=x');
    expectError(r, Errors.UNKNOWN_PARAMETER);
    expect(r.body.message).toBe("Unknown query parameter 'client_order_id'");
  });

  it('beside an invalid query parameter, and beside a missing body field', async () => {
    const q = await plain(t.app, 'DELETE', '/fapi/v1/bot/order?symbol=BTCUSDT&order_id=abc&foo=1');
    expectError(q, Errors.UNKNOWN_PARAMETER);
    expect(q.body.message).toBe("Unknown query parameter 'foo'");
    const b = await plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: orderBody({ qty: undefined, colour: 'red' }) });
    expectError(b, Errors.UNKNOWN_PARAMETER);
    expect(b.body.message).toBe("Unknown body parameter 'colour'");
  });

  it('with nothing unknown the missing or invalid one is named as before', async () => {
    const m = await plain(t.app, 'DELETE', '/fapi/v1/bot/order?symbol=BTCUSDT');
    expectError(m, Errors.MISSING_PARAMETER);
    expect(m.body.message).toBe("Missing required query parameter 'order_id'");
    const b = await plain(t.app, 'POST', '/fapi/v1/bot/orders', { json: orderBody({ qty: undefined }) });
    expectError(b, Errors.MISSING_PARAMETER);
    expect(b.body.message).toBe("Missing required body parameter 'qty'");
  });
});

describe('on the candlestick routes (their own form, HTTP 200)', () => {
  it('an unknown parameter beside a missing interval is 6000 naming it', async () => {
    const r = await plain(t.app, 'GET', '/fapi/v1/klines?symbol=BTCUSDT&intervall=1m');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: Errors.KLINES_INVALID_PARAMETER.code, message: "Unknown parameter 'intervall'" });
    const b = await plain(t.app, 'GET', '/fapi/v1/klines/batch?symbols=BTCUSDT&interval=1m&limit=0&foo=1');
    expect(b.body).toEqual({ code: Errors.KLINES_INVALID_PARAMETER.code, message: "Unknown parameter 'foo'" });
  });
});
