// A parameter sent twice and a parameter sent empty, over raw HTTP: a name in both the query and
// the form body takes the query's value (Binance: "If a parameter sent in both the query string
// and request body, the query string parameter will be used"); a name twice in the query or twice
// in the body is refused alike (-1101), never resolved to one of its values; an empty value is
// -1102 "was not sent, was empty/null, or malformed", as an absent one is.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { injectedWithAccount } from './helpers.ts';

const t = injectedWithAccount('dupempty');

const sign = (text: string) => createHmac('sha256', t.c.apiSecret).update(text).digest('hex');

/** A POST signed over query + body (Binance's totalParams), the signature last in the body (or the query). */
async function send(method: 'GET' | 'POST', path: string, query: string, body: string) {
  const ts = `timestamp=${Date.now()}`;
  const q = query === '' ? (body === '' ? ts : '') : `${query}&${ts}`;
  const b = body === '' ? '' : q === '' ? `${body}&${ts}` : body;
  const sig = sign(q + b);
  const r = await t.app.inject({
    method,
    url: `/binance${path}?${b === '' ? `${q}&signature=${sig}` : q}`,
    headers: {
      'x-mbx-apikey': t.c.apiKey,
      ...(b === '' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    payload: b === '' ? undefined : `${b}&signature=${sig}`,
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&price=70000&timeInForce=GTC&newOrderRespType=RESULT';
const DUP = (name: string) => ({
  code: -1101,
  msg: `Duplicate values for a parameter detected. Parameter '${name}' was sent more than once; send it once.`,
});

describe('a parameter sent twice', () => {
  it('in the query and the body: the query value is used (the body one ignored)', async () => {
    const r = await send('POST', '/fapi/v1/order', `${ORDER}&quantity=0.010`, 'quantity=0.020');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.origQty).toBe('0.010');
    const open = t.venue.exchange.openOrders(t.c.id, 'BTCUSDT').find((o) => Number(o.id) === r.body.orderId)!;
    expect(open.qty).toBe('0.010');
  });

  it('twice in the body: refused -1101, nothing placed', async () => {
    const before = t.venue.exchange.openOrders(t.c.id).length;
    const r = await send('POST', '/fapi/v1/order', '', `${ORDER}&quantity=0.010&quantity=0.030`);
    expect(r).toEqual({ status: 400, body: DUP('quantity') });
    expect(t.venue.exchange.openOrders(t.c.id)).toHaveLength(before);
  });

  it('twice in the query: the same refusal', async () => {
    const before = t.venue.exchange.openOrders(t.c.id).length;
    const r = await send('POST', '/fapi/v1/order', `${ORDER}&quantity=0.010&quantity=0.030`, '');
    expect(r).toEqual({ status: 400, body: DUP('quantity') });
    expect(t.venue.exchange.openOrders(t.c.id)).toHaveLength(before);
    // a GET too, and a name the route does not read
    const g = await send('GET', '/fapi/v1/openOrders', 'symbol=BTCUSDT&symbol=ETHUSDT', '');
    expect(g).toEqual({ status: 400, body: DUP('symbol') });
    const body = await send('POST', '/fapi/v1/order', '', `${ORDER}&quantity=0.010&foo=1&foo=2`);
    expect(body).toEqual({ status: 400, body: DUP('foo') });
  });
});

describe('a parameter sent empty', () => {
  const empty = (name: string, range: string) => ({
    code: -1102,
    msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed; legal range is '${range}'.`,
  });

  it('quantity=, symbol=, side=, leverage=: -1102 as when absent', async () => {
    const q = await send('POST', '/fapi/v1/order', '', `${ORDER}&quantity=`);
    expect(q).toEqual({ status: 400, body: empty('quantity', '^([0-9]{1,20})(\\.[0-9]{1,20})?$') });
    const s = await send('POST', '/fapi/v1/order', '', `${ORDER.replace('BTCUSDT', '')}&quantity=0.010`);
    expect(s).toEqual({ status: 400, body: empty('symbol', '^[A-Za-z0-9_.-]{1,20}$') });
    const side = await send('POST', '/fapi/v1/order', '', `${ORDER.replace('BUY', '')}&quantity=0.010`);
    expect(side).toEqual({ status: 400, body: empty('side', 'BUY, SELL') });
    const l = await send('POST', '/fapi/v1/leverage', '', 'symbol=BTCUSDT&leverage=');
    expect(l).toEqual({ status: 400, body: empty('leverage', '1 to 125') });
  });

  it('an optional one on a public route too (ticker/24hr?symbol=)', async () => {
    const r = await t.app.inject({ url: '/binance/fapi/v1/ticker/24hr?symbol=' });
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body)).toEqual(empty('symbol', '^[A-Za-z0-9_.-]{1,20}$'));
  });
});
