// A paused (lockstep) replay with a market-data latency: the facade's timer rebuilds @markPrice@1s
// each wall second at the same market time, and the latency gate keeps only the newest of them
// (binance/streams/hub.ts, events.ts snapshotStream), so the next step brings one event, not one
// per wall second of the pause. The stream timers (setInterval) are faked: 17 s pass at once.
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ReplayData } from '../../../src-main/replay/ports.ts';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { trxReplayData } from '../../replay/harness.ts';

const START = 1744588804438;
let db: DatabaseSync;
let data: ReplayData;
let svc: ServiceHandle | undefined;

beforeAll(async () => {
  ({ db, data } = await trxReplayData());
});
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  vi.useRealTimers();
});
afterAll(() => db?.close());

describe('@markPrice@1s of a paused replay with a market-data latency', () => {
  it('a 17 s pause brings one event at the next step, of the paused time', async () => {
    const LMD = 500;
    // only the intervals: sockets, fetch and the service's timeouts run on real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    svc = await startService({
      dataDir: ':memory:',
      rateLimit: false,
      replay: {
        options: { symbols: ['TRXUSDT'], start: START, orderLatency: 0, dataLatency: LMD, responseLatency: 0 },
        data,
        lockstep: true,
      },
    });
    const t0 = svc.venue.replay!.status().time;
    const ws = new WebSocket(`${svc.url.replace('http', 'ws')}/binance/stream?streams=trxusdt@markPrice@1s`);
    const got: any[] = [];
    const answers = new Map<number, () => void>();
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.stream !== undefined) got.push(m.data);
      else answers.get(m.id)?.();
    });
    // a request's answer comes after every event sent before it (one connection, in order)
    let id = 0;
    const drained = () =>
      new Promise<void>((r) => {
        answers.set(++id, r);
        ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id }));
      });
    try {
      await new Promise((r) => ws.once('open', r));
      vi.advanceTimersByTime(17_000); // 17 rounds of the 1 s timer, market time still t0
      await drained();
      expect(got).toEqual([]); // held: due at t0 + L_md
      const step = await fetch(`${svc.url}/api/v1/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'step', ms: 1_000 }),
      });
      expect(step.status).toBe(200);
      expect(svc.venue.replay!.status().time).toBe(t0 + 1_000);
      vi.advanceTimersByTime(100); // the release round (no 1 s round in it)
      await drained();
      expect(got.map((e) => ({ e: e.e, E: e.E }))).toEqual([{ e: 'markPriceUpdate', E: t0 }]);
    } finally {
      ws.close();
    }
  }, 60_000);
});
