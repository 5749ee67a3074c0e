// WsClient when a reconnect does not restore everything: the re-login is refused (the API key
// was rotated), the server ends the login (`logged_out`), a stream is refused, or the service is
// not there at all. The public streams always come back, private ones only after a successful
// login, each loss is reported (onError, loginState, subscriptions), a LocalOrderBook whose
// delta stream is not subscribed never reports 'live', and requests that could not be sent say so.
import { describe, expect, it } from 'vitest';
import { LocalOrderBook, type DepthSnapshot } from '../../../src-shared/sdk/local-order-book.ts';
import { WsClient, WsConnectionError, WsLoginLostError, WsRequestError } from '../../../src-shared/sdk/ws-client.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';
import { FakeVenue, flush } from './fake-venue.ts';

const DELTAS = 'depth_update@BTCUSDT';
const PUBLIC = [DELTAS, 'depth@BTCUSDT,20', 'trade@BTCUSDT'];

function setup() {
  const venue = new FakeVenue();
  const sched = new ManualScheduler();
  const ws = new WsClient({
    url: 'ws://fake/ws',
    WebSocket: venue.WebSocket,
    scheduler: sched,
    reconnectBaseMs: 100,
    reconnectJitter: 0,
    requestTimeoutMs: 60_000,
  });
  const errors: unknown[] = [];
  ws.onError((e) => errors.push(e));
  const fetches: Array<(s: DepthSnapshot) => void> = [];
  const book = new LocalOrderBook({
    symbol: 'BTCUSDT',
    fetchSnapshot: () => new Promise<DepthSnapshot>((resolve) => fetches.push(resolve)),
    scheduler: sched,
    verifyIdleMs: 0,
    onError: () => {},
  });
  book.followConnection(ws);
  return { venue, sched, ws, errors, book, fetches };
}

/** Logged in with key-1, subscribed to the public streams and `user`, the book live. */
async function running() {
  const t = setup();
  t.ws.connect();
  t.venue.socket(0).open();
  await t.ws.login(() => ({ key: 'key-1' }));
  await t.ws.subscribe([...PUBLIC, 'user']);
  t.book.start();
  t.fetches[0]({ id: 5, bids: [['100', '1']], asks: [['101', '1']] });
  await flush();
  expect(t.book.state).toBe('live');
  return t;
}

/** Drops the current socket and opens the next one after the backoff. */
async function reconnect(t: ReturnType<typeof setup>, n: number): Promise<void> {
  t.venue.socket(n - 1).drop();
  t.sched.advance(100);
  t.venue.socket(n).open();
  await flush();
}

describe('WsClient: what a reconnect restores', () => {
  it('a refused re-login keeps the public streams: user waits for the next login(), which restores it', async () => {
    const t = await running();
    t.venue.key = 'key-2'; // the key was regenerated
    await reconnect(t, 1);

    const s1 = t.venue.socket(1);
    expect(s1.sent.map((m) => m.method)).toEqual(['LOGIN', 'SUBSCRIBE']);
    expect([...s1.subs]).toEqual(PUBLIC);
    expect(t.ws.subscriptions).toEqual(PUBLIC);
    expect(t.ws.loginState).toBe('lost');
    const lost = t.errors.find((e) => e instanceof WsLoginLostError) as WsLoginLostError;
    expect(lost.code).toBe(2002);
    expect(lost.message).toMatch(/re-login after a reconnect was refused: Unknown API key; user off until login\(\)/);

    // the book is live again on its restored deltas
    expect(t.fetches).toHaveLength(2);
    t.fetches[1]({ id: 9, bids: [['100', '3']], asks: [] });
    await flush();
    expect(t.book.state).toBe('live');

    // a login with the new key brings user back
    await t.ws.login(() => ({ key: 'key-2' }));
    expect(t.ws.loginState).toBe('logged_in');
    expect(s1.sent.slice(2).map((m) => [m.method, m.params])).toEqual([
      ['LOGIN', { key: 'key-2' }],
      ['SUBSCRIBE', ['user']],
    ]);
    expect(t.ws.subscriptions).toEqual([...PUBLIC, 'user']);
    await reconnect(t, 2);
    expect([...t.venue.socket(2).subs]).toEqual([...PUBLIC, 'user']);
  });

  it("the server's logged_out push ends the login: user is off, and the dead key is not sent again", async () => {
    const t = await running();
    const gone = { kind: 'logged_out', data: { code: 2002, message: 'The API key of this login was regenerated' } };
    const seen: unknown[] = [];
    t.ws.on('user', (d) => seen.push(d));
    t.venue.socket(0).push('user', gone);
    expect(seen).toEqual([gone]);
    expect(t.ws.loginState).toBe('lost');
    expect(t.ws.subscriptions).toEqual(PUBLIC);
    expect(t.errors.filter((e) => e instanceof WsLoginLostError)).toHaveLength(1);
    await reconnect(t, 1);
    expect(t.venue.socket(1).sent.map((m) => [m.method, m.params])).toEqual([['SUBSCRIBE', PUBLIC]]);
  });

  it("the server's whitelist_removed push ends bot: it leaves subscriptions, is reported, and a reconnect does not ask for it", async () => {
    // before, bot stayed in subscriptions although the server had ended it, so a bot reading them
    // never subscribed again, and each reconnect asked for it again
    const t = await running();
    await t.ws.subscribe(['bot']);
    expect(t.ws.subscriptions).toEqual([...PUBLIC, 'user', 'bot']);
    const changes: string[][] = [];
    t.ws.onSubscriptionsChange((subs) => changes.push([...subs]));
    const gone = { kind: 'whitelist_removed', data: { code: 2101, message: 'taken off the bot whitelist' } };
    const seen: unknown[] = [];
    t.ws.on('bot', (d) => seen.push(d));
    t.venue.socket(0).push('bot', { kind: 'order', data: { id: '7' } });
    expect(t.ws.subscriptions).toContain('bot');
    t.venue.socket(0).push('bot', gone);
    expect(seen).toEqual([{ kind: 'order', data: { id: '7' } }, gone]);
    expect(t.ws.subscriptions).toEqual([...PUBLIC, 'user']);
    expect(changes).toEqual([[...PUBLIC, 'user']]);
    const ended = t.errors.filter((e) => e instanceof WsRequestError) as WsRequestError[];
    expect(ended.map((e) => [e.code, e.message])).toEqual([
      [2101, 'The server ended the bot stream (taken off the bot whitelist); it is no longer subscribed'],
    ]);
    expect(t.ws.loginState).toBe('logged_in');
    await reconnect(t, 1);
    expect(t.venue.socket(1).sent.map((m) => m.method)).toEqual(['LOGIN', 'SUBSCRIBE']);
    expect([...t.venue.socket(1).subs]).toEqual([...PUBLIC, 'user']);
    // back on the list, subscribing again works as a first subscription
    await t.ws.subscribe(['bot']);
    expect(t.ws.subscriptions).toEqual([...PUBLIC, 'user', 'bot']);
  });

  it('a stream refused at the re-subscription costs only itself, and is reported', async () => {
    const t = await running();
    t.venue.refused.add('trade@BTCUSDT');
    await reconnect(t, 1);
    expect([...t.venue.socket(1).subs].sort()).toEqual([DELTAS, 'depth@BTCUSDT,20', 'user'].sort());
    expect(t.ws.subscriptions).toEqual([DELTAS, 'depth@BTCUSDT,20', 'user']);
    const refused = t.errors.filter((e) => e instanceof WsRequestError) as WsRequestError[];
    expect(refused.map((e) => [e.code, e.message.slice(0, 44)])).toEqual([
      [1101, 'Re-subscribing trade@BTCUSDT after a reconne'],
    ]);
    expect(t.book.state).toBe('resyncing');
    t.fetches[1]({ id: 9, bids: [], asks: [] });
    await flush();
    expect(t.book.state).toBe('live');
  });

  it('a 5000 (the service failed, nothing refused) at the re-login or re-subscription costs nothing: a new connection restores all', async () => {
    // before, a 5000 was taken as a refusal: the re-login's source was forgotten (user off until
    // the bot called login() again), or the stream it named was dropped from subscriptions for good
    for (const method of ['LOGIN', 'SUBSCRIBE']) {
      const t = await running();
      t.venue.faults.push(method);
      await reconnect(t, 1);
      const faults = t.errors.filter((e) => e instanceof WsRequestError) as WsRequestError[];
      expect(
        faults.map((e) => [e.code, e.method]),
        method,
      ).toEqual([[5000, method]]);
      expect(t.ws.state, method).toBe('reconnecting'); // that connection is dropped
      expect(t.venue.sockets, method).toHaveLength(2);
      t.sched.advance(200); // the backoff (second attempt in a row: 2 x 100 ms)
      t.venue.socket(2).open();
      await flush();
      expect(
        t.venue.socket(2).sent.map((m) => m.method),
        method,
      ).toEqual(['LOGIN', 'SUBSCRIBE']);
      expect([...t.venue.socket(2).subs], method).toEqual([...PUBLIC, 'user']);
      expect(t.ws.subscriptions, method).toEqual([...PUBLIC, 'user']);
      expect(t.ws.loginState, method).toBe('logged_in');
      expect(
        t.errors.filter((e) => e instanceof WsLoginLostError),
        method,
      ).toEqual([]);
    }
  });

  it('a re-login or re-subscription left unanswered (the service hung) is no refusal: a new connection restores all', async () => {
    // before, an unanswered re-login lost the login: user stayed off and loginState 'lost' even
    // after the next reconnect's re-login was accepted; an unanswered re-subscription was taken
    // as done, the streams listed in subscriptions but never pushed on that connection
    for (const method of ['LOGIN', 'SUBSCRIBE']) {
      const t = await running();
      t.venue.unanswered.push(method);
      await reconnect(t, 1);
      t.sched.advance(60_000); // the request timeout
      await flush();
      const errors = t.errors.filter((e) => e instanceof WsRequestError) as WsRequestError[];
      expect(
        errors.map((e) => [e.kind, e.method]),
        method,
      ).toEqual([['timeout', method]]);
      expect(t.ws.state, method).toBe('reconnecting'); // that connection is dropped
      t.sched.advance(200); // the backoff (second attempt in a row: 2 x 100 ms)
      t.venue.socket(2).open();
      await flush();
      expect(
        t.venue.socket(2).sent.map((m) => m.method),
        method,
      ).toEqual(['LOGIN', 'SUBSCRIBE']);
      expect([...t.venue.socket(2).subs], method).toEqual([...PUBLIC, 'user']);
      expect(t.ws.subscriptions, method).toEqual([...PUBLIC, 'user']);
      expect(t.ws.loginState, method).toBe('logged_in');
      expect(
        t.errors.filter((e) => e instanceof WsLoginLostError),
        method,
      ).toEqual([]);
    }
  });

  it('a LocalOrderBook whose delta stream was refused stays out of live until it is subscribed again', async () => {
    const t = await running();
    t.venue.refused.add(DELTAS);
    await reconnect(t, 1);
    expect(t.ws.subscriptions).not.toContain(DELTAS);
    expect(t.fetches).toHaveLength(1); // no snapshot for deltas that will not come
    expect(t.book.state).toBe('resyncing');
    t.venue.refused.clear();
    await t.ws.subscribe([DELTAS]);
    expect(t.fetches).toHaveLength(2);
    t.fetches[1]({ id: 9, bids: [], asks: [] });
    await flush();
    expect(t.book.state).toBe('live');
    // unsubscribing the deltas on a live connection takes the book out of live too
    await t.ws.unsubscribe([DELTAS]);
    expect(t.book.state).toBe('resyncing');
  });
});

describe('WsClient: the service is down', () => {
  it('a client never connected: whenReady() and requests fail with the reason, and it keeps trying', async () => {
    const t = setup();
    t.ws.connect();
    const ready = t.ws.whenReady();
    const queued = t.ws.subscribe(PUBLIC);
    t.venue.socket(0).drop();
    await expect(ready).rejects.toBeInstanceOf(WsConnectionError);
    await expect(ready).rejects.toThrow(
      /^Cannot reach the service at ws:\/\/fake\/ws: the WebSocket connection failed/,
    );
    await expect(queued).rejects.toMatchObject({ kind: 'disconnected', method: 'SUBSCRIBE' });
    await expect(queued).rejects.toThrow(/^SUBSCRIBE was not sent: Cannot reach the service at ws:\/\/fake\/ws/);
    // made while it is down: refused at once, not after the request timeout
    await expect(t.ws.listSubscriptions()).rejects.toMatchObject({ kind: 'disconnected' });
    expect(t.errors.every((e) => e instanceof WsConnectionError)).toBe(true);
    expect(t.errors).toHaveLength(1);

    // the next attempt succeeds: a new whenReady() resolves, requests go out again
    const next = t.ws.whenReady();
    t.sched.advance(100);
    t.venue.socket(1).open();
    await next;
    await expect(t.ws.subscribe(PUBLIC)).resolves.toBeNull();
  });

  it('before connect(): whenReady() says to call it, and a request waiting for it says so at its timeout', async () => {
    const t = setup();
    await expect(t.ws.whenReady()).rejects.toThrow('WsClient is not connected: call connect() first');
    const p = t.ws.listSubscriptions();
    t.sched.advance(60_000);
    await expect(p).rejects.toMatchObject({ kind: 'disconnected', method: 'LIST_SUBSCRIPTIONS' });
    await expect(p).rejects.toThrow(
      'LIST_SUBSCRIPTIONS was not sent in 60000 ms: the client is not connected (call connect() first)',
    );
    // a request made before connect() still goes out once it is connected
    const queued = t.ws.subscribe(PUBLIC);
    t.ws.connect();
    t.venue.socket(0).open();
    await expect(queued).resolves.toBeNull();
    await expect(t.ws.whenReady()).resolves.toBeUndefined();
  });

  it('an established client queues requests while it reconnects; one never sent says so at its timeout', async () => {
    const t = await running();
    t.venue.socket(0).drop();
    const p = t.ws.listSubscriptions();
    t.sched.advance(100);
    t.venue.socket(1).drop(); // still down
    t.sched.advance(60_000);
    await expect(p).rejects.toMatchObject({ kind: 'disconnected' });
    await expect(p).rejects.toThrow('LIST_SUBSCRIPTIONS was not sent: no connection to ws://fake/ws for 60000 ms');
  });

  it('against a real closed port: a clear WsConnectionError, not an empty ErrorEvent', async () => {
    const errors: unknown[] = [];
    const ws = new WsClient({ url: 'ws://127.0.0.1:1/ws', scheduler: new ManualScheduler() });
    ws.onError((e) => errors.push(e));
    ws.connect();
    await expect(ws.whenReady()).rejects.toThrow('Cannot reach the service at ws://127.0.0.1:1/ws');
    await expect(ws.subscribe(['trade@BTCUSDT'])).rejects.toMatchObject({ kind: 'disconnected' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WsConnectionError);
    ws.close();
  });

  it('a url that is no ws:// or wss:// URL is refused at construction, before any attempt (it was retried for ever)', () => {
    const attempts: string[] = [];
    class Counting {
      constructor(url: string) {
        attempts.push(url);
        throw new SyntaxError('not a WebSocket URL');
      }
    }
    const sched = new ManualScheduler();
    for (const url of ['127.0.0.1:8787/ws', 'localhost:8787/ws', 'http://127.0.0.1:8787/ws', '']) {
      expect(() => new WsClient({ url, scheduler: sched, WebSocket: Counting as never })).toThrow(
        new TypeError(
          `url '${url}' is not a ws:// or wss:// URL; give the service's WebSocket address, such as ws://127.0.0.1:8787/ws`,
        ),
      );
    }
    expect(attempts).toEqual([]);
    for (const url of ['ws://127.0.0.1:8787/ws', 'wss://example.test/ws']) {
      expect(() => new WsClient({ url, scheduler: sched, WebSocket: Counting as never }).close()).not.toThrow();
    }
  });
});
