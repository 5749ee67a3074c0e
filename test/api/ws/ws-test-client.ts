// A small `ws` client for the /ws tests: records every message, answers requests by id, waits
// for pushes with a bounded timeout; and the service they talk to (startWsService).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { expect } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { hmacSha256Hex } from '../../../src-shared/sign.ts';
import type { Creds } from '../../helpers/signed.ts';

export interface Closed {
  code: number;
  reason: string;
}

export class TestClient {
  readonly ws: WebSocket;

  readonly messages: any[] = [];
  readonly closed: Promise<Closed>;
  private nextId = 1;
  private readonly waiters = new Set<() => void>();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      for (const w of [...this.waiters]) w();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    ws.on('error', () => {});
  }

  /** `options`: the `ws` client's (e.g. `localAddress`, the address the connection comes from). */
  static open(url: string, options?: WebSocket.ClientOptions): Promise<TestClient> {
    const ws = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new TestClient(ws)));
      ws.once('error', reject);
    });
  }

  sendRaw(text: string | Buffer, binary = false): void {
    this.ws.send(text, { binary });
  }

  /** Sends `{method, params, id}` and resolves with the answer carrying that id. */

  async request(method: string, params?: unknown, id: number | string = this.nextId++): Promise<any> {
    const msg = params === undefined ? { method, id } : { method, params, id };
    this.ws.send(JSON.stringify(msg));
    return this.waitFor((m) => m.id === id && ('result' in m || 'error' in m));
  }

  /** The first message (already received or future) matching `pred`, within `ms`. */

  waitFor(pred: (m: any) => boolean, ms = 3000, from = 0): Promise<any> {
    return new Promise((resolve, reject) => {
      let i = from;
      const check = (): boolean => {
        for (; i < this.messages.length; i++) {
          if (pred(this.messages[i])) {
            resolve(this.messages[i]);
            return true;
          }
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching message within ${ms} ms`));
      }, ms);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          this.waiters.delete(waiter);
        }
      };
      this.waiters.add(waiter);
    });
  }

  pushes(stream: string): any[] {
    return this.messages.filter((m) => m.stream === stream);
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Resolves when `cond()` holds, polling every 5 ms, or rejects after `ms`. */
export async function until(cond: () => boolean, ms = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A venue in memory behind the whole app on a free loopback port, and the clients opened on it. */
export interface WsService {
  venue: LocalVenue;
  app: FastifyInstance;
  /** ws://127.0.0.1:PORT/ws */
  url: string;
  /** A client on `url`, closed by close(). */
  open(): Promise<TestClient>;
  /** A client logged in as `who` and subscribed to its `user` stream. */
  following(who: Creds): Promise<TestClient>;
  /** Closes the clients, the app and the venue. */
  close(): Promise<void>;
}

export async function startWsService(): Promise<WsService> {
  const venue = openVenue({ dataDir: ':memory:' });
  const app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
  const clients: TestClient[] = [];
  const open = async (): Promise<TestClient> => {
    const c = await TestClient.open(url);
    clients.push(c);
    return c;
  };
  return {
    venue,
    app,
    url,
    open,
    async following(who) {
      const c = await open();
      const timestamp = Date.now();
      const signature = hmacSha256Hex(who.apiSecret, `api_key=${who.apiKey}&timestamp=${timestamp}`);
      expect((await c.request('LOGIN', { api_key: who.apiKey, timestamp, signature })).result).toEqual({
        user_id: who.id,
      });
      expect((await c.request('SUBSCRIBE', ['user'])).result).toBeNull();
      return c;
    },
    async close() {
      for (const c of clients) c.close();
      await app.close();
      await venue.close();
    },
  };
}
