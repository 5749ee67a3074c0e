// An expired listenKey's streams are told (listenKeyExpired) and closed whichever call finds the
// expiry, not only the hub's 1 s round: a POST (ccxt's new key), a PUT, a DELETE or a stream
// opening with the expired key in the window between the expiry and the next round used to drop
// the key unheard, and its open stream went on receiving the account's events. The facade's wall
// clock is moved past the hour here (listenKey calls take the API key alone, no signature); each
// call comes right after the move, before the round can find the expiry.
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue } from '../../../src-main/venue.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, collect, listenKeyCall, listenTo, until, type Collected, type Service } from './helpers.ts';

const HOUR = 60 * 60 * 1000;
/** How far the facade's wall clock is ahead of the real one, ms. */
let shift = 0;
let svc: Service;

beforeAll(async () => {
  const venue = openVenue({ dataDir: ':memory:' });
  const app = await buildApp({ venue, rateLimit: false, now: () => Date.now() + shift });
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

async function call(method: 'POST' | 'PUT' | 'DELETE', c: Creds): Promise<any> {
  const r = await fetch(`${svc.base}/binance/fapi/v1/listenKey`, { method, headers: { 'x-mbx-apikey': c.apiKey } });
  return r.json();
}

/** The close code of `s`, or -1 when it is still open after 2 s. */
const closeCode = (s: Collected) => Promise.race([s.closed, new Promise<number>((r) => setTimeout(() => r(-1), 2000))]);

/** A stream of a new key of a new account `name`; then the wall clock moves past the key's hour. */
async function expiredStream(name: string): Promise<{ c: Creds; key: string; s: Collected }> {
  const c = account(svc.venue, name, 50_000, 'one_way');
  const key = (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey as string;
  const s = await listenTo(svc.base, key);
  shift += HOUR + 1;
  return { c, key, s };
}

/** What an expired stream must have got: listenKeyExpired for its key, and a close (1000). */
async function toldAndClosed(s: Collected, key: string): Promise<void> {
  expect(await closeCode(s), 'the stream closes').toBe(1000);
  expect(s.got.map((m) => [m.e, m.listenKey])).toEqual([['listenKeyExpired', key]]);
}

describe('an expiry found by a call, between two rounds of the hub', () => {
  it('POST: a new key, and the expired key’s stream is told and closed', async () => {
    const { c, key, s } = await expiredStream('lkxpost');
    const fresh = (await call('POST', c)).listenKey;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fresh).not.toBe(key);
    await toldAndClosed(s, key);
  });

  it('PUT: -1125, and the stream is told and closed', async () => {
    const { c, key, s } = await expiredStream('lkxput');
    expect((await call('PUT', c)).code).toBe(-1125);
    await toldAndClosed(s, key);
  });

  it('DELETE: -1125, and the stream is told and closed', async () => {
    const { c, key, s } = await expiredStream('lkxdel');
    expect((await call('DELETE', c)).code).toBe(-1125);
    await toldAndClosed(s, key);
  });

  it('a stream opening with the expired key: refused (1008), and the open one is told and closed', async () => {
    const { key, s } = await expiredStream('lkxopen');
    const ws = new WebSocket(`${svc.base.replace(/^http/, 'ws')}/binance/private/ws?listenKey=${key}`);
    const refused = await new Promise<string>((r) => ws.once('close', (code, why) => r(`${code} ${String(why)}`)));
    expect(refused).toBe('1008 This listenKey does not exist.');
    await toldAndClosed(s, key);
  });
});

describe('the expiry of a key on a combined or subscribing connection', () => {
  it('stream/<listenKey>: listenKeyExpired comes as {stream, data}, as every user event there', async () => {
    const c = account(svc.venue, 'lkxcomb', 50_000, 'one_way');
    const key = (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey as string;
    const s = await collect(`${svc.base.replace(/^http/, 'ws')}/binance/stream/${key}`);
    shift += HOUR + 1;
    expect((await call('PUT', c)).code).toBe(-1125);
    expect(await closeCode(s)).toBe(1000);
    expect(s.got).toEqual([{ stream: key, data: { e: 'listenKeyExpired', E: expect.any(Number), listenKey: key } }]);
  });

  it('a key SUBSCRIBEd on a market connection: told, and the connection stays open without it', async () => {
    const c = account(svc.venue, 'lkxsub', 50_000, 'one_way');
    const key = (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey as string;
    const s = await collect(`${svc.base.replace(/^http/, 'ws')}/binance/ws/btcusdt@trade`);
    s.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [key], id: 1 }));
    await until(() => s.got.length > 0);
    shift += HOUR + 1;
    expect((await call('PUT', c)).code).toBe(-1125);
    s.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 2 }));
    await until(() => s.got.some((m) => m.id === 2));
    expect(s.got.filter((m) => m.e !== 'trade')).toEqual([
      { result: null, id: 1 },
      { e: 'listenKeyExpired', E: expect.any(Number), listenKey: key },
      { result: ['btcusdt@trade'], id: 2 },
    ]);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    await s.close();
  });
});
