// A sweep's --replay-datasets (docs/sweeps.md, docs/replay.md "Choosing the datasets"): every
// job's replay reads the pinned datasets, kept by id in the pack; a pin the replay cannot read
// refuses the sweep before any job starts (exit 2, naming the dataset, nothing recorded).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { buildPack, openPack, type OpenPack } from '../../src-main/sweep/pack.ts';
import { openJobVenue } from '../../src-main/sweep/run-job.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { KLINES } from '../replay/harness.ts';
import { runCli } from './cli-helpers.ts';
import { JAN6, testJob } from './fixture.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';
const ids: Record<string, number> = {};
let dir: string;
let pack: OpenPack;

beforeAll(async () => {
  // BTCUSDT's candles of 2025-01-06..12 as USD-M 1h and spot 15m, and spot 1h of 2021-05-16..18
  dir = tempDir('perpdesk-sweep-pins-');
  const db = openDatabase({ dataDir: dir });
  try {
    const ds = new DatasetService(new DatasetsRepo(db));
    for (const [name, file, market, interval] of [
      ['um1h', 'binance_spot_BTCUSDT_1h_2025-01-06_to_2025-01-12.csv', 'um', '1h'],
      ['spot15m', 'binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv', 'spot', '15m'],
      ['old1h', 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv', 'spot', '1h'],
    ] as const) {
      const [r] = await ds.importFiles([path.join(KLINES, file)], { market, symbol: 'BTCUSDT', interval });
      if (!r.ok) throw new Error(String(r.error));
      ids[name] = r.datasetId!;
    }
    groupCommitOf(db).commitNow();
  } finally {
    db.close();
  }
  pack = openPack((await buildPack(dir, ['BTCUSDT'], path.join(dir, 'sweeps/t/data.db'))).path);
});
afterAll(() => pack?.close());

describe('a sweep with --replay-datasets', () => {
  it("a job's replay reads the pinned dataset from the pack, the venue's pick without it", async () => {
    for (const [datasets, want] of [
      [undefined, { role: 'klines', id: ids.um1h, market: 'um', kind: 'klines', interval: '1h' }],
      [[ids.spot15m], { role: 'klines', id: ids.spot15m, market: 'spot', kind: 'klines', interval: '15m' }],
    ] as const) {
      const job = testJob({ params: {}, ...(datasets === undefined ? {} : { datasets: [...datasets] }) });
      const venue = await openJobVenue(job, pack.data);
      if ('error' in venue) throw new Error(venue.error);
      try {
        expect(venue.svc.venue.replay!.status().datasets).toEqual({ BTCUSDT: [want] });
      } finally {
        await venue.svc.close();
      }
    }
  }, 60_000);

  it.each([
    [
      () => '999',
      /^perpdesk sweep: 1 of the sweep's 1 job span\(s\) cannot be replayed \(1 of 1 jobs\); the first, job 0 \(2025-01-06T00:00Z\.\.2025-01-07T00:00Z\): there is no dataset 999 of BTCUSDT to read/,
    ],
    [
      () => String(ids.old1h),
      /: the pinned dataset \d+ \(spot 1h klines of BTCUSDT\) ends before the replay start \(2025-01-06T00:00:00\.000Z\)/,
    ],
    [() => '3,x', /^perpdesk sweep: --replay-datasets wants dataset ids .* got '3,x'$/],
    [() => '4,4', /^perpdesk sweep: --replay-datasets names a dataset twice: '4,4'$/],
  ])(
    'refuses a pin it cannot read before any job starts, exit 2',
    async (pins, message) => {
      const r = await runCli([
        '--bot',
        BOT,
        '--replay',
        'BTCUSDT@2025-01-06..2025-01-06',
        '--replay-datasets',
        pins(),
        '--data-dir',
        dir,
        '--workers',
        '1',
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toMatch(message);
      // nothing recorded: no pack left beside the test's own
      expect(readdirSync(path.join(dir, 'sweeps'))).toEqual(['t']);
    },
    60_000,
  );

  it('the job keeps the pin as data (JSON both ways)', () => {
    const job = testJob({ params: {}, datasets: [ids.spot15m] });
    expect(JSON.parse(JSON.stringify(job))).toMatchObject({ datasets: [ids.spot15m], start: JAN6 });
  });
});
