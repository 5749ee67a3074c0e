// A spot recording of the Binance-Data-Processor-style recorder (test/fixtures/binance/SOURCES.md):
// its spot diff-depth stream (no TransactionTime, no FinalUpdateIdInLastStream) and its spot REST
// snapshot (no exchange time, opening with a data quality report), read as L2 depth (docs/data.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const DIFFS = path.join(FIXTURES, 'depth/binance_spot_TRXUSDT_2025-03-04_lasota/diff_depth_stream.csv');
const SNAPSHOT = path.join(FIXTURES, 'depth/binance_spot_BTCUSDT_2025-04-14_lasota/rest_depth_snapshot.csv');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

const stored = (id: number): { time: number; data: Record<string, unknown> }[] =>
  (
    db.prepare('SELECT time, data FROM dataset_events WHERE dataset_id = ? ORDER BY time, seq').all(id) as {
      time: number;
      data: string;
    }[]
  ).map((r) => ({ time: r.time, data: JSON.parse(r.data) as Record<string, unknown> }));

describe("a spot recording's depth CSV files", () => {
  // both were refused: 'not a depth file: expected JSON lines or the header ...' (with --kind
  // depth), and without a kind 'the file name and folders do not say its kind'
  it('the diff-depth stream: one event per update, timed by its EventTime (spot has no T), no pu', async () => {
    const [r] = await service.importFiles([DIFFS], { market: 'spot', symbol: 'TRXUSDT' });
    expect([r.status, r.error, r.rows, r.gaps, r.key?.kind]).toEqual(['imported', null, 12, 0, 'depth']);
    const ev = stored(r.datasetId!);
    expect(ev).toHaveLength(12);
    // lines 3-5: 1741046400663226,trxusdt@depth@100ms,depthUpdate,1741046400662453,TRXUSDT,5434434573,5434434580,
    // then 0,0.2312,236798.9 | 1,0.2313,258583.7 | 1,0.2314,576782.2
    expect(ev[1]).toEqual({
      time: 1741046400662453,
      data: {
        t: 'd',
        U: 5434434573,
        u: 5434434580,
        pu: -1,
        b: [['0.2312', '236798.9']],
        a: [
          ['0.2313', '258583.7'],
          ['0.2314', '576782.2'],
        ],
      },
    });
    // every event, read here straight from the CSV: EventTime, FirstUpdateId, FinalUpdateId
    const rows = readFileSync(DIFFS, 'utf8').trim().split(/\r?\n/).slice(1);
    const events = [...new Map(rows.map((l) => l.split(',')).map((f) => [f[6], f])).values()];
    expect(ev.map((e) => [e.time, e.data.U, e.data.u])).toEqual(
      events.map((f) => [Number(f[3]), Number(f[5]), Number(f[6])]),
    );
  });

  it('a break in the spot stream (U not the previous u + 1) is a gap; a short row names its width', async () => {
    const lines = readFileSync(DIFFS, 'utf8').trim().split(/\r?\n/);
    const broken = path.join(tempDir(), 'diff_depth_stream.csv');
    // the event 5434434581 (line 6) lost
    writeFileSync(broken, lines.filter((_, i) => i !== 5).join('\n'));
    const [r] = await service.importFiles([broken], { market: 'spot', symbol: 'TRXUSDT' });
    expect([r.status, r.rows, r.gaps]).toEqual(['imported', 11, 1]);
    const short = path.join(tempDir(), 'diff_depth_stream.csv');
    writeFileSync(short, [...lines.slice(0, 3), lines[3].replace(/,0\.2313,258583\.7$/, '')].join('\n'));
    const [s] = await service.importFiles([short], { market: 'spot', symbol: 'TRXUSDT', kind: 'depth' });
    expect(s.error).toBe(
      'diff_depth_stream.csv: row 4: 8 columns; a spot diff-depth row has 10; nothing of this file was imported',
    );
  });

  it('the REST snapshot after its report: one event at its TimestampOfReceive, its LastUpdateId', async () => {
    const [r] = await service.importFiles([SNAPSHOT], { market: 'spot', symbol: 'BTCUSDT' });
    expect([r.status, r.error, r.rows, r.key?.kind]).toEqual(['imported', null, 1, 'depth']);
    // 1744588800258 (received), 1744588800180 (requested), 66711751276, then six bid levels
    expect(stored(r.datasetId!)).toEqual([
      {
        time: 1744588800258_000,
        data: {
          t: 's',
          u: 66711751276,
          b: [
            ['83759.99000000', '2.08852000'],
            ['83759.98000000', '0.00031000'],
            ['83759.76000000', '0.00007000'],
            ['83759.75000000', '0.00007000'],
            ['83759.66000000', '0.00007000'],
            ['83759.29000000', '0.00015000'],
          ],
          a: [],
        },
      },
    ]);
  });
});
