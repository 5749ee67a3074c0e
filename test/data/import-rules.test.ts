// The import's rules: checksums, row validation with all or nothing per file, idempotence,
// µs timestamps, every kind's columns, trade blocks and gaps.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeResult } from '../../src-main/data-cli.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { fixtureRows, KLINES_HEADER, tempDir, writeArchiveZip } from './archive-fixtures.ts';

let db: DatabaseSync;
let service: DatasetService;
let root: string;

beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
  root = tempDir();
});
afterEach(() => db.close());

const day1m = () => fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 1440);
const spot1m = (csv: string, o: { checksum?: boolean | 'bad'; date?: string } = {}) =>
  writeArchiveZip(root, {
    market: 'spot',
    kind: 'klines',
    symbol: 'BTCUSDT',
    interval: '1m',
    date: o.date ?? '2021-05-16',
    csv,
    checksum: o.checksum,
  }).zip;

const count = (table: string): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('checksums', () => {
  it('a zip whose .CHECKSUM does not match is refused and nothing is stored', async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'), { checksum: 'bad' })]);
    expect(r).toMatchObject({ ok: false, status: 'refused' });
    expect(r.error).toMatch(/does not match BTCUSDT-1m-2021-05-16\.zip\.CHECKSUM/);
    expect(count('dataset_candles')).toBe(0);
    expect(count('dataset_files')).toBe(0);
  });

  it('a zip without .CHECKSUM is imported and says it was not verified', async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'), { checksum: false })]);
    expect(r).toMatchObject({ ok: true, status: 'imported', checksum: 'none', rows: 1440 });
  });

  it('a damaged zip is refused', async () => {
    const z = spot1m(day1m().join('\n'), { checksum: false });
    writeFileSync(z, 'PK\u0003\u0004 not really a zip');
    const [r] = await service.importFiles([z]);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/not a readable zip|damaged zip/);
  });
});

describe('a zip cut short', () => {
  it('is refused saying nothing of it was imported and to download it again', async () => {
    const z = spot1m(day1m().join('\n'), { checksum: false });
    const whole = readFileSync(z);
    writeFileSync(z, whole.subarray(0, Math.floor(whole.length / 2))); // a download cut off halfway
    const [r] = await service.importFiles([z]);
    expect(r).toMatchObject({ ok: false, status: 'refused', datasetId: null });
    expect(r.error).toBe(
      'BTCUSDT-1m-2021-05-16.zip is not a readable zip file: End of central directory record signature not found. ' +
        'Either not a zip file, or file is truncated; nothing of this file was imported: download it again',
    );
    expect(count('datasets')).toBe(0);
  });
});

describe('validation: the failing row is named and nothing of the file is imported', () => {
  const cases: [string, (rows: string[]) => void, RegExp, number][] = [
    [
      'a price that is no decimal',
      (r) => (r[700] = r[700].replace(/^(\d+),[^,]+/, '$1,12x.5')),
      /row 701: open is not a non-negative decimal: "12x.5"/,
      701,
    ],
    [
      'a row out of time order',
      (r) => ([r[1000], r[1001]] = [r[1001], r[1000]]),
      /row 1002: open_time is not after the previous row's/,
      1002,
    ],
    ['a missing column', (r) => (r[5] = r[5].split(',').slice(0, 11).join(',')), /row 6: 11 columns/, 6],
    [
      'a high below the close',
      (r) => {
        const f = r[9].split(',');
        f[2] = '1.00000000';
        r[9] = f.join(',');
      },
      /row 10: high 1.00000000 and low .* do not bound/,
      10,
    ],
    [
      'an open time off the minute',
      (r) => (r[3] = String(Number(r[3].split(',')[0]) + 1) + r[3].slice(r[3].indexOf(','))),
      /row 4: open_time is not the start of a 1m candle/,
      4,
    ],
  ];
  it.each(cases)('%s', async (_name, damage, message, row) => {
    const rows = day1m();
    damage(rows);
    const [r] = await service.importFiles([spot1m(rows.join('\n'))]);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(message);
    expect(r.error).toMatch(/nothing of this file was imported/);
    expect(r.errorRow).toBe(row);
    expect(count('dataset_candles')).toBe(0);
    // the dataset the file would have started is not left behind, empty
    expect(service.list()).toEqual([]);
    expect(r.datasetId).toBeNull();
    expect(count('dataset_files')).toBe(0);
  });

  it("1m candles imported as 1h are refused at the first candle off the hour, with the close_time error's hint", async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'))], { interval: '1h' });
    expect(r.ok).toBe(false);
    // row 1 (00:00) is the start of a 1h candle and closes inside it; row 2 (00:01) is not
    expect(r.error).toMatch(
      /: row 2: open_time is not the start of a 1h candle \(are these 1h candles\?\): "1621123260000"; nothing of this file was imported/,
    );
    // a time on no interval's start (a 1m file's row 1 ms off) names no interval to ask about
    const rows = day1m();
    rows[3] = String(Number(rows[3].split(',')[0]) + 1) + rows[3].slice(rows[3].indexOf(','));
    const [off] = await service.importFiles([spot1m(rows.join('\n'), { date: '2021-05-17' })]);
    expect(off.error).toMatch(/row 4: open_time is not the start of a 1m candle: /);
  });

  it('a refused file leaves a dataset it did not start as it was', async () => {
    const [good] = await service.importFiles([spot1m(day1m().join('\n'))]);
    expect(good).toMatchObject({ ok: true, rows: 1440 });
    const rows = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(1440, 2880);
    rows[5] = rows[5].replace(/^(\d+),[^,]+/, '$1,12x.5');
    const [bad] = await service.importFiles([spot1m(rows.join('\n'), { date: '2021-05-17' })]);
    expect(bad).toMatchObject({ ok: false, status: 'refused', datasetId: good.datasetId });
    expect(service.list().map((d) => [d.id, d.rows, d.files])).toEqual([[good.datasetId, 1440, 1]]);
  });

  it('with a header, rows count from 2; a header of another kind is refused', async () => {
    const rows = day1m();
    rows[0] = rows[0].replace(/,0$/, ',0,extra');
    const [r] = await service.importFiles([spot1m(KLINES_HEADER + '\n' + rows.join('\n'))]);
    expect(r.error).toMatch(/row 2: 13 columns where the file's rows have 12/);
    const [h] = await service.importFiles([
      spot1m(
        'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' + day1m().join('\n'),
      ),
    ]);
    // the kind its header is, named (until 2026-12-07: "is not a klines header (expected ...)")
    expect(h.error).toMatch(
      /row 1: the header .* is an aggTrades file's, not a klines file's: import it as kind aggTrades \(--kind, or 'kind' in a request\)/,
    );
  });

  it('an empty file is refused', async () => {
    const [r] = await service.importFiles([spot1m(KLINES_HEADER + '\n')]);
    expect(r.error).toMatch(/: the file has no data rows; nothing of this file was imported$/);
    expect(r.errorRow).toBeNull();
  });
});

describe('idempotence', () => {
  it('the same file twice changes nothing; an overlapping file adds only what is new', async () => {
    const zip = spot1m(day1m().join('\n'));
    const [a] = await service.importFiles([zip]);
    const [b] = await service.importFiles([zip]);
    expect(a).toMatchObject({ status: 'imported', rows: 1440, added: 1440 });
    expect(b).toMatchObject({ status: 'unchanged', rows: 1440, datasetId: a.datasetId });
    expect(count('dataset_candles')).toBe(1440);
    expect(count('dataset_files')).toBe(1);
    // a "monthly" file holding the same day and the next adds the next day only
    const twoDays = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 2880);
    const monthly = writeArchiveZip(root, {
      market: 'spot',
      period: 'monthly',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date: '2021-05',
      csv: twoDays.join('\n'),
    });
    const [c] = await service.importFiles([monthly.zip]);
    expect(c).toMatchObject({ status: 'imported', rows: 2880, added: 1440, datasetId: a.datasetId });
    expect(service.get(a.datasetId!).rows).toBe(2880);
    // imported again, it is reported with its own rows (2880), not the 1440 that were new then
    const [d] = await service.importFiles([monthly.zip]);
    expect(d).toMatchObject({ status: 'unchanged', rows: 2880, added: 0, datasetId: a.datasetId });
    expect(describeResult(d)).toMatch(/^unchanged BTCUSDT-1m-2021-05\.zip .*: already imported \(2880 rows\)$/);
    expect(service.get(a.datasetId!).rows).toBe(2880);
  });
});

describe('gaps', () => {
  it('a missing day between files and missing minutes inside one are recorded, never filled', async () => {
    const all = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
    const d16 = all.slice(0, 1440);
    d16.splice(100, 3); // 01:40, 01:41, 01:42 missing
    const d18 = all.slice(2880);
    await service.importFiles([spot1m(d16.join('\n')), spot1m(d18.join('\n'), { date: '2021-05-18' })]);
    const id = service.list()[0].id;
    const t = (iso: string) => Date.parse(iso);
    expect(service.gaps(id)).toEqual([
      {
        start: t('2021-05-16T01:40:00Z'),
        end: t('2021-05-16T01:43:00Z'),
        detail: '3 1m candles missing',
        fileId: null,
      },
      {
        start: t('2021-05-17T00:00:00Z'),
        end: t('2021-05-18T00:00:00Z'),
        detail: '1440 1m candles missing',
        fileId: null,
      },
    ]);
    const hours = service.klines(id, '1d', { limit: 10 });
    expect(hours.map((h) => new Date(h[0]).toISOString().slice(0, 10))).toEqual(['2021-05-16', '2021-05-18']);
    // filling the day removes that gap
    await service.importFiles([spot1m(all.slice(1440, 2880).join('\n'), { date: '2021-05-17' })]);
    expect(service.gaps(id).map((g) => g.detail)).toEqual(['3 1m candles missing']);
  });
});

describe('spot files from 2025 on: µs timestamps', () => {
  it('are told apart by magnitude and stored as ms (candles) or µs (trades)', async () => {
    const t0 = Date.parse('2025-01-06T00:00:00Z');
    const rows = [0, 1, 2].map((i) => {
      const open = (t0 + i * 60_000) * 1000;
      const prices = '94000.00000000,94010.00000000,93990.00000000,94005.00000000';
      return `${open},${prices},1.50000000,${open + 59_999_999},141007.50000000,10,0.70000000,65803.50000000,0`;
    });
    const [k] = await service.importFiles([spot1m(rows.join('\n'), { date: '2025-01-06' })]);
    expect(k.status).toBe('imported');
    const got = service.klines(k.datasetId!, '1m', { limit: 10 });
    expect(got.map((r) => [r[0], r[6]])).toEqual([0, 1, 2].map((i) => [t0 + i * 60_000, t0 + i * 60_000 + 59_999]));
    expect(service.klines(k.datasetId!, '3m', { limit: 1 })[0]).toEqual([
      t0,
      '94000.00000000',
      '94010.00000000',
      '93990.00000000',
      '94005.00000000',
      '4.50000000',
      t0 + 179_999,
      '423022.50000000',
      30,
      '2.10000000',
      '197410.50000000',
      '0',
    ]);

    const trades = [
      '1,94000.01,0.001,94.00001,1736121600123456,True,True',
      '2,94000.02,0.002,188.00004,1736121600123999,False,True',
    ];
    const z = writeArchiveZip(root, {
      market: 'spot',
      kind: 'trades',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv: trades.join('\n'),
    });
    const [t] = await service.importFiles([z.zip]);
    expect(t.status).toBe('imported');
    expect(service.trades(t.datasetId!, { limit: 10 })).toEqual([
      {
        id: 1,
        price: '94000.01',
        qty: '0.001',
        quote_qty: '94.00001',
        time: 1736121600123,
        time_us: 1736121600123456,
        is_buyer_maker: true,
        is_best_match: true,
      },
      {
        id: 2,
        price: '94000.02',
        qty: '0.002',
        quote_qty: '188.00004',
        time: 1736121600123,
        time_us: 1736121600123999,
        is_buyer_maker: false,
        is_best_match: true,
      },
    ]);
  });
});

/** Deterministic aggTrades in the USD-M archive's format (with header). */
function aggTradesCsv(
  n: number,
  o: { firstId?: number; startMs?: number; skip?: Set<number> } = {},
): { csv: string; rows: string[][] } {
  let price = 9_400_000; // 94000.00 at 2 decimals
  let tradeId = 5_000_000;
  let t = o.startMs ?? Date.parse('2025-01-06T00:00:00Z');
  const rows: string[][] = [];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < n; i++) {
    const id = (o.firstId ?? 1000) + i;
    price += Math.round((rnd() - 0.5) * 20);
    const qty = 1 + Math.floor(rnd() * 5000);
    const span = Math.floor(rnd() * 3);
    t += Math.floor(rnd() * 40);
    if (o.skip?.has(i)) {
      tradeId += span + 1;
      continue;
    }
    rows.push([
      String(id),
      (price / 100).toFixed(2),
      (qty / 1000).toFixed(3),
      String(tradeId),
      String(tradeId + span),
      String(t),
      rnd() < 0.5 ? 'true' : 'false',
    ]);
    tradeId += span + 1;
  }
  return {
    rows,
    csv:
      'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' +
      rows.map((r) => r.join(',')).join('\n') +
      '\n',
  };
}

describe('trades', () => {
  it('aggTrades read back exactly, in blocks of under 40 bytes a trade', async () => {
    const { csv, rows } = aggTradesCsv(20_000);
    const z = writeArchiveZip(root, { market: 'um', kind: 'aggTrades', symbol: 'BTCUSDT', date: '2025-01-06', csv });
    const [r] = await service.importFiles([z.zip]);
    expect(r).toMatchObject({ status: 'imported', rows: 20_000, added: 20_000, gaps: 0, checksum: 'verified' });
    const d = service.get(r.datasetId!);
    expect(d).toMatchObject({ rows: 20_000, priceDp: 2, qtyDp: 3, specsSource: 'catalogue' });
    expect(d.specs.tickSize).toBe('0.1');
    const back = service.trades(r.datasetId!, { limit: 50_000 });
    expect(back).toHaveLength(20_000);
    expect(
      back.map((t) => [
        String(t.id),
        t.price,
        t.qty,
        String(t.first_trade_id),
        String(t.last_trade_id),
        String(t.time),
        String(t.is_buyer_maker),
      ]),
    ).toEqual(rows);
    const bytes = (db.prepare('SELECT SUM(LENGTH(data)) AS b FROM dataset_trade_blocks').get() as { b: number }).b;
    expect(bytes / 20_000).toBeLessThan(40);
    // start_time picks up from there
    const from = Number(rows[12_345][5]);
    const page = service.trades(r.datasetId!, { startTime: from, limit: 3 });
    expect(page[0].time).toBe(from);
    expect(page[0].id).toBeLessThanOrEqual(Number(rows[12_345][0]));
  });

  it('id jumps inside a file and between files are gaps; overlapping ids refuse the file', async () => {
    const a = aggTradesCsv(100, { skip: new Set([40, 41]) });
    const za = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv: a.csv,
    });
    const b = aggTradesCsv(50, { firstId: 1200, startMs: Date.parse('2025-01-08T00:00:00Z') });
    const zb = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-08',
      csv: b.csv,
    });
    const [ra, rb] = await service.importFiles([za.zip, zb.zip]);
    expect([ra.status, ra.gaps, rb.status]).toEqual(['imported', 1, 'imported']);
    const gaps = service.gaps(ra.datasetId!).map((g) => g.detail);
    expect(gaps).toEqual([
      'aggTrades ids 1040..1041 missing',
      expect.stringMatching(/^aggTrades ids 1100\.\.1199 missing between/),
    ]);
    const c = aggTradesCsv(30, { firstId: 1090 });
    const zc = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-07',
      csv: c.csv,
    });
    const [rc] = await service.importFiles([zc.zip]);
    expect(rc.ok).toBe(false);
    expect(rc.error).toMatch(
      /trade ids 1090\.\.1119 overlap trades already imported from BTCUSDT-aggTrades-2025-01-06\.zip/,
    );
    expect(service.get(ra.datasetId!).rows).toBe(148);
  });

  it('a file whose trades do not fit the stored ones in time (by id) is refused', async () => {
    const a = aggTradesCsv(50, { firstId: 1000, startMs: Date.parse('2025-01-08T00:00:00Z') });
    const za = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-08',
      csv: a.csv,
    });
    // higher ids, earlier times
    const b = aggTradesCsv(50, { firstId: 2000, startMs: Date.parse('2025-01-06T00:00:00Z') });
    const zb = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv: b.csv,
    });
    const [ra, rb] = await service.importFiles([za.zip, zb.zip]);
    expect(ra.status).toBe('imported');
    expect(rb.ok).toBe(false);
    expect(rb.error).toMatch(/its first trade \(id 2000\) is earlier than stored trades with lower ids/);
    // lower ids, later times
    const c = aggTradesCsv(50, { firstId: 100, startMs: Date.parse('2025-01-09T00:00:00Z') });
    const zc = writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-09',
      csv: c.csv,
    });
    const [rc] = await service.importFiles([zc.zip]);
    expect(rc.error).toMatch(/its last trade \(id 149\) is later than stored trades with higher ids/);
    expect(service.get(ra.datasetId!).rows).toBe(50);
  });

  it('a bad trade row deep in a file leaves nothing behind (blocks already staged are removed)', async () => {
    const { rows } = aggTradesCsv(30_000);
    rows[25_000][6] = 'maybe';
    const csv = rows.map((r) => r.join(',')).join('\n');
    const z = writeArchiveZip(root, { market: 'um', kind: 'aggTrades', symbol: 'BTCUSDT', date: '2025-01-06', csv });
    const [r] = await service.importFiles([z.zip]);
    expect(r.error).toMatch(/row 25001: is_buyer_maker is not true or false: "maybe"/);
    expect(count('dataset_trade_blocks')).toBe(0);
  });
});

describe('the other kinds', () => {
  it('fundingRate, bookTicker, bookDepth, markPriceKlines and premiumIndexKlines', async () => {
    const funding = writeArchiveZip(root, {
      market: 'um',
      period: 'monthly',
      kind: 'fundingRate',
      symbol: 'BTCUSDT',
      date: '2025-01',
      csv: 'calc_time,funding_interval_hours,last_funding_rate\n1735689600000,8,0.00010000\n1735718400000,8,-0.00002100\n1735776000000,8,0.00010000\n',
    });
    const ticker = writeArchiveZip(root, {
      market: 'um',
      kind: 'bookTicker',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv: [
        'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time',
        '6300000001,94000.10,1.234,94000.20,0.500,1736121600001,1736121600003',
        '6300000002,94000.10,1.300,94000.20,0.500,1736121600002,1736121600004',
        '',
      ].join('\n'),
    });
    const depth = writeArchiveZip(root, {
      market: 'um',
      kind: 'bookDepth',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv: [
        'timestamp,percentage,depth,notional',
        '2025-01-06 00:00:08,-5.00,4000.123,370000000.45',
        '2025-01-06 00:00:08,-4.00,3500.100,330000000.00',
        '2025-01-06 00:00:38,5.00,4100.000,390000000.00',
        '',
      ].join('\n'),
    });
    const mark = writeArchiveZip(root, {
      market: 'um',
      kind: 'markPriceKlines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date: '2025-01-06',
      csv: [
        '1736121600000,94000.10,94010.00,93990.00,94005.50,0,1736121659999,0,60,0,0,0',
        '1736121660000,94005.50,94030.00,94001.00,94020.00,0,1736121719999,0,60,0,0,0',
      ].join('\n'),
    });
    const premium = writeArchiveZip(root, {
      market: 'um',
      kind: 'premiumIndexKlines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date: '2025-01-06',
      csv: [
        '1736121600000,-0.00010000,0.00002000,-0.00020000,-0.00005000,0,1736121659999,0,12,0,0,0',
        '1736121660000,-0.00005000,-0.00001000,-0.00030000,-0.00025000,0,1736121719999,0,12,0,0,0',
      ].join('\n'),
    });
    const results = await service.importFiles([funding.zip, ticker.zip, depth.zip, mark.zip, premium.zip]);
    expect(results.map((r) => [r.key?.kind, r.status, r.rows, r.gaps])).toEqual([
      ['fundingRate', 'imported', 3, 1], // 2025-01-01 08:00 -> 2025-01-02 00:00: two settlements missing
      ['bookTicker', 'imported', 2, 0],
      ['bookDepth', 'imported', 3, 0],
      ['markPriceKlines', 'imported', 2, 0],
      ['premiumIndexKlines', 'imported', 2, 0],
    ]);
    expect(count('dataset_events')).toBe(8);
    // mark prices aggregate as prices although nothing "traded"
    expect(service.klines(results[3].datasetId!, '3m', { limit: 1 })[0].slice(0, 9)).toEqual([
      1736121600000,
      '94000.10',
      '94030.00',
      '93990.00',
      '94020.00',
      '0',
      1736121779999,
      '0',
      120,
    ]);
    expect(service.klines(results[4].datasetId!, '5m', { limit: 1 })[0].slice(1, 5)).toEqual([
      '-0.00010000',
      '0.00002000',
      '-0.00030000',
      '-0.00025000',
    ]);
  });

  it('reading a dataset as the wrong thing is a clear error', async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'))]);
    expect(() => service.trades(r.datasetId!, { limit: 1 })).toThrow(/holds klines, not trades/);
    expect(() => service.klines(r.datasetId!, '3d', { limit: 1 })).not.toThrow();
    const h = writeArchiveZip(root, {
      market: 'spot',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1h',
      date: '2021-05-16',
      csv: fixtureRows('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv').join('\n'),
    });
    const [rh] = await service.importFiles([h.zip]);
    expect(() => service.klines(rh.datasetId!, '1m', { limit: 1 })).toThrow(
      /1m candles cannot be built from this dataset's 1h/,
    );
    expect(() => service.get(999)).toThrow(/No dataset with id 999/);
  });

  it('spot symbols are not in the (USD-M) catalogue: specs inferred from the data by the rule, editable', async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'))]);
    const d = service.get(r.datasetId!);
    // the spec inference rule (data/spec-inference.ts): significant decimals of the data, not the stored ones
    expect([d.specsSource, d.specs.tickSize, d.specs.stepSize]).toEqual(['inferred', '0.01', '0.000001']);
    const e = service.editSpecs(d.id, { ...d.specs, tickSize: '0.01', stepSize: '0.00001' });
    expect([e.specsSource, e.specs.tickSize]).toEqual(['edited', '0.01']);
  });

  it('a deleted dataset is gone with all its rows', async () => {
    const [r] = await service.importFiles([spot1m(day1m().join('\n'))]);
    service.delete(r.datasetId!);
    expect(service.list()).toEqual([]);
    expect([count('dataset_candles'), count('dataset_files')]).toEqual([0, 0]);
    expect(() => service.delete(r.datasetId!)).toThrow(/No dataset/);
  });
});

it('a plain CSV file named otherwise imports with options', async () => {
  const f = path.join(root, 'my-candles.csv');
  writeFileSync(f, KLINES_HEADER + '\n' + day1m().join('\n'));
  const [bad] = await service.importFiles([f]);
  expect(bad.error).toMatch(/give --market/);
  const [r] = await service.importFiles([f], { market: 'spot', symbol: 'BTCUSDT', interval: '1m' });
  expect(r).toMatchObject({ status: 'imported', rows: 1440, checksum: 'none' });
});

describe('a CSV saved by Excel (UTF-8 byte order mark, CRLF)', () => {
  // Excel writes EF BB BF before the first line: the header read as
  // '\ufeffopen_time,...' was "not a klines header", and a file without a header had its first row
  // called the header
  it.each([
    ['with the header', true],
    ['without a header', false],
  ])('%s imports its rows as the same file without the mark', async (_name, header) => {
    const rows = day1m().slice(0, 60);
    const text = (header ? [KLINES_HEADER, ...rows] : rows).join('\r\n') + '\r\n';
    const f = path.join(root, `BTCUSDT-1m-excel-${header ? 'h' : 'n'}.csv`);
    writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    const [r] = await service.importFiles([f], { market: 'spot', symbol: 'BTCUSDT', interval: '1m' });
    expect(r.error).toBeNull();
    expect([r.status, r.rows]).toEqual(['imported', 60]);
    const [first] = service.klines(r.datasetId!, '1m', { startTime: 0, endTime: Number.MAX_SAFE_INTEGER, limit: 1 });
    expect(String(first[0])).toBe(rows[0].split(',')[0]);
  });
});

describe('values the store and the venue cannot hold', () => {
  const withField = (name: string, col: number, value: string): string => {
    const rows = day1m().slice(0, 3);
    const f = rows[1].split(',');
    f[col] = value;
    rows[1] = f.join(',');
    const file = path.join(root, name);
    writeFileSync(file, rows.join('\n') + '\n');
    return file;
  };
  const spot = { market: 'spot', symbol: 'BTCUSDT', interval: '1m' } as const;

  it('a volume of 200,001 digits refuses the file naming its row and column, its value cut at 64 (it was imported)', async () => {
    const [r] = await service.importFiles([withField('BTCUSDT-1m-huge.csv', 5, '9'.repeat(200_001))], spot);
    expect(r.status).toBe('refused');
    expect(r.errorRow).toBe(2);
    expect(r.error!.length).toBeLessThan(300);
    expect(r.error).toBe(
      `BTCUSDT-1m-huge.csv: row 2: volume has 200001 characters, more than the 32 a value may have: "${'9'.repeat(64)}"... (200001 characters); nothing of this file was imported`,
    );
    expect(count('dataset_candles')).toBe(0);
  });

  it.each([
    // 10^19 units of 1e-8: no lot count of the venue holds it (a replay of it ended in a negative quote volume)
    ['volume', 5, '99999999999.99999999', '0.00000001'],
    ['high', 2, '90071992547.40992000', '0.00000001'],
  ])('a %s past 2^53 units is refused naming it', async (name, col, value, unit) => {
    const [r] = await service.importFiles([withField(`BTCUSDT-1m-${name}.csv`, col, value)], spot);
    expect(r.error).toBe(
      `BTCUSDT-1m-${name}.csv: row 2: ${name} is too large: more than 2^53 - 1 (9007199254740991) units of ${unit}, what the venue can count: "${value}"; nothing of this file was imported`,
    );
    expect(count('dataset_candles')).toBe(0);
  });

  it('a volume as large but written with trailing zeros (a memecoin month at 2 decimals) imports, as do quote volumes past 2^53 units', async () => {
    const rows = day1m().slice(0, 3);
    const f = rows[1].split(',');
    f[2] = '99999.00000000'; // high above every price of the row
    f[5] = '9007199254740991.00000000';
    f[7] = '999999999999999999.12345678';
    rows[1] = f.join(',');
    const file = path.join(root, 'BTCUSDT-1m-big.csv');
    writeFileSync(file, rows.join('\n') + '\n');
    const [r] = await service.importFiles([file], spot);
    expect([r.status, r.error]).toEqual(['imported', null]);
    const [k] = service.klines(r.datasetId!, '1h', { startTime: 0, endTime: Number.MAX_SAFE_INTEGER, limit: 1 });
    // summed exactly past 2^53 units
    const sum = rows.reduce((a, row) => a + BigInt(row.split(',')[5].replace('.', '')), 0n).toString();
    expect(k[5]).toBe(`${sum.slice(0, -8)}.${sum.slice(-8)}`);
  });

  it.each([
    [
      'trades price',
      'BTCUSDT-trades-2025-01-06.csv',
      '1,100000000000.000001,1,1,1736121600000,true',
      'price',
      '0.000001',
    ],
    [
      'trades quote_qty',
      'BTCUSDT-trades-2025-01-06.csv',
      '1,1,1,99999999999.999999,1736121600000,true',
      'quote_qty',
      '0.000001',
    ],
    [
      'aggTrades quantity',
      'BTCUSDT-aggTrades-2025-01-06.csv',
      '1,1,10000000000.0000001,1,1,1736121600000,true',
      'quantity',
      '0.0000001',
    ],
    [
      'bookTicker best_bid_qty',
      'BTCUSDT-bookTicker-2025-01-06.csv',
      '1,1,99999999999.99999,2,1,1736121600000,1736121600001',
      'best_bid_qty',
      '0.00001',
    ],
  ])('a %s past 2^53 units is said too large (it was "not a decimal")', async (_n, name, line, column, unit) => {
    const file = path.join(root, name);
    writeFileSync(file, line + '\n');
    const [r] = await service.importFiles([file], { market: 'um' });
    expect(r.error).toMatch(
      new RegExp(
        `: row 1: ${column} is too large: more than 2\\^53 - 1 \\(9007199254740991\\) units of ${unit.replace('.', '\\.')},`,
      ),
    );
  });

  it('a bookDepth notional past 2^53 units of 1e-8 imports: it is kept as text', async () => {
    const file = path.join(root, 'BTCUSDT-bookDepth-2025-01-06.csv');
    writeFileSync(file, '2025-01-06 00:00:08,-5.00,3925.20700000,376268219.93990000\n');
    const [r] = await service.importFiles([file], { market: 'um' });
    expect([r.status, r.error]).toEqual(['imported', null]);
  });
});
