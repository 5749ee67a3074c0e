// What the WebSocket hubs keep after their clients leave: nothing. Several hundred clients on /ws
// (market streams of every kind, LOGIN and the user stream) and on the Binance dialect's
// endpoints (market streams, a listenKey user stream) connect, receive pushes while orders
// trade, and leave, abruptly or with a close handshake; afterwards every connection, stream,
// feed and user entry is gone, the exchange has no listener more than before, and the `ws`
// server holds no client. A structural check: the memory figure itself (RSS before and after
// 2,000 clients) is bench/ws-memory.bench.ts's, since an RSS threshold in a test would flake.
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { makeAccount } from '../../helpers/signed.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../../src-main/api/app.ts';
import { hmacSha256Hex, loginPayload } from '../../../src-shared/sign.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import { until } from './ws-test-client.ts';

let venue: Venue;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  base = `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});

afterAll(async () => {
  await app.close();
  venue.close();
});

function open(path: string): Promise<{ ws: WebSocket; got: string[] }> {
  const ws = new WebSocket(`ws://${base}${path}`);
  const got: string[] = [];
  ws.on('message', (d) => got.push(String(d)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, got }));
    ws.once('error', reject);
  });
}

function request(
  c: { ws: WebSocket; got: string[] },
  msg: { method: string; params: unknown; id: number },
): Promise<unknown> {
  c.ws.send(JSON.stringify(msg));
  return until(() => c.got.some((m) => m.includes(`"id":${msg.id}`)), 5000, `answer ${msg.id}`);
}

const EVENTS = ['level', 'trade', 'account', 'setting'] as const;
const listeners = () => EVENTS.map((k) => venue.exchange.events.count(k));

describe('WebSocket memory', () => {
  it('keeps no connection, stream, feed, user entry or listener once 360 clients have left', async () => {
    const before = listeners();
    const user = makeAccount(venue, 'memuser');
    const streams = [
      'depth@BTCUSDT,5',
      'depth_update@BTCUSDT',
      'trade@BTCUSDT',
      'price@ETHUSDT',
      'kline@BTCUSDT,1m',
      'depth_update@ETHUSDT',
    ];
    const clients: Array<{ ws: WebSocket; got: string[] }> = [];
    // 240 on /ws, each on two streams; every tenth also logged in on the user stream
    for (let i = 0; i < 240; i += 40) {
      const batch = await Promise.all(Array.from({ length: 40 }, () => open('/ws')));
      await Promise.all(
        batch.map(async (c, k) => {
          const n = i + k;
          await request(c, { method: 'SUBSCRIBE', params: [streams[n % 6], streams[(n + 1) % 6]], id: 1 });
          if (n % 10 === 0) {
            const ts = Date.now();
            const signature = hmacSha256Hex(user.apiSecret, loginPayload(user.apiKey, ts));
            await request(c, { method: 'LOGIN', params: { api_key: user.apiKey, timestamp: ts, signature }, id: 2 });
            await request(c, { method: 'SUBSCRIBE', params: ['user'], id: 3 });
          }
        }),
      );
      clients.push(...batch);
    }
    // 120 on the Binance dialect: market streams, combined streams, and user streams by listenKey
    const keyAnswer = await fetch(`http://${base}/binance/fapi/v1/listenKey`, {
      method: 'POST',
      headers: { 'x-mbx-apikey': user.apiKey },
    });
    const { listenKey } = (await keyAnswer.json()) as { listenKey: string };
    const paths = [
      '/binance/ws/btcusdt@depth@100ms',
      '/binance/stream?streams=btcusdt@aggTrade/ethusdt@markPrice',
      '/binance/ws/btcusdt@bookTicker',
      `/binance/private/ws?listenKey=${listenKey}`,
    ];
    for (let i = 0; i < 120; i += 40)
      clients.push(...(await Promise.all(Array.from({ length: 40 }, (_, k) => open(paths[(i + k) % 4])))));

    expect(app.wsHub.connectionCount).toBe(240);
    expect(app.wsHub.subs.footprint.users).toBe(1);
    // trades while everyone listens: depth, trade and user pushes flow
    for (let k = 0; k < 20; k++) {
      placeBotOrder(
        venue.exchange,
        {
          symbol: 'BTCUSDT',
          side: 2,
          position_side: 2,
          position_action: 1,
          type: 1,
          price: '96000.0',
          qty: '0.01',
          need_cache: false,
        },
        HOUSE_ACCOUNT + 1,
      );
      placeBotOrder(venue.exchange, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '96000.0',
        qty: '0.01',
        need_cache: false,
      });
    }
    await until(() => clients.filter((c) => c.got.length > 1).length > 200, 5000, 'pushes');

    // half leave with a close handshake, half are cut off
    clients.forEach((c, i) => (i % 2 === 0 ? c.ws.close() : c.ws.terminate()));
    await until(() => app.websocketServer.clients.size === 0, 10_000, 'every socket closed');
    await until(() => app.wsHub.connectionCount === 0, 5000, 'hub empty');

    expect(app.wsHub.subs.footprint).toEqual({
      streams: 0,
      feeds: 0,
      users: 0,
      botConns: 0,
      replayConns: 0,
      listeners: 0,
    });
    expect(app.wsHub.out.heldCount).toBe(0);
    // the exchange's level, trade, account and setting listeners: as before any client came
    await until(() => listeners().every((n, i) => n === before[i]), 3000, 'listeners removed');
    expect(listeners()).toEqual(before);
  }, 60_000);
});
