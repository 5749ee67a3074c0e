// The screen's sockets reconnect as soon as the service is seen to be back, not at the end of
// their backoff (lib/service-back.ts, as services.ts wires it): a small venue on 127.0.0.1 (REST
// and /ws on one port) goes away while the screen's WsClient is connected and comes back on the
// same port; the client's reconnect delays run on a manual scheduler that this test never
// advances past the first failures, so only a sign (a REST answer, the window's focus or online)
// can bring it back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { WsClient, type WsCloseInfo } from '../../src-shared/sdk/ws-client.ts';
import { createServiceBack, watchWindowSigns } from '../../src-renderer/src/lib/service-back.ts';
import { watchedRestClient } from '../../src-renderer/src/lib/store-status.ts';
import { ManualScheduler } from '../helpers/manual-scheduler.ts';

/** REST (`{code: 0, data}` to everything) and a /ws answering every request, on `port`. */
async function venue(port = 0): Promise<{ port: number; close(): Promise<void> }> {
  const http: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ code: 0, message: 'OK', data: { server_time: 1 } }));
  });
  const wss = new WebSocketServer({ server: http, path: '/ws' });
  wss.on('connection', (ws) =>
    ws.on('message', (raw) => {
      const { id } = JSON.parse(String(raw)) as { id: number };
      ws.send(JSON.stringify({ id, result: null }));
    }),
  );
  await new Promise<void>((r) => http.listen(port, '127.0.0.1', r));
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      http.closeAllConnections();
      await new Promise<void>((r) => wss.close(() => http.close(() => r())));
    },
  };
}

const next = <T>(register: (fn: (v: T) => void) => () => void): Promise<T> =>
  new Promise((resolve) => {
    const off = register((v) => {
      off();
      resolve(v);
    });
  });

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A connected screen socket whose venue then went away: waiting out its 4th delay (800 ms). */
async function waitingSocket() {
  let v = await venue();
  const port = v.port;
  cleanups.push(() => v.close());
  const sched = new ManualScheduler();
  const ws = new WsClient({
    url: `ws://127.0.0.1:${port}/ws`,
    scheduler: sched,
    reconnectBaseMs: 100,
    reconnectJitter: 0,
    requestTimeoutMs: 60_000,
  });
  cleanups.push(() => ws.close());
  const back = createServiceBack();
  back.follow(ws);
  // as services.ts builds the screen's REST client: every answer of the venue is a sign
  const api = watchedRestClient({ baseUrl: `http://127.0.0.1:${port}` }, () => back.seen());
  ws.connect();
  await ws.whenReady();
  await ws.subscribe(['trade@BTCUSDT']);

  let closed = next<WsCloseInfo>((fn) => ws.onClose(fn));
  await v.close();
  await closed;
  for (const ms of [100, 200, 400]) {
    closed = next((fn) => ws.onClose(fn));
    sched.advance(ms);
    await closed;
  }
  expect(sched.delays().filter((ms) => ms < 60_000)).toEqual([800]);
  // a REST request while the venue is away is no sign
  await expect(api.request('GET', '/fapi/v1/time')).resolves.toMatchObject({ networkError: expect.any(String) });
  expect(ws.state).toBe('reconnecting');
  expect(sched.delays().filter((ms) => ms < 60_000)).toEqual([800]);

  const restart = async (): Promise<void> => {
    v = await venue(port);
  };
  return { ws, sched, back, api, restart };
}

describe('the screen sockets reconnect once the service is seen to be back', () => {
  it('a REST answer from the restarted service reconnects the socket waiting out its delay', async () => {
    const t = await waitingSocket();
    await t.restart();
    const reconnected = next<void>((fn) => t.ws.onReconnect(() => fn()));
    await t.api.request('GET', '/fapi/v1/time');
    // the answer cut the 800 ms delay short: an attempt is under way, no delay is run out for it
    expect(t.sched.delays().filter((ms) => ms < 60_000)).toEqual([]);
    await reconnected;
    expect([t.ws.state, t.ws.subscriptions]).toEqual(['open', ['trade@BTCUSDT']]);
  });

  it.each(['focus', 'online'])('the window event %s reconnects it too; a stopped watch does nothing', async (type) => {
    const t = await waitingSocket();
    await t.restart();
    const win = new EventTarget();
    const stop = watchWindowSigns(t.back, win);
    stop();
    win.dispatchEvent(new Event(type));
    expect(t.sched.delays().filter((ms) => ms < 60_000)).toEqual([800]);

    cleanups.push(watchWindowSigns(t.back, win));
    const reconnected = next<void>((fn) => t.ws.onReconnect(() => fn()));
    win.dispatchEvent(new Event(type));
    expect(t.sched.delays().filter((ms) => ms < 60_000)).toEqual([]);
    await reconnected;
    expect(t.ws.state).toBe('open');
  });

  it('a socket no longer followed is left to its backoff', async () => {
    const t = await waitingSocket();
    const other = createServiceBack();
    const off = other.follow(t.ws);
    off();
    await t.restart();
    other.seen();
    expect(t.sched.delays().filter((ms) => ms < 60_000)).toEqual([800]);
  });
});
