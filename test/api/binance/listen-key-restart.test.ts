// A listenKey survives a restart of the service on the same data folder, with its expiry: ccxt
// keeps the key it holds and reconnects with it after the service comes back (it asks for a new
// one only at its 20-minute keep-alive), so the key must still open a user stream that gets the
// account's events, and POST / PUT must answer the same key. A key that expired while the service
// was down is refused as any expired key is (the wall clock of the facade is moved here, not
// waited for; listenKey calls take the API key alone, so no signature meets the moved clock).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue } from '../../../src-main/venue.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, limitOrder, listenKeyCall, listenTo, until, type Service } from './helpers.ts';

const MIN = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'perpdesk-lk-'));
/** How far the facade's wall clock is ahead of the real one, ms. */
let shift = 0;
let running: Service | undefined;

/** Stops the service running (if any) and starts one on the file's data folder, its market clock paused. */
async function restart(): Promise<Service> {
  await running?.close();
  const venue = openVenue({ dataDir: dir });
  venue.clock.pause();
  const app = await buildApp({ venue, rateLimit: false, now: () => Date.now() + shift });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  running = {
    app,
    venue,
    base,
    async close() {
      await app.close();
      await venue.close();
    },
  };
  return running;
}

afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** PUT /fapi/v1/listenKey (keep-alive, as ccxt sends it: no parameter) of `c`: the answer's body. */
async function keepAlive(base: string, c: Creds): Promise<any> {
  const r = await fetch(`${base}/binance/fapi/v1/listenKey`, { method: 'PUT', headers: { 'x-mbx-apikey': c.apiKey } });
  return r.json();
}

/**
 * How a user stream of `key` is met: `code reason` when it is closed at once (a refused key's
 * socket opens, then closes), 'served' when it answers a LIST_SUBSCRIPTIONS.
 */
async function opening(base: string, key: string): Promise<string> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${key}`);
  return new Promise<string>((resolve) => {
    ws.once('open', () => ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 1 })));
    ws.once('message', () => (ws.close(), resolve('served')));
    ws.once('close', (code, why) => resolve(`${code} ${String(why)}`));
  });
}

describe('listenKeys across a restart', () => {
  it('a key made before a restart opens a user stream after it, which gets the account events; POST and PUT answer it', async () => {
    shift = 0;
    let svc = await restart();
    const c = account(svc.venue, 'lkrestart', 50_000, 'one_way');
    const { listenKey } = await listenKeyCall(svc.base, 'POST', c.apiKey);
    expect(listenKey).toMatch(/^[A-Za-z0-9_-]{64}$/);

    svc = await restart();
    const s = await listenTo(svc.base, listenKey);
    const mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
    const id = await limitOrder(svc.base, c, 'BUY', '0.010', mid - 200);
    await until(() => s.got.some((m) => m.e === 'ORDER_TRADE_UPDATE'));
    expect(s.got.map((m) => [m.e, m.o?.i, m.o?.x])).toEqual([['ORDER_TRADE_UPDATE', id, 'NEW']]);
    // still the account's one key
    expect(await keepAlive(svc.base, c)).toEqual({ listenKey });
    expect(await listenKeyCall(svc.base, 'POST', c.apiKey)).toEqual({ listenKey });
    await s.close();
  });

  it('keeps the expiry: a key kept alive before the restart lives 60 minutes from its PUT; one past it is refused', async () => {
    shift = 0;
    let svc = await restart();
    const kept = account(svc.venue, 'lkkept', 50_000, 'one_way');
    const lapsed = account(svc.venue, 'lklapsed', 50_000, 'one_way');
    const keptKey = (await listenKeyCall(svc.base, 'POST', kept.apiKey)).listenKey;
    const lapsedKey = (await listenKeyCall(svc.base, 'POST', lapsed.apiKey)).listenKey;
    shift = 30 * MIN;
    expect(await keepAlive(svc.base, kept)).toEqual({ listenKey: keptKey });

    // down past the first key's 60 minutes, not past the second's (kept alive at 30)
    shift = 61 * MIN;
    svc = await restart();
    expect(await opening(svc.base, keptKey)).toBe('served');
    expect(await opening(svc.base, lapsedKey)).toBe('1008 This listenKey does not exist.');
    expect((await keepAlive(svc.base, lapsed)).code).toBe(-1125);
    const fresh = (await listenKeyCall(svc.base, 'POST', lapsed.apiKey)).listenKey;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fresh).not.toBe(lapsedKey);

    // and the kept key ends at its own 60 minutes (30 + 60), the new one (made at 61) lives on
    shift = 91 * MIN;
    svc = await restart();
    expect(await opening(svc.base, keptKey)).toBe('1008 This listenKey does not exist.');
    expect(await opening(svc.base, fresh)).toBe('served');
  });
});
