// The /ws protocol over real sockets: a real app listening on 127.0.0.1:0 and `ws` clients.
// Every method, answers and errors by id, every error case, the subscription limit,
// UNSUBSCRIBE, LOGIN and the user channel, liveness, slow consumers, the stream payloads.
import { cancelBotOrder, placeBotOrder, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import type { Hub } from '../../../src-main/api/ws/hub.ts';
import type { KlineSource } from '../../../src-main/api/ws/subscriptions.ts';
import { publish } from '../../../src-main/api/ws/test-hooks.ts';
import { KlineService } from '../../../src-main/market/kline-service.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { HOUSE_ACCOUNT, type BotOrderInput } from '../../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { hmacSha256Hex } from '../../../src-shared/sign.ts';
import { TestClient } from './ws-test-client.ts';

const A = { key: 'wsalice_0001', secret: 'wsalice_secret_0001' };
const B = { key: 'wsbob_0002', secret: 'wsbob_secret_0002' };
const USDT = 100_000_000n;

let venue: Venue;
let app: FastifyInstance;
let hub: Hub;
let url: string;
let idA: number;
let idB: number;
let klines: KlineService | undefined;
const clients: TestClient[] = [];

async function client(): Promise<TestClient> {
  const c = await TestClient.open(url);
  clients.push(c);
  return c;
}

function bot(side: 1 | 2, price: string, qty: string, symbol = 'BTCUSDT', account = HOUSE_ACCOUNT): string {
  const input: BotOrderInput = { symbol, side, position_side: side, position_action: 1, type: 1, price, qty };
  return placeBotOrder(venue.exchange, input, account).order_id;
}

function loginParams(
  who: { key: string; secret: string },
  timestamp = Date.now(),
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const rw = extra.recv_window;
  const text = `api_key=${who.key}&timestamp=${timestamp}` + (rw === undefined ? '' : `&recv_window=${String(rw)}`);
  return { api_key: who.key, timestamp, ...extra, signature: hmacSha256Hex(who.secret, text) };
}

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  idA = venue.accounts.upsert(
    { apiKey: A.key, apiSecret: A.secret, kind: 'user', balance: 100_000n * USDT },
    Date.now(),
  ).id;
  idB = venue.accounts.upsert(
    { apiKey: B.key, apiSecret: B.secret, kind: 'user', balance: 100_000n * USDT },
    Date.now(),
  ).id;
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
  hub = app.wsHub;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await app.close();
  klines?.close();
  venue.close();
});

describe('requests and answers', () => {
  it('answers PING with PONG and echoes numeric and string ids', async () => {
    const c = await client();
    expect(await c.request('PING', undefined, 7)).toEqual({ id: 7, result: 'PONG' });
    expect(await c.request('PING', undefined, 'abc')).toEqual({ id: 'abc', result: 'PONG' });
  });

  it('lists subscriptions in subscription order; duplicates count once', async () => {
    const c = await client();
    expect(await c.request('LIST_SUBSCRIPTIONS')).toMatchObject({ result: [] });
    expect(await c.request('SUBSCRIBE', ['price@BTCUSDT', 'depth@ETHUSDT,20'])).toMatchObject({ result: null });
    expect(await c.request('SUBSCRIBE', ['trade@BTCUSDT', 'price@BTCUSDT'])).toMatchObject({ result: null });
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toEqual([
      'price@BTCUSDT',
      'depth@ETHUSDT,20',
      'trade@BTCUSDT',
    ]);
    // a stream not subscribed is fine to leave; a name SUBSCRIBE would refuse is refused, all or nothing
    expect(await c.request('UNSUBSCRIBE', ['depth@ETHUSDT,20', 'never@subscribed'])).toMatchObject({
      error: { code: 1100 },
    });
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toHaveLength(3);
    expect(await c.request('UNSUBSCRIBE', ['depth@ETHUSDT,20', 'trade@ETHUSDT'])).toMatchObject({ result: null });
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toEqual(['price@BTCUSDT', 'trade@BTCUSDT']);
  });

  it.each([
    ['not JSON', '{"method":"PING",', null, 1004],
    ['a JSON array', '[1,2]', null, 1000],
    ['a JSON string', '"PING"', null, 1000],
    ['no id', '{"method":"PING"}', null, 1000],
    ['a fractional id', '{"method":"PING","id":1.5}', null, 1000],
    ['an object id', '{"method":"PING","id":{}}', null, 1000],
    ['an unknown method', '{"method":"FLY","id":3}', 3, 1105],
    ['no method', '{"params":["depth@BTCUSDT,20"],"id":24}', 24, 1000],
    ['a method that is not a string', '{"method":7,"id":25}', 25, 1105],
    ['a lower-case method', '{"method":"subscribe","params":["price@BTCUSDT"],"id":4}', 4, 1105],
    ['SUBSCRIBE without params', '{"method":"SUBSCRIBE","id":5}', 5, 1000],
    ['SUBSCRIBE with an empty list', '{"method":"SUBSCRIBE","params":[],"id":6}', 6, 1000],
    ['SUBSCRIBE with a string', '{"method":"SUBSCRIBE","params":"price@BTCUSDT","id":7}', 7, 1000],
    ['a non-string stream', '{"method":"SUBSCRIBE","params":[42],"id":8}', 8, 1001],
    ['an unknown channel', '{"method":"SUBSCRIBE","params":["ticker@BTCUSDT"],"id":9}', 9, 1100],
    ['a name without @', '{"method":"SUBSCRIBE","params":["BTCUSDT"],"id":10}', 10, 1100],
    ['an unknown symbol', '{"method":"SUBSCRIBE","params":["depth_update@NOPEUSDT"],"id":11}', 11, 1101],
    ['a lower-case symbol', '{"method":"SUBSCRIBE","params":["depth_update@btcusdt"],"id":12}', 12, 1101],
    ['a bad depth level', '{"method":"SUBSCRIBE","params":["depth@BTCUSDT,7"],"id":13}', 13, 1001],
    ['a depth stream without level', '{"method":"SUBSCRIBE","params":["depth@BTCUSDT"],"id":14}', 14, 1001],
    ['an argument where none belongs', '{"method":"SUBSCRIBE","params":["trade@BTCUSDT,5"],"id":15}', 15, 1001],
    ['a bad kline interval', '{"method":"SUBSCRIBE","params":["kline@BTCUSDT,7m"],"id":16}', 16, 1001],
    ['user before LOGIN', '{"method":"SUBSCRIBE","params":["user"],"id":17}', 17, 2001],
    // as SUBSCRIBE refuses it (docs/api.md: a name SUBSCRIBE would refuse, the same code)
    ['UNSUBSCRIBE of a number', '{"method":"UNSUBSCRIBE","params":[1],"id":18}', 18, 1001],
    ['UNSUBSCRIBE of a name no stream has', '{"method":"UNSUBSCRIBE","params":["nonsense"],"id":19}', 19, 1100],
    ['UNSUBSCRIBE of an unknown symbol', '{"method":"UNSUBSCRIBE","params":["trade@NOPEUSDT"],"id":20}', 20, 1101],
    ['a key the protocol has not', '{"method":"PING","id":21,"parms":[]}', 21, 1003],
    ['params on PING', '{"method":"PING","params":["x"],"id":22}', 22, 1003],
    ['params on LIST_SUBSCRIPTIONS', '{"method":"LIST_SUBSCRIPTIONS","params":{"a":1},"id":23}', 23, 1003],
  ])('refuses %s', async (_what, text, id, code) => {
    const c = await client();
    c.sendRaw(text);
    const answer = await c.waitFor((m) => 'error' in m);
    expect(answer).toEqual({ id, error: { code, message: expect.any(String) } });
    expect(answer.error.message.length).toBeGreaterThan(10);
    // the connection stays usable after any refused request
    expect(await c.request('PING', undefined, 99)).toEqual({ id: 99, result: 'PONG' });
  });

  it('hints at the upper-case name of a lower-case symbol', async () => {
    const c = await client();
    const r = await c.request('SUBSCRIBE', ['depth@btcusdt,20']);
    expect(r.error.message).toContain('depth@BTCUSDT,20');
  });

  it('refuses binary frames', async () => {
    const c = await client();
    c.sendRaw(Buffer.from('{"method":"PING","id":1}'), true);
    expect(await c.waitFor((m) => 'error' in m)).toMatchObject({ id: null, error: { code: 1000 } });
  });

  it('subscribes all or nothing', async () => {
    const c = await client();
    const r = await c.request('SUBSCRIBE', ['trade@BTCUSDT', 'depth@BTCUSDT,3']);
    expect(r.error.code).toBe(1001);
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toEqual([]);
  });

  it('enforces the per-connection subscription limit', async () => {
    const saved = hub.limits.maxSubscriptions;
    hub.limits.maxSubscriptions = 4;
    try {
      const c = await client();
      expect((await c.request('SUBSCRIBE', ['price@BTCUSDT', 'price@ETHUSDT', 'trade@BTCUSDT'])).result).toBeNull();
      const over = await c.request('SUBSCRIBE', ['trade@ETHUSDT', 'depth_update@ETHUSDT']);
      expect(over.error.code).toBe(4290);
      expect(over.error.message).toContain('at most 4');
      expect((await c.request('LIST_SUBSCRIPTIONS')).result).toHaveLength(3);
      // re-subscribing what is already there costs nothing; one more fits
      expect((await c.request('SUBSCRIBE', ['price@BTCUSDT', 'trade@ETHUSDT'])).result).toBeNull();
      expect((await c.request('SUBSCRIBE', ['price@SOLUSDT'])).error.code).toBe(4290);
      await c.request('UNSUBSCRIBE', ['price@ETHUSDT']);
      expect((await c.request('SUBSCRIBE', ['price@SOLUSDT'])).result).toBeNull();
    } finally {
      hub.limits.maxSubscriptions = saved;
    }
  });

  it('answers a plain GET /ws with the envelope error', async () => {
    const r = await app.inject({ method: 'GET', url: '/ws' });
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ code: 1000, data: null });
  });

  it('closes the connection on a message over 64 KiB (1009)', async () => {
    const c = await client();
    c.sendRaw(JSON.stringify({ method: 'PING', id: 1, pad: 'x'.repeat(70_000) }));
    expect((await c.closed).code).toBe(1009);
  });
});

describe('streams', () => {
  it('depth_update: contiguous ids, final quantities best first, one serialisation for all subscribers', async () => {
    const [c1, c2, c3] = await Promise.all([client(), client(), client()]);
    for (const c of [c1, c2, c3]) await c.request('SUBSCRIBE', ['depth_update@SOLUSDT']);
    const book = venue.exchange.pairs.get('SOLUSDT')!.book;
    const start = book.updateId;
    const messagesBefore = hub.stats.messages;
    const pushesBefore = hub.stats.pushes;
    // one window: 3 new levels, one changed twice, one added and removed again
    bot(1, '184.50', '1.00', 'SOLUSDT');
    bot(1, '184.90', '2.00', 'SOLUSDT');
    bot(1, '184.50', '0.50', 'SOLUSDT');
    bot(2, '185.20', '3.00', 'SOLUSDT');
    const gone = bot(2, '185.10', '4.00', 'SOLUSDT');
    cancelBotOrder(venue.exchange, 'SOLUSDT', Number(gone));
    const ev = (await c1.waitFor((m) => m.stream === 'depth_update@SOLUSDT')).data;
    expect(ev).toEqual({
      e: 'depthUpdate',
      E: expect.any(Number),
      s: 'SOLUSDT',
      U: start + 1,
      u: start + 6,
      pu: start,
      b: [
        ['184.90', '2.00'],
        ['184.50', '1.50'],
      ],
      a: [
        ['185.10', '0.00'],
        ['185.20', '3.00'],
      ],
    });
    expect(book.updateId).toBe(start + 6);
    for (const c of [c2, c3]) expect((await c.waitFor((m) => m.stream === 'depth_update@SOLUSDT')).data).toEqual(ev);
    expect(hub.stats.messages - messagesBefore).toBe(1);
    expect(hub.stats.pushes - pushesBefore).toBe(3);

    // the next window continues at u + 1
    bot(1, '184.00', '1.00', 'SOLUSDT');
    const next = (await c1.waitFor((m) => m.stream === 'depth_update@SOLUSDT' && m.data.U > ev.u)).data;
    expect(next).toMatchObject({ U: ev.u + 1, u: ev.u + 1, pu: ev.u, b: [['184.00', '1.00']], a: [] });
  });

  it('UNSUBSCRIBE stops the pushes of that stream only', async () => {
    const c = await client();
    await c.request('SUBSCRIBE', ['depth_update@BNBUSDT', 'depth_update@XRPUSDT']);
    bot(1, '640.00', '1.00', 'BNBUSDT');
    await c.waitFor((m) => m.stream === 'depth_update@BNBUSDT');
    await c.request('UNSUBSCRIBE', ['depth_update@BNBUSDT']);
    const mark = c.messages.length;
    // both books change in one window: XRP's push proves the window was sent
    bot(1, '639.00', '1.00', 'BNBUSDT');
    bot(1, '2.0000', '10.0', 'XRPUSDT');
    await c.waitFor((m) => m.stream === 'depth_update@XRPUSDT', 3000, mark);
    expect(c.messages.slice(mark).filter((m) => m.stream === 'depth_update@BNBUSDT')).toEqual([]);
  });

  it('depth@: the top `level` levels with the book id, also to a late subscriber of an idle book', async () => {
    const c = await client();
    await c.request('SUBSCRIBE', ['depth@BTCUSDT,5']);
    for (let i = 0; i < 7; i++) bot(1, String(95900 - i * 10), '0.002');
    const pair = venue.exchange.pairs.get('BTCUSDT')!;
    const id = pair.book.updateId;
    const push = (await c.waitFor((m) => m.stream === 'depth@BTCUSDT,5' && m.data.u === id)).data;
    const rest = JSON.parse(
      (await app.inject({ method: 'GET', url: '/fapi/v1/depth?symbol=BTCUSDT&limit=5&with_id=true' })).body,
    ).data;
    expect(push).toEqual({
      e: 'depth',
      E: expect.any(Number),
      s: 'BTCUSDT',
      u: rest.id,
      bids: rest.bids,
      asks: rest.asks,
    });
    expect(push.bids).toHaveLength(5);
    // nothing changes now; a new subscriber still gets the snapshot
    const late = await client();
    await late.request('SUBSCRIBE', ['depth@BTCUSDT,5']);
    expect((await late.waitFor((m) => m.stream === 'depth@BTCUSDT,5')).data).toEqual(push);
  });

  it('trade@: batched trades with id, price, quantity, taker side', async () => {
    const c = await client();
    await c.request('SUBSCRIBE', ['trade@ETHUSDT']);
    bot(2, '3401.00', '0.500', 'ETHUSDT');
    // another bot account buys 0.2 of that ask (two house orders would not trade: self-trade prevention)
    placeBotOrder(
      venue.exchange,
      {
        symbol: 'ETHUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '3401.00',
        qty: '0.200',
        time_in_force: 2,
      },
      HOUSE_ACCOUNT + 1,
    );
    const push = await c.waitFor((m) => m.stream === 'trade@ETHUSDT');
    expect(push.data).toEqual([
      {
        e: 'trade',
        E: expect.any(Number),
        s: 'ETHUSDT',
        t: expect.any(Number),
        p: '3401.00',
        q: '0.200',
        T: expect.any(Number),
        S: 1,
        m: false,
      },
    ]);
  });

  it('price@: index, mark, last, funding rate and next funding time every second', async () => {
    setPrices(venue.exchange, 'XRPUSDT', {
      mark: 2.01234567,
      index: 2.0101,
      fundingRate: 0.000125,
      nextFundingTime: 1_800_000_000_000,
    });
    const c = await client();
    await c.request('SUBSCRIBE', ['price@XRPUSDT']);
    const push = await c.waitFor((m) => m.stream === 'price@XRPUSDT', 2500);
    expect(push.data).toEqual({
      e: 'price',
      E: expect.any(Number),
      s: 'XRPUSDT',
      // the mark the risk figures use, to 8 decimals (not rounded to XRP's 0.0001 tick)
      i: '2.01010000',
      m: '2.01234567',
      l: expect.stringMatching(/^\d+\.\d{4}$/),
      r: '0.000125',
      T: 1_800_000_000_000,
    });
  });
});

describe('kline streams', () => {
  it('are refused while the venue has no candle service, then follow it once attached', async () => {
    const c = await client();
    // The hub looks the candle service up when a client subscribes: take the venue's away...
    const own = venue.klines;
    Object.assign(venue, { klines: undefined });
    const refused = await c.request('SUBSCRIBE', ['kline@ETHUSDT,1m']);
    expect(refused.error.code).toBe(5001);
    expect(refused.result).toBeUndefined();
    // ...and attach one after the app was built, as the venue may do.
    own.close();
    const svc = (klines = new KlineService(
      { candles: new CandlesRepo(venue.db), symbols: venue.symbols, clock: venue.clock, exchange: venue.exchange },
      { tickMs: 0 },
    ));
    const source: KlineSource = svc;
    Object.assign(venue, { klines: source });
    expect((await c.request('SUBSCRIBE', ['kline@ETHUSDT,1m'])).result).toBeNull();
    bot(2, '3399.00', '0.300', 'ETHUSDT');
    placeBotOrder(
      venue.exchange,
      { symbol: 'ETHUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.300' },
      HOUSE_ACCOUNT + 1,
    );
    // the open candle (on a minute's edge the one before is pushed first, closed: it is not this one)
    const live = await c.waitFor((m) => m.stream === 'kline@ETHUSDT,1m' && m.data.k[11] === false);
    expect(live.data).toMatchObject({ e: 'kline', s: 'ETHUSDT', i: '1m' });
    expect(live.data.k).toEqual(svc.currentKline('ETHUSDT', '1m'));
    expect(live.data.k[5]).toBe('3399.00');
    expect(live.data.k[11]).toBe(false);

    // the minute ends: its final form (isClosed) is pushed, then the new current candle
    // (the live clock may already have crossed that minute's end: then it is not moved back, and
    // the pushes are looked for from the open candle's on, not from now)
    const mark = c.messages.indexOf(live) + 1;
    const openTime = live.data.k[0] as number;
    venue.clock.advance(Math.max(0, openTime + 60_000 - venue.clock.now()));
    svc.advanceTo(venue.clock.now());
    const closed = await c.waitFor((m) => m.stream === 'kline@ETHUSDT,1m' && m.data.k[11] === true, 3000, mark);
    expect(closed.data.k[0]).toBe(openTime);
    expect(closed.data.k[8]).toBe(live.data.k[8]);
    const next = await c.waitFor(
      (m) => m.stream === 'kline@ETHUSDT,1m' && m.data.k[0] === openTime + 60_000,
      3000,
      mark,
    );
    expect(next.data.k[11]).toBe(false);
    expect(c.messages.indexOf(next)).toBeGreaterThan(c.messages.indexOf(closed));
  });
});

describe('LOGIN and the user channel', () => {
  it.each([
    ['params not an object', () => 'x', 1000],
    ['no api_key', () => ({ timestamp: Date.now(), signature: 'a'.repeat(64) }), 2001],
    ['an unknown api_key', () => loginParams({ key: 'nobody_0000', secret: 'x' }), 2002],
    ['no signature', () => ({ api_key: A.key, timestamp: Date.now() }), 2003],
    ['a wrong signature', () => ({ ...loginParams(A), signature: 'f'.repeat(64) }), 2004],
    ['a signature with the wrong secret', () => loginParams({ key: A.key, secret: B.secret }), 2004],
    ['no timestamp', () => ({ api_key: A.key, signature: 'a'.repeat(64) }), 2005],
    ['a stale timestamp', () => loginParams(A, Date.now() - 600_000), 2006],
    ['a stale timestamp for its recv_window', () => loginParams(A, Date.now() - 30_000, { recv_window: 20_000 }), 2006],
    ['a timestamp from the future', () => loginParams(A, Date.now() + 60_000), 2007],
    ['a recv_window above 60000', () => loginParams(A, Date.now(), { recv_window: 60_001 }), 2008],
    // the shape rules of a REST body: unknown parameter 1003, wrong JSON type 1001 (even when signed right)
    ['an unknown parameter', () => ({ ...loginParams(A), extra: 1 }), 1003],
    [
      'a string timestamp',
      () => {
        const p = loginParams(A);
        return { ...p, timestamp: String(p.timestamp) };
      },
      1001,
    ],
    [
      'a string recv_window',
      () => {
        const p = loginParams(A, Date.now(), { recv_window: 5000 });
        return { ...p, recv_window: '5000' };
      },
      1001,
    ],
    ['a fractional timestamp', () => ({ ...loginParams(A), timestamp: 1.5 }), 1001],
    ['a numeric api_key', () => ({ ...loginParams(A), api_key: 12345678 }), 1001],
  ])('refuses %s', async (_what, params, code) => {
    const c = await client();
    const r = await c.request('LOGIN', params());
    expect(r.error.code).toBe(code);
    expect((await c.request('SUBSCRIBE', ['user'])).error.code).toBe(2001);
  });

  it('names the unknown or mistyped parameter, and says a timestamp in seconds should be in ms', async () => {
    const c = await client();
    expect((await c.request('LOGIN', { ...loginParams(A), extra: 1 })).error.message).toMatch(
      /Unknown LOGIN parameter 'extra'/,
    );
    const p = loginParams(A);
    expect((await c.request('LOGIN', { ...p, timestamp: String(p.timestamp) })).error.message).toBe(
      "Invalid LOGIN parameter 'timestamp': must be a JSON integer",
    );
    const secs = await c.request('LOGIN', loginParams(A, Math.floor(Date.now() / 1000)));
    expect(secs.error.code).toBe(2006);
    expect(secs.error.message).toMatch(/timestamp is in milliseconds; this one looks like seconds/);
  });

  it('accepts the signed params as an object or in an array, with recv_window', async () => {
    const c = await client();
    expect((await c.request('LOGIN', loginParams(A))).result).toEqual({ user_id: idA });
    expect((await c.request('LOGIN', [loginParams(B, Date.now() - 20_000, { recv_window: 30_000 })])).result).toEqual({
      user_id: idB,
    });
  });

  it("delivers each account's own events only", async () => {
    const [ca, cb] = await Promise.all([client(), client()]);
    await ca.request('LOGIN', loginParams(A));
    await cb.request('LOGIN', loginParams(B));
    await ca.request('SUBSCRIBE', ['user']);
    await cb.request('SUBSCRIBE', ['user']);
    const order = (account: number, price: string) =>
      placeOrder(venue.exchange, account, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price,
        qty: '0.010',
      }).order_id;
    const orderB = order(idB, '94000.0');
    const orderA = order(idA, '94100.0');
    const gotA = await ca.waitFor((m) => m.stream === 'user' && m.data.kind === 'order' && m.data.data.id === orderA);
    expect(gotA.data.data).toMatchObject({ symbol: 'BTCUSDT', price: '94100.0', user_id: String(idA) });
    const gotB = await cb.waitFor((m) => m.stream === 'user' && m.data.kind === 'order' && m.data.data.id === orderB);
    expect(gotB.data.data.user_id).toBe(String(idB));
    // B's order came first: had it reached A's connection it would be there by now
    const userIds = (c: TestClient) =>
      c
        .pushes('user')
        .map((m) => String(m.data.data.user_id ?? (Array.isArray(m.data.data) ? m.data.data[0]?.user_id : undefined)));
    expect(new Set(userIds(ca))).toEqual(new Set([String(idA)]));
    expect(new Set(userIds(cb))).toEqual(new Set([String(idB)]));
    // after UNSUBSCRIBE, A's next order is not pushed; B's still is
    await ca.request('UNSUBSCRIBE', ['user']);
    const mark = ca.messages.length;
    order(idA, '94200.0');
    const lastB = order(idB, '94300.0');
    await cb.waitFor((m) => m.stream === 'user' && m.data.data.id === lastB);
    await ca.request('PING');
    expect(ca.messages.slice(mark).filter((m) => m.stream === 'user')).toEqual([]);
  });

  it("pushes the account's conditional orders as they are placed and cancelled", async () => {
    const ca = await client();
    await ca.request('LOGIN', loginParams(A));
    await ca.request('SUBSCRIBE', ['user']);
    const far = (venue.exchange.pair('BTCUSDT')!.markPrice * 3).toFixed(1);
    const placed = venue.exchange.execute({
      kind: 'placeConditional',
      accountId: idA,
      input: {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 2,
        qty: '0.010',
        trigger_price: far,
        trigger_direction: 1,
      },
    });
    const got = await ca.waitFor((m) => m.stream === 'user' && m.data.kind === 'conditional');
    expect(got.data.data).toEqual(placed);
    venue.exchange.execute({ kind: 'cancelConditional', accountId: idA, orderId: Number(placed.id) });
    const cancelled = await ca.waitFor(
      (m) => m.stream === 'user' && m.data.kind === 'conditional' && m.data.data.status === 3,
    );
    expect(cancelled.data.data).toMatchObject({ id: placed.id, user_id: String(idA) });
  });
});

describe('connection management', () => {
  it('pings every pingIntervalMs and closes idle connections with 1001', async () => {
    const c = await client();
    const pinged = new Promise<void>((resolve) => c.ws.once('ping', () => resolve()));
    const savedPing = hub.limits.pingIntervalMs;
    hub.limits.pingIntervalMs = 0;
    hub.sweep();
    hub.limits.pingIntervalMs = savedPing;
    await pinged;
    const count = hub.connectionCount;
    const realNow = hub.now;
    hub.now = () => realNow() + hub.limits.idleTimeoutMs + 1000;
    try {
      hub.sweep();
    } finally {
      hub.now = realNow;
    }
    const closed = await c.closed;
    expect(closed.code).toBe(1001);
    expect(closed.reason).toContain('idle timeout');
    expect(hub.connectionCount).toBeLessThan(count);
  });

  it('closes a connection that sends more than maxMessagesPerSecond messages (1008)', async () => {
    const saved = hub.limits.maxMessagesPerSecond;
    hub.limits.maxMessagesPerSecond = 5;
    try {
      const c = await client();
      for (let i = 1; i <= 6; i++) c.sendRaw(JSON.stringify({ method: 'PING', id: i }));
      const closed = await c.closed;
      expect(closed).toEqual({ code: 1008, reason: expect.stringContaining('too many messages') });
      // the first five were answered
      expect(c.messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      hub.limits.maxMessagesPerSecond = saved;
    }
  });

  it('closes a slow consumer with 1008 once its unsent bytes pass the bound', async () => {
    const slow = await client();
    const other = await client();
    await slow.request('SUBSCRIBE', ['price@BNBUSDT']);
    const savedBound = hub.limits.maxBufferedBytes;
    hub.limits.maxBufferedBytes = 256 * 1024;
    // the slow client stops reading: the kernel buffers fill, then the server's
    (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const before = hub.stats.slowConsumersClosed;
    const blob = 'x'.repeat(512 * 1024);
    try {
      for (let i = 0; i < 100 && hub.stats.slowConsumersClosed === before; i++) {
        publish(hub, 'price@BNBUSDT', { blob, i });
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      hub.limits.maxBufferedBytes = savedBound;
    }
    expect(hub.stats.slowConsumersClosed).toBe(before + 1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('slow consumer');
    // other connections are unaffected
    expect(await other.request('PING', undefined, 'still-here')).toEqual({ id: 'still-here', result: 'PONG' });
  });
});

describe('bot stream', () => {
  it('announces cached bot orders (need_cache) to whitelisted connections, and nothing of uncached ones', async () => {
    const c = await client();
    expect(await c.request('SUBSCRIBE', ['bot'])).toMatchObject({ result: null });
    const from = c.messages.length;
    placeBotOrder(
      venue.exchange,
      { symbol: 'ETHUSDT', side: 1, position_side: 1, position_action: 1, type: 1, price: '3000.00', qty: '0.100' },
      HOUSE_ACCOUNT,
    );
    const cached = placeBotOrder(
      venue.exchange,
      {
        symbol: 'ETHUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '3001.00',
        qty: '0.100',
        need_cache: true,
      },
      HOUSE_ACCOUNT,
    );
    const push = await c.waitFor((m) => m.stream === 'bot', 3000, from);
    expect(push.data.kind).toBe('order');
    expect(push.data.data).toMatchObject({ id: cached.order_id, symbol: 'ETHUSDT', price: '3001.00', status: 1 });
    cancelBotOrder(venue.exchange, 'ETHUSDT', Number(cached.order_id));
    const cancelled = await c.waitFor((m) => m.stream === 'bot' && m.data.data.status === 4, 3000, from);
    expect(cancelled.data.data.id).toBe(cached.order_id);
    expect(c.pushes('bot').every((m) => m.data.data.id === cached.order_id)).toBe(true);
  });
});
