// A listening service for the facade's tests (real ccxt talks HTTP to it on 127.0.0.1:0), the
// same without a socket for inject tests, accounts with known keys, and ccxt pointed at /binance
// exactly as docs/binance.md says.
import { setPositionMode, upsertAccount } from '../../helpers/exchange-commands.ts';
import type { AddressInfo } from 'node:net';
import ccxt from 'ccxt';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';
import type { Creds } from '../../helpers/signed.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import { signedInject } from './raw.ts';

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
