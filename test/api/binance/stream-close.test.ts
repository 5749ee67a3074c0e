// The Binance streams close as /ws does when their service stops (a SIGTERM's close, a replay's
// DELETE): every connection, market or user stream, gets 1001 "server shutting down", a close
// frame a bot tells from a network failure (ws/ws-route.ts closes both hubs before its grace).
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { tempDir } from '../../data/archive-fixtures.ts';
import { call, importTrxRecording } from '../../replay/harness.ts';

const KEY = 'closebot0001';
const SECRET = 'closesecret0001';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Closed {
  code: number;
  reason: string;
}

/** Opens a WebSocket on `url`; `closed` answers its close (code and reason) once it comes. */
async function open(url: string): Promise<{ closed: Promise<Closed> }> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'));
  const closed = new Promise<Closed>((r) => ws.once('close', (code, reason) => r({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { closed };
}

/** A market stream, a user stream (listenKey of a new account) and the native /ws of the venue at `base`. */
async function streams(base: string): Promise<Record<string, { closed: Promise<Closed> }>> {
  const made = await call(base, 'POST', '/admin/v1/accounts', {
    api_key: KEY,
    api_secret: SECRET,
    position_mode: 'one_way',
  });
  expect(made.status, made.text).toBe(200);
  const lk = await fetch(`${base}/binance/fapi/v1/listenKey`, { method: 'POST', headers: { 'X-MBX-APIKEY': KEY } });
  const { listenKey } = (await lk.json()) as { listenKey: string };
  expect(listenKey).toEqual(expect.any(String));
  return {
    market: await open(`${base}/binance/ws/trxusdt@depth@100ms`),
    combined: await open(`${base}/binance/stream?streams=trxusdt@trade`),
    user: await open(`${base}/binance/ws/${listenKey}`),
    native: await open(`${base}/ws`),
  };
}

async function expectGoingAway(all: Record<string, { closed: Promise<Closed> }>): Promise<void> {
  for (const [name, { closed }] of Object.entries(all))
    expect({ name, ...(await closed) }).toEqual({ name, code: 1001, reason: 'server shutting down' });
}

describe('the /binance streams when their service closes', () => {
  let live: ServiceHandle | undefined;
  afterAll(async () => {
    await live?.close();
  });

  it('a replay closed by DELETE closes them with 1001, as /ws', async () => {
    const dir = tempDir('perpdesk-bn-close-');
    dirs.push(dir);
    live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
    await importTrxRecording(live.venue.datasets);
    const made = await call(live.url, 'POST', '/api/v1/replays', { symbols: ['TRXUSDT'], start: 1744588804438 });
    expect(made.status, made.text).toBe(200);
    const all = await streams(made.body.data.url);
    const closed = await call(live.url, 'DELETE', `/api/v1/replays/${made.body.data.id}`);
    expect(closed.body.data).toEqual({ id: made.body.data.id, closed: true });
    await expectGoingAway(all);
  }, 60_000);

  it('a service stopping (what SIGTERM runs) closes them with 1001, as /ws', async () => {
    const dir = tempDir('perpdesk-bn-close-');
    dirs.push(dir);
    const svc = await startService({ dataDir: dir, simulate: false, rateLimit: false });
    await importTrxRecording(svc.venue.datasets);
    // the live venue lists TRXUSDT from its catalogue: its streams are served
    const all = await streams(svc.url);
    await svc.close();
    await expectGoingAway(all);
  }, 60_000);
});
