// bookDepth's timestamp (YYYY-MM-DD HH:MM:SS, UTC): a field out of its range is a bad row, not
// another time (docs/data.md, Validation).
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

const day = (date: string, stamps: string[]) =>
  writeArchiveZip(root, {
    market: 'um',
    kind: 'bookDepth',
    symbol: 'BTCUSDT',
    date,
    csv: ['timestamp,percentage,depth,notional', ...stamps.map((s) => `${s},-1.00,4000.123,370000000.45`), ''].join(
      '\n',
    ),
  }).zip;

describe('bookDepth timestamps', () => {
  it.each([
    ['2025-13-01 00:00:08', '2026-01-01'], // month 13
    ['2025-02-30 00:00:08', '2025-03-02'], // no 30 February
    ['2025-01-06 24:00:08', '2025-01-07'], // hour 24
    ['0099-05-16 00:00:08', '1999-05-16'], // a two-digit year is 1900 + it to Date.UTC
  ])('%s is refused by its row (it was stored as %s)', async (stamp) => {
    const [r] = await service.importFiles([day('2025-01-06', ['2025-01-06 00:00:00', stamp])]);
    expect([r.status, r.errorRow]).toEqual(['refused', 3]);
    expect(r.error).toBe(
      `BTCUSDT-bookDepth-2025-01-06.zip: row 3: timestamp is not YYYY-MM-DD HH:MM:SS: "${stamp}"; nothing of this file was imported`,
    );
  });

  it('a real time is stored at that second', async () => {
    const [r] = await service.importFiles([day('2025-01-06', ['2025-01-06 00:00:08', '2025-01-06 23:59:59'])]);
    expect(r.status).toBe('imported');
    expect(service.get(r.datasetId!)).toMatchObject({
      firstTime: Date.UTC(2025, 0, 6, 0, 0, 8),
      lastTime: Date.UTC(2025, 0, 6, 23, 59, 59),
    });
  });
});
