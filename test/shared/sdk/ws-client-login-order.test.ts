// WsClient: `subscribe(['user'])` before `login()`. The server refuses `user` before a LOGIN on
// the connection (2001); until 2026-12-07 the client sent it anyway, so the promise rejected with
// 2001 and the subscription was not kept: a bot that subscribed first and logged in next got no
// fills. The client now holds a private stream asked for while not logged in and subscribes it
// with the next successful login(), before that resolves; the public streams of the same call go
// at once.
import { describe, expect, it } from 'vitest';
import { WsClient } from '../../../src-shared/sdk/ws-client.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';
import { FakeVenue, flush } from './fake-venue.ts';

function connected() {
  const venue = new FakeVenue();
  const ws = new WsClient({ url: 'ws://fake/ws', WebSocket: venue.WebSocket, scheduler: new ManualScheduler() });
  const errors: unknown[] = [];
  ws.onError((e) => errors.push(e));
  ws.connect();
  venue.socket(0).open();
  return { venue, ws, errors };
}

describe('WsClient subscribe before login', () => {
  it('holds user until the login, which subscribes it before it resolves; public streams go at once', async () => {
    const t = connected();
    const user = t.ws.subscribe(['trade@BTCUSDT', 'user']);
    await expect(user).resolves.toBeNull();
    expect([...t.venue.socket(0).subs]).toEqual(['trade@BTCUSDT']);
    expect(t.ws.subscriptions).toEqual(['trade@BTCUSDT']);
    await t.ws.login(() => ({ key: 'key-1' }));
    expect([...t.venue.socket(0).subs]).toEqual(['trade@BTCUSDT', 'user']);
    expect(t.ws.subscriptions).toEqual(['trade@BTCUSDT', 'user']);
    expect(t.venue.socket(0).sent.map((m) => [m.method, m.params])).toEqual([
      ['SUBSCRIBE', ['trade@BTCUSDT']],
      ['LOGIN', { key: 'key-1' }],
      ['SUBSCRIBE', ['user']],
    ]);
    expect(t.errors).toEqual([]);
    // pushes on it reach the listener
    const seen: unknown[] = [];
    t.ws.on('user', (d) => seen.push(d));
    t.venue.socket(0).push('user', { kind: 'balance', data: {} });
    await flush();
    expect(seen).toEqual([{ kind: 'balance', data: {} }]);
  });

  it('a held user stream unsubscribed before the login is not subscribed by it', async () => {
    const t = connected();
    await t.ws.subscribe(['user']);
    await t.ws.unsubscribe(['user']);
    await t.ws.login(() => ({ key: 'key-1' }));
    expect([...t.venue.socket(0).subs]).toEqual([]);
    expect(t.ws.subscriptions).toEqual([]);
  });

  it('a refused login keeps user held for the next one', async () => {
    const t = connected();
    await t.ws.subscribe(['user']);
    await expect(t.ws.login(() => ({ key: 'wrong' }))).rejects.toMatchObject({ code: 2002 });
    expect(t.venue.socket(0).subs.size).toBe(0);
    await t.ws.login(() => ({ key: 'key-1' }));
    expect(t.ws.subscriptions).toEqual(['user']);
  });
});
