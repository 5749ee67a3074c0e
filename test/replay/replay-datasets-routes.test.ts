// A replay venue keeps no market data (docs/replay.md, API): its dataset routes answer 1108 naming
// the live venue, where the data is. They used to answer from the replay's own empty store in
// memory: the trading screen's Data dialog on a replay read "No market data imported yet" though the
// replay was reading the live folder's datasets, and a file imported there was "imported" into a
// store nothing read, gone with the replay, never in the live venue's catalogue.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { KLINES, call, importTrxRecording } from './harness.ts';

const FIRST_TRADE = 1744588804438;
const HOURLY = path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv');

let live: ServiceHandle;
let dir: string;

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-datasets-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  await importTrxRecording(live.venue.datasets);
});

afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dataset routes on a replay venue', () => {
  it('answer 1108 naming the live venue, and nothing is imported, edited or deleted anywhere', async () => {
    const liveList = (await call(live.url, 'GET', '/api/v1/datasets')).body.data;
    expect(liveList).toHaveLength(2);
    const id = liveList[0].id as number;
    const started = await call(live.url, 'POST', '/api/v1/replays', {
      symbols: ['TRXUSDT'],
      start: FIRST_TRADE,
      lockstep: true,
    });
    expect(started.status, started.text).toBe(200);
    const base = started.body.data.url as string;
    try {
      for (const [m, u, b] of [
        ['GET', '/api/v1/datasets', undefined],
        ['GET', `/api/v1/datasets/${id}`, undefined],
        ['GET', `/api/v1/datasets/${id}/klines?interval=1m`, undefined],
        ['GET', `/api/v1/datasets/${id}/trades`, undefined],
        ['POST', '/api/v1/datasets/import', { paths: [HOURLY], market: 'um', symbol: 'BTCUSDT', interval: '1h' }],
        ['PUT', `/api/v1/datasets/${id}/specs`, { tick_size: '0.001', step_size: '1' }],
        ['DELETE', `/api/v1/datasets/${id}`, undefined],
      ] as const) {
        const r = await call(base, m, u, b);
        // the candles answer as /fapi/v1/klines does: HTTP 200, {code, message}
        const klines = u.includes('/klines');
        expect(r.status, `${m} ${u}: ${r.text}`).toBe(klines ? 200 : 404);
        expect(r.body, `${m} ${u}`).toMatchObject({
          code: 1108,
          message: `Market data is listed, imported, edited and deleted on the live venue (${live.url}), not on a replay, which reads its datasets when it starts`,
        });
        if (!klines) expect(r.body.data).toBeNull();
      }
      // the simulator's route: a replay's clock is its controls' (it answered 1100 "No route")
      for (const [m, b] of [
        ['GET', undefined],
        ['POST', { paused: true }],
      ] as const) {
        const r = await call(base, m, '/api/v1/sim', b);
        expect([r.status, r.body.code], `${m} /api/v1/sim: ${r.text}`).toEqual([404, 1108]);
        expect(r.body.message).toContain('POST /api/v1/replay');
      }
      // the live venue's catalogue is as it was, and still answers
      expect((await call(live.url, 'GET', '/api/v1/datasets')).body.data).toEqual(liveList);
      // and the replay goes on reading it
      const stepped = await call(base, 'POST', '/api/v1/replay', { action: 'step', ms: 1000 });
      expect(stepped.body.data.time).toBe(FIRST_TRADE + 1000);
    } finally {
      await call(live.url, 'DELETE', `/api/v1/replays/${started.body.data.id}`);
    }
  });
});
