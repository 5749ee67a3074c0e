// L2 depth (REST snapshot + diff-depth stream) in the two recorded layouts of the fixtures
// (test/fixtures/binance/SOURCES.md): cryptofeed's JSON lines and the per-level CSV rows.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
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
  it("a folder of JSON lines files is searched for them, as for .zip and .csv (it found 'no .zip or .csv files')", () => {
    expect(expandPaths([CRYPTOFEED]).files.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['rest_depth_snapshots.jsonl', 'ws_events.jsonl']),
    );
  });

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
    expect(s.time).toBe(1626992741261_000); // its T ("E":1626992741264,"T":1626992741261)
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

describe('the time an event is stored at: T (transaction time) when it has one, else E', () => {
  const csvEvents = (file: string): string[][] => {
    const rows = readFileSync(path.join(LASOTA, file), 'utf8').trim().split('\n').slice(1);
    const seen = new Set<string>();
    return rows
      .map((r) => r.split(','))
      .filter((f) => !seen.has(f[file.startsWith('rest') ? 4 : 7]) && !!seen.add(f[file.startsWith('rest') ? 4 : 7]));
  };

  it('TRXUSDT (CSV): every event at its TransactionTime column, not its EventTime', async () => {
    const [snap] = await service.importFiles(
      [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
      { market: 'um', symbol: 'TRXUSDT', kind: 'depth' },
    );
    const ev = stored(snap.datasetId!);
    const diffs = csvEvents('diff_depth_stream.csv'); // one row per event: EventTime [3], TransactionTime [4], u [7]
    const snapRow = csvEvents('rest_depth_snapshot.csv')[0]; // TransactionTime [3], LastUpdateId [4]
    expect(ev.find((e) => e.data.t === 's')!.time).toBe(Number(snapRow[3]) * 1000);
    const d = ev.filter((e) => e.data.t === 'd');
    expect(d.map((e) => [e.data.u, e.time])).toEqual(diffs.map((f) => [Number(f[7]), Number(f[4]) * 1000]));
    // E - T over the 155 events: 0 to 101 ms, 26 on average; 153 of them pushed after their T
    const lag = diffs.map((f) => Number(f[3]) - Number(f[4]));
    expect([Math.min(...lag), Math.max(...lag), Math.round(lag.reduce((a, b) => a + b) / lag.length)]).toEqual([
      0, 101, 26,
    ]);
    expect(lag.filter((x) => x > 0).length).toBeGreaterThan(100);
  });

  it('cryptofeed (JSON lines): snapshot and diffs at their "T"; a line without "T" (spot) at its "E"', async () => {
    const lines = readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n');
    const sushi = lines.map((l) => JSON.parse(l).data).filter((x) => x.e === 'depthUpdate' && x.s === 'SUSHIUSDT');
    const [r] = await service.importFiles([path.join(CRYPTOFEED, 'ws_events.jsonl')], {
      market: 'um',
      symbol: 'SUSHIUSDT',
      kind: 'depth',
    });
    expect(stored(r.datasetId!).map((e) => e.time)).toEqual(sushi.map((x) => x.T * 1000));
    expect(sushi.filter((x) => x.E !== x.T)).toHaveLength(sushi.length);
    // the same events without T, as a spot stream sends them: at E
    const f = path.join(tempDir(), 'spot.jsonl');
    writeFileSync(f, sushi.map(({ T: _t, pu: _pu, ...x }) => JSON.stringify({ data: x })).join('\n'));
    const [s] = await service.importFiles([f], { market: 'spot', symbol: 'SUSHIUSDT', kind: 'depth' });
    expect(stored(s.datasetId!).map((e) => e.time)).toEqual(sushi.map((x) => x.E * 1000));
  });

  it('a CSV row with no TransactionTime (spot) is at its EventTime; a T going back refuses the file, naming it', async () => {
    const [header, ...rows] = readFileSync(path.join(LASOTA, 'diff_depth_stream.csv'), 'utf8').trim().split('\n');
    const noT = path.join(tempDir(), 'no-t', 'diff_depth_stream.csv');
    mkdirSync(path.dirname(noT), { recursive: true });
    writeFileSync(
      noT,
      [
        header,
        ...rows.map((r) =>
          r
            .split(',')
            .map((x, i) => (i === 4 || i === 8 ? '' : x))
            .join(','),
        ),
      ].join('\n'),
    );
    const [s] = await service.importFiles([noT], { market: 'spot', symbol: 'TRXUSDT', kind: 'depth' });
    expect(s.status).toBe('imported');
    expect(stored(s.datasetId!).map((e) => e.time)).toEqual(
      csvEvents('diff_depth_stream.csv').map((f) => Number(f[3]) * 1000),
    );
    // the second event's T put 1 ms before the first's, its E left as it is (E still rises)
    const events = csvEvents('diff_depth_stream.csv');
    const back = String(Number(events[0][4]) - 1);
    const second = rows.findIndex((r) => r.split(',')[7] === events[1][7]);
    const moved = rows.map((r) =>
      r.split(',')[7] === events[1][7]
        ? r
            .split(',')
            .map((x, i) => (i === 4 ? back : x))
            .join(',')
        : r,
    );
    expect(Number(events[1][3])).toBeGreaterThan(Number(events[0][3]));
    const bad = path.join(tempDir(), 'diff_depth_stream.csv');
    writeFileSync(bad, [header, ...moved].join('\n'));
    const [r] = await service.importFiles([bad], { market: 'um', symbol: 'TRXUSDT', kind: 'depth' });
    expect(r.ok).toBe(false);
    expect(r.error).toBe(
      `diff_depth_stream.csv: row ${second + 2}: TransactionTime ${back} is before the previous event's time, ${events[0][4]}; nothing of this file was imported`,
    );
  });
});
