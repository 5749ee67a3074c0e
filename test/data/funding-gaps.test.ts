// Funding settlements missing between two fundingRate files are gaps by the pair's own funding
// interval, as inside a file (docs/data.md, Gaps): a 4 h pair's settlement lost at a month's end.
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { tempDir, writeArchiveZip } from './archive-fixtures.ts';

let db: DatabaseSync;
let service: DatasetService;
let root: string;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
  root = tempDir();
});
afterEach(() => db.close());

const HEADER = 'calc_time,funding_interval_hours,last_funding_rate';
const H = 3_600_000;
const JAN_31 = Date.UTC(2025, 0, 31);
const FEB_1 = Date.UTC(2025, 1, 1);

/** A monthly fundingRate zip of `hours`-hourly rows at these times. */
const month = (date: string, hours: number, times: number[]) =>
  writeArchiveZip(root, {
    market: 'um',
    period: 'monthly',
    kind: 'fundingRate',
    symbol: 'TRXUSDT',
    date,
    csv: [HEADER, ...times.map((t) => `${t},${hours},0.00010000`), ''].join('\n'),
  }).zip;

describe('funding gaps between files', () => {
  it("a 4 h pair's settlement missing at the month's end is a gap (it was judged against 8 h)", async () => {
    // January ends with its 16:00 settlement: 20:00 is missing; February starts at 00:00 (8 h on)
    const jan = month('2025-01', 4, [JAN_31 + 8 * H, JAN_31 + 12 * H, JAN_31 + 16 * H]);
    const feb = month('2025-02', 4, [FEB_1, FEB_1 + 4 * H]);
    const r = await service.importFiles([jan, feb]);
    expect(r.map((x) => [x.status, x.rows, x.gaps])).toEqual([
      ['imported', 3, 0],
      ['imported', 2, 0],
    ]);
    expect(service.gaps(r[0].datasetId!)).toEqual([
      {
        start: JAN_31 + 16 * H + 1,
        end: FEB_1,
        detail:
          'no fundingRate data for 8.0 hours between TRXUSDT-fundingRate-2025-01.zip and TRXUSDT-fundingRate-2025-02.zip',
        fileId: null,
      },
    ]);
  });

  it('an 8 h pair whose months meet on time has none', async () => {
    const jan = month('2025-01', 8, [JAN_31, JAN_31 + 8 * H, JAN_31 + 16 * H]);
    const feb = month('2025-02', 8, [FEB_1, FEB_1 + 8 * H]);
    const r = await service.importFiles([jan, feb]);
    expect(service.gaps(r[0].datasetId!)).toEqual([]);
  });
});
