// The SDK's REST client against the real application (Fastify inject as its fetch): signed
// requests are accepted by the real auth layer, bodies are sent exactly as signed, API errors
// surface as PerpdeskApiError with the API's code and message, klines' bare answers and HTTP
// 200 errors are told apart, and `request` hands back the raw exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CLIENT_ERROR,
  NO_ANSWER,
  NOT_SENT,
  PerpdeskApiError,
  RestClient,
} from '../../../src-shared/sdk/rest-client.ts';
import { injectFetch, makeApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
const sent: Array<{ url: string; method: string; headers: Record<string, string>; body: string | undefined }> = [];

const KEY = 'sdk_test_key_1';
const SECRET = 'sdk_test_secret_1';

beforeAll(async () => {
  t = await makeApp();
  t.venue.accounts.upsert(
    { apiKey: KEY, apiSecret: SECRET, kind: 'user', balance: 10_000n * 100_000_000n },
    Date.now(),
  );
});
afterAll(async () => {
  await t.close();
});

function client(opts: { apiKey?: string; apiSecret?: string } = { apiKey: KEY, apiSecret: SECRET }): RestClient {
  return new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: injectFetch(t.app, (s) => sent.push(s)), ...opts });
}

describe('RestClient', () => {
  it('signs requests the server accepts: key header, timestamp, signature last over query + body', async () => {
    const api = client();
    sent.length = 0;
    const account = await api.account();
    expect(account.wallet_balance).toBe('10000.00000000');
    const setting = await api.setLeverage('BTCUSDT', 7);
    expect(setting.leverage).toBe(7);
    expect((await api.leverage('BTCUSDT')).leverage).toBe(7);

    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.headers['X-API-KEY']).toBe(KEY);
    const query = post.url.slice(post.url.indexOf('?') + 1);
    const [signed, signature] = query.split('&signature=');
    expect(signed).toMatch(/^timestamp=\d+$/);
    expect(signature).toBe(
      createHmac('sha256', SECRET)
        .update(signed + post.body)
        .digest('hex'),
    );
    expect(JSON.parse(post.body!)).toEqual({ symbol: 'BTCUSDT', leverage: 7 });
  });

  it('surfaces the API error code and message, and refuses signed calls without credentials', async () => {
    const bad = client({ apiKey: KEY, apiSecret: 'wrong_secret_1' });
    const err = await bad.account().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect((err as PerpdeskApiError).code).toBe(2004);
    expect((err as PerpdeskApiError).status).toBe(401);
    await expect(client({}).openOrders()).rejects.toThrow(/log in/);
  });

  it('places and cancels an order, and pages the order history', async () => {
    const api = client();
    const r = await api.placeOrder({
      symbol: 'ETHUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '1000.00',
      qty: '0.100',
    });
    expect(r.status).toBe(1);
    expect((await api.openOrders('ETHUSDT')).map((o) => o.id)).toEqual([r.order_id]);
    const cancelled = await api.cancelOrder('ETHUSDT', r.order_id);
    expect(cancelled.status).toBe(4);
    const page = await api.allOrders({ symbol: 'ETHUSDT', limit: 10 });
    expect(page.items.map((o) => o.id)).toContain(r.order_id);
    expect(page.has_more).toBe(false);
  });

  it('cancels by client_order_id ({ clientOrderId }) as well as by id ({ orderId } or the bare id)', async () => {
    const api = client();
    const order = {
      symbol: 'ETHUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '1000.00',
      qty: '0.100',
    } as const;
    const a = await api.placeOrder({ ...order, client_order_id: 'mm-bid-1' });
    const b = await api.placeOrder({ ...order, client_order_id: 'mm-bid-2' });
    sent.length = 0;
    const byClient = await api.cancelOrder('ETHUSDT', { clientOrderId: 'mm-bid-1' });
    expect(byClient.id).toBe(a.order_id);
    expect(byClient.client_order_id).toBe('mm-bid-1');
    expect(byClient.status).toBe(4);
    const q = new URL(sent[0].url).searchParams;
    expect(q.get('client_order_id')).toBe('mm-bid-1');
    expect(q.has('order_id')).toBe(false);
    expect((await api.openOrders('ETHUSDT')).map((o) => o.id)).toEqual([b.order_id]);
    expect((await api.cancelOrder('ETHUSDT', { orderId: b.order_id })).status).toBe(4);
    const err = await api.cancelOrder('ETHUSDT', { clientOrderId: 'never-placed' }).catch((e: unknown) => e);
    expect((err as PerpdeskApiError).code).toBe(1102);
    // getOrder names an order the same ways, in any status
    expect(await api.getOrder('ETHUSDT', { clientOrderId: 'mm-bid-1' })).toEqual(byClient);
    expect((await api.getOrder('ETHUSDT', b.order_id)).status).toBe(4);
    const none = await api.getOrder('ETHUSDT', { clientOrderId: 'never-placed' }).catch((e: unknown) => e);
    expect((none as PerpdeskApiError).code).toBe(1102);
  });

  it('modifies an order (amendOrder) by id or client_order_id, signed over the JSON body', async () => {
    const api = client();
    const a = await api.placeOrder({
      symbol: 'ETHUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '1000.00',
      qty: '0.100',
      client_order_id: 'mm-amend-1',
    });
    sent.length = 0;
    const moved = await api.amendOrder('ETHUSDT', a.order_id, '990.00', '0.200');
    expect(moved).toMatchObject({ id: a.order_id, price: '990.00', qty: '0.200', status: 1 });
    expect(sent[0].method).toBe('PUT');
    const again = await api.amendOrder('ETHUSDT', { clientOrderId: 'mm-amend-1' }, '995.00', '0.200');
    expect(again).toMatchObject({ id: a.order_id, price: '995.00' });
    const err = await api.amendOrder('ETHUSDT', { clientOrderId: 'mm-amend-1' }, '995.00', '0.200').catch((e) => e);
    expect((err as PerpdeskApiError).code).toBe(1001);
    await api.cancelOrder('ETHUSDT', a.order_id);
  });

  it('reads klines as a bare array and their HTTP 200 errors as PerpdeskApiError', async () => {
    const api = client({});
    const err = await api.klines('BTCUSDT', '7m').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect((err as PerpdeskApiError).code).toBe(6001);
    expect((err as PerpdeskApiError).status).toBe(200);
  });

  it('sends a limit given with a time range, which the route refuses (6003): it was dropped without a word', async () => {
    const err = await client({})
      .klines('BTCUSDT', '1m', { limit: 5, startTime: 1, endTime: 2 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect((err as PerpdeskApiError).code).toBe(6003);
  });

  it('answers a filter of no pairs with none, sending nothing (the routes refuse an empty list)', async () => {
    sent.length = 0;
    const api = client({});
    expect(await api.tickers24h([])).toEqual([]);
    expect(await api.futuresSymbols({ symbols: [] })).toEqual([]);
    expect(await api.klinesBatch([], '1m')).toEqual({});
    expect(sent).toEqual([]);
    // a list of one is sent
    expect((await api.tickers24h(['BTCUSDT'])).map((t) => t.symbol)).toEqual(['BTCUSDT']);
  });

  it('refuses an order id that is NaN unsent (it went as order_id=NaN, refused by the route)', async () => {
    sent.length = 0;
    const err = await client()
      .getOrder('BTCUSDT', Number.NaN)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: CLIENT_ERROR, status: NOT_SENT });
    expect(sent).toEqual([]);
  });

  it('refuses a query number that is NaN or infinite as PerpdeskApiError CLIENT_ERROR, sending nothing', async () => {
    sent.length = 0;
    const pub = await client({})
      .klines('BTCUSDT', '1m', { limit: Number.NaN })
      .catch((e: unknown) => e);
    expect(pub).toBeInstanceOf(PerpdeskApiError);
    expect(pub).toMatchObject({
      code: CLIENT_ERROR,
      status: NOT_SENT,
      message: 'GET /fapi/v1/klines was not sent: query parameter limit is not finite: NaN',
    });
    const signed = await client()
      .allOrders({ limit: Number.POSITIVE_INFINITY })
      .catch((e: unknown) => e);
    expect(signed).toBeInstanceOf(PerpdeskApiError);
    expect(signed).toMatchObject({ code: CLIENT_ERROR, status: NOT_SENT });
    expect(sent).toEqual([]);
  });

  it('refuses a body number that is NaN or infinite unsent: JSON.stringify sent it as null', async () => {
    sent.length = 0;
    const lev = await client()
      .setLeverage('BTCUSDT', Number.NaN)
      .catch((e: unknown) => e);
    expect(lev).toBeInstanceOf(PerpdeskApiError);
    expect(lev).toMatchObject({
      code: CLIENT_ERROR,
      status: NOT_SENT,
      message: 'POST /fapi/v1/leverage was not sent: body field leverage is not finite: NaN',
    });
    // where a field takes null (a take-profit's removal), a computed NaN went out as that null
    const tp = await client()
      .setTpSl({ symbol: 'BTCUSDT', position_side: 1, take_profit_price: Number.NaN as unknown as string })
      .catch((e: unknown) => e);
    expect(tp).toMatchObject({
      status: NOT_SENT,
      message: 'POST /fapi/v1/position/tpsl was not sent: body field take_profit_price is not finite: NaN',
    });
    expect(sent).toEqual([]);
  });

  it('refuses a baseUrl without http:// or https:// unsent: it failed as a service not running, "at null"', async () => {
    const tried: string[] = [];
    // what Node's fetch does with such a URL: it cannot send it
    const failing = async (input: string | URL | Request): Promise<Response> => {
      tried.push(String(input));
      throw new TypeError('fetch failed');
    };
    for (const baseUrl of ['localhost:8787', '127.0.0.1:8787', 'ws://127.0.0.1:8787']) {
      const err = await new RestClient({ baseUrl, fetch: failing }).time().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PerpdeskApiError);
      expect(err).toMatchObject({
        code: CLIENT_ERROR,
        status: NOT_SENT,
        message:
          `GET /fapi/v1/time was not sent: baseUrl '${baseUrl}' is not an http:// or https:// URL; ` +
          "give the service's address, such as http://127.0.0.1:8787",
      });
    }
    expect(tried).toEqual([]);
  });

  it('reads Retry-After of a 429 into retryAfterMs, and keeps the headers on the raw exchange', async () => {
    // the service's clock stands still: the window is 10 s from the first request, the wait all of it
    const limited = await makeApp(
      {},
      { now: () => 1_700_000_000_000, rateLimit: { perIp: { max: 2, windowMs: 10_000 }, perKey: false } },
    );
    try {
      const api = new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: injectFetch(limited.app) });
      await api.time();
      await api.time();
      const err = await api.time().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PerpdeskApiError);
      const e = err as PerpdeskApiError;
      expect([e.code, e.status]).toEqual([4290, 429]);
      expect(e.retryAfterMs).toBe(10_000);
      const raw = await api.request('GET', '/fapi/v1/time');
      expect(raw.headers?.['retry-after']).toBe('10');
      expect(raw.headers?.['content-type']).toMatch(/^application\/json/);
      // an answer that asks for no wait says none
      const other = await client({ apiKey: KEY, apiSecret: 'wrong_secret_1' })
        .account()
        .catch((x: unknown) => x);
      expect((other as PerpdeskApiError).retryAfterMs).toBeUndefined();
    } finally {
      await limited.close();
    }
  });

  it('hands back the raw exchange without throwing, and a network failure as status 0', async () => {
    const api = client({});
    const x = await api.request('POST', '/fapi/v1/bot/orders', { body: { symbol: 'BTCUSDT' } });
    expect(x.status).toBe(400);
    expect(x.requestBody).toBe('{"symbol":"BTCUSDT"}');
    expect((x.json as { code: number }).code).toBeGreaterThan(0);
    const down = new RestClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: (async () => Promise.reject(new Error('ECONNREFUSED'))) as typeof fetch,
    });
    const y = await down.request('GET', '/fapi/v1/time');
    expect(y.status).toBe(0);
    expect(y.networkError).toContain('ECONNREFUSED');
    // the address it tried, so a wrong --url or port shows at once
    await expect(down.time()).rejects.toThrow(
      'Cannot reach the service at http://127.0.0.1:1: ECONNREFUSED; is the service running, and is this its address?',
    );
  });

  it('ends a request the service does not answer at its time-out, saying it may have been applied', async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    // a hung service: the request is taken and never answered (this fetch heeds no abort either)
    const hung = (async (_url: string, init?: RequestInit) => {
      signals.push(init?.signal);
      return new Promise<Response>(() => {});
    }) as typeof fetch;
    const api = new RestClient({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: KEY,
      apiSecret: SECRET,
      fetch: hung,
      timeoutMs: 20,
    });
    const x = await api.request('GET', '/fapi/v1/time');
    expect(x).toMatchObject({ status: 0, timedOut: true, networkError: 'no answer in 20 ms' });
    const err = await api
      .placeOrder({ symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.001' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect(err).toMatchObject({ code: CLIENT_ERROR, status: NO_ANSWER, timedOut: true });
    expect((err as Error).message).toBe(
      'POST /fapi/v1/orders: the service at http://127.0.0.1:1 gave no answer (no answer in 20 ms); ' +
        'the request may have been applied: read the state back before sending it again',
    );
    // the fetch was aborted at the time-out
    expect(signals.map((s) => s?.aborted)).toEqual([true, true]);
    // by default a request has a time-out too
    const answering = (async (_url: string, init?: RequestInit) => {
      signals.push(init?.signal);
      return new Response('{"code":0,"message":"success","data":null}', { status: 200 });
    }) as typeof fetch;
    await new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: answering }).request('GET', '/fapi/v1/time');
    expect(signals[2]).toBeInstanceOf(AbortSignal);
  });

  it('says a request whose connection closed before its answer may have been applied (it said "Cannot reach")', async () => {
    // a service that takes the request and stops before answering (killed, crashed mid-request)
    const server = createServer((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const api = new RestClient({ baseUrl: base, apiKey: KEY, apiSecret: SECRET });
      const err = await api
        .placeOrder({ symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.001' })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: CLIENT_ERROR, status: NO_ANSWER, timedOut: false, maybeApplied: true });
      expect((err as Error).message).toBe(
        `POST /fapi/v1/orders: the connection to the service at ${base} closed before its answer ` +
          '(fetch failed (other side closed)); the request may have been applied: read the state back before sending it again',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    // nothing listening: nothing was sent
    const down = await new RestClient({ baseUrl: base, apiKey: KEY, apiSecret: SECRET })
      .account()
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ status: NO_ANSWER, timedOut: false, maybeApplied: false });
    expect((down as Error).message).toMatch(/^Cannot reach the service at /);
  });

  it('waits as long as it takes for a request of time-out 0, and for a replay start or a dataset import', async () => {
    const envelope = JSON.stringify({ code: 0, message: 'success', data: { id: 'r1' } });
    // answers after the client's 1 ms time-out has passed
    const slow = (async () => {
      await new Promise((r) => setTimeout(r, 30));
      return new Response(envelope, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const api = new RestClient({ baseUrl: 'http://127.0.0.1:1', fetch: slow, timeoutMs: 1 });
    expect((await api.request('GET', '/fapi/v1/time')).timedOut).toBe(true);
    expect((await api.request('GET', '/fapi/v1/time', { timeoutMs: 0 })).status).toBe(200);
    await expect(api.startReplay({ datasets: [] } as never)).resolves.toEqual({ id: 'r1' });
    await expect(api.datasets.import({ paths: ['/nowhere'] })).resolves.toEqual({ id: 'r1' });
  });

  it("says plainly what an answer that is not the API's was", async () => {
    const answering = (status: number, body: string) =>
      new RestClient({
        baseUrl: 'http://127.0.0.1:1',
        fetch: (async () =>
          new Response(body, { status, headers: { 'content-type': 'application/json' } })) as typeof fetch,
      });
    // the HTTP server's own answer while the service shuts down
    const closing = answering(503, '{"statusCode":503,"error":"Service Unavailable","message":"Service Unavailable"}');
    const e = await closing.time().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PerpdeskApiError);
    expect(e).toMatchObject({ message: 'The service is unavailable (HTTP 503)', status: 503 });
    await expect(closing.klines('BTCUSDT', '1m')).rejects.toThrow('The service is unavailable (HTTP 503)');
    await expect(answering(418, '{"message":"I am a teapot"}').time()).rejects.toThrow(
      'Unexpected answer from the service (HTTP 418): I am a teapot',
    );
    await expect(answering(200, '<html></html>').time()).rejects.toThrow(
      'Unexpected answer from the service (HTTP 200)',
    );
  });
});
