// Fuzz of the facade's stream requests (reference a.4) over real sockets on 127.0.0.1: a seeded
// generator sends malformed control messages (wrong types, missing or out-of-range ids, unknown
// methods and properties, bad stream names, non-JSON and binary frames) mixed with valid ones, on
// every stream path. Each frame must get exactly one answer, Binance's error (code 0-3, its text,
// the id when it could be read) for a bad one; the connection stays usable (LIST_SUBSCRIPTIONS
// and GET_PROPERTY still tell what the valid requests did, and nothing of a refused one); and
// another client's stream keeps delivering. Binance's limits: 10 messages a second (each
// connection here sends 10, then the next one takes over) and 64 KiB frames (its 1024 streams and
// 300 connections: stream-limits.test.ts).
import { tapeTrade } from '../../helpers/exchange-commands.ts';
import { mulberry32 } from '../../helpers/seeded-random.ts';
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, startService, type Service } from './helpers.ts';

let svc: Service;
let wsBase: string;
const SYMBOLS = ['btcusdt', 'ethusdt'];

beforeAll(async () => {
  svc = await startService();
  wsBase = `${svc.base.replace(/^http/, 'ws')}/binance`;
});
afterAll(async () => {
  await svc?.close();
});

/** A socket whose answers (messages with an `id`) are read in order; pushes kept apart. */
class Client {
  readonly ws: WebSocket;
  readonly answers: any[] = [];
  readonly pushes: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private wake: (() => void) | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (d, isBinary) => {
      expect(isBinary).toBe(false);
      const m = JSON.parse(String(d));
      if (typeof m === 'object' && m !== null && 'id' in m) this.answers.push(m);
      else this.pushes.push(m);
      this.wake?.();
    });
    this.closed = new Promise((r) =>
      ws.once('close', (code, why) => (r({ code, reason: String(why) }), this.wake?.())),
    );
  }

  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
    return new Client(ws);
  }

  /** The next answer, 3 s at most (none: the assertion after says what was missing). */
  async next(): Promise<any> {
    for (let i = 0; i < 300 && this.answers.length === 0; i++) {
      if (this.ws.readyState !== WebSocket.OPEN) break;
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 10);
      });
    }
    return this.answers.shift();
  }

  async ask(frame: string | Buffer): Promise<any> {
    this.ws.send(frame, { binary: Buffer.isBuffer(frame) });
    return this.next();
  }
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const VALID_KINDS = ['trade', 'aggTrade', 'bookTicker', 'depth@100ms', 'depth20', 'markPrice@1s', 'kline_1m', 'ticker'];
const BAD_STREAMS: unknown[] = [
  'BTCUSDT@trade',
  'btcusdt@depth@250ms',
  'btcusdt@kline_7m',
  'btcusdt@kline_1s',
  'btcusdt@nothing',
  'btcusdt',
  '@trade',
  '',
  '!bogus@arr',
  'btc-usdt@trade',
  '__proto__@trade',
  'btcusdt@trade ',
  7,
  null,
  true,
  { stream: 'btcusdt@trade' },
  ['btcusdt@trade'],
];
const BAD_IDS: unknown[] = [-1, 1.5, -0.5, 2 ** 53, 1e300, '1', 'abc', null, true, {}, [1]];
const NOT_OBJECTS = ['null', '1', '"SUBSCRIBE"', '[]', '[{"method":"SUBSCRIBE","id":1}]', 'true'];
const NOT_JSON = [
  '',
  'x',
  '{',
  '{"method":"SUBSCRIBE"',
  "{'method':'SUBSCRIBE'}",
  '{"id":1,}',
  'SUBSCRIBE btcusdt@trade',
];

const INVALID = 2;
type Expect = { code: number; msg: string | RegExp; id: number | null } | { result: unknown; id: number };

/** The model of one connection: what the valid requests did. */
interface Model {
  subs: string[];
  combined: boolean;
}

/** One generated frame and the answer the documentation gives for it (the model updated for a valid one). */
function generate(r: Rand, id: number, model: Model): { frame: string | Buffer; expect: Expect } {
  const validStream = () =>
    r() < 0.15 ? pick(r, ['!markPrice@arr@1s', '!miniTicker@arr']) : `${pick(r, SYMBOLS)}@${pick(r, VALID_KINDS)}`;
  const bad = (msg: string | RegExp, code = INVALID, eid: number | null = id): Expect => ({ code, msg, id: eid });
  switch (Math.floor(r() * 14)) {
    case 0:
      return { frame: pick(r, NOT_JSON), expect: bad('Invalid JSON: the message is not JSON', 3, null) };
    case 1:
      return { frame: Buffer.from([0x7b, 0x22, r() * 256]), expect: bad(/^Invalid JSON: a binary frame/, 3, null) };
    case 2:
      return { frame: pick(r, NOT_OBJECTS), expect: bad(/^Invalid request: expected a JSON object/, INVALID, null) };
    case 3:
      return {
        frame: JSON.stringify({ params: [validStream()], id }),
        expect: bad('Invalid request: missing field `method`'),
      };
    case 4: {
      const method = pick(r, ['subscribe', 'SUB', 'PING', 'LIST', 7, null, ['SUBSCRIBE'], { m: 1 }, 'GET_PROPERTY ']);
      return {
        frame: JSON.stringify({ method, params: [], id }),
        expect: bad(/^Invalid request: unknown variant .*, expected one of SUBSCRIBE, UNSUBSCRIBE/),
      };
    }
    case 5: {
      const badId = pick(r, BAD_IDS);
      const msg = { method: pick(r, ['SUBSCRIBE', 'UNSUBSCRIBE', 'SET_PROPERTY']), params: [validStream()] };
      const frame = r() < 0.2 ? JSON.stringify(msg) : JSON.stringify({ ...msg, id: badId });
      return { frame, expect: bad(/^Invalid request: request ID must be an unsigned integer/, INVALID, null) };
    }
    case 6:
      return {
        frame: JSON.stringify({ method: 'SUBSCRIBE', params: pick(r, ['btcusdt@trade', 1, { a: 1 }, true]), id }),
        expect: bad('Invalid request: params must be an array'),
      };
    case 7: {
      const b = pick(r, BAD_STREAMS);
      const params = [validStream(), b, validStream()];
      return {
        frame: JSON.stringify({ method: pick(r, ['SUBSCRIBE', 'UNSUBSCRIBE']), params, id }),
        expect: bad(/^Invalid request: unknown stream /),
      };
    }
    case 8: {
      const unlisted = `${pick(r, ['zzzusdt', 'btcusdc', 'foo1'])}@${pick(r, VALID_KINDS)}`;
      return {
        frame: JSON.stringify({ method: 'SUBSCRIBE', params: [validStream(), unlisted], id }),
        expect: bad(`Invalid request: unknown symbol in stream ${JSON.stringify(unlisted)}`),
      };
    }
    case 9: {
      const cases: [unknown[] | undefined, Expect][] = [
        [['combined', 'yes'], bad('Invalid value type: expected Boolean', 1)],
        [['combined', 1], bad('Invalid value type: expected Boolean', 1)],
        [['combined'], bad('Invalid value type: expected Boolean', 1)],
        [['foo', true], bad('Unknown property', 0)],
        [['Combined', false], bad('Unknown property', 0)],
        [[true, 'combined'], bad('Invalid request: property name must be a string')],
        [[], bad('Invalid request: property name must be a string')],
        [undefined, bad('Invalid request: property name must be a string')],
        [['combined', true, 1], bad('Invalid request: too many parameters')],
      ];
      const [params, expect] = pick(r, cases);
      return { frame: JSON.stringify({ method: 'SET_PROPERTY', params, id }), expect };
    }
    case 10: {
      const cases: [unknown[] | undefined, Expect][] = [
        [['foo'], bad('Unknown property', 0)],
        [[1], bad('Invalid request: property name must be a string')],
        [undefined, bad('Invalid request: property name must be a string')],
        [['combined', 'combined'], bad('Invalid request: too many parameters')],
        [['combined'], { result: model.combined, id }],
      ];
      const [params, expect] = pick(r, cases);
      return { frame: JSON.stringify({ method: 'GET_PROPERTY', params, id }), expect };
    }
    case 11:
      return r() < 0.5
        ? {
            frame: JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', params: ['btcusdt@trade'], id }),
            expect: bad('Invalid request: too many parameters'),
          }
        : { frame: JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id }), expect: { result: [...model.subs], id } };
    case 12: {
      const streams = [validStream(), validStream()];
      const method = r() < 0.7 ? 'SUBSCRIBE' : 'UNSUBSCRIBE';
      for (const s of streams) {
        if (method === 'SUBSCRIBE' && !model.subs.includes(s)) model.subs.push(s);
        if (method === 'UNSUBSCRIBE') model.subs = model.subs.filter((x) => x !== s);
      }
      return { frame: JSON.stringify({ method, params: streams, id }), expect: { result: null, id } };
    }
    default: {
      const combined = r() < 0.5;
      model.combined = combined;
      return {
        frame: JSON.stringify({ method: 'SET_PROPERTY', params: ['combined', combined], id }),
        expect: { result: null, id },
      };
    }
  }
}

function check(got: any, want: Expect, frame: string | Buffer): void {
  const what = `answer to ${Buffer.isBuffer(frame) ? 'a binary frame' : frame}`;
  if ('result' in want) {
    expect(got, what).toEqual(want);
    return;
  }
  expect(got, what).toEqual({ error: { code: want.code, msg: expect.any(String) }, id: want.id });
  if (typeof want.msg === 'string') expect(got.error.msg, what).toBe(want.msg);
  else expect(got.error.msg, what).toMatch(want.msg);
}

const PATHS = [
  '/ws',
  '/stream',
  '/public/ws/3',
  '/market/ws/12',
  '/public/stream',
  '/market/stream',
  '/ws/btcusdt@trade',
];

describe('the facade streams answer malformed requests with Binance errors (seeded fuzz)', () => {
  it('every frame gets its documented answer, the connection stays usable, other streams keep flowing', async () => {
    const observer = await Client.open(`${wsBase}/stream?streams=btcusdt@aggTrade`);
    const r = mulberry32(20260312);
    let id = 1;
    for (let n = 0; n < 40; n++) {
      const path = pick(r, PATHS);
      const c = await Client.open(`${wsBase}${path}`);
      const model: Model = {
        subs: path.endsWith('@trade') ? ['btcusdt@trade'] : [],
        combined: path.includes('/stream'),
      };
      // 8 generated frames, then LIST_SUBSCRIPTIONS and GET_PROPERTY: 10 messages, Binance's limit a second
      for (let i = 0; i < 8; i++) {
        const { frame, expect: want } = generate(r, id++, model);
        check(await c.ask(frame), want, frame);
      }
      expect(await c.ask(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id }))).toEqual({ result: model.subs, id });
      id++;
      const prop = JSON.stringify({ method: 'GET_PROPERTY', params: ['combined'], id });
      expect(await c.ask(prop)).toEqual({ result: model.combined, id });
      id++;
      expect(c.ws.readyState).toBe(WebSocket.OPEN);
      c.ws.close();
      await c.closed;
    }
    // the other client's stream still delivers: a trade is sent to it
    const ex = svc.venue.exchange;
    const maker = account(svc.venue, 'fuzz-maker');
    const taker = account(svc.venue, 'fuzz-taker');
    tapeTrade(ex, maker.id, taker.id, '0.010');
    for (let i = 0; i < 100 && !observer.pushes.some((m) => m.stream === 'btcusdt@aggTrade'); i++)
      await new Promise((res) => setTimeout(res, 20));
    expect(observer.pushes.find((m) => m.stream === 'btcusdt@aggTrade')?.data).toMatchObject({
      e: 'aggTrade',
      s: 'BTCUSDT',
      q: '0.010',
    });
    expect(observer.ws.readyState).toBe(WebSocket.OPEN);
    observer.ws.close();
  }, 60_000);
});

describe('a request that fails to be read', () => {
  it('a value nested 30 000 levels deep (under 64 KiB) is refused as code 2; the connection, other clients and the service go on', async () => {
    // it parses, but showing it in the error text overflowed JSON.stringify's stack: the throw left
    // the message handler and ended the process (every client, the venue)
    const other = await Client.open(`${wsBase}/stream?streams=btcusdt@aggTrade`);
    const c = await Client.open(`${wsBase}/ws`);
    expect(await c.ask(JSON.stringify({ method: 'SUBSCRIBE', params: ['ethusdt@trade'], id: 1 }))).toEqual({
      result: null,
      id: 1,
    });
    const deep = (at: string) => '['.repeat(30_000) + ']'.repeat(30_000) + at;
    expect(await c.ask(`{"method":${deep(',"id":2}')}`)).toEqual({
      error: {
        code: INVALID,
        msg: 'Invalid request: unknown variant a value nested too deeply to show, expected one of SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS, SET_PROPERTY, GET_PROPERTY',
      },
      id: 2,
    });
    expect(await c.ask(`{"method":"SUBSCRIBE","id":3,"params":["btcusdt@trade",${deep(']}')}`)).toEqual({
      error: { code: INVALID, msg: 'Invalid request: unknown stream a value nested too deeply to show' },
      id: 3,
    });
    // nothing of the refused SUBSCRIBE was taken; the connection still answers
    expect(await c.ask(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 4 }))).toEqual({
      result: ['ethusdt@trade'],
      id: 4,
    });
    // the other client, on the same service, is served as before
    expect(await other.ask(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 5 }))).toEqual({
      result: ['btcusdt@aggTrade'],
      id: 5,
    });
    other.ws.close();
    c.ws.close();
  });
});

describe("Binance's connection limits", () => {
  it('an 11th message within a second closes the connection (1008) after answering the 10 before it', async () => {
    const c = await Client.open(`${wsBase}/ws`);
    for (let i = 1; i <= 11; i++) c.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: i }));
    const late = new Promise((r) => setTimeout(() => r('still open after 3 s'), 3000));
    expect(await Promise.race([c.closed, late])).toEqual({
      code: 1008,
      reason: 'Too many messages: at most 10 per second',
    });
    c.ws.terminate();
    expect(c.answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a frame over 64 KiB closes its connection (1009), and no other', async () => {
    const other = await Client.open(`${wsBase}/ws`);
    const c = await Client.open(`${wsBase}/ws`);
    c.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1, pad: 'x'.repeat(64 * 1024) }));
    expect((await c.closed).code).toBe(1009);
    expect(await other.ask(JSON.stringify({ method: 'GET_PROPERTY', params: ['combined'], id: 2 }))).toEqual({
      result: false,
      id: 2,
    });
    other.ws.close();
  });
});

/** A raw GET of `path` with `headers`: the HTTP answer (status, content type, body), or 101 when upgraded. */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type?: string; body: string }> {
  const { port } = new URL(svc.base);
  return new Promise((resolve, reject) => {
    const rq = request({ host: '127.0.0.1', port, path, headers });
    rq.on('response', (r) => {
      let body = '';
      r.on('data', (d) => (body += d));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, type: r.headers['content-type'], body }));
    });
    rq.on('upgrade', (r, socket) => (socket.destroy(), resolve({ status: r.statusCode ?? 0, body: '' })));
    rq.on('error', reject);
    rq.end();
  });
}

describe('what refuses an upgrade, as the OpenAPI document lists it (101, 400, 403)', () => {
  const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' };
  const key = 'dGhlIHNhbXBsZSBub25jZQ==';

  it('an upgrade is 101; a plain GET is 400 / -1000; a malformed handshake is 400 text/html', async () => {
    expect(
      (await rawGet('/binance/market/stream?streams=btcusdt@trade', { ...upgrade, 'sec-websocket-key': key })).status,
    ).toBe(101);
    const plain = await rawGet('/binance/public/ws/1', {});
    expect(plain.status).toBe(400);
    expect(JSON.parse(plain.body)).toEqual({
      code: -1000,
      msg: '/public/ws is a WebSocket endpoint: connect with Upgrade: websocket.',
    });
    const bad = await rawGet('/binance/ws', { ...upgrade, 'sec-websocket-key': 'short' });
    expect(bad).toMatchObject({ status: 400, type: 'text/html', body: 'Missing or invalid Sec-WebSocket-Key header' });
  });

  it('a Host of another site is 403 / -1002, upgrade or not', async () => {
    for (const headers of [{ host: 'evil.example' }, { ...upgrade, 'sec-websocket-key': key, host: 'evil.example' }]) {
      const r = await rawGet('/binance/stream/btcusdt@trade', headers);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body).code).toBe(-1002);
    }
  });
});
