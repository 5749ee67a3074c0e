// A /ws request the hub fails to serve (a fault of the service's, not a refusal), docs/api.md
// "WebSocket streams": it is answered 5000 with the request's own id once the connection is back
// as it was before it (a SUBSCRIBE that failed half-way keeps none of its streams), and the
// connection goes on; when it cannot be put back, or the answer itself cannot be written, that
// connection alone is closed with 1011. Before, the 5000 went out with id null (a client matching
// answers by id waited for its request until its own timeout), the streams added before the
// failure stayed subscribed behind the error, and an answer whose write threw escaped the
// socket's message event as an uncaught exception (the headless service exits on one).
// Real service, real clients; the fault is injected by making one real part throw once: the
// candle service's read (a kline stream's start), the hub's bookkeeping, the server-side send.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import type { KlineService } from '../../../src-main/market/kline-service.ts';
import { startWsService, until, type TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;
beforeAll(async () => {
  svc = await startWsService();
});
afterAll(async () => svc.close());
afterEach(() => vi.restoreAllMocks());

const BROKEN = 'injected fault';

function klines(): KlineService {
  const k = (svc.venue as { klines?: KlineService }).klines;
  if (k === undefined) throw new Error('the venue has no candle service');
  return k;
}

/** A client and the server's side of its connection. */
async function openWithServer(): Promise<{ c: TestClient; server: WebSocket }> {
  const before = new Set(svc.app.websocketServer.clients);
  const c = await svc.open();
  const fresh = () => [...svc.app.websocketServer.clients].find((s) => !before.has(s));
  await until(() => fresh() !== undefined, 3000, 'the server side');
  return { c, server: fresh()! };
}

describe('a /ws request that fails inside the hub', () => {
  it('is answered 5000 with its id, keeps none of its streams, and the connection goes on', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const c = await svc.open();
    await c.request('SUBSCRIBE', ['price@BTCUSDT'], 1);
    // trade@ is added first, then the kline stream's start reads the candle service, which throws
    vi.spyOn(klines(), 'klines').mockImplementationOnce(() => {
      throw new Error(BROKEN);
    });
    const answer = await c.request('SUBSCRIBE', ['trade@BTCUSDT', 'kline@BTCUSDT,3m'], 'sub-7');
    expect(answer.id).toBe('sub-7');
    expect(answer.error.code).toBe(5000);
    expect(answer.error.message).toMatch(/^Internal error: SUBSCRIBE was not served; nothing of it was applied/);
    expect(errors).toHaveBeenCalledWith('perpdesk: ws request failed', expect.objectContaining({ message: BROKEN }));
    // what the connection had before, nothing of the failed request
    expect((await c.request('LIST_SUBSCRIPTIONS', undefined, 3)).result).toEqual(['price@BTCUSDT']);
    expect(svc.app.wsHub.subs.stream('trade@BTCUSDT')).toBeUndefined();
    expect(svc.app.wsHub.subs.stream('kline@BTCUSDT,3m')).toBeUndefined();
    // and it goes on: the same request now succeeds
    expect((await c.request('SUBSCRIBE', ['trade@BTCUSDT', 'kline@BTCUSDT,3m'], 4)).result).toBeNull();
    expect((await c.request('LIST_SUBSCRIPTIONS', undefined, 5)).result).toEqual([
      'price@BTCUSDT',
      'trade@BTCUSDT',
      'kline@BTCUSDT,3m',
    ]);
  }, 15_000);

  it('closes that connection alone with 1011 when it cannot be put back as it was', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const [bad, other] = [await svc.open(), await svc.open()];
    await other.request('SUBSCRIBE', ['price@BTCUSDT'], 1);
    vi.spyOn(klines(), 'klines').mockImplementationOnce(() => {
      throw new Error(BROKEN);
    });
    // the undo's removal fails too: the connection's streams are then unknown
    const subs = svc.app.wsHub.subs as unknown as { remove: (...a: unknown[]) => void };
    vi.spyOn(subs, 'remove').mockImplementationOnce(() => {
      throw new Error(`${BROKEN} (undo)`);
    });
    bad.sendRaw(JSON.stringify({ method: 'SUBSCRIBE', params: ['trade@BTCUSDT', 'kline@BTCUSDT,5m'], id: 2 }));
    expect(await bad.closed).toEqual({ code: 1011, reason: 'Internal error: the request could not be served' });
    expect(bad.messages.filter((m) => m.id === 2)).toEqual([]);
    expect(errors).toHaveBeenCalledWith(
      'perpdesk: the failed ws request could not be undone; that connection is closed (1011)',
    );
    expect((await other.request('PING', undefined, 3)).result).toBe('PONG');
    // the closed connection's streams are all gone (its close drops every one it had)
    await until(() => svc.app.wsHub.subs.stream('kline@BTCUSDT,5m') === undefined, 3000, 'kline@ gone');
  }, 15_000);

  it('an answer that cannot be written closes that connection with 1011, nothing escapes', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { c: bad, server } = await openWithServer();
    const other = await svc.open();
    const send = server.send;
    server.send = () => {
      server.send = send;
      throw new Error(BROKEN);
    };
    bad.sendRaw(JSON.stringify({ method: 'PING', id: 9 }));
    expect(await bad.closed).toEqual({ code: 1011, reason: 'Internal error: an answer could not be sent' });
    expect(errors).toHaveBeenCalledWith(
      'perpdesk: ws answer failed; that connection is closed (1011)',
      expect.objectContaining({ message: BROKEN }),
    );
    expect((await other.request('PING', undefined, 1)).result).toBe('PONG');
  }, 15_000);
});
