// A burst of requests through the SDK's WsClient stays under the service's bound of 100 messages a
// second on one connection (docs/api.md: more is closed 1008 "too many messages"). Until 2026-12-07
// a bot subscribing stream by stream (192 kline streams, awaited one after the other or all at once)
// had its connection closed by the service after the 100th and went through a reconnect (its
// streams' pushes lost meanwhile, its books resynced). The pacer (ws-pacer.ts) on a manual clock,
// then WsClient against a real service.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { WsClient, type WebSocketConstructor, type WsCloseInfo } from '../../../src-shared/sdk/ws-client.ts';
import { PACE_LIMIT, PACE_WINDOW_MS, SendPacer } from '../../../src-shared/sdk/ws-pacer.ts';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';

describe('SendPacer', () => {
  it('writes at most PACE_LIMIT counted messages in any window, in order, and the rest when there is room', () => {
    const sched = new ManualScheduler();
    const pacer = new SendPacer(sched, (e) => {
      throw e;
    });
    const written: string[] = [];
    const ws = { send: (d: string) => written.push(d) };
    for (let i = 0; i < PACE_LIMIT + 5; i++) pacer.send(ws, `m${i}`);
    pacer.send(ws, 'replay', false); // not counted, but behind what waits
    expect(written).toHaveLength(PACE_LIMIT);
    expect(pacer.waiting).toBe(6);
    sched.advance(PACE_WINDOW_MS - 1);
    expect(written).toHaveLength(PACE_LIMIT);
    sched.advance(1);
    expect(written).toEqual([...Array.from({ length: PACE_LIMIT + 5 }, (_, i) => `m${i}`), 'replay']);
    expect(pacer.waiting).toBe(0);
  });

  it('lets an uncounted message through a full window when nothing waits, and clear() drops what waits', () => {
    const sched = new ManualScheduler();
    const pacer = new SendPacer(sched, () => {}, 2, 1000);
    const written: string[] = [];
    const ws = { send: (d: string) => written.push(d) };
    pacer.send(ws, 'a');
    pacer.send(ws, 'b');
    pacer.send(ws, 'step', false);
    pacer.send(ws, 'c');
    expect(written).toEqual(['a', 'b', 'step']);
    pacer.clear();
    sched.advance(5000);
    expect(written).toEqual(['a', 'b', 'step']);
  });
});

describe('WsClient against the service', () => {
  let svc: ServiceHandle;
  beforeAll(async () => {
    svc = await startService({ dataDir: ':memory:', host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('subscribes 192 streams one request each without the service closing the connection', async () => {
    const symbols = [...svc.venue.exchange.pairs.keys()].slice(0, 12);
    expect(symbols).toHaveLength(12);
    const names = symbols.flatMap((s) => INTERVALS.map((i) => `kline@${s},${i}`));
    const ws = new WsClient({
      url: `${svc.url.replace('http', 'ws')}/ws`,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    const closes: WsCloseInfo[] = [];
    ws.onClose((c) => closes.push(c));
    ws.connect();
    await ws.whenReady();
    const half = names.length / 2;
    for (const n of names.slice(0, half)) await ws.subscribe([n]); // one after the other
    await Promise.all(names.slice(half).map((n) => ws.subscribe([n]))); // all at once
    expect(closes).toEqual([]);
    expect(ws.state).toBe('open');
    expect([...ws.subscriptions].sort()).toEqual([...names].sort());
    ws.close();
  }, 20_000);
});
