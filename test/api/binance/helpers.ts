// A listening service for the facade's tests (real ccxt talks HTTP to it on 127.0.0.1:0), the
// same without a socket for inject tests, accounts with known keys, ccxt pointed at /binance
// exactly as docs/binance.md says, and user data streams (listenKey + socket) that collect what
// they are sent.
import { setPositionMode, upsertAccount } from '../../helpers/exchange-commands.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import type { Creds } from '../../helpers/signed.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import { signedCall, signedInject } from './raw.ts';

export interface Service {
  app: FastifyInstance;
  venue: Venue;
  base: string;
  close(): Promise<void>;
}

/** A service on `dataDir` (default in memory; a folder lets a test stop it and start another on the same data). */
export async function startService(dataDir = ':memory:'): Promise<Service> {
  const venue = openVenue({ dataDir });
  const app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    venue,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await venue.close();
    },
  };
}

/**
 * For a restart test file: services on one data folder of its own (named `prefix`...), each with
 * its market clock paused. `start` opens one; `restart` stops the one running and opens another on
 * the same data; `current` is the one running. After the file's tests the one running is closed
 * and the folder removed.
 */
export function servicesOnFolder(prefix: string): {
  start(): Promise<Service>;
  restart(): Promise<Service>;
  current(): Service;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let running: Service | undefined;
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async () => {
    if (running !== undefined) throw new Error('a service already runs on this folder: restart it');
    running = await startService(dir);
    running.venue.clock.pause();
    return running;
  };
  return {
    start,
    async restart() {
      const old = running;
      running = undefined;
      await old?.close();
      return start();
    },
    current() {
      if (running === undefined) throw new Error('no service runs on this folder');
      return running;
    },
  };
}

/** ORDER_TRADE_UPDATE's `o` fields, in Binance's order (reference a.4). */
export const ORDER_UPDATE_FIELDS =
  's c S o f q p ap sp x X i l z L N n T t b a m R wt ot ps cp rp pP si ss V pm gtd'.split(' ');

/**
 * What every ORDER_TRADE_UPDATE of the venue shows alike: no stop price, the contract price, no
 * close-all, price protection, iceberg, price match or GTD; the venue's STP mode.
 */
export const ORDER_UPDATE_ALIKE = {
  sp: '0',
  wt: 'CONTRACT_PRICE',
  cp: false,
  pP: false,
  si: 0,
  ss: 0,
  V: 'EXPIRE_TAKER',
  pm: 'NONE',
  gtd: 0,
};

/** The application without a socket (tests call it with inject), rate limits off, a venue in memory. */
export type Injected = TestApp;

export function injectService(): Promise<Injected> {
  return makeApp({}, { rateLimit: false });
}

/**
 * For an inject test file: an inject service and a one-way account of 100,000 USDT named `name`,
 * made before the file's tests (a beforeAll registered here, so before the file's own) and closed
 * after them. Read the fields inside tests and hooks.
 */
export function injectedWithAccount(name: string): {
  readonly app: FastifyInstance;
  readonly venue: Venue;
  readonly c: Creds;
} {
  let svc: Injected | undefined;
  let c: Creds | undefined;
  beforeAll(async () => {
    svc = await injectService();
    c = account(svc.venue, name, 100_000, 'one_way');
  });
  afterAll(async () => svc?.close());
  return {
    get app() {
      return svc!.app;
    },
    get venue() {
      return svc!.venue;
    },
    get c() {
      return c!;
    },
  };
}

/** POST /fapi/v1/order of the inject account: a GTC limit buy of 0.010 BTCUSDT at 90000, `over` replacing any of them. */
export function placeLimitBuy(t: { app: FastifyInstance; c: Creds }, over: Record<string, string>) {
  return signedInject(t.app, t.c, 'POST', '/fapi/v1/order', {
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.010',
    price: '90000',
    ...over,
  });
}

const UNIT = 100_000_000n;

export function account(venue: Venue, name: string, usdt = 100_000, mode?: 'one_way'): Creds {
  const apiKey = `bkey_${name}_0000`;
  const apiSecret = `bsecret_${name}_0000`;
  const a = upsertAccount(
    venue.exchange,
    { apiKey, apiSecret, kind: 'user', balance: BigInt(usdt) * UNIT },
    Date.now(),
  );
  if (mode === 'one_way') setPositionMode(venue.exchange, a.id, 'one_way');
  return { id: a.id, apiKey, apiSecret };
}

/** ccxt binanceusdm on the facade: every REST base's host swapped, the USD-M error table merged (reference a.0). */
export function binanceusdm(base: string, creds?: Creds): any {
  const ex: any = new (ccxt as any).pro.binanceusdm({
    ...(creds ? { apiKey: creds.apiKey, secret: creds.apiSecret } : {}),
    options: { fetchCurrencies: false },
  });
  const rest = `${base}/binance`;
  for (const k of Object.keys(ex.urls.api))
    if (typeof ex.urls.api[k] === 'string') ex.urls.api[k] = ex.urls.api[k].replace(/^https:\/\/[^/]+/, rest);
  ex.urls.api.ws.future = `${base.replace(/^http/, 'ws')}/binance/ws`;
  ex.exceptions.exact = { ...ex.exceptions.exact, ...ex.exceptions.linear.exact };
  return ex;
}

/** POST (a new listenKey of `apiKey`) or DELETE (end it) /fapi/v1/listenKey on the service at `base`: the answer's body. */
export async function listenKeyCall(base: string, method: 'POST' | 'DELETE', apiKey: string): Promise<any> {
  const r = await fetch(`${base}/binance/fapi/v1/listenKey`, { method, headers: { 'x-mbx-apikey': apiKey } });
  return r.json();
}

/** An open socket and every message it was sent, parsed, in order. */
export interface Collected {
  readonly ws: WebSocket;
  readonly got: any[];
  /** The close code, once the socket closes. */
  readonly closed: Promise<number>;
  /** Closes the socket and waits until it is closed. */
  close(): Promise<void>;
}

/** Opens a socket to `url` collecting every message; resolves once open, rejects if it fails first. */
export async function collect(url: string): Promise<Collected> {
  const ws = new WebSocket(url);
  const got: any[] = [];
  ws.on('message', (d) => got.push(JSON.parse(String(d))));
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((res, rej) => (ws.once('open', () => res()), ws.once('error', rej)));
  return {
    ws,
    got,
    closed,
    async close() {
      ws.close();
      await closed;
    },
  };
}

/** The user stream of `listenKey` on /binance/private/ws, `extra` appended to its query (`&events=…`). */
export function listenTo(base: string, listenKey: string, extra = ''): Promise<Collected> {
  return collect(`${base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${listenKey}${extra}`);
}

/** A user stream of a new listenKey of `c`. */
export async function userStream(base: string, c: Creds): Promise<Collected> {
  return listenTo(base, (await listenKeyCall(base, 'POST', c.apiKey)).listenKey);
}

/** Waits until `done()` holds, 2 s at most (checked every 20 ms); the caller's expectations then say what came. */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** 150 ms more, for any event that should not come. */
export const quiet = () => new Promise((r) => setTimeout(r, 150));

/** A LIMIT order of `c` on BTCUSDT (GTC unless `tif`) over HTTP, expected accepted: its orderId. */
export async function limitOrder(
  base: string,
  c: Creds,
  side: 'BUY' | 'SELL',
  qty: string,
  price: number,
  tif = 'GTC',
): Promise<number> {
  const r = await signedCall(base, c, 'POST', '/fapi/v1/order', {
    symbol: 'BTCUSDT',
    side,
    type: 'LIMIT',
    quantity: qty,
    price: price.toFixed(1),
    timeInForce: tif,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.orderId;
}
