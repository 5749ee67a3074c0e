// Coarse candles built from imported fine klines equal Binance's own coarse files on all 12
// columns (real data: test/fixtures/binance/SOURCES.md). The fine files go in as the archive
// publishes them: one zip per day in spot/daily/klines/BTCUSDT/1m/, with .CHECKSUM files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { DatasetService, type ArchiveKline } from '../../src-main/data/dataset-service.ts';
import { byDay, fixtureRows, KLINES_HEADER, tempDir, writeArchiveZip } from './archive-fixtures.ts';
import type { DatabaseSync } from 'node:sqlite';

const M2021 = '2021-05-16_to_2021-05-18';
const OUTAGE = '2023-03-24_outage_gap';
const file = (interval: string, period: string) => `binance_spot_BTCUSDT_${interval}_${period}.csv`;

/** A file row as the archive's 12 columns, numbers where the service gives numbers. */
function expected(row: string): ArchiveKline {
  const f = row.split(',');
  return [
    Number(f[0]),
    f[1],
    f[2],
    f[3],
    f[4],
    f[5],
    Number(f[6]),
    f[7],
    Number(f[8]),
    f[9],
    f[10],
    f[11],
  ] as ArchiveKline;
}

let db: DatabaseSync;
let service: DatasetService;
let root: string;

beforeAll(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
  root = tempDir();
});
afterAll(() => db.close());

describe('2021-05-16..18: daily 1m zips -> 1h and 1d', () => {
  let id: number;

  beforeAll(async () => {
    const days = byDay(fixtureRows(file('1m', M2021)));
    expect([...days.keys()]).toEqual(['2021-05-16', '2021-05-17', '2021-05-18']);
    // the first day with the header row, the others without: both are archive forms
    const zips = [...days].map(
      ([date, rows], i) =>
        writeArchiveZip(root, {
          market: 'spot',
          kind: 'klines',
          symbol: 'BTCUSDT',
          interval: '1m',
          date,
          csv: (i === 0 ? KLINES_HEADER + '\n' : '') + rows.join('\n') + '\n',
        }).zip,
    );
    const results = await service.importFiles(zips);
    expect(results.map((r) => [r.status, r.checksum, r.rows])).toEqual([
      ['imported', 'verified', 1440],
      ['imported', 'verified', 1440],
      ['imported', 'verified', 1440],
    ]);
    id = results[0].datasetId!;
    expect(results.every((r) => r.datasetId === id)).toBe(true);
  });

  it('the dataset is one series: spot BTCUSDT klines 1m, 4,320 rows, no gap', () => {
    const d = service.get(id);
    expect({
      market: d.market,
      symbol: d.symbol,
      kind: d.kind,
      interval: d.interval,
      rows: d.rows,
      files: d.files,
    }).toEqual({
      market: 'spot',
      symbol: 'BTCUSDT',
      kind: 'klines',
      interval: '1m',
      rows: 4320,
      files: 3,
    });
    expect(d.firstTime).toBe(Date.parse('2021-05-16T00:00:00Z'));
    expect(d.lastTime).toBe(Date.parse('2021-05-18T23:59:00Z'));
    expect(service.gaps(id)).toEqual([]);
  });

  it('the stored 1m candles read back as the file, verbatim', () => {
    const rows = fixtureRows(file('1m', M2021)).map(expected);
    const got = service.klines(id, '1m', { startTime: 0, endTime: Number.MAX_SAFE_INTEGER, limit: 5000 });
    expect(got).toEqual(rows);
  });

  it("1m aggregated to 1h equals Binance's 1h file on all 12 columns", () => {
    const want = fixtureRows(file('1h', M2021)).map(expected);
    expect(want).toHaveLength(72);
    expect(service.klines(id, '1h', { startTime: want[0][0], endTime: want[71][0], limit: 1500 })).toEqual(want);
    // limit mode: the newest N
    expect(service.klines(id, '1h', { limit: 5 })).toEqual(want.slice(-5));
  });

  it("1m aggregated to 1d equals Binance's 1d file on all 12 columns", () => {
    const want = fixtureRows(file('1d', M2021)).map(expected);
    expect(service.klines(id, '1d', { limit: 500 })).toEqual(want);
  });

  it('the check has teeth: a changed minute changes the hour', async () => {
    const rows = fixtureRows(file('1m', M2021));
    const f = rows[30].split(',');
    f[2] = '99999.00000000'; // a high above everything that hour
    rows[30] = f.join(',');
    const other = tempDir();
    const z = writeArchiveZip(other, {
      market: 'spot',
      kind: 'klines',
      symbol: 'ETHUSDT',
      interval: '1m',
      date: '2021-05-16',
      csv: rows.slice(0, 1440).join('\n'),
    });
    const [r] = await service.importFiles([z.zip], { symbol: 'BTCUSDT', market: 'um' });
    expect(r.status).toBe('imported');
    const h = service.klines(r.datasetId!, '1h', { limit: 1 * 24 });
    const want = fixtureRows(file('1h', M2021)).map(expected);
    expect(h[0]).not.toEqual(want[0]);
    expect(h[0][2]).toBe('99999.00000000');
    expect(h.slice(1)).toEqual(want.slice(1, 24));
  });
});

describe('2023-03-24 outage: 1h -> 4h and 1d, and the gap stays a gap', () => {
  let id: number;
  const NOON = Date.parse('2023-03-24T12:00:00Z');
  const HOUR = 3_600_000;

  beforeAll(async () => {
    const rows = fixtureRows(file('1h', OUTAGE));
    const z = writeArchiveZip(root, {
      market: 'spot',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1h',
      date: '2023-03-24',
      csv: KLINES_HEADER + '\r\n' + rows.join('\r\n'),
    });
    const [r] = await service.importFiles([z.zip]);
    expect(r.status).toBe('imported');
    expect(r.gaps).toBe(1);
    id = r.datasetId!;
  });

  it("1h aggregated to 4h equals Binance's 4h file on every column", () => {
    const want = fixtureRows(file('4h', OUTAGE)).map(expected);
    expect(want).toHaveLength(6);
    expect(service.klines(id, '4h', { limit: 100 })).toEqual(want);
    // the 12:00 4h candle opens at 14:00's first trade, not the zero-trade hour's carried price
    expect(service.klines(id, '4h', { limit: 100 })[3][1]).toBe('28079.99000000');
  });

  it("1h aggregated to 1d equals Binance's 1d file on every column", () => {
    expect(service.klines(id, '1d', { limit: 10 })).toEqual(fixtureRows(file('1d', OUTAGE)).map(expected));
  });

  it('the missing 13:00 hour is recorded as a gap and served as one; the zero-volume 12:00 candle is served as stored', () => {
    expect(service.gaps(id)).toEqual([
      { start: NOON + HOUR, end: NOON + 2 * HOUR, detail: '1 1h candle missing', fileId: null },
    ]);
    const hours = service.klines(id, '1h', { startTime: NOON, endTime: NOON + 3 * HOUR, limit: 10 });
    expect(hours.map((h) => (h[0] - NOON) / HOUR)).toEqual([0, 2, 3]);
    // the outage row keeps its own close_time (when trading stopped) and zero volume
    expect(hours[0][6]).toBe(1679661581646);
    expect(hours[0][5]).toBe('0.00000000');
    expect(hours[0][8]).toBe(0);
  });
});

describe('a memecoin month: base volumes past 2^53 units', () => {
  it("a 1M candle of 1d rows trading 5.1e12 a day sums its volumes exactly (it was a 7000 'exceeds 2^53 lots')", async () => {
    // 31 days of spot PEPEUSDT-like 1d rows: volume 5,123,456,789,012.00 a day, at 2 decimals 5.1e14
    // units; the month's 1.59e16 units pass 2^53 (9.0e15)
    const day = 86_400_000;
    const jan = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: 31 }, (_, i) => {
      const t = jan + i * day;
      return `${t},0.00001700,0.00001800,0.00001600,0.00001750,5123456789012.00,${t + day - 1},87100000.00000000,100000,2561728394506.00,43550000.00000000,0`;
    });
    const { zip } = writeArchiveZip(root, {
      market: 'spot',
      kind: 'klines',
      symbol: 'PEPEUSDT',
      interval: '1d',
      period: 'monthly',
      date: '2025-01',
      csv: rows.join('\n') + '\n',
    });
    const [r] = await service.importFiles([zip]);
    expect(r.status, r.error ?? '').toBe('imported');
    const [month] = service.klines(r.datasetId!, '1M', { limit: 1 });
    expect(month[5]).toBe('158827160459372.00'); // 31 x 5,123,456,789,012.00
    expect(month[9]).toBe('79413580229686.00');
    expect(month[7]).toBe('2700100000.00000000');
    expect(month.slice(1, 5)).toEqual(['0.00001700', '0.00001800', '0.00001600', '0.00001750']);
  });
});
