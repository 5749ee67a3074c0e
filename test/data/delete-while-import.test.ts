// A dataset is not deleted while a file is being imported into it (`DELETE /api/v1/datasets/{id}`
// is answered between the import's chunks): the delete is refused, 1011 at the route, naming
// the file, and the import ends as it would have. Until this was fixed the delete went through,
// took the staged rows with it, and the import ended refused as "file 1 is not being imported",
// naming a dataset that no longer existed. Real 1m klines, the fixture's first day.
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetError, DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';

let db: DatabaseSync;
let service: DatasetService;

beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

describe('a delete while a file is imported into the dataset', () => {
  it('is refused naming the file; the import ends whole, and the delete goes through after it', async () => {
    const root = writeBtcusdtDays(tempDir());
    const zip = `${root}/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-16.zip`;
    let refusal: unknown = null;
    // the last progress report comes once the rows are staged, before they are committed
    const [r] = await service.importFiles([zip], {
      onProgress: () => {
        if (refusal !== null) return;
        try {
          service.delete(service.list()[0].id);
          refusal = 'deleted';
        } catch (e) {
          refusal = e;
        }
      },
    });
    expect(refusal).toBeInstanceOf(DatasetError);
    expect((refusal as DatasetError).kind).toBe('in_use');
    expect((refusal as DatasetError).message).toBe(
      'Dataset 1 (BTCUSDT) cannot be deleted while BTCUSDT-1m-2021-05-16.zip is being imported into it; ' +
        'delete it once the import has ended',
    );
    expect(r).toMatchObject({ ok: true, status: 'imported', datasetId: 1, rows: 1440, added: 1440 });
    expect(service.list().map((d) => [d.id, d.rows, d.files])).toEqual([[1, 1440, 1]]);
    service.delete(1);
    expect(service.list()).toEqual([]);
  });
});
