// A client of the /binance streams that stops reading (a bot whose event loop is stuck, a paused
// process) is closed as a slow consumer, 1008, once more than the bound of what was sent to it is
// unsent, as /ws's are; the other connections go on. Until 2026-12-07 the service kept every event
// for it in memory without bound (a paused client on all the market streams grew the service by
// about 100 MB a minute) and the connection stayed open. The bound is lowered here (the app's
// binanceMaxUnsentBytes option) and the events are a user stream's, an order placed and cancelled
// again and again, until the service closes the connection.
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { MAX_UNSENT_BYTES } from '../../../src-main/api/binance/streams/slow-consumer.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { cancelOrder, openingLimit, placeOrder } from '../../helpers/exchange-commands.ts';
import { account, listenKeyCall, listenTo, until, type Service } from './helpers.ts';

const BOUND = 64 * 1024;
const CLOSING = 2;
let svc: Service;

beforeAll(async () => {
  const venue = openVenue({ dataDir: ':memory:' });
  const app = await buildApp({ venue, rateLimit: false, binanceMaxUnsentBytes: BOUND });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  svc = {
    app,
    venue,
    base,
    async close() {
      await app.close();
      await venue.close();
    },
  };
});
afterAll(async () => svc?.close());

it("is Binance's 4 MiB by default, as /ws's bound", () => {
  expect(MAX_UNSENT_BYTES).toBe(4 * 1024 * 1024);
});

it('closes a user stream whose client stops reading (1008 slow consumer); another stream of the key goes on', async () => {
  const c = account(svc.venue, 'slowreader');
  const key = (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey as string;
  const slow = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${key}`);
  let closed: { code: number; reason: string } | undefined;
  slow.on('close', (code, reason) => (closed = { code, reason: String(reason) }));
  await new Promise((r) => slow.once('open', r));
  const other = await listenTo(svc.base, key);
  // the slow client stops reading: the kernel's buffers fill, then the service's
  (slow as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  const closing = () => [...svc.app.websocketServer.clients].some((s) => s.readyState === CLOSING);
  for (let i = 0; i < 20_000 && !closing(); i++) {
    const placed = placeOrder(svc.venue.exchange, c.id, openingLimit(1, '50000.0', '0.010'));
    cancelOrder(svc.venue.exchange, c.id, { symbol: 'BTCUSDT', orderId: Number(placed.order_id) });
    if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  (slow as unknown as { _socket: { resume(): void } })._socket.resume();
  await until(() => closed !== undefined);
  expect(closed).toEqual({ code: 1008, reason: `slow consumer: more than ${BOUND} bytes unsent` });
  // the other connection of the key read along and is still served
  const last = placeOrder(svc.venue.exchange, c.id, openingLimit(1, '50000.0', '0.010'));
  await until(() => other.got.some((e) => e.o?.i === Number(last.order_id) && e.o.X === 'NEW'));
  expect(other.got.filter((e) => e.o?.i === Number(last.order_id)).map((e) => e.o.X)).toEqual(['NEW']);
  await other.close();
});
