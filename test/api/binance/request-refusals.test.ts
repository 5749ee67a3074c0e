// How the facade refuses a request before any route logic, as Binance words it: a missing or
// malformed X-MBX-APIKEY (one no account could have: not 8 to 128 letters, digits, _ or -) is -2014
// "API-key format invalid.", a well-formed key no account has -2015; a recvWindow that is a whole
// number out of 1..60000 is -1131 with what was sent (0 is not "too large"), one that is no whole
// number -1100; a timestamp ahead of the server has Binance's own -1021 text; a whole number too
// long for an integer parameter is out of range, not malformed; a body that is not a form is not
// read; a wrong method on a served path names the methods that serve it. The key is read before
// the parameters, as Binance's gateway reads it.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedInject } from './raw.ts';
import { injectedWithAccount } from './helpers.ts';

const t = injectedWithAccount('keyrw');

const balance = (apiKey: string, params: Record<string, string> = {}) =>
  signedInject(t.app, { ...t.c, apiKey }, 'GET', '/fapi/v3/balance', params);

describe('API key format', () => {
  it.each([
    ['abc', 'too short'],
    ['a'.repeat(129), 'too long'],
    ['bkey keyrw 0000', 'a space'],
    ['bkey.keyrw.0000', 'a dot'],
    ['bkéy_keyrw_0000', 'a letter outside ASCII'],
  ])('%s (%s) is -2014, HTTP 401', async (key) => {
    const r = await balance(key);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(-2014);
    expect(r.body.msg).toBe('API-key format invalid. An API key is 8 to 128 letters, digits, _ or -.');
  });

  it('X-MBX-APIKEY sent twice (Node joins it: "k, k") is -2014 naming the repeat, not the key rule', async () => {
    for (const key of [`${t.c.apiKey}, ${t.c.apiKey}`, `${t.c.apiKey},nobody_0000`]) {
      const r = await balance(key);
      expect([r.status, r.body]).toEqual([
        401,
        {
          code: -2014,
          msg: 'API-key format invalid. X-MBX-APIKEY came as 2 comma-separated values (a header sent 2 times is read so): send one API key, once.',
        },
      ]);
    }
  });

  it('no key at all is -2014; a well-formed unknown key -2015; listenKey alike', async () => {
    const none = await t.app.inject({
      method: 'GET',
      url: `/binance/fapi/v3/balance?timestamp=${Date.now()}&signature=${'0'.repeat(64)}`,
    });
    expect([none.statusCode, JSON.parse(none.body).code]).toEqual([401, -2014]);
    expect(JSON.parse(none.body).msg).toBe('API-key format invalid. Send your API key in the X-MBX-APIKEY header.');
    const unknown = await balance('nobody_0000');
    expect([unknown.status, unknown.body]).toEqual([
      401,
      { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
    ]);
    const lk = (key: string) =>
      t.app.inject({ method: 'POST', url: '/binance/fapi/v1/listenKey', headers: { 'x-mbx-apikey': key } });
    expect(JSON.parse((await lk('x')).body).code).toBe(-2014);
    expect(JSON.parse((await lk('nobody_0000')).body).code).toBe(-2015);
    expect((await lk(t.c.apiKey)).statusCode).toBe(200);
  });
});

describe('the key before the parameters', () => {
  it('a keyed route without a key, or with an unknown one, says so whatever parameters it lacks or breaks', async () => {
    // a bare GET from a browser or curl: no key, no timestamp
    const bare = await t.app.inject({ method: 'GET', url: '/binance/fapi/v2/account' });
    expect([bare.statusCode, JSON.parse(bare.body).code]).toEqual([401, -2014]);
    // an order with none of its mandatory parameters, and a bad enum, under an unknown key
    const headers = { 'x-mbx-apikey': 'nobody_0000' };
    for (const url of ['/binance/fapi/v1/order', '/binance/fapi/v1/order?symbol=BTCUSDT&side=UP&type=LIMIT']) {
      const r = await t.app.inject({ method: 'POST', url, headers });
      expect([r.statusCode, JSON.parse(r.body).code], url).toEqual([401, -2015]);
    }
    // with the account's key, the parameters are read: the first one missing is named
    const known = await t.app.inject({
      method: 'POST',
      url: '/binance/fapi/v1/order',
      headers: { 'x-mbx-apikey': t.c.apiKey },
    });
    expect(JSON.parse(known.body).code).toBe(-1102);
    // a public route takes no key at all
    const depth = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/depth?symbol=BTCUSDT' });
    expect(depth.statusCode).toBe(200);
  });
});

describe('recvWindow', () => {
  it.each([
    ['0', 'recvWindow must be less than 60000 and above 0. Sent 0;'],
    ['-1', 'recvWindow must be less than 60000 and above 0. Sent -1;'],
    ['-99999999999999999999', 'recvWindow must be less than 60000 and above 0. Sent -99999999999999999999;'],
    ['60001', 'recvWindow must be less than 60000. Sent 60001; it is at most 60000'],
    ['99999999999999999999', 'recvWindow must be less than 60000. Sent 99999999999999999999; it is at most 60000'],
  ])('%s is -1131 naming what was sent', async (rw, text) => {
    const r = await balance(t.c.apiKey, { recvWindow: rw });
    expect([r.status, r.body.code]).toEqual([400, -1131]);
    expect(r.body.msg).toContain(text);
  });

  it.each(['abc', '1.5', '1e3', '0x10'])('%s is no whole number: -1100 with the legal range', async (rw) => {
    const r = await balance(t.c.apiKey, { recvWindow: rw });
    expect(r.body).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'recvWindow'; legal range is '1 to 60000'.",
    });
  });

  it("a timestamp 1000 ms or more ahead of the server's clock has Binance's own -1021 text; an old one the recvWindow text", async () => {
    const at = (timestamp: number) =>
      signedInject(t.app, t.c, 'GET', '/fapi/v3/balance', { timestamp: String(timestamp) });
    expect((await at(Date.now() + 30_000)).body).toEqual({
      code: -1021,
      msg: "Timestamp for this request was 1000ms ahead of the server's time.",
    });
    expect((await at(Date.now() - 30_000)).body).toEqual({
      code: -1021,
      msg: 'Timestamp for this request is outside of the recvWindow.',
    });
  });

  it('1 and 60000 are taken (1 ms is a window a request signed now may miss: -1021, not -1131)', async () => {
    expect((await balance(t.c.apiKey, { recvWindow: '60000' })).status).toBe(200);
    expect([-1021, undefined]).toContain((await balance(t.c.apiKey, { recvWindow: '1' })).body.code);
  });
});

// until 2026-12-07 limit=05 was -1130 'Legal range is '1 to 1000'', though 5 is in it
describe('a whole number with leading zeros', () => {
  it.each([
    ['/fapi/v1/trades', { symbol: 'BTCUSDT', limit: '05' }, "'limit'; legal range is '1 to 1000'"],
    ['/fapi/v1/depth', { symbol: 'BTCUSDT', limit: '005' }, "'limit'; legal range is '5, 10, 20, 50, 100, 500, 1000'"],
    [
      '/fapi/v1/klines',
      { symbol: 'BTCUSDT', interval: '1m', startTime: '0123' },
      "'startTime'; legal range is '0 to 9007199254740991'",
    ],
  ])('%s %j: a number with leading zeros is malformed, -1100, not out of range', async (path, p, named) => {
    const r = await t.app.inject({ url: `/binance${path}?${new URLSearchParams(p)}` });
    expect([r.statusCode, JSON.parse(r.body)]).toEqual([
      400,
      { code: -1100, msg: `Illegal characters found in parameter ${named}.` },
    ]);
  });
});

describe('a whole number too large for any integer', () => {
  it.each([
    [
      '/fapi/v1/depth',
      { symbol: 'BTCUSDT', limit: '99999999999999999999' },
      -1130,
      "Data sent for parameter 'limit' is not valid. Legal range is '5, 10, 20, 50, 100, 500, 1000'.",
    ],
    [
      '/fapi/v1/trades',
      { symbol: 'BTCUSDT', limit: '-99999999999999999999' },
      -1130,
      "Data sent for parameter 'limit' is not valid. Legal range is '1 to 1000'.",
    ],
    [
      '/fapi/v1/klines',
      { symbol: 'BTCUSDT', interval: '1m', startTime: '99999999999999999999' },
      -1130,
      "Data sent for parameter 'startTime' is not valid. Legal range is '0 to 9007199254740991'.",
    ],
  ])('%s %j: %i, out of range rather than malformed', async (path, p, code, msg) => {
    const r = await t.app.inject({ url: `/binance${path}?${new URLSearchParams(p)}` });
    expect([r.statusCode, JSON.parse(r.body)]).toEqual([400, { code, msg }]);
  });

  it('signed: orderId -1130, leverage -4028', async () => {
    const q = await signedInject(t.app, t.c, 'GET', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: '99999999999999999999',
    });
    expect(q.body).toEqual({
      code: -1130,
      msg: "Data sent for parameter 'orderId' is not valid. Legal range is '1 to 9007199254740991'.",
    });
    const l = await signedInject(t.app, t.c, 'POST', '/fapi/v1/leverage', {
      symbol: 'BTCUSDT',
      leverage: '99999999999999999999',
    });
    expect(l.body).toEqual({ code: -4028, msg: 'Leverage 99999999999999999999 is not valid' });
  });
});

describe('a body Binance does not read', () => {
  it('an empty JSON or text body is no body, a non-empty one is not read: the query holds the parameters', async () => {
    const lk = await t.app.inject({
      method: 'POST',
      url: '/binance/fapi/v1/listenKey',
      headers: { 'x-mbx-apikey': t.c.apiKey, 'content-type': 'application/json' },
      payload: '',
    });
    expect(lk.statusCode, lk.body).toBe(200);
    const text = `symbol=BTCUSDT&leverage=7&timestamp=${Date.now()}`;
    const sig = createHmac('sha256', t.c.apiSecret).update(text).digest('hex');
    for (const [type, payload] of [
      ['application/json', '{"leverage":"9"}'],
      ['application/json', '{not json'],
      ['text/plain', 'leverage=9'],
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: `/binance/fapi/v1/leverage?${text}&signature=${sig}`,
        headers: { 'x-mbx-apikey': t.c.apiKey, 'content-type': type },
        payload,
      });
      expect([r.statusCode, JSON.parse(r.body).leverage], `${type} ${payload}: ${r.body}`).toEqual([200, 7]);
    }
  });

  it('parameters sent as JSON are missing, and the refusal says where they go; a form body or the query gets no such hint', async () => {
    const headers = { 'x-mbx-apikey': t.c.apiKey, 'content-type': 'application/json' };
    const json = await t.app.inject({
      method: 'POST',
      url: '/binance/fapi/v1/leverage',
      headers,
      payload: JSON.stringify({ symbol: 'BTCUSDT', leverage: 7, timestamp: Date.now() }),
    });
    expect([json.statusCode, JSON.parse(json.body).code]).toEqual([400, -1102]);
    expect(JSON.parse(json.body).msg).toMatch(
      /^Mandatory parameter '\w+' was not sent.* The request body was not read: as on Binance, parameters go in the query string or an application\/x-www-form-urlencoded body, not JSON\.$/,
    );
    const form = await t.app.inject({
      method: 'POST',
      url: '/binance/fapi/v1/leverage',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'symbol=BTCUSDT',
    });
    expect(JSON.parse(form.body).code).toBe(-1102);
    expect(JSON.parse(form.body).msg).not.toMatch(/body was not read/);
  });
});

describe('unknown paths and wrong methods', () => {
  it('a served path asked with another method names the methods it is served with; an unknown path is -5000 alone', async () => {
    const wrong = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/leverage?symbol=BTCUSDT' });
    expect([wrong.statusCode, JSON.parse(wrong.body)]).toEqual([
      404,
      {
        code: -5000,
        msg: 'Path GET /binance/fapi/v1/leverage is not served by this Binance-compatible API. It is served as POST.',
      },
    ]);
    const order = await t.app.inject({ method: 'PATCH', url: '/binance/fapi/v1/order' });
    expect(JSON.parse(order.body).msg).toBe(
      'Path PATCH /binance/fapi/v1/order is not served by this Binance-compatible API. It is served as GET, POST, PUT, DELETE.',
    );
    const none = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/nothing' });
    expect([none.statusCode, JSON.parse(none.body)]).toEqual([
      404,
      { code: -5000, msg: 'Path GET /binance/fapi/v1/nothing is not served by this Binance-compatible API.' },
    ]);
  });
});
