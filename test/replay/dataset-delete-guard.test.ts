// A dataset a running replay reads is not deleted under it (docs/data.md): its rows would go from
// the replay's readers, and the replay would end early as if its history had (measured before
// the guard: 218 of 353 events, and a report saying complete). Refused with 1011 until the
// replay is closed; a starting replay holds its pairs too.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { ReplayHostService, type HostedReplay } from '../../src-main/replay/host.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { call, importTrxRecording } from './harness.ts';

const FIRST_TRADE = 1744588804438;

describe('deleting a dataset a replay reads', () => {
  let live: ServiceHandle;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('perpdesk-delete-guard-');
    live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
    await importTrxRecording(live.venue.datasets);
  });
  afterAll(async () => {
    await live?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused with 1011 while the replay runs, the data whole; once it is closed, the delete goes through', async () => {
    const before = (await call(live.url, 'GET', '/api/v1/datasets')).body.data as { id: number; rows: number }[];
    expect(before.length).toBeGreaterThan(0);
    const started = await call(live.url, 'POST', '/api/v1/replays', {
      symbols: ['TRXUSDT'],
      start: FIRST_TRADE,
      lockstep: true,
    });
    expect(started.status).toBe(200);
    const id = started.body.data.id as string;
    const base = started.body.data.url as string;
    await call(base, 'POST', '/api/v1/replay', { action: 'step', ms: 2000 });

    for (const d of before) {
      const r = await call(live.url, 'DELETE', `/api/v1/datasets/${d.id}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 1011,
        message:
          `Dataset ${d.id} (TRXUSDT) cannot be deleted while replay ${id} (TRXUSDT) runs: a replay may read any ` +
          'dataset of its pairs; close the replay first',
        data: null,
      });
    }
    const after = (await call(live.url, 'GET', '/api/v1/datasets')).body.data as { id: number; rows: number }[];
    expect(after.map((d) => [d.id, d.rows])).toEqual(before.map((d) => [d.id, d.rows]));
    // the replay plays its history to the end
    let finished = false;
    for (let i = 0; i < 40 && !finished; i++) {
      finished = (await call(base, 'POST', '/api/v1/replay', { action: 'step', ms: 1000 })).body.data.finished;
    }
    expect((await call(base, 'GET', '/api/v1/replay/report')).body.data.complete).toBe(true);

    expect((await call(live.url, 'DELETE', `/api/v1/replays/${id}`)).status).toBe(200);
    const gone = await call(live.url, 'DELETE', `/api/v1/datasets/${before[0].id}`);
    expect([gone.status, gone.body]).toEqual([200, { code: 0, message: 'success', data: { id: before[0].id } }]);
    expect((await call(live.url, 'DELETE', `/api/v1/datasets/${before[0].id}`)).body.code).toBe(1106);
  }, 60_000);
});

describe('ReplayHostService.readerOf', () => {
  it("names a starting replay's pairs, then the running replay's, and none once it is closed", async () => {
    let launched: (h: HostedReplay) => void = () => {};
    const host = new ReplayHostService({
      data: () => ({}) as ReplayData,
      launch: () => new Promise<HostedReplay>((resolve) => (launched = resolve)),
    });
    const start = host.start({ symbols: ['BTCUSDT', 'ETHUSDT'], start: 0, lockstep: true });
    expect(host.readerOf('ETHUSDT')).toBe('a replay of BTCUSDT, ETHUSDT that is starting');
    expect(host.readerOf('TRXUSDT')).toBeNull();
    launched({
      url: 'http://127.0.0.1:1',
      loginUrl: 'http://127.0.0.1:1/#token=x',
      renewLoginUrl: () => 'http://127.0.0.1:1/#token=y',
      status: () => ({}) as ReturnType<HostedReplay['status']>,
      play: () => {},
      close: async () => {},
    });
    const info = await start;
    expect(host.readerOf('BTCUSDT')).toBe(`replay ${info.id} (BTCUSDT, ETHUSDT)`);
    expect(await host.close(info.id)).toBe(true);
    expect(host.readerOf('BTCUSDT')).toBeNull();
  });
});
