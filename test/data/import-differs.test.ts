// A second copy of a day whose figures differ from those stored (a re-downloaded, corrected file):
// the stored rows are kept, as before, and the import now says so in its warnings (how many rows
// differ, the first one's time); until this was fixed it said `1440 rows, 0 new` and nothing else.
// An identical copy (another file of the same rows) says nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, fixtureRows, KLINES_HEADER, tempDir } from './archive-fixtures.ts';

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

const day = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 1440);

/** The rows as a file of its own folder (another content, so another file to the dataset). */
function file(name: string, header: string, rows: readonly string[]): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, [header, ...rows].join('\n') + '\n');
  return f;
}

/** The rows with column `col` of rows `at` changed by `change`. */
const edited = (rows: readonly string[], at: readonly number[], col: number, change: (v: string) => string) =>
  rows.map((r, i) => {
    if (!at.includes(i)) return r;
    const f = r.split(',');
    f[col] = change(f[col]);
    return f.join(',');
  });

const importOne = async (f: string, opts = {}) => {
  const [r] = await service.importFiles([f], { market: 'spot', ...opts });
  expect(r.error).toBeNull();
  return r;
};

describe('a second copy of a day', () => {
  it('with other figures: its rows that differ are counted and the first named; the stored candles are kept', async () => {
    await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, day));
    // 10:00 and 10:01, and 15:00: count one more
    const corrected = edited(day, [600, 601, 900], 8, (v) => String(Number(v) + 1));
    const r = await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, corrected));
    expect([r.status, r.rows, r.added]).toEqual(['imported', 1440, 0]);
    expect(r.warnings).toEqual([
      '3 rows of this file differ from the ones an earlier file stored (the first at 2021-05-16T10:00:00.000Z); ' +
        "the stored ones were kept, not this file's: to take its figures, delete the dataset and import this file before the others",
    ]);
    const at10 = service.klines(r.datasetId!, '1m', { startTime: Date.parse('2021-05-16T10:00:00Z'), limit: 1 });
    expect(at10[0][8]).toBe(Number(day[600].split(',')[8])); // the stored count, not the copy's
  });

  it('the same figures in another file (a header added, the rows the same): nothing is said', async () => {
    await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, day));
    const again = path.join(tempDir(), 'BTCUSDT-1m-2021-05-16.csv');
    writeFileSync(again, day.join('\n') + '\n');
    const r = await importOne(again);
    expect([r.status, r.added, r.warnings]).toEqual(['imported', 0, []]);
  });

  // Until 2026-12-07 the figures were compared as written, so a copy with trailing zeros (another
  // export of the same day, `1.50000000` for `1.5`) was said to differ in every row.
  it('the same figures written with trailing zeros, or without them: nothing is said', async () => {
    await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, day));
    const padded = edited(
      edited(day, [600, 601], 5, (v) => (v.includes('.') ? `${v}000` : `${v}.000`)),
      [900],
      1,
      (v) => (v.includes('.') ? `${v}0` : v),
    );
    expect(padded[600]).not.toBe(day[600]);
    const r = await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, padded));
    expect([r.status, r.added, r.warnings]).toEqual(['imported', 0, []]);
    // a figure that does differ in such a file is still said
    const changed = edited(padded, [700], 5, (v) => String(Number(v) + 1));
    const r2 = await importOne(file('BTCUSDT-1m-2021-05-16.csv', KLINES_HEADER, changed));
    expect(r2.warnings[0]).toMatch(/^1 row of this file differs .* \(the first at 2021-05-16T11:40:00.000Z\)/);
  });

  it('events (bookTicker): a changed event is said with its time, the new ones go in, the stored one is kept', async () => {
    const header = 'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time';
    const t0 = Date.parse('2025-01-06T00:00:00Z');
    const rows = Array.from(
      { length: 10 },
      (_, i) => `${100 + i},94000.10,1.5,94000.20,2.5,${t0 + i * 1000},${t0 + i * 1000 + 3}`,
    );
    const opts = { market: 'um', symbol: 'BTCUSDT', kind: 'bookTicker' };
    await importOne(file('first.csv', header, rows.slice(0, 6)), opts);
    const r = await importOne(
      file(
        'second.csv',
        header,
        edited(rows, [4], 2, () => '1.6'),
      ),
      opts,
    );
    expect([r.rows, r.added]).toEqual([10, 4]);
    expect(r.warnings).toEqual([
      '1 row of this file differs from the one an earlier file stored (the first at 2025-01-06T00:00:04.000Z); ' +
        "the stored one was kept, not this file's: to take its figures, delete the dataset and import this file before the others",
    ]);
    const stored = db
      .prepare('SELECT data FROM dataset_events WHERE dataset_id = ? ORDER BY time LIMIT 1 OFFSET 4')
      .get(r.datasetId!);
    expect(stored).toEqual({ data: '104,94000.10,1.5,94000.20,2.5,' + String(t0 + 4003) });
  });

  describe("depth (a recorder's diff-depth CSV, CRLF as recorded)", () => {
    const DIFFS = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota/diff_depth_stream.csv');
    const lines = readFileSync(DIFFS, 'utf8').split('\r\n');
    const opts = { market: 'um', symbol: 'TRXUSDT', kind: 'depth' };
    const copy = (edit: (line: string, i: number) => string): string => {
      const f = path.join(tempDir(), 'diff_depth_stream.csv');
      writeFileSync(f, lines.map((l, i) => (i === 0 || l === '' ? l : edit(l, i))).join('\r\n'));
      return f;
    };
    const storedAt = (id: number, time: number) =>
      db.prepare('SELECT data FROM dataset_events WHERE dataset_id = ? AND time = ?').get(id, time) as { data: string };

    it('an event with another quantity at the same time and update id: said with its time, the stored one kept', async () => {
      const first = await importOne(DIFFS, opts);
      expect([first.rows, first.added]).toEqual([155, 155]);
      // line 3: the first event's bid 0.25291 505839.0 (its T 1744588800061)
      expect(lines[2]).toMatch(/,0,0\.25291,505839\.0$/);
      const r = await importOne(
        copy((l, i) => (i === 2 ? l.replace(/505839\.0$/, '505840.0') : l)),
        opts,
      );
      expect([r.status, r.rows, r.added]).toEqual(['imported', 155, 0]);
      expect(r.warnings).toEqual([
        '1 row of this file differs from the one an earlier file stored (the first at 2025-04-14T00:00:00.061Z); ' +
          "the stored one was kept, not this file's: to take its figures, delete the dataset and import this file before the others",
      ]);
      expect(storedAt(r.datasetId!, 1744588800061000).data).toContain('["0.25291","505839.0"]');
    });

    // Until 2026-12-08 a depth event's figures were compared as written: the same day with its
    // quantities written 505839.00 (or 505839, as the JSON stream writes them) differed in every event.
    it('the same events with trailing zeros, or without them: nothing is said', async () => {
      await importOne(DIFFS, opts);
      const padded = await importOne(
        copy((l) => l.replace(/\.0$/, '.00')),
        opts,
      );
      expect([padded.status, padded.added, padded.warnings]).toEqual(['imported', 0, []]);
      const bare = await importOne(
        copy((l) => l.replace(/\.0$/, '')),
        opts,
      );
      expect([bare.status, bare.added, bare.warnings]).toEqual(['imported', 0, []]);
    });
  });
});
