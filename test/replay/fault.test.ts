// A replay whose history cannot be read is faulted for good (docs/replay.md "When history cannot
// be read"). The data port here throws once, at a chosen market time, from inside the trades
// stream the replay reads: the stream (a generator) is then over, as a reader left at an unknown
// place would be. Before, the failing step answered 5000 and the NEXT step went on as if the
// history had ended there (or from wherever the readers stood): events skipped, the figures no
// longer history's, and nothing told. Now every later step, seek, play and wall-clock tick is
// refused or does nothing, the market time and the trades stay where the fault left them, the
// status and the report say so; a listener that throws does not fault the replay.
import { afterEach, expect, it, vi } from 'vitest';
import type { ApiError } from '../../src-shared/errors.ts';
import type { HistTrade, ReplayData } from '../../src-main/replay/ports.ts';
import type { ReplayMarket } from '../../src-main/replay/replay-market.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { memoryReplayVenue, tradesReplayData, walkTrades } from './harness.ts';

const START = Date.UTC(2024, 0, 2);
/** A print every 10 ms for 2 minutes. */
const ROWS = walkTrades(START, 12_000);

/** The trades port, throwing once when the reader reaches a print at or after `at` (armed). */
function faultyData(): { data: ReplayData; failAt(t: number): void } {
  const base = tradesReplayData(START, ROWS);
  let at: number | null = null;
  function* read(rows: Iterable<HistTrade>): Generator<HistTrade> {
    for (const r of rows) {
      if (at !== null && r.time >= at) {
        at = null;
        throw new Error('disk I/O error reading the trades');
      }
      yield r;
    }
  }
  return {
    data: {
      ...base,
      trades: (id, from) => read(base.trades(id, from)),
      // the price the pair is listed at (an index look-up, not the stream read)
      lastTrade: (_id, t) => ROWS.findLast((r) => r.time <= t) ?? null,
    },
    failAt(t) {
      at = t;
    },
  };
}

const open: ServiceHandle[] = [];
const closers: Array<() => void> = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const c of closers.splice(0)) c();
  vi.restoreAllMocks();
});

async function service(): Promise<{ svc: ServiceHandle; failAt(t: number): void }> {
  const { data, failAt } = faultyData();
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options: { symbols: ['BTCUSDT'], start: START }, data, lockstep: true },
  });
  open.push(svc);
  return { svc, failAt };
}

async function call(svc: ServiceHandle, method: string, route: string, body?: unknown) {
  const r = await fetch(`${svc.url}${route}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { http: r.status, body: (await r.json()) as any };
}

/** The market time, the events applied and the newest public trade the engine printed. */
async function figures(svc: ServiceHandle) {
  const st = (await call(svc, 'GET', '/api/v1/replay')).body.data;
  const tape = svc.venue.recentTrades.newest('BTCUSDT', 1);
  return { time: st.time as number, events: st.events as number, tape: tape.map((t) => JSON.stringify(t)) };
}

/** After the fault: a later step is refused 5001 naming it, and nothing moves. */
async function expectStuck(svc: ServiceHandle, faultTime: number) {
  const before = await figures(svc);
  expect(before.time).toBe(faultTime);
  expect(before.tape).toHaveLength(1);
  for (const body of [{ action: 'step', ms: 10_000 }, { action: 'seek', time: START + 100_000 }, { action: 'play' }]) {
    const r = await call(svc, 'POST', '/api/v1/replay', body);
    expect(r.http).toBe(500);
    expect(r.body.code).toBe(5001);
    expect(r.body.message).toMatch(/faulted.*disk I\/O error reading the trades.*close it and open it again/);
  }
  expect(await figures(svc)).toEqual(before);
  const st = (await call(svc, 'GET', '/api/v1/replay')).body.data;
  expect(st.fault).toEqual({ time: faultTime, message: 'disk I/O error reading the trades' });
  expect(st.paused).toBe(true);
  const rep = (await call(svc, 'GET', '/api/v1/replay/report')).body.data;
  expect(rep).toMatchObject({ complete: false, stopped_at: faultTime });
  // the summary table says so too, on each account's row
  const csv = await fetch(`${svc.url}/api/v1/replay/report?format=csv`).then((r) => r.text());
  const [head, ...rows] = csv.trim().split('\n');
  expect(head.split(',').slice(-2)).toEqual(['complete', 'stopped_at']);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.split(',').slice(-2)).toEqual(['false', String(faultTime)]);
  // no new order on a faulted replay (cancels may still go through)
  let refused: ApiError | null = null;
  try {
    await svc.venue.submit({
      kind: 'place',
      accountId: 1,
      input: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' } as never,
    });
  } catch (err) {
    refused = err as ApiError;
  }
  expect(refused?.code).toBe(5001);
  // nor a stop (a conditional order), placed or modified: it was taken, waiting on a market that never moves
  const stop = {
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.010',
    trigger_price: '1000000.0',
    trigger_direction: 1,
  };
  for (const c of [
    { kind: 'placeConditional', accountId: 1, input: stop },
    { kind: 'amendConditional', accountId: 1, symbol: 'BTCUSDT', orderId: 1, trigger_price: '1000001.0' },
  ]) {
    let no: ApiError | null = null;
    try {
      await svc.venue.submit(c as never);
    } catch (err) {
      no = err as ApiError;
    }
    expect([c.kind, no?.code]).toEqual([c.kind, 5001]);
  }
  expect(await svc.venue.submit({ kind: 'cancelAllConditionals', accountId: 1 })).toBe(0); // none was taken
  // a cancel still goes through (nothing of the user's to cancel here: an empty answer, no refusal)
  await expect(
    Promise.resolve(svc.venue.submit({ kind: 'cancelAll', accountId: 1, symbol: 'BTCUSDT' })),
  ).resolves.toBeDefined();
}

it('a step that fails reading history faults the replay: later steps, seeks and plays are refused', async () => {
  const { svc, failAt } = await service();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const ok = await call(svc, 'POST', '/api/v1/replay', { action: 'step', ms: 10_000 });
  expect(ok.body.data).toMatchObject({ time: START + 10_000, fault: null });
  expect((await call(svc, 'GET', '/api/v1/replay/report')).body.data).toMatchObject({
    complete: true,
    stopped_at: null,
  });
  failAt(START + 15_000);
  const failed = await call(svc, 'POST', '/api/v1/replay', { action: 'step', ms: 10_000 });
  expect(failed.body.code).toBe(5000);
  expect(failed.body.message).toMatch(/step failed applying its history \(disk I\/O error.*\); the replay is faulted/);
  // history stopped before the print it could not read
  const t = svc.venue.replay!.status().time;
  expect(t).toBeGreaterThanOrEqual(START + 10_000);
  expect(t).toBeLessThan(START + 15_000);
  await expectStuck(svc, t);
});

it('a seek that fails reading history faults the replay', async () => {
  const { svc, failAt } = await service();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  failAt(START + 30_000);
  const failed = await call(svc, 'POST', '/api/v1/replay', { action: 'seek', time: START + 60_000 });
  expect(failed.body.code).toBe(5000);
  const t = svc.venue.replay!.status().time;
  expect(t).toBeLessThan(START + 30_000);
  await expectStuck(svc, t);
});

it('a free run (play in lockstep) that fails reading history faults the replay', async () => {
  const { svc, failAt } = await service();
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  failAt(START + 70_000);
  expect((await call(svc, 'POST', '/api/v1/replay', { action: 'play' })).body.data.paused).toBe(false);
  const session = svc.venue.replay!;
  for (let i = 0; i < 500 && session.status().fault === null; i++) await new Promise((r) => setTimeout(r, 10));
  expect(session.status().fault).not.toBeNull();
  expect(logged.mock.calls.some((c) => String(c[0]).includes('the replay stopped playing'))).toBe(true);
  const t = session.status().time;
  expect(t).toBeLessThan(START + 70_000);
  await expectStuck(svc, t);
});

it('a wall-clock tick that fails reading history faults the replay: later ticks and steps do nothing', () => {
  const { data, failAt } = faultyData();
  let wall = 1_000_000;
  const v = memoryReplayVenue(data, 'BTCUSDT', START, '50000', () => wall);
  closers.push(() => v.close());
  const m: ReplayMarket = v.market;
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  m.start();
  wall += 5000;
  m.tick();
  expect(m.status()).toMatchObject({ time: START + 5000, fault: null });
  failAt(START + 8000);
  wall += 10_000;
  m.tick();
  expect(logged.mock.calls.some((c) => String(c[0]).includes('replay tick failed'))).toBe(true);
  const s = m.status();
  expect(s.fault).toEqual({ time: s.time, message: 'disk I/O error reading the trades' });
  expect(s.time).toBeLessThan(START + 8000);
  expect(s.paused).toBe(true);
  const events = s.events;
  wall += 10_000;
  m.tick();
  m.resume();
  wall += 10_000;
  m.tick();
  expect(m.status()).toMatchObject({ time: s.time, events });
  expect(() => m.step(1000)).toThrow(/faulted.*close it and open it again/);
  expect(m.status()).toMatchObject({ time: s.time, events });
});

it('a status listener that throws does not fault the replay', async () => {
  const { svc } = await service();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const session = svc.venue.replay!;
  session.onChange(() => {
    throw new Error('a broken subscriber');
  });
  (svc.venue.market as ReplayMarket).onChange(() => {
    throw new Error('a broken market listener');
  });
  const a = await call(svc, 'POST', '/api/v1/replay', { action: 'step', ms: 10_000 });
  expect(a.body.data).toMatchObject({ time: START + 10_000, fault: null });
  const b = await call(svc, 'POST', '/api/v1/replay', { action: 'step', ms: 10_000 });
  expect(b.body.data).toMatchObject({ time: START + 20_000, fault: null });
  expect((await call(svc, 'GET', '/api/v1/replay/report')).body.data.complete).toBe(true);
});
