// A JSON-lines recording of the websocket (cryptofeed's, test/fixtures/binance/SOURCES.md) holds its
// pairs' bookTicker, @trade and kline streams beside depth and aggTrade: each goes in as the kind
// of the archive that has those rows, the same stored rows as the archive's CSV of the same events
// (built here from the recorded lines, the archive's columns in the archive's order, and imported
// through the CSV reader). Until this was fixed they were only counted as skipped (docs/data.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');
/** The recorder's CSV of TRXUSDT's `trxusdt@trade` stream: 199 trades, each an event's fields. */
const TRADE_STREAM = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota/trade_stream.csv');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

/** The recording's events of one stream, read straight from its lines. */
function events(stream: string): Record<string, unknown>[] {
  return readFileSync(EVENTS, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { stream: string; data: Record<string, unknown> })
    .filter((o) => o.stream === stream)
    .map((o) => o.data);
}

/** A CSV file of `rows` under `header`, as the archive writes one. */
function csvFile(name: string, header: string, rows: unknown[][]): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, [header, ...rows.map((r) => r.join(','))].join('\n') + '\n');
  return file;
}

const storedEvents = (on: DatabaseSync, id: number): unknown[] =>
  on.prepare('SELECT time, seq, data FROM dataset_events WHERE dataset_id = ? ORDER BY time, seq').all(id);

/** The rows an archive CSV stores, imported into a folder of its own. */
async function fromCsv(file: string, kind: 'bookTicker'): Promise<unknown[]> {
  const own = openDatabase({ dataDir: ':memory:' });
  try {
    const [c] = await new DatasetService(new DatasetsRepo(own)).importFiles([file], {
      market: 'um',
      symbol: 'CTKUSDT',
      kind,
    });
    expect([c.status, c.error]).toEqual(['imported', null]);
    return storedEvents(own, c.datasetId!);
  } finally {
    own.close();
  }
}

describe("a recording's bookTicker events, as bookTicker", () => {
  it("are the rows the archive's bookTicker CSV of the same events stores (they were skipped)", async () => {
    const raw = events('ctkusdt@bookTicker');
    expect(raw.length).toBe(145);
    const [r] = await service.importFiles([EVENTS], { market: 'um', symbol: 'CTKUSDT', kind: 'bookTicker' });
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added, r.key?.kind]).toEqual(['imported', 145, 145, 'bookTicker']);
    expect(r.skipped).toContainEqual({ stream: 'ctkusdt@aggTrade', lines: 38, kind: 'aggTrades' });
    expect(r.skipped).toContainEqual({ stream: 'sushiusdt@bookTicker', lines: 305, kind: null });
    const header = 'update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time';
    const csv = csvFile(
      'CTKUSDT-bookTicker-2021-07-22.csv',
      header,
      raw.map((d) => [d.u, d.b, d.B, d.a, d.A, d.T, d.E]),
    );
    const archive = await fromCsv(csv, 'bookTicker');
    expect(storedEvents(db, r.datasetId!)).toEqual(archive);
    // the first: {"e":"bookTicker","u":600859600744,"s":"CTKUSDT","b":"1.01000",...}: time T (µs), u,b,B,a,A,E
    const d = raw[0];
    expect(archive[0]).toEqual({ time: Number(d.T) * 1000, seq: 0, data: [d.u, d.b, d.B, d.a, d.A, d.E].join(',') });
  });

  it('a bad bookTicker event refuses the file, naming its line and field', async () => {
    const lines = readFileSync(EVENTS, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"ctkusdt@bookTicker"'));
    lines[at] = lines[at].replace(/"B":"[^"]*"/, '"B":"2x"');
    const file = path.join(tempDir(), 'ws_events.jsonl');
    writeFileSync(file, lines.join('\n'));
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'CTKUSDT', kind: 'bookTicker' });
    expect(r.status).toBe('refused');
    expect(r.error).toBe(`ws_events.jsonl: row ${at + 1}: B is not a decimal: "2x"; nothing of this file was imported`);
  });
});

/**
 * The trade stream's rows as the recording's JSON lines of the same events
 * (`{"stream": "trxusdt@trade", "data": {"e": "trade", "E", "T", "s", "t", "p", "q", "X", "m"}}`),
 * each after a line of another stream (the cryptofeed recording's first lines, other pairs').
 */
function tradeEvents(): string {
  const others = readFileSync(EVENTS, 'utf8').split('\n');
  const rows = readFileSync(TRADE_STREAM, 'utf8').trim().split('\n').slice(1);
  return rows
    .flatMap((row, i) => {
      const [, stream, e, E, T, s, t, p, q, m, X] = row.split(',');
      const data = { e, E: Number(E), T: Number(T), s, t: Number(t), p, q, X, m: m === '1' };
      return [others[i], JSON.stringify({ stream, data })];
    })
    .join('\n');
}

describe("a recording's @trade events, as trades", () => {
  it("are the trades the recorder's CSV trade stream of the same events gives (they were skipped)", async () => {
    const file = path.join(tempDir(), 'ws_events.jsonl');
    writeFileSync(file, tradeEvents());
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added, r.gaps, r.key?.kind]).toEqual(['imported', 199, 199, 0, 'trades']);
    expect(r.skipped.reduce((n, x) => n + x.lines, 0)).toBe(199);
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const csv = new DatasetService(new DatasetsRepo(own));
      const [c] = await csv.importFiles([TRADE_STREAM], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
      expect([c.status, c.rows]).toEqual(['imported', 199]);
      const stored = service.trades(r.datasetId!, { limit: 1000 });
      expect(stored).toEqual(csv.trades(c.datasetId!, { limit: 1000 }));
      // the first row: ...,1744588804439,1744588804438,TRXUSDT,564661905,0.25461,131.0,1,MARKET
      expect(stored[0]).toMatchObject({ id: 564661905, price: '0.25461', time: 1744588804438, is_buyer_maker: true });
    } finally {
      own.close();
    }
  });

  it("a bad trade event refuses the file naming the event's field; a COIN-M recording is refused as its CSV is", async () => {
    const file = path.join(tempDir(), 'ws_events.jsonl');
    const lines = tradeEvents().split('\n');
    lines[5] = lines[5].replace(/"q":"[^"]*"/, '"q":"-1"');
    writeFileSync(file, lines.join('\n'));
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
    expect(r.error).toBe(
      'ws_events.jsonl: row 6: q is not a positive decimal: "-1"; nothing of this file was imported',
    );
    const [cm] = await service.importFiles([file], { market: 'cm', symbol: 'TRXUSDT', kind: 'trades' });
    expect(cm.error).toBe(
      "ws_events.jsonl: row 1: a COIN-M trade stream's quantities are contracts: the trades' base_qty needs the contract size; " +
        'only spot and um recordings are read; nothing of this file was imported',
    );
  });
});

describe("a recording's kline events, as klines", () => {
  it("its closed candles (x true) are the rows the archive's klines CSV of them stores; unfinished ones (x false) are not", async () => {
    const raw = events('ctkusdt@kline_1m');
    const closed = raw.map((d) => d.k as Record<string, unknown>).filter((k) => k.x === true);
    expect([raw.length, closed.length]).toEqual([32, 1]);
    const [r] = await service.importFiles([EVENTS], {
      market: 'um',
      symbol: 'CTKUSDT',
      kind: 'klines',
      interval: '1m',
    });
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added, r.gaps, r.key?.kind, r.key?.interval]).toEqual([
      'imported',
      1,
      1,
      0,
      'klines',
      '1m',
    ]);
    expect(r.skipped).toContainEqual({ stream: 'ctkusdt@kline_1m unfinished candles', lines: 31, kind: null });
    expect(r.skipped).toContainEqual({ stream: 'sushiusdt@kline_1m', lines: 1, kind: null });
    expect(r.skipped).toContainEqual({ stream: 'sushiusdt@kline_1m unfinished candles', lines: 21, kind: null });
    const header =
      'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
    const csv = csvFile(
      'CTKUSDT-1m-2021-07-22.csv',
      header,
      closed.map((k) => [k.t, k.o, k.h, k.l, k.c, k.v, k.T, k.q, k.n, k.V, k.Q, k.B]),
    );
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const archive = new DatasetService(new DatasetsRepo(own));
      const [c] = await archive.importFiles([csv], { market: 'um', symbol: 'CTKUSDT', kind: 'klines', interval: '1m' });
      expect([c.status, c.rows]).toEqual(['imported', 1]);
      const stored = service.klines(r.datasetId!, '1m', { limit: 10 });
      expect(stored).toEqual(archive.klines(c.datasetId!, '1m', { limit: 10 }));
      // the candle of 22:25 whole, though the recording began at 22:25:41: its last push, at 22:26:00.791
      expect(stored[0].slice(0, 9)).toEqual([
        1626992700000,
        '1.01000',
        '1.01200',
        '1.01000',
        '1.01200',
        '11074',
        1626992759999,
        '11193.49000',
        86,
      ]);
    } finally {
      own.close();
    }
  });

  it('a recording with no closed candle of the interval imports none, saying what it holds', async () => {
    const lines = readFileSync(EVENTS, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"ctkusdt@kline_1m"'));
    const file = path.join(tempDir(), 'ws_events.jsonl');
    writeFileSync(file, lines.filter((l) => !l.includes('"x":true')).join('\n'));
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'CTKUSDT', kind: 'klines', interval: '1m' });
    expect(r.error).toBe(
      'ws_events.jsonl: the file has no klines rows of CTKUSDT: its 31 lines are of other streams: ' +
        'ctkusdt@kline_1m unfinished candles 31; nothing of this file was imported',
    );
    writeFileSync(file, lines.join('\n'));
    const [h] = await service.importFiles([file], { market: 'um', symbol: 'CTKUSDT', kind: 'klines', interval: '1h' });
    expect(h.error).toBe(
      'ws_events.jsonl: the file has no klines rows of CTKUSDT: its 32 lines are of other streams: ' +
        'ctkusdt@kline_1m 1 (kind klines reads them), ctkusdt@kline_1m unfinished candles 31; nothing of this file was imported',
    );
  });

  it("a bad closed kline refuses the file naming the event's fields (o, h, n, V, T), not the CSV's columns (open, high ...)", async () => {
    const lines = readFileSync(EVENTS, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"ctkusdt@kline_1m"') && l.includes('"x":true'));
    // the candle: "t":1626992700000,"T":1626992759999,...,"o":"1.01000","c":"1.01200","h":"1.01200","l":"1.01000","v":"11074","n":86
    const refusal = async (from: string, to: string): Promise<string | null> => {
      const bad = [...lines];
      expect(bad[at]).toContain(from);
      bad[at] = bad[at].replace(from, to);
      const file = path.join(tempDir(), 'ws_events.jsonl');
      writeFileSync(file, bad.join('\n'));
      const [r] = await service.importFiles([file], {
        market: 'um',
        symbol: 'CTKUSDT',
        kind: 'klines',
        interval: '1m',
      });
      expect([r.status, r.errorRow]).toEqual(['refused', at + 1]);
      return r.error;
    };
    const row = `ws_events.jsonl: row ${at + 1}: `;
    const end = '; nothing of this file was imported';
    expect(await refusal('"o":"1.01000"', '"o":"x1"')).toBe(`${row}o is not a non-negative decimal: "x1"${end}`);
    expect(await refusal('"h":"1.01200"', '"h":"1.00000"')).toBe(
      `${row}h 1.00000 and l 1.01000 do not bound o 1.01000 and c 1.01200${end}`,
    );
    expect(await refusal('"n":86', '"n":8.5')).toBe(`${row}n is not a non-negative integer: "8.5"${end}`);
    expect(await refusal('"T":1626992759999', '"T":1626992860000')).toBe(
      `${row}T is not inside the 1m candle (are these 1m candles?): "1626992860000"${end}`,
    );
    const v = /"V":"([^"]*)"/.exec(lines[at])![1];
    expect(await refusal(`"V":"${v}"`, '"V":"99999"')).toBe(`${row}V 99999 exceeds v 11074${end}`);
  });
});
