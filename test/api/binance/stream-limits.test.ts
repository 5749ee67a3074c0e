// Binance's limits on its WebSocket streams (USD-M market streams, "general info"), held by the
// facade over real sockets on 127.0.0.1: 1024 streams a connection (a SUBSCRIBE past it is code 2
// and takes none of its streams) and 300 connection attempts every 5 minutes from one IP (the
// 301st upgrade is 429 / -1003 with Retry-After, while the rate limits are on). The third, 10
// messages a second (1008), is in stream-requests-fuzz.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../../src-main/api/app.ts';
import { SymbolStatus } from '../../../src-shared/enums.ts';
import { DEFAULT_CATALOGUE } from '../../../src-main/market/catalogue.ts';
import { toNewSymbol } from '../../../src-main/market/seed-catalogue.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { startService } from './helpers.ts';

const KINDS = [
  'depth',
  'depth@100ms',
  'depth@500ms',
  ...['5', '10', '20'].flatMap((n) => [`depth${n}`, `depth${n}@100ms`, `depth${n}@500ms`]),
  'trade',
  'aggTrade',
  'bookTicker',
  'markPrice',
  'markPrice@1s',
  'miniTicker',
  'ticker',
  ...['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'].map(
    (i) => `kline_${i}`,
  ),
];

function open(url: string): Promise<{ ws: WebSocket; ask: (m: unknown) => Promise<any> }> {
  const ws = new WebSocket(url);
  const answers: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (!('id' in m)) return;
    const w = waiting.shift();
    if (w) w(m);
    else answers.push(m);
  });
  const ask = (m: unknown) => {
    ws.send(JSON.stringify(m));
    return new Promise<any>((r) => (answers.length > 0 ? r(answers.shift()) : waiting.push(r)));
  };
  return new Promise((res, rej) => (ws.once('open', () => res({ ws, ask })), ws.once('error', rej)));
}

describe("Binance's stream limits", () => {
  it('1024 streams a connection: a SUBSCRIBE past it is refused (code 2) and takes none of its streams', async () => {
    // 12 listed pairs give 35 streams each, 425 in all: 20 more pairs (a data folder, listed
    // before the service starts) make more than 1024 streams to ask for
    const dir = mkdtempSync(join(tmpdir(), 'bn-stream-limits-'));
    try {
      const first = openVenue({ dataDir: dir });
      const btc = DEFAULT_CATALOGUE.find((e) => e.symbol === 'BTCUSDT')!;
      const extra = Array.from({ length: 20 }, (_, i) => `X${String(i).padStart(2, '0')}USDT`);
      first.symbols.insertMissing(
        extra.map((symbol, i) => toNewSymbol({ ...btc, symbol, base: symbol.slice(0, 3) }, 1000 + i)),
        Date.now(),
      );
      await first.close();
      const svc = await startService(dir);
      try {
        const symbols = [...svc.venue.exchange.pairs.values()]
          .filter((p) => p.row.status !== SymbolStatus.DELISTED)
          .map((p) => p.row.symbol.toLowerCase());
        const all = symbols.flatMap((s) => KINDS.map((k) => `${s}@${k}`));
        expect(all.length).toBeGreaterThan(1024);
        const c = await open(`${svc.base.replace(/^http/, 'ws')}/binance/ws`);
        // 1000 taken at once; a request of 31 (25 of them new: 1025 in all) refused whole
        expect(await c.ask({ method: 'SUBSCRIBE', params: all.slice(0, 1000), id: 1 })).toEqual({
          result: null,
          id: 1,
        });
        expect(await c.ask({ method: 'SUBSCRIBE', params: all.slice(994, 1024 + 1), id: 2 })).toEqual({
          error: {
            code: 2,
            msg: 'Invalid request: too many streams: a connection listens to at most 1024; it has 1000 and the request adds 25',
          },
          id: 2,
        });
        expect((await c.ask({ method: 'LIST_SUBSCRIPTIONS', id: 3 })).result).toHaveLength(1000);
        // up to the limit is fine, and the connection stays open
        expect(await c.ask({ method: 'SUBSCRIBE', params: all.slice(994, 1024), id: 4 })).toEqual({
          result: null,
          id: 4,
        });
        expect((await c.ask({ method: 'LIST_SUBSCRIPTIONS', id: 5 })).result).toHaveLength(1024);
        // a stream it has already counts once: asking it again is no new stream
        expect(await c.ask({ method: 'SUBSCRIBE', params: [all[0]], id: 6 })).toEqual({ result: null, id: 6 });
        expect((await c.ask({ method: 'SUBSCRIBE', params: [all[1024]], id: 7 })).error.code).toBe(2);
        c.ws.close();
      } finally {
        await svc.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('300 connections every 5 minutes from one IP: the 301st upgrade is 429 / -1003 with Retry-After', async () => {
    const venue = openVenue({ dataDir: ':memory:' });
    const app = await buildApp({ venue, rateLimit: { perIp: { max: 100_000, windowMs: 10_000 }, perKey: false } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    try {
      const upgrade = (): Promise<{ status: number; retry?: string; body: string }> =>
        new Promise((resolve, reject) => {
          const rq = request({
            host: '127.0.0.1',
            port,
            path: '/binance/ws/btcusdt@trade',
            headers: {
              connection: 'Upgrade',
              upgrade: 'websocket',
              'sec-websocket-version': '13',
              'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
            },
          });
          rq.on('response', (r) => {
            let body = '';
            r.on('data', (d) => (body += d));
            r.on('end', () =>
              resolve({ status: r.statusCode ?? 0, retry: r.headers['retry-after'] as string | undefined, body }),
            );
          });
          // each connection closed at once: attempts count, not open connections
          rq.on('upgrade', (r, socket) => (socket.destroy(), resolve({ status: r.statusCode ?? 0, body: '' })));
          rq.on('error', reject);
          rq.end();
        });
      for (let i = 1; i <= 300; i++) expect((await upgrade()).status, `attempt ${i}`).toBe(101);
      const refused = await upgrade();
      expect(refused.status).toBe(429);
      expect(Number(refused.retry)).toBeGreaterThan(0);
      expect(Number(refused.retry)).toBeLessThanOrEqual(300);
      expect(JSON.parse(refused.body)).toEqual({
        code: -1003,
        msg: 'Too many connection attempts: at most 300 WebSocket connections every 5 minutes per IP.',
      });
      // a plain GET of the path is no connection attempt: still its -1000 answer
      const plain = await fetch(`http://127.0.0.1:${port}/binance/ws`);
      expect(plain.status).toBe(400);
    } finally {
      await app.close();
      await venue.close();
    }
  });
});
