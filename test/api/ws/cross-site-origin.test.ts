// Cross-site WebSocket hijacking: a browser lets a page of any site open a WebSocket to the local
// service (WebSockets have no CORS) and the connection comes from 127.0.0.1, so the page would get
// the loopback-only REPLAY controls and the `bot` stream (loopback is always whitelisted). An
// upgrade whose Origin names another site is refused (403 / 2103); bots (no Origin), the screen
// (its own origin) and pages on a loopback name are let in. Before, every Origin was upgraded:
// a page of http://evil.example subscribed to `bot` ({"id":1,"result":null}).
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Errors } from '../../../src-shared/errors.ts';
import { isAcceptedOrigin } from '../../../src-main/api/browser-guards.ts';
import { startWsService, TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;

beforeAll(async () => {
  svc = await startWsService();
});

afterAll(() => svc.close());

/** The HTTP answer to an upgrade refused before it happened: status and parsed body. */
function refusal(url: string, origin: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.on('open', () => {
      ws.terminate();
      reject(new Error(`upgraded with Origin ${origin}`));
    });
    ws.on('error', () => {});
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

describe('/ws and the Origin of an upgrade', () => {
  it('refuses a page of another site with 403 / 2103', async () => {
    for (const origin of ['http://evil.example', 'https://127.0.0.1.evil.example', 'null']) {
      const r = await refusal(svc.url, origin);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: Errors.HOST_NOT_ALLOWED.code, data: null });
      expect(r.body.message).toMatch(/another site/);
    }
  });

  it('lets in a bot (no Origin), the screen (its own origin) and pages on a loopback name', async () => {
    const port = new URL(svc.url).port;
    const bot = await svc.open();
    expect((await bot.request('SUBSCRIBE', ['bot'])).result).toBeNull();
    bot.close();
    for (const origin of [`http://127.0.0.1:${port}`, 'http://localhost:5173', 'http://[::1]:8787']) {
      const c = await TestClient.open(svc.url, { origin });
      expect((await c.request('PING')).result).toBe('PONG');
      c.close();
    }
  });

  it('takes the Host of a service bound on the LAN as its own origin', () => {
    expect(isAcceptedOrigin('http://192.0.2.2:8787', '192.0.2.2:8787')).toBe(true);
    expect(isAcceptedOrigin('http://192.0.2.3:8787', '192.0.2.2:8787')).toBe(false);
    expect(isAcceptedOrigin(undefined, '192.0.2.2:8787')).toBe(true);
  });
});
