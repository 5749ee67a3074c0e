// L2 depth (REST snapshot + diff-depth stream) in the two recorded layouts of the fixtures
// (test/fixtures/binance/SOURCES.md): cryptofeed's JSON lines and the per-level CSV rows.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
const LASOTA = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

interface Stored {
  time: number;
  data: { t: string; U?: number; u: number; pu?: number; b: string[][]; a: string[][] };
}
const stored = (id: number): Stored[] =>
  (
    db.prepare('SELECT time, data FROM dataset_events WHERE dataset_id = ? ORDER BY time, seq').all(id) as {
      time: number;
      data: string;
    }[]
  ).map((r) => ({
    time: r.time,
    data: JSON.parse(r.data),
  }));

describe('JSON lines (cryptofeed recording of four USD-M pairs)', () => {
  it('takes the snapshot and the 255 diff events of SUSHIUSDT, skips the other pairs and streams, finds no break', async () => {
    const opts = { market: 'um', symbol: 'SUSHIUSDT', kind: 'depth' };
    const [snap, diffs] = await service.importFiles(
      [path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), path.join(CRYPTOFEED, 'ws_events.jsonl')],
      opts,
    );
    expect([snap.status, snap.rows, diffs.status, diffs.rows, diffs.gaps]).toEqual(['imported', 1, 'imported', 255, 0]);
    expect(snap.datasetId).toBe(diffs.datasetId);
    const ev = stored(snap.datasetId!);
    expect(ev).toHaveLength(256);
    const s = ev.find((e) => e.data.t === 's')!;
    expect(s.data.u).toBe(600859605926);
    expect(s.time).toBe(1626992741264_000);
    expect(s.data.b[0]).toEqual(['7.6110', '6']);
    const d = ev.filter((e) => e.data.t === 'd');
    expect(d[0].data).toMatchObject({ U: 600859599090, u: 600859600917, pu: 600859598061 });
    expect(d[0].data.b).toEqual([
      ['7.5040', '813'],
      ['7.6090', '0'],
      ['7.6110', '2'],
    ]);
    expect(d[d.length - 1].data.u).toBe(600860425198);
    // the futures sync rule holds in the stored data: some event spans the snapshot's id
    expect(d.some((e) => e.data.U! <= s.data.u && e.data.u >= s.data.u)).toBe(true);
    expect(service.get(snap.datasetId!)).toMatchObject({
      kind: 'depth',
      market: 'um',
      symbol: 'SUSHIUSDT',
      rows: 256,
      files: 2,
    });
  });

  it('a lost event is recorded as a gap; a pair the file does not hold is refused by name', async () => {
    const lines = readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n');
    const sushi = lines.filter((l) => l.includes('"s":"SUSHIUSDT"') && l.includes('depthUpdate'));
    const f = path.join(tempDir(), 'sushi.jsonl');
    writeFileSync(f, sushi.filter((_l, i) => i !== 100).join('\n'));
    const [r] = await service.importFiles([f], { market: 'um', symbol: 'SUSHIUSDT', kind: 'depth' });
    expect([r.status, r.rows, r.gaps]).toEqual(['imported', 254, 1]);
    expect(service.gaps(r.datasetId!)[0].detail).toMatch(/^diff-depth stream broken: pu \d+ after u \d+/);
    const [none] = await service.importFiles([f], { market: 'um', symbol: 'BTCUSDT', kind: 'depth' });
    expect(none.error).toMatch(/no rows of BTCUSDT \(it has SUSHIUSDT\)/);
  });

  it('a damaged event refuses the file with its line', async () => {
    const lines = readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n');
    const i = lines.findIndex((l, n) => n > 50 && l.includes('"s":"SUSHIUSDT"') && l.includes('depthUpdate'));
    lines[i] = lines[i].replace(/"b":\[\["([\d.]+)"/, '"b":[["-$1"');
    const f = path.join(tempDir(), 'ws.jsonl');
    writeFileSync(f, lines.join('\n'));
    const [r] = await service.importFiles([f], { market: 'um', symbol: 'SUSHIUSDT', kind: 'depth' });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(new RegExp(`row ${i + 1}: price "-[\\d.]+" is not a positive decimal`));
    expect((db.prepare('SELECT COUNT(*) AS n FROM dataset_events').get() as { n: number }).n).toBe(0);
  });
});

describe('CSV rows (one row per level, TRXUSDT)', () => {
  it('2,000 snapshot levels make one snapshot; 2,136 diff rows make 155 events with unbroken pu', async () => {
    const opts = { market: 'um', symbol: 'TRXUSDT', kind: 'depth' };
    const [snap, diffs] = await service.importFiles(
      [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
      opts,
    );
    expect([snap.status, snap.rows, diffs.status, diffs.rows, diffs.gaps]).toEqual(['imported', 1, 'imported', 155, 0]);
    const ev = stored(snap.datasetId!);
    const s = ev.find((e) => e.data.t === 's')!;
    expect([s.data.u, s.data.b.length, s.data.a.length]).toEqual([7267631291190, 1000, 1000]);
    expect(s.data.b[0]).toEqual(['0.25461', '9781.0']);
    const d = ev.filter((e) => e.data.t === 'd');
    expect(d[0].data).toMatchObject({ U: 7267631275717, u: 7267631291190, pu: 7267631271246 });
    expect(d[0].data.b.length + d[0].data.a.length).toBe(25);
    expect(d[d.length - 1].data).toMatchObject({ U: 7267637331382, u: 7267637334478 });
    // importing them again changes nothing
    const again = await service.importFiles(
      [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
      opts,
    );
    expect(again.map((r) => r.status)).toEqual(['unchanged', 'unchanged']);
  });
});
