// How the trading screen learns which venue it shows (replay-store.ts followReplay), against a
// real live service and a replay venue it hosts (the TRXUSDT recording, test/fixtures/binance/
// SOURCES.md): the replay venue's status arrives over the `replay` stream and keeps coming; the
// live venue refuses the stream, with no HTTP request (so no failed one in the page's console);
// a service that does not answer counts as live once the wait is over.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { WsClient } from '../../src-shared/sdk/ws-client.ts';
import { createReplayStore, followReplay } from '../../src-renderer/src/features/replay/replay-store.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { importTrxRecording } from '../replay/harness.ts';

const FIRST_TRADE = 1744588804438;

let live: ServiceHandle;
let dir: string;
let replayUrl: string;
const clients: WsClient[] = [];

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-follow-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  await importTrxRecording(live.venue.datasets);
  const r = await fetch(`${live.url}/api/v1/replays`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbols: ['TRXUSDT'], start: FIRST_TRADE }),
  });
  if (r.status !== 200) throw new Error(`replay start: ${r.status} ${await r.text()}`);
  replayUrl = ((await r.json()) as { data: { url: string } }).data.url;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The screen's store and WebSocket client for a venue at `base`, and the HTTP requests it made. */
function screen(base: string, requestTimeoutMs = 10_000) {
  const requests: string[] = [];
  const api = new RestClient({
    baseUrl: base,
    fetch: (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    },
  });
  const ws = new WsClient({ url: base.replace(/^http/, 'ws') + '/ws', requestTimeoutMs });
  clients.push(ws);
  ws.connect();
  return { store: createReplayStore(api), ws, requests };
}

describe('followReplay', () => {
  it('on a replay venue: the status at once, then every change the venue pushes', async () => {
    const { store, ws, requests } = screen(replayUrl);
    const followed = followReplay(ws, store);
    await followed.known;
    const s = store.getState();
    expect(s.mode).toBe('replay');
    expect(s.status).toMatchObject({ symbols: ['TRXUSDT'], start: FIRST_TRADE });
    // controls from elsewhere (a bot, another window) reach this screen through the stream
    for (const body of [{ action: 'pause' }, { action: 'seek', time: FIRST_TRADE + 5_000 }]) {
      const r = await fetch(`${replayUrl}/api/v1/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(200);
    }
    await expect.poll(() => store.getState().status).toMatchObject({ paused: true, time: FIRST_TRADE + 5_000 });
    followed.stop();
    expect(requests).toEqual([]);
  });

  it('on the live venue: refused stream, mode live, no HTTP request', async () => {
    const { store, ws, requests } = screen(live.url);
    const followed = followReplay(ws, store, 10_000);
    const before = Date.now();
    await followed.known;
    expect(Date.now() - before).toBeLessThan(5_000); // the refusal settles it, not the 10 s wait
    expect(store.getState()).toMatchObject({ mode: 'live', status: null });
    expect(requests).toEqual([]);
    // the refused stream is not remembered for the next connection
    expect(await ws.listSubscriptions()).toEqual([]);
    followed.stop();
  });

  it('a service that does not answer counts as live once the wait is over', async () => {
    // a port that accepts TCP connections and never answers the WebSocket handshake
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const { store, ws } = screen(`http://127.0.0.1:${port}`);
      const followed = followReplay(ws, store, 300);
      expect(store.getState().mode).toBe('unknown');
      await followed.known;
      expect(store.getState().mode).toBe('live');
      followed.stop();
      ws.close();
    } finally {
      silent.close();
    }
  });
});
