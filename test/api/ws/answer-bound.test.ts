// A client that keeps sending requests but has stopped reading: its answers count toward the
// connection's unsent-bytes bound as pushes do, so it is closed as a slow consumer (1008) instead
// of the service holding its answers in memory without end. Real service, a real `ws` client on
// 127.0.0.1 whose socket is paused (it reads nothing), on streams that push nothing (an idle
// venue), so only the answers fill its buffers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWsService, until, type WsService } from './ws-test-client.ts';

let svc: WsService;

beforeAll(async () => {
  svc = await startWsService();
});
afterAll(async () => svc.close());

it('closes a client that stops reading its answers once they pass the bound (1008 slow consumer)', async () => {
  const hub = svc.app.wsHub;
  const c = await svc.open();
  const other = await svc.open();
  // streams of an idle venue: depth@ pushes once to a new subscriber, then only when the book changes
  const names = [...svc.venue.exchange.pairs.keys()].flatMap((s) => [5, 10, 20, 50, 100].map((l) => `depth@${s},${l}`));
  expect(await c.request('SUBSCRIBE', names)).toEqual({ id: expect.any(Number), result: null });
  await until(() => names.every((n) => c.pushes(n).length === 1), 3000, 'the first depth@ pushes');
  const saved = { bound: hub.limits.maxBufferedBytes, rate: hub.limits.maxMessagesPerSecond };
  hub.limits.maxBufferedBytes = 64 * 1024;
  hub.limits.maxMessagesPerSecond = 1_000_000;
  const slowBefore = hub.stats.slowConsumersClosed;
  const socket = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  const list = JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
  let sent = 0;
  try {
    // each answer lists every stream (some 1.3 KB): 20,000 of them are far more than the kernel's buffers hold
    for (; sent < 20_000 && hub.stats.slowConsumersClosed === slowBefore && hub.connectionCount === 2; sent++) {
      c.sendRaw(list);
      if (sent % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    await until(() => hub.connectionCount === 1 || sent >= 20_000, 5000, 'the close');
  } finally {
    hub.limits.maxBufferedBytes = saved.bound;
    hub.limits.maxMessagesPerSecond = saved.rate;
  }
  expect(hub.stats.slowConsumersClosed).toBe(slowBefore + 1);
  socket.resume();
  const closed = await c.closed;
  expect(closed.code).toBe(1008);
  expect(closed.reason).toContain('slow consumer');
  expect(sent).toBeLessThan(20_000);
  // the other connection goes on
  expect(await other.request('PING', undefined, 'here')).toEqual({ id: 'here', result: 'PONG' });
});
