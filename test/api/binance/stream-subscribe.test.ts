// SUBSCRIBE on the facade's streams over a real socket: a stream of a symbol that is not listed is
// refused (an error reply naming it, nothing of the request subscribed), so what is acknowledged
// and what LIST_SUBSCRIPTIONS lists agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../ws/ws-test-client.ts';
import { startService, type Service } from './helpers.ts';

let svc: Service;
let client: TestClient;

beforeAll(async () => {
  svc = await startService();
  client = await TestClient.open(`${svc.base.replace(/^http/, 'ws')}/binance/ws`);
});
afterAll(async () => {
  client?.ws.close();
  await svc?.close();
});

describe('SUBSCRIBE', () => {
  it('a stream of an unknown symbol is an error reply, and nothing of that request is subscribed', async () => {
    expect(await client.request('SUBSCRIBE', ['fooxyzusdt@trade'], 1)).toEqual({
      error: { code: 2, msg: 'Invalid request: unknown symbol in stream "fooxyzusdt@trade"' },
      id: 1,
    });
    expect(await client.request('SUBSCRIBE', ['btcusdt@trade', 'nopeusdt@depth@100ms'], 2)).toEqual({
      error: { code: 2, msg: 'Invalid request: unknown symbol in stream "nopeusdt@depth@100ms"' },
      id: 2,
    });
    expect(await client.request('LIST_SUBSCRIPTIONS', undefined, 3)).toEqual({ result: [], id: 3 });
  });

  it('listed symbols and all-symbol streams are acknowledged and listed', async () => {
    expect(await client.request('SUBSCRIBE', ['btcusdt@trade', '!markPrice@arr@1s'], 4)).toEqual({
      result: null,
      id: 4,
    });
    expect(await client.request('LIST_SUBSCRIPTIONS', undefined, 5)).toEqual({
      result: ['btcusdt@trade', '!markPrice@arr@1s'],
      id: 5,
    });
  });
});
