// A symbol's data of one kind in two datasets with a gap between them (docs/replay.md, Session):
// the spot BTCUSDT 1m klines of 2021-05-16..18 and 15m klines of 2025-01-06..12. What is refused
// is said of all the symbol's klines, naming both datasets; a span with data in one of them is
// replayed as a span partly in a gap of one dataset is (span-data.test.ts): started in the gap,
// the pair shows the last price before it until the data resumes.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetService } from '../../src-main/data/dataset-service.ts';
import type { ReplayOptions } from '../../src-main/replay/replay-market.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { fixtureRows, tempDir } from '../data/archive-fixtures.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';

const t = (iso: string): number => Date.parse(iso);
const M1 = 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv';
const M15 = 'binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv';
const FILES = [
  { paths: [path.join(KLINES, M1)], opts: { market: 'spot' as const, symbol: 'BTCUSDT', interval: '1m' } },
  { paths: [path.join(KLINES, M15)], opts: { market: 'spot' as const, symbol: 'BTCUSDT', interval: '15m' } },
];
const DATASETS =
  'spot 1m klines from 2021-05-16T00:00:00.000Z to 2021-05-19T00:00:00.000Z, ' +
  'spot 15m klines from 2025-01-06T00:00:00.000Z to 2025-01-13T00:00:00.000Z';

let db: DatabaseSync | null = null;
let svc: ServiceHandle | null = null;
let dir: string | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
  db?.close();
  db = null;
  if (dir !== null) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function twoDatasets(): Promise<DatasetService> {
  db = openDatabase({ dataDir: ':memory:' });
  return importInto(db, FILES);
}

function replay(ds: DatasetService, options: ReplayOptions): Promise<ServiceHandle> {
  return startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options, data: replayDataOf(ds), lockstep: true },
  });
}

/** mark, index and last price of a pair, as a bot reads them. */
async function shown(s: ServiceHandle): Promise<number[]> {
  const p = (await s.app.inject({ method: 'GET', url: '/fapi/v1/complete_price?symbol=BTCUSDT' })).json().data;
  return [p.mark_price, p.index_price, p.last_price].map(Number);
}

const lastClose1m = Number(fixtureRows(M1).at(-1)!.split(',')[4]);
const firstOpen15m = Number(fixtureRows(M15)[0].split(',')[1]);

describe("a symbol's klines in two datasets with a gap between them", () => {
  it('a span lying in the gap is refused, naming both datasets (1001 over the API)', async () => {
    const want =
      'BTCUSDT has no klines data from 2022-01-01T00:00:00.000Z to 2022-01-02T00:00:00.000Z: the span lies in a gap ' +
      'of its data, which stops at 2021-05-19T00:00:00.000Z and resumes at 2025-01-06T00:00:00.000Z; none of its 2 ' +
      `klines datasets has data in it: ${DATASETS}`;
    await expect(
      replay(await twoDatasets(), {
        symbols: ['BTCUSDT'],
        start: t('2022-01-01T00:00Z'),
        until: t('2022-01-02T00:00Z'),
      }),
    ).rejects.toThrow(want);
    // the live venue's route: an invalid parameter, as the same span in a gap of one dataset
    dir = tempDir('perpdesk-dataset-gap-');
    svc = await startService({ dataDir: dir, simulate: false, rateLimit: false });
    for (const f of FILES) await svc.venue.datasets.importFiles(f.paths, f.opts);
    const r = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/replays',
      payload: { symbols: ['BTCUSDT'], start: t('2022-01-01T00:00Z'), until: t('2022-01-02T00:00Z') },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 1001, message: `Cannot replay: ${want}` });
  });

  it('a start in the gap with data in the span is replayed: the last price before the gap until the data resumes', async () => {
    svc = await replay(await twoDatasets(), {
      symbols: ['BTCUSDT'],
      start: t('2022-01-01T00:00Z'),
      until: t('2025-01-07T00:00Z'),
    });
    expect(svc.venue.replay!.status()).toMatchObject({
      start: t('2022-01-01T00:00Z'),
      until: t('2025-01-07T00:00Z'),
      sources: { BTCUSDT: 'klines' },
    });
    // the close of 2021-05-18 23:59 (the 1m data), not the 15m data's first open
    expect(await shown(svc)).toEqual([lastClose1m, lastClose1m, lastClose1m]);
    expect(lastClose1m).not.toBe(firstOpen15m);
    const seek = async (time: number): Promise<void> => {
      const r = await svc!.app.inject({ method: 'POST', url: '/api/v1/replay', payload: { action: 'seek', time } });
      expect(r.json().code).toBe(0);
    };
    await seek(t('2025-01-05T23:59:59Z'));
    expect(await shown(svc)).toEqual([lastClose1m, lastClose1m, lastClose1m]);
    // the 15m data resumes: its first candle's open is the first print
    await seek(t('2025-01-06T00:00Z'));
    expect(await shown(svc)).toEqual([firstOpen15m, firstOpen15m, firstOpen15m]);
  }, 60_000);

  it('a start in the gap without until is replayed to the end of the data where it resumes', async () => {
    svc = await replay(await twoDatasets(), { symbols: ['BTCUSDT'], start: t('2022-01-01T00:00Z') });
    expect(svc.venue.replay!.status()).toMatchObject({
      start: t('2022-01-01T00:00Z'),
      until: t('2025-01-13T00:00Z'),
    });
    expect(await shown(svc)).toEqual([lastClose1m, lastClose1m, lastClose1m]);
  });

  it('a start before or after all of them is refused, naming both datasets', async () => {
    const ds = await twoDatasets();
    await expect(replay(ds, { symbols: ['BTCUSDT'], start: t('2021-05-15T00:00Z') })).rejects.toThrow(
      'the klines data of BTCUSDT starts at 2021-05-16T00:00:00.000Z, after the replay start ' +
        `(2021-05-15T00:00:00.000Z; a start earlier on that UTC day starts at its first event) (2 datasets: ${DATASETS})`,
    );
    await expect(replay(ds, { symbols: ['BTCUSDT'], start: t('2025-02-01T00:00Z') })).rejects.toThrow(
      'the klines data of BTCUSDT ends before the replay start (2025-02-01T00:00:00.000Z): it runs from ' +
        `2021-05-16T00:00:00.000Z to 2025-01-13T00:00:00.000Z (2 datasets: ${DATASETS})`,
    );
  });
});
