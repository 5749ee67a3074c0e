// Signed requests, bot whitelist and loopback-only routes, on the real app with small
// test-only routes and an injected wall clock.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { AccountCache, signedQuerystring } from '../../src-main/api/auth.ts';
import { ok } from '../../src-main/api/envelope.ts';
import type { Venue } from '../../src-main/services/venue.ts';
import { openVenue } from '../../src-main/venue.ts';
import { Errors, type ErrorDef } from '../../src-shared/errors.ts';
import { buildSignedQuery, serializeQuery } from '../../src-shared/sign.ts';

const T0 = 1_700_000_000_000;
const KEY = 'testkey_0001';
const SECRET = 'testsecret_0001_abcdef';
const OTHER_KEY = 'otherkey_0002';
const OTHER_SECRET = 'othersecret_0002';
const REF_SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';

let clock = T0;
let app: FastifyInstance;
let venue: Venue;
let userId: number;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  userId = venue.accounts.upsert({ apiKey: KEY, apiSecret: SECRET, kind: 'user', balance: 1n }, T0).id;
  venue.accounts.upsert({ apiKey: OTHER_KEY, apiSecret: OTHER_SECRET, kind: 'user', balance: 1n }, T0);
  venue.accounts.upsert({ apiKey: 'refkey_0003', apiSecret: REF_SECRET, kind: 'user', balance: 1n }, T0);
  app = await buildApp({ venue, now: () => clock, rateLimit: false });
  app.get(
    '/fapi/v1/test/signed',
    {
      config: { auth: 'signed' },
      schema: { querystring: signedQuerystring({ symbol: { type: 'string' }, n: { type: 'integer' } }) },
    },
    async (req) => ok({ user_id: req.account?.id ?? null, query: req.query }),
  );
  app.post<{ Body: { x: number } }>(
    '/fapi/v1/test/signed',
    {
      config: { auth: 'signed' },
      schema: {
        querystring: signedQuerystring(),
        body: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'integer' } } },
      },
    },
    async (req) => ok({ user_id: req.account?.id ?? null, x: req.body.x }),
  );
  // The reference vector's query (camelCase names, as in reference/exchange.md).
  app.get(
    '/fapi/v1/test/reference',
    {
      config: { auth: 'signed' },
      schema: {
        querystring: signedQuerystring({
          symbol: { type: 'string' },
          side: { type: 'string' },
          type: { type: 'string' },
          quantity: { type: 'string' },
          price: { type: 'string' },
          timeInForce: { type: 'string' },
          recvWindow: { type: 'integer' },
        }),
      },
    },
    async (req) => ok({ user_id: req.account?.id ?? null }),
  );
  app.get('/fapi/v1/test/public', async (req) => ok({ account: req.account }));
  app.get('/fapi/v1/test/bot', { config: { auth: 'bot' } }, async (req) => ok({ ip: req.ip, account: req.account }));
  app.get('/test/loopback', { config: { auth: 'loopback' } }, async () => ok('yes'));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  venue.close();
});

beforeEach(() => {
  clock = T0;
});

interface Answer {
  status: number;
  body: { code: number; message: string; data: any };
}

async function call(
  url: string,
  opts: {
    method?: 'GET' | 'POST';
    key?: string | null;
    body?: string;
    remoteAddress?: string;
    contentType?: string;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? KEY : opts.key;
  if (key !== null) headers['x-api-key'] = key;
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const r = await app.inject({
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    url,
    headers,
    payload: opts.body,
    remoteAddress: opts.remoteAddress,
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

function expectError(r: Answer, def: ErrorDef, mention?: RegExp): void {
  expect(r.status).toBe(def.http);
  expect(r.body.code).toBe(def.code);
  expect(r.body.data).toBeNull();
  if (mention) expect(r.body.message).toMatch(mention);
}

const signedUrl = (params: Record<string, string | number | undefined>, secret = SECRET, body?: string): string =>
  '/fapi/v1/test/signed?' + buildSignedQuery(params, secret, body);

describe('signed requests: accepted', () => {
  it('accepts a GET signed with buildSignedQuery and sets request.account', async () => {
    const r = await call(signedUrl({ symbol: 'BTCUSDT', n: 3, timestamp: T0 }));
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data.user_id).toBe(userId);
    expect(r.body.data.query).toMatchObject({ symbol: 'BTCUSDT', n: 3, timestamp: T0 });
  });

  it('accepts a signature as the only non-timestamp parameter', async () => {
    const r = await call(signedUrl({ timestamp: T0 }));
    expect(r.body.code).toBe(0);
  });

  it('accepts a POST whose signature covers query plus raw body', async () => {
    const body = '{"x": 7}';
    const r = await call(signedUrl({ timestamp: T0 }, SECRET, body), { body });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ user_id: userId, x: 7 });
  });

  it('accepts a JSON body sent with a charset parameter', async () => {
    const body = '{"x":1}';
    const r = await call(signedUrl({ timestamp: T0 }, SECRET, body), {
      body,
      contentType: 'application/json; charset=utf-8',
    });
    expect(r.body.code).toBe(0);
  });

  it('verifies the signing vector of reference/exchange.md', async () => {
    clock = 1591702613943;
    const q =
      'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943';
    const url = `/fapi/v1/test/reference?${q}&signature=3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9`;
    const r = await call(url, { key: 'refkey_0003' });
    expect(r.body.code).toBe(0);
  });

  it('signs percent-encoded values as sent, not decoded', async () => {
    const q = serializeQuery({ symbol: 'BTC USDT/x', timestamp: T0 });
    expect(q).toContain('%20');
    const sig = createHmac('sha256', SECRET).update(q).digest('hex');
    const r = await call(`/fapi/v1/test/signed?${q}&signature=${sig}`);
    expect(r.body.code).toBe(0);
    expect(r.body.data.query.symbol).toBe('BTC USDT/x');
    // The same signature over the decoded text does not pass.
    const decoded = 'symbol=BTC USDT/x&timestamp=' + T0;
    const bad = createHmac('sha256', SECRET).update(decoded).digest('hex');
    expectError(await call(`/fapi/v1/test/signed?${q}&signature=${bad}`), Errors.SIGNATURE_INVALID);
  });

  it('leaves request.account null on public routes', async () => {
    const r = await call('/fapi/v1/test/public');
    expect(r.body.data).toEqual({ account: null });
  });
});

describe('signed requests: each failure has its own code', () => {
  it('2001 without X-API-KEY', async () => {
    expectError(await call(signedUrl({ timestamp: T0 }), { key: null }), Errors.API_KEY_MISSING, /X-API-KEY/);
    expectError(await call(signedUrl({ timestamp: T0 }), { key: '' }), Errors.API_KEY_MISSING, /X-API-KEY/);
  });

  it('2002 for an unknown key', async () => {
    expectError(
      await call(signedUrl({ timestamp: T0 }), { key: 'nobody_here' }),
      Errors.API_KEY_UNKNOWN,
      /Unknown API key/,
    );
  });

  it('2001 for X-API-KEY sent twice, naming the repeat (it was 2002 "Unknown API key")', async () => {
    // over a real socket: Node joins a repeated header into one value, 'KEY, KEY'
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const twice = async (headers: string[]): Promise<Answer> =>
      new Promise((resolve, reject) => {
        const all = ['Host', `127.0.0.1:${port}`, ...headers];
        const rq = request({ host: '127.0.0.1', port, path: signedUrl({ timestamp: T0 }), headers: all }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        rq.on('error', reject);
        rq.end();
      });
    const same = await twice(['X-API-KEY', KEY, 'X-API-KEY', KEY]);
    expectError(same, Errors.API_KEY_MISSING);
    expect(same.body.message).toBe(
      'X-API-KEY came as 2 comma-separated values (a header sent 2 times is read so): send one API key, once',
    );
    expectError(await twice(['X-API-KEY', KEY, 'X-API-KEY', OTHER_KEY]), Errors.API_KEY_MISSING, /send one API key/);
    // one header whose value holds a comma (what a client that appends the header twice sends)
    expectError(
      await call(signedUrl({ timestamp: T0 }), { key: `${KEY},${KEY},x` }),
      Errors.API_KEY_MISSING,
      /3 comma/,
    );
  });

  it('2003 without a signature', async () => {
    expectError(await call(`/fapi/v1/test/signed?timestamp=${T0}`), Errors.SIGNATURE_MISSING, /signature/);
    expectError(await call('/fapi/v1/test/signed'), Errors.SIGNATURE_MISSING, /signature/);
    expectError(await call(`/fapi/v1/test/signed?timestamp=${T0}&signature=`), Errors.SIGNATURE_MISSING, /empty/);
    expectError(await call(`/fapi/v1/test/signed?timestamp=${T0}&signature`), Errors.SIGNATURE_MISSING, /empty/);
  });

  it('2009 when signature is not the last parameter', async () => {
    const q = `timestamp=${T0}`;
    const sig = createHmac('sha256', SECRET).update(q).digest('hex');
    expectError(await call(`/fapi/v1/test/signed?signature=${sig}&${q}`), Errors.SIGNATURE_NOT_LAST, /last/);
    expectError(await call(`/fapi/v1/test/signed?${q}&signature=${sig}&symbol=X`), Errors.SIGNATURE_NOT_LAST, /last/);
    // Given twice, even when one is last.
    expectError(
      await call(`/fapi/v1/test/signed?${q}&signature=${sig}&signature=${sig}`),
      Errors.SIGNATURE_NOT_LAST,
      /once/,
    );
  });

  it('2005 for a missing or malformed timestamp', async () => {
    expectError(await call(signedUrl({ symbol: 'X' })), Errors.TIMESTAMP_MISSING, /Missing timestamp/);
    for (const bad of ['abc', '1.5', '-1', '', '1e12', '12345678901234567', '+1', `0${T0}`, '00']) {
      expectError(await call(signedUrl({ timestamp: bad })), Errors.TIMESTAMP_MISSING, /Malformed timestamp/);
    }
    const twice = `timestamp=${T0}&timestamp=${T0}`;
    const sig = createHmac('sha256', SECRET).update(twice).digest('hex');
    expectError(await call(`/fapi/v1/test/signed?${twice}&signature=${sig}`), Errors.TIMESTAMP_MISSING, /twice/);
  });

  it.each(['0', '60001', '1.5', 'abc', '-5', '', '5e3', '+5000', '05000', '00'])(
    '2008 for recv_window=%s',
    async (rw) => {
      expectError(await call(signedUrl({ timestamp: T0, recv_window: rw })), Errors.RECV_WINDOW_INVALID, /recv_window/);
    },
  );

  it('accepts recv_window 1 and 60000', async () => {
    expect((await call(signedUrl({ timestamp: T0, recv_window: 1 }))).body.code).toBe(0);
    expect((await call(signedUrl({ timestamp: T0 - 60_000, recv_window: 60000 }))).body.code).toBe(0);
  });

  it('2007 for a timestamp 1000 ms or more ahead; 999 ms ahead passes', async () => {
    expect((await call(signedUrl({ timestamp: T0 + 999 }))).body.code).toBe(0);
    const r = await call(signedUrl({ timestamp: T0 + 1000 }));
    expectError(r, Errors.TIMESTAMP_IN_FUTURE, /1000 ms ahead/);
    expect(r.body.message).toContain(String(T0));
  });

  it('2006 past the window: now - timestamp = recv_window passes, one more ms fails', async () => {
    expect((await call(signedUrl({ timestamp: T0 - 5000 }))).body.code).toBe(0);
    expectError(
      await call(signedUrl({ timestamp: T0 - 5001 })),
      Errors.TIMESTAMP_STALE,
      /5001 ms behind.*recv_window 5000/,
    );
    expect((await call(signedUrl({ timestamp: T0 - 20_000, recv_window: 20000 }))).body.code).toBe(0);
    expectError(
      await call(signedUrl({ timestamp: T0 - 20_001, recv_window: 20000 })),
      Errors.TIMESTAMP_STALE,
      /recv_window 20000/,
    );
  });

  it('2006 for a timestamp in seconds says that timestamp is in milliseconds', async () => {
    const r = await call(signedUrl({ timestamp: Math.floor(T0 / 1000) }));
    expectError(r, Errors.TIMESTAMP_STALE, /ms behind server time/);
    expect(r.body.message).toMatch(/timestamp is in milliseconds; this one looks like seconds/);
    // a merely stale timestamp in ms gets no such hint
    expect((await call(signedUrl({ timestamp: T0 - 5001 }))).body.message).not.toMatch(/seconds/);
    // nor does one that is no clock reading in any unit (a counter, a typo), nor seconds a week off
    for (const timestamp of [1, 123456, Math.floor(T0 / 1000) - 7 * 86_400]) {
      const other = await call(signedUrl({ timestamp }));
      expectError(other, Errors.TIMESTAMP_STALE, /ms behind server time/);
      expect(other.body.message).not.toMatch(/seconds/);
    }
  });

  it('follows the injected clock', async () => {
    const url = signedUrl({ timestamp: T0 });
    expect((await call(url)).body.code).toBe(0);
    clock = T0 + 5001;
    expectError(await call(url), Errors.TIMESTAMP_STALE);
    clock = T0 - 1000;
    expectError(await call(url), Errors.TIMESTAMP_IN_FUTURE);
  });

  it('2004 for a signature made with another secret', async () => {
    expectError(await call(signedUrl({ timestamp: T0 }, OTHER_SECRET)), Errors.SIGNATURE_INVALID, /HMAC-SHA256/);
  });

  it('2004 when a signed parameter is changed', async () => {
    const url = signedUrl({ symbol: 'BTCUSDT', timestamp: T0 }).replace('BTCUSDT', 'ETHUSDT');
    expectError(await call(url), Errors.SIGNATURE_INVALID);
  });

  it('2004 when the body is changed after signing, or dropped', async () => {
    const url = signedUrl({ timestamp: T0 }, SECRET, '{"x":1}');
    expect((await call(url, { body: '{"x":1}' })).body.code).toBe(0);
    expectError(await call(url, { body: '{"x":2}' }), Errors.SIGNATURE_INVALID, /7-byte raw body/);
    expectError(await call(url, { body: '{"x": 1}' }), Errors.SIGNATURE_INVALID);
    expectError(await call(url, { method: 'POST' }), Errors.SIGNATURE_INVALID, /no body/);
  });

  it('2004 when a body is sent that the signature did not cover', async () => {
    const url = signedUrl({ timestamp: T0 });
    expectError(await call(url, { body: '{"x":1}' }), Errors.SIGNATURE_INVALID);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(65)],
    ['non-hex of the right length', 'z'.repeat(64)],
    ['non-ASCII', '%C3%A9'.repeat(10)],
  ])('2004, not a crash, for a %s signature', async (_name, sig) => {
    expectError(await call(`/fapi/v1/test/signed?timestamp=${T0}&signature=${sig}`), Errors.SIGNATURE_INVALID);
  });

  it('2004 for the right signature in upper case (lowercase hex only)', async () => {
    const url = signedUrl({ timestamp: T0 });
    const i = url.indexOf('signature=') + 10;
    expectError(await call(url.slice(0, i) + url.slice(i).toUpperCase()), Errors.SIGNATURE_INVALID);
  });

  it('checks the signature before the query schema: unsigned bad input hears about auth', async () => {
    expectError(await call('/fapi/v1/test/signed?n=notanumber', { key: null }), Errors.API_KEY_MISSING);
    // Once signed, the schema speaks: unknown and malformed parameters.
    expectError(await call(signedUrl({ n: 'x', timestamp: T0 })), Errors.INVALID_PARAMETER, /'n'/);
    expectError(await call(signedUrl({ bogus: 1, timestamp: T0 })), Errors.UNKNOWN_PARAMETER, /'bogus'/);
  });

  it('answers 1004 for malformed JSON on a signed route, saying where it breaks', async () => {
    const body = '{"x":';
    expectError(
      await call(signedUrl({ timestamp: T0 }, SECRET, body), { body }),
      Errors.INVALID_JSON,
      /^Body is not valid JSON: .*JSON/,
    );
  });

  it('answers 1004 for a __proto__ key, saying the JSON itself is valid', async () => {
    const body = '{"__proto__":{"admin":true}}';
    expectError(
      await call(signedUrl({ timestamp: T0 }, SECRET, body), { body }),
      Errors.INVALID_JSON,
      /valid JSON but holds a __proto__/,
    );
  });

  it('validates the body schema after a good signature', async () => {
    const body = '{"x":"seven"}';
    expectError(await call(signedUrl({ timestamp: T0 }, SECRET, body), { body }), Errors.INVALID_PARAMETER, /'x'/);
  });

  it('every auth failure is an envelope with a distinct code', async () => {
    const failures: Array<[string, Promise<Answer>]> = [
      ['no key', call(signedUrl({ timestamp: T0 }), { key: null })],
      ['unknown key', call(signedUrl({ timestamp: T0 }), { key: 'nobody_00001' })],
      ['no signature', call(`/fapi/v1/test/signed?timestamp=${T0}`)],
      ['bad signature', call(signedUrl({ timestamp: T0 }, 'not_the_secret_01'))],
      ['no timestamp', call(signedUrl({}))],
      ['stale', call(signedUrl({ timestamp: T0 - 10_000 }))],
      ['future', call(signedUrl({ timestamp: T0 + 5_000 }))],
      ['bad recv_window', call(signedUrl({ timestamp: T0, recv_window: 0 }))],
      ['signature not last', call(signedUrl({ timestamp: T0 }) + '&n=1')],
    ];
    const answers = await Promise.all(failures.map(([, a]) => a));
    for (const a of answers) {
      expect(a.body.data).toBeNull();
      expect(a.body.message.length).toBeGreaterThan(10);
    }
    expect(answers.map((a) => a.body.code)).toEqual([2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009]);
  });
});

describe('account cache', () => {
  it('sees a new account at once and a new secret after invalidation', async () => {
    const key = 'fresh_key_0009';
    expectError(await call(signedUrl({ timestamp: T0 }, 'fresh_secret_1'), { key }), Errors.API_KEY_UNKNOWN);
    venue.accounts.upsert({ apiKey: key, apiSecret: 'fresh_secret_1', kind: 'user', balance: 1n }, T0);
    expect((await call(signedUrl({ timestamp: T0 }, 'fresh_secret_1'), { key })).body.code).toBe(0);
  });

  it('serves cached, frozen accounts and reloads after invalidate', () => {
    const cache = new AccountCache(venue.accounts);
    const a = cache.byKey(KEY)!;
    expect(Object.isFrozen(a)).toBe(true);
    expect(cache.byKey(KEY)).toBe(a);
    venue.accounts.upsert({ apiKey: KEY, apiSecret: SECRET, kind: 'user', balance: 5n }, T0);
    expect(cache.byKey(KEY)!.walletBalance).toBe(1n);
    cache.invalidate(KEY);
    expect(cache.byKey(KEY)!.walletBalance).toBe(5n);
    venue.accounts.upsert({ apiKey: KEY, apiSecret: SECRET, kind: 'user', balance: 1n }, T0);
    cache.invalidate();
    expect(cache.byKey(KEY)!.walletBalance).toBe(1n);
    expect(cache.byKey('missing_key')).toBeUndefined();
  });
});

describe('signedQuerystring', () => {
  it('adds timestamp, recv_window and signature and forbids other parameters', () => {
    const s = signedQuerystring({ symbol: { type: 'string' } }, ['symbol']) as any;
    expect(s.additionalProperties).toBe(false);
    expect(s.required).toEqual(['symbol', 'timestamp', 'signature']);
    expect(Object.keys(s.properties)).toEqual(['symbol', 'timestamp', 'recv_window', 'signature']);
    expect(s.properties.recv_window.maximum).toBe(60000);
  });
});

describe('bot whitelist and loopback routes', () => {
  it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])('bot route answers %s', async (ip) => {
    const r = await call('/fapi/v1/test/bot', { key: null, remoteAddress: ip });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ ip, account: null });
  });

  it.each(['10.0.0.7', '192.168.1.20', '2001:db8::1', '::ffff:10.0.0.7', '127.0.0.2'])(
    'bot route refuses %s with 403 / 2101 naming the IP',
    async (ip) => {
      const r = await call('/fapi/v1/test/bot', { key: null, remoteAddress: ip });
      expectError(r, Errors.IP_NOT_WHITELISTED);
      expect(r.body.message).toContain(ip);
    },
  );

  it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2'])('loopback route answers %s', async (ip) => {
    const r = await call('/test/loopback', { key: null, remoteAddress: ip });
    expect(r.status).toBe(200);
    expect(r.body.data).toBe('yes');
  });

  it.each(['10.0.0.7', '::ffff:10.0.0.7', '2001:db8::1'])('loopback route refuses %s with 403 / 2102', async (ip) => {
    const r = await call('/test/loopback', { key: null, remoteAddress: ip });
    expectError(r, Errors.LOOPBACK_ONLY, new RegExp(ip.replace(/\./g, '\\.')));
  });

  it('refuses an unknown auth mode when the route is registered', async () => {
    const v = openVenue({ dataDir: ':memory:' });
    const a = await buildApp({ venue: v, rateLimit: false });
    try {
      expect(() => a.get('/x', { config: { auth: 'sined' as 'signed' } }, async () => 'x')).toThrow(
        /unknown auth mode 'sined'/,
      );
    } finally {
      await a.close();
      v.close();
    }
  });
});
