// Every parameter refusal under /binance names what the parameter takes, as Binance's own
// messages do ("Illegal characters found in parameter 'quantity'; legal range is '^(...)$'."):
// the pattern of a text, the values of an enumeration, the bounds of an integer, never a
// placeholder. Worked cases by hand, then every documented parameter of every /binance
// operation, sent a value of the wrong characters, against its range in /openapi.json.
import { describe, expect, it } from 'vitest';
import { injectedWithAccount, placeLimitBuy } from './helpers.ts';
import { signedInject } from './raw.ts';

const t = injectedWithAccount('legal');

const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/binance${url}` });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};
const order = (p: Record<string, string>) => placeLimitBuy(t, p);
const DECIMAL = '^([0-9]{1,20})(\\.[0-9]{1,20})?$';

describe('-1100 / -1102 / -1111 / -4014 name the rule', () => {
  it.each([
    [
      '/fapi/v1/trades?symbol=BTCUSDT&limit=abc',
      "Illegal characters found in parameter 'limit'; legal range is '1 to 1000'.",
    ],
    [
      '/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1.5',
      "Illegal characters found in parameter 'limit'; legal range is '1 to 1500'.",
    ],
    [
      '/fapi/v1/depth?symbol=BTCUSDT&limit=abc',
      "Illegal characters found in parameter 'limit'; legal range is '5, 10, 20, 50, 100, 500, 1000'.",
    ],
    [
      '/fapi/v1/depth?symbol=BTC%20USDT',
      "Illegal characters found in parameter 'symbol'; legal range is '^[A-Za-z0-9_.-]{1,20}$'.",
    ],
    [
      '/fapi/v1/aggTrades?symbol=BTCUSDT&fromId=-1',
      "Data sent for parameter 'fromId' is not valid. Legal range is '0 to 9007199254740991'.",
    ],
  ])('GET %s', async (url, msg) => {
    const r = await get(url);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(msg);
    expect(r.body.msg).not.toContain('see the API documentation');
  });

  it('a missing mandatory parameter (-1102) names what it takes', async () => {
    const r = await get('/fapi/v1/depth');
    expect(r.body).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed; legal range is '^[A-Za-z0-9_.-]{1,20}$'.",
    });
  });

  it('signed parameters: timestamp, quantity, newClientOrderId', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: '/binance/fapi/v1/openOrders?timestamp=12ab&signature=00',
      headers: { 'x-mbx-apikey': t.c.apiKey },
    });
    expect(JSON.parse(bad.body)).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'timestamp'; legal range is '0 to 999999999999999'.",
    });
    expect((await order({ quantity: '1e3' })).body.msg).toBe(
      `Illegal characters found in parameter 'quantity'; legal range is '${DECIMAL}'.`,
    );
    expect((await order({ newClientOrderId: 'a b' })).body.msg).toBe(
      "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[.A-Z:/a-z0-9_-]{1,36}$'.",
    );
  });

  it('a quantity off the step (-1111) and a price off the tick (-4014) name the step and the tick', async () => {
    const q = (await order({ quantity: '0.0105' })).body;
    expect(q.code).toBe(-1111);
    expect(q.msg).toBe(
      'Precision is over the maximum defined for this asset. quantity 0.0105 is not a multiple of the step 0.001',
    );
    const p = (await order({ price: '90000.05' })).body;
    expect(p.code).toBe(-4014);
    expect(p.msg).toBe('Price not increased by tick size. price 90000.05 is not a multiple of the tick 0.1');
  });

  it('inside a batch, each entry names the rule too', async () => {
    const r = await signedInject(t.app, t.c, 'POST', '/fapi/v1/batchOrders', {
      batchOrders: JSON.stringify([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 'x1', price: '90000' },
      ]),
    });
    expect(r.body[0].code).toBe(-1100);
    expect(r.body[0].msg).toBe(`Illegal characters found in parameter 'quantity'; legal range is '${DECIMAL}'.`);
  });
});

interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: { type?: string; pattern?: string; minimum?: number; maximum?: number; enum?: unknown[] };
}

/** A value the parameter takes (to fill the required ones). */
function valid(p: Param): string {
  const s = p.schema;
  if (s.enum) return String(s.enum[0]);
  if (s.type === 'integer') return String(s.minimum ?? 1);
  if (p.name === 'symbol' || p.name === 'pair') return 'BTCUSDT';
  if (s.pattern === DECIMAL) return '1';
  return 'a1';
}

/** The range the documentation gives the parameter. */
function documented(p: Param): string {
  const s = p.schema;
  if (s.pattern !== undefined) return s.pattern;
  if (s.enum !== undefined) return s.enum.join(', ');
  return `${s.minimum} to ${s.maximum}`;
}

describe('every documented /binance parameter', () => {
  it('refused for its characters, names the range /openapi.json documents', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
    let checked = 0;
    for (const [path, methods] of Object.entries<Record<string, { parameters?: Param[] }>>(doc.paths)) {
      if (!path.startsWith('/binance/')) continue;
      for (const [method, op] of Object.entries(methods)) {
        const params = (op.parameters ?? []).filter((p) => p.in === 'query');
        for (const p of params) {
          // a value of characters no pattern, integer or enumeration of the facade takes
          if (p.schema.pattern === undefined && p.schema.type !== 'integer') continue;
          const q = new URLSearchParams();
          for (const o of params) if (o.required && o.name !== p.name) q.set(o.name, valid(o));
          q.set(p.name, '#!');
          const r = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url: `${path}?${q}`,
            headers: { 'x-mbx-apikey': t.c.apiKey },
          });
          const where = `${method.toUpperCase()} ${path} ${p.name}`;
          expect(r.statusCode, where).toBe(400);
          expect(JSON.parse(r.body), where).toEqual({
            code: -1100,
            msg: `Illegal characters found in parameter '${p.name}'; legal range is '${documented(p)}'.`,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });
});
