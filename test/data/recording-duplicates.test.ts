// A JSON-lines recording holding an event twice (a recorder reconnecting and writing again the
// events it had written: a new recv_ts, the same event): the copies are dropped and counted in the
// import's warnings, the rows stored being those of the recording without them. Until this was
// fixed the whole file was refused (`row 23: a is not above the previous row's: "16599292"`). Two
// different events of one id still refuse it, naming both lines.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService, type ImportResult } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');
const LINES = readFileSync(EVENTS, 'utf8').trim().split('\n');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

const isOf = (stream: string) => (l: string) =>
  l.includes(`"stream":"${stream}"`) && (!stream.includes('@kline') || l.includes('"x":true'));

/**
 * The recording with the `n` events of `stream` up to its `after`-th (1-based) written again right
 * after it, each with a later recv_ts (as a reconnecting recorder writes them); with the line
 * numbers (1-based) of the copies and of the lines they repeat.
 */
function resent(stream: string, after: number, n: number, edit = (l: string) => l) {
  const at = LINES.map((l, i) => (isOf(stream)(l) ? i : -1)).filter((i) => i >= 0);
  const originals = at.slice(after - n, after);
  const copies = originals.map((i) => edit(LINES[i].replace(/"recv_ts":[0-9.]+/, '"recv_ts":1626999999.5')));
  const cut = at[after - 1] + 1;
  const lines = [...LINES.slice(0, cut), ...copies, ...LINES.slice(cut)];
  const file = path.join(tempDir(), 'ws_events.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, copyLines: copies.map((_, k) => cut + 1 + k), ofLines: originals.map((i) => i + 1) };
}

async function importOwn(file: string, kind: 'aggTrades' | 'bookTicker' | 'klines' | 'depth'): Promise<ImportResult> {
  const [r] = await service.importFiles([file], {
    market: 'um',
    symbol: 'CTKUSDT',
    kind,
    interval: kind === 'klines' ? '1m' : undefined,
  });
  return r;
}

const stored = (id: number): unknown[] => [
  ...db.prepare('SELECT time, seq, data FROM dataset_events WHERE dataset_id = ? ORDER BY time, seq').all(id),
];

describe("a recording's events written twice", () => {
  it('aggTrade: three re-sent events are dropped and said; the trades are those of the recording as recorded', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@aggTrade', 5, 3);
    const r = await importOwn(file, 'aggTrades');
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added]).toEqual(['imported', 38, 38]);
    expect(r.warnings).toEqual([
      `3 duplicate events dropped (aggTrade events the same as an earlier line's, as a recorder that reconnects ` +
        `writes again; the first, line ${copyLines[0]}, repeats line ${ofLines[0]})`,
    ]);
    // the skipped lines are the other streams', as without the copies
    expect(r.skipped.reduce((n, s) => n + s.lines, 0)).toBe(LINES.length - 38);
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const plain = new DatasetService(new DatasetsRepo(own));
      const [p] = await plain.importFiles([EVENTS], { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' });
      expect(p.warnings).toEqual([]);
      expect(service.trades(r.datasetId!, { limit: 100 })).toEqual(plain.trades(p.datasetId!, { limit: 100 }));
    } finally {
      own.close();
    }
  });

  it('bookTicker: a re-sent event is dropped and said, the stored events being the same', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@bookTicker', 100, 1);
    const r = await importOwn(file, 'bookTicker');
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added]).toEqual(['imported', 145, 145]);
    expect(r.warnings).toEqual([
      `1 duplicate event dropped (bookTicker events the same as an earlier line's, as a recorder that reconnects ` +
        `writes again; the first, line ${copyLines[0]}, repeats line ${ofLines[0]})`,
    ]);
    const again = stored(r.datasetId!);
    db.close();
    db = openDatabase({ dataDir: ':memory:' });
    service = new DatasetService(new DatasetsRepo(db));
    const p = await importOwn(EVENTS, 'bookTicker');
    expect(stored(p.datasetId!)).toEqual(again);
  });

  it('kline: the closed candle written twice is one candle', async () => {
    const { file } = resent('ctkusdt@kline_1m', 1, 1);
    const r = await importOwn(file, 'klines');
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added]).toEqual(['imported', 1, 1]);
    expect(r.warnings).toEqual([expect.stringMatching(/^1 duplicate event dropped \(kline events the same/)]);
  });

  it('depthUpdate: three re-sent diffs are dropped and said, the stored book events being those of the recording', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@depth@100ms', 20, 3);
    const r = await importOwn(file, 'depth');
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.gaps]).toEqual(['imported', 185, 0]);
    expect(r.warnings).toEqual([
      `3 duplicate events dropped (depthUpdate events the same as an earlier line's, as a recorder that reconnects ` +
        `writes again; the first, line ${copyLines[0]}, repeats line ${ofLines[0]})`,
    ]);
    const again = stored(r.datasetId!);
    db.close();
    db = openDatabase({ dataDir: ':memory:' });
    service = new DatasetService(new DatasetsRepo(db));
    const p = await importOwn(EVENTS, 'depth');
    expect(p.warnings).toEqual([]);
    expect(stored(p.datasetId!)).toEqual(again);
  });

  it('depthUpdate: another diff of a u taken refuses the file, naming both lines', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@depth@100ms', 20, 1, (l) =>
      l.replace(/"b":\[\[/, '"b":[["1.00000","7"],['),
    );
    const r = await importOwn(file, 'depth');
    expect(r.status).toBe('refused');
    expect(r.errorRow).toBe(copyLines[0]);
    expect(r.error).toBe(
      `ws_events.jsonl: row ${copyLines[0]}: depthUpdate u ${JSON.parse(LINES[ofLines[0] - 1]).data.u} is also line ` +
        `${ofLines[0]}'s, another depthUpdate event: two different events of one id (which of them is right cannot be ` +
        'told); nothing of this file was imported',
    );
  });

  it('another event of an id taken refuses the file, naming both lines', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@aggTrade', 5, 1, (l) =>
      l.replace('"p":"1.01100"', '"p":"1.01200"'),
    );
    const r = await importOwn(file, 'aggTrades');
    expect(r.status).toBe('refused');
    expect(r.errorRow).toBe(copyLines[0]);
    expect(r.error).toBe(
      `ws_events.jsonl: row ${copyLines[0]}: aggTrade a ${JSON.parse(LINES[ofLines[0] - 1]).data.a} is also line ` +
        `${ofLines[0]}'s, another aggTrade event: two different events of one id (which of them is right cannot be ` +
        'told); nothing of this file was imported',
    );
  });

  it('a kline of a candle taken with other values refuses the file, naming the event t', async () => {
    const { file, copyLines, ofLines } = resent('ctkusdt@kline_1m', 1, 1, (l) => l.replace('"n":86', '"n":87'));
    const r = await importOwn(file, 'klines');
    expect(r.status).toBe('refused');
    expect(r.error).toContain(`row ${copyLines[0]}: kline t 1626992700000 is also line ${ofLines[0]}'s`);
  });
});

describe("a recorder's trade-stream CSV with rows written twice", () => {
  const TRADES = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota/trade_stream.csv');
  const ROWS = readFileSync(TRADES, 'utf8').trim().split('\n');
  /** The CSV with its rows `from`..`to` (1-based lines) written again after `to`, received later. */
  function resentRows(from: number, to: number, edit = (l: string) => l): string {
    const copies = ROWS.slice(from - 1, to).map((l) => edit(l.replace(/^\d+,/, '1744588899999,')));
    const file = path.join(tempDir(), 'trade_stream.csv');
    writeFileSync(file, [...ROWS.slice(0, to), ...copies, ...ROWS.slice(to)].join('\n') + '\n');
    return file;
  }
  const importTrades = async (file: string): Promise<ImportResult> =>
    (await service.importFiles([file], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' }))[0];

  it('three rows written again are dropped and said; the trades are those of the file without them', async () => {
    const r = await importTrades(resentRows(9, 11));
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added, r.gaps]).toEqual(['imported', 199, 199, 0]);
    expect(r.warnings).toEqual([
      "3 duplicate events dropped (trade events the same as an earlier line's, as a recorder that reconnects " +
        'writes again; the first, line 12, repeats line 9)',
    ]);
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const plain = new DatasetService(new DatasetsRepo(own));
      const [p] = await plain.importFiles([TRADES], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
      expect([p.status, p.rows, p.warnings]).toEqual(['imported', 199, []]);
      expect(service.trades(r.datasetId!, { limit: 300 })).toEqual(plain.trades(p.datasetId!, { limit: 300 }));
    } finally {
      own.close();
    }
  });

  it('a row of a TradeId taken with another price refuses the file, naming both lines', async () => {
    const r = await importTrades(resentRows(11, 11, (l) => l.replace(',0.25462,', ',0.25463,')));
    expect(r.status).toBe('refused');
    expect(r.error).toBe(
      "trade_stream.csv: row 12: trade TradeId 564661914 is also line 11's, another trade event: two different " +
        'events of one id (which of them is right cannot be told); nothing of this file was imported',
    );
  });
});

describe('a repeat further back than the events looked among (4096)', () => {
  // 5000 bookTicker events of rising u, then 10 of them written again: 4000 back (found), 4900 back (not)
  const t0 = 1626992741012;
  const events = Array.from({ length: 5000 }, (_, i) =>
    JSON.stringify({
      recv_ts: (t0 + i * 10 + 5) / 1000,
      stream: 'ctkusdt@bookTicker',
      data: {
        e: 'bookTicker',
        u: 600859600000 + i * 3,
        s: 'CTKUSDT',
        b: '1.0110',
        B: '20',
        a: '1.0120',
        A: '31',
        T: t0 + i * 10,
        E: t0 + i * 10 + 4,
      },
    }),
  );
  const withCopies = (back: number): string => {
    const copies = events
      .slice(5000 - back, 5000 - back + 10)
      .map((l) => l.replace(/"recv_ts":[0-9.]+/, '"recv_ts":1626999999.5'));
    const file = path.join(tempDir(), 'ws_events.jsonl');
    writeFileSync(file, [...events, ...copies].join('\n') + '\n');
    return file;
  };

  it('4000 events back: dropped and said', async () => {
    const r = await importOwn(withCopies(4000), 'bookTicker');
    expect([r.status, r.rows, r.error]).toEqual(['imported', 5000, null]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^10 duplicate events dropped .*the first, line 5001, repeats line 1001\)$/),
    ]);
  });

  it('4900 events back: refused, saying the events a repeat is looked among', async () => {
    const r = await importOwn(withCopies(4900), 'bookTicker');
    expect(r.status).toBe('refused');
    expect(r.error).toBe(
      'ws_events.jsonl: row 5001: bookTicker u 600859600300 is below the last u taken, 600859614997, and below the ' +
        '4096 events before it (from line 905), among which an event written again is looked for: events out of order, ' +
        'or written again after more than 4096 others (cut the part written again out of the file); nothing of this file was imported',
    );
  });
});
