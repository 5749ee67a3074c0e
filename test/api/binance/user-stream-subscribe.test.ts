// A user data stream subscribed by its listenKey on an open connection, as Binance's own futures
// connector does it (binance-futures-connector-python UMFuturesWebsocketClient.user_data:
// {"method":"SUBSCRIBE","params":["<listenKey>"],"id":…} on /ws): acked with the id, listed by
// LIST_SUBSCRIPTIONS, the account's events sent bare on /ws and as {stream: <listenKey>, data} on
// /stream, ended by UNSUBSCRIBE or a DELETE of the key, which leave the connection open. Before,
// such a SUBSCRIBE was refused ("Invalid request: unknown stream") and the bot got no user event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import {
  account,
  collect,
  limitOrder,
  listenKeyCall,
  quiet,
  startService,
  until,
  type Collected,
  type Service,
} from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let c: Creds;
let key: string;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  c = account(svc.venue, 'subkey', 100_000, 'one_way');
  key = (await listenKeyCall(svc.base, 'POST', c.apiKey)).listenKey;
});
afterAll(async () => svc?.close());

const ws = (path: string) => collect(`${svc.base.replace(/^http/, 'ws')}/binance${path}`);
/** Sends a request and waits for the answer with its id. */
async function request(s: Collected, method: string, id: number, params?: unknown[]): Promise<any> {
  s.ws.send(JSON.stringify(params === undefined ? { method, id } : { method, params, id }));
  await until(() => s.got.some((m) => m.id === id));
  return s.got.find((m) => m.id === id);
}
const orderUpdates = (s: Collected) =>
  s.got.filter((m) => (m.data ?? m).e === 'ORDER_TRADE_UPDATE').map((m) => m.data ?? m);

describe('SUBSCRIBE of a listenKey', () => {
  it('on /ws: acked, listed, the events bare; UNSUBSCRIBE ends them and the connection stays open', async () => {
    const s = await ws('/ws');
    expect(await request(s, 'SUBSCRIBE', 1, [key])).toEqual({ result: null, id: 1 });
    expect(await request(s, 'LIST_SUBSCRIPTIONS', 2)).toEqual({ result: [key], id: 2 });
    const id = await limitOrder(svc.base, c, 'BUY', '0.010', 80_000);
    await until(() => orderUpdates(s).length > 0);
    expect(orderUpdates(s).map((e) => [e.o.i, e.o.x])).toEqual([[id, 'NEW']]);
    expect(s.got.find((m) => m.e === 'ORDER_TRADE_UPDATE')).toBeDefined();
    expect(await request(s, 'UNSUBSCRIBE', 3, [key])).toEqual({ result: null, id: 3 });
    expect(await request(s, 'LIST_SUBSCRIPTIONS', 4)).toEqual({ result: [], id: 4 });
    await signedCall(svc.base, c, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    await quiet();
    expect(orderUpdates(s)).toHaveLength(1);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    await s.close();
  });

  it("on /stream beside a market stream: {stream: <listenKey>, data}; a DELETE of the key ends them, not the connection's market streams", async () => {
    const s = await ws('/stream?streams=btcusdt@trade');
    expect(await request(s, 'SUBSCRIBE', 7, [key])).toEqual({ result: null, id: 7 });
    const id = await limitOrder(svc.base, c, 'BUY', '0.010', 80_000);
    await until(() => orderUpdates(s).length > 0);
    expect(s.got.find((m) => m.data?.e === 'ORDER_TRADE_UPDATE')).toMatchObject({
      stream: key,
      data: { o: { i: id } },
    });
    await listenKeyCall(svc.base, 'DELETE', c.apiKey);
    await signedCall(svc.base, c, 'DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' });
    await quiet();
    expect(orderUpdates(s)).toHaveLength(1);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    expect(await request(s, 'LIST_SUBSCRIPTIONS', 8)).toEqual({ result: ['btcusdt@trade'], id: 8 });
    await s.close();
  });

  it('a listenKey that does not exist is refused (code 2) and nothing of the request is subscribed', async () => {
    const s = await ws('/ws');
    const unknown = 'x'.repeat(64);
    expect(await request(s, 'SUBSCRIBE', 5, ['btcusdt@trade', unknown])).toEqual({
      error: { code: 2, msg: 'Invalid request: This listenKey does not exist.' },
      id: 5,
    });
    expect(await request(s, 'LIST_SUBSCRIPTIONS', 6)).toEqual({ result: [], id: 6 });
    await s.close();
  });
});
