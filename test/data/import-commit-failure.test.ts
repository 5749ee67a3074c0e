// A commit that fails while a file is imported (a full disk: SQLite rolls the batch back) loses
// the rows it held, so the file is refused, naming the failure, and leaves nothing; until this was
// fixed `npm run data -- import` on a full disk said `imported ... 1440 rows, 1440 new`, exit 0,
// and `data list` then said `No datasets` (docs/data.md, Rules). The commit is failed here as the
// group commit fails one: a writer of the batch that throws (test/store/group-commit.test.ts).
import type { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { FIXTURES } from './archive-fixtures.ts';

const CSV = path.join(FIXTURES, 'klines', 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const OPTS = { market: 'spot', symbol: 'BTCUSDT', interval: '1m' } as const;

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

/**
 * Fails, once, the first commit whose batch holds what `when` finds (SQLite's full-disk error, as
 * a COMMIT on a full disk throws it): the group commit rolls that batch back.
 */
const failCommitWhen = (when: string) => {
  let armed = true;
  groupCommitOf(db).beforeCommit(() => {
    if (!armed || Object.values(db.prepare(when).get() ?? {})[0] === 0) return;
    armed = false;
    throw Object.assign(new Error('database or disk is full'), { errcode: 13 });
  });
};
const STAGED =
  "SELECT count(*) FROM dataset_candles c JOIN dataset_files f ON f.id = c.file_id AND f.state = 'staging'";
const DONE = "SELECT count(*) FROM dataset_files WHERE state = 'done'";

describe('a commit that fails during an import', () => {
  it('losing staged rows: the file is refused, naming the full disk, and nothing is listed', async () => {
    failCommitWhen(STAGED);
    const [r] = await service.importFiles([CSV], OPTS);
    expect(r.status).toBe('refused');
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(
      /^binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18\.csv: a write to .* failed: the disk is full/,
    );
    expect(r.error).toMatch(/nothing of this file was imported: free space on the disk of .*, then import it again$/);
    expect(service.list()).toEqual([]);
  });

  it('the file commit lost: refused, and the same file then goes in whole', async () => {
    failCommitWhen(DONE);
    const [r] = await service.importFiles([CSV], OPTS);
    expect(r.status).toBe('refused');
    expect(r.error).toMatch(/a write to .* failed: the disk is full .*; nothing of this file was imported/);
    expect(service.list()).toEqual([]);
    const [again] = await service.importFiles([CSV], OPTS);
    expect(again.status).toBe('imported');
    expect(service.list()[0].rows).toBe(4320);
  });
});
