import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chartItems,
  datasetSpan,
  focusAfterDelete,
  gapText,
  datasetTitle,
  MAX_HOLE_SLOTS,
  planPick,
  readableIntervals,
  refusedResult,
  resultLine,
  takesInterval,
  uploadType,
  uploadUrl,
  type KlineRow,
} from '../../src-renderer/src/features/data/data-view.ts';
import { entryDisagreement, resolveKey } from '../../src-main/data/archive-path.ts';
import { keyProblem, optionsProblem } from '../../src-main/data/kinds.ts';
import { STREAM_CSV, wrongRecorderKind } from '../../src-main/data/recorder-rows.ts';

describe('Data dialog helpers', () => {
  it('the upload address names the file and the chosen market', () => {
    expect(uploadUrl('http://127.0.0.1:8787/', 'BTCUSDT-1m-2025-01-06.zip', { market: 'um' })).toBe(
      'http://127.0.0.1:8787/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.zip&market=um',
    );
    // a market the service does not know is sent for it to refuse (1001), not left out unsaid
    expect(uploadUrl('http://h:1', 'a b&c.csv', { market: 'nonsense' })).toBe(
      'http://h:1/api/v1/datasets/import?name=a+b%26c.csv&market=nonsense',
    );
    expect(uploadUrl('http://h:1', 'a.csv', { market: '' })).toBe('http://h:1/api/v1/datasets/import?name=a.csv');
    // empty fields are left to the file name
    expect(uploadUrl('http://h:1', 'x.zip', { market: 'um', symbol: ' ', kind: '', interval: '' })).toBe(
      'http://h:1/api/v1/datasets/import?name=x.zip&market=um',
    );
    expect([uploadType('x.CSV'), uploadType('x.zip'), uploadType('ws_events.jsonl')]).toEqual([
      'text/csv',
      'application/zip',
      'application/octet-stream',
    ]);
  });

  it("a file whose name does not say its symbol, kind or interval gets the dialog's", () => {
    // a recording's trade stream (its header says its kind) and a renamed klines CSV
    expect(uploadUrl('http://h:1', 'trade_stream.csv', { market: 'um', symbol: 'trxusdt ' })).toBe(
      'http://h:1/api/v1/datasets/import?name=trade_stream.csv&market=um&symbol=TRXUSDT',
    );
    expect(
      uploadUrl('http://h:1', 'my.csv', { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' }),
    ).toBe('http://h:1/api/v1/datasets/import?name=my.csv&market=spot&symbol=BTCUSDT&kind=klines&interval=1m');
    // an interval only goes with a candle kind (the service refuses it on the others)
    expect(uploadUrl('http://h:1', 'f.csv', { market: 'um', symbol: 'X1', kind: 'aggTrades', interval: '1m' })).toBe(
      'http://h:1/api/v1/datasets/import?name=f.csv&market=um&symbol=X1&kind=aggTrades',
    );
    expect([takesInterval(''), takesInterval('markPriceKlines'), takesInterval('depth')]).toEqual([true, true, false]);
  });

  it("a refusal names the picked file, not the service's temporary copy, and asks for the dialog's fields", () => {
    const refused = {
      file: 'binance_spot_BTCUSDT_1m.csv',
      ok: false,
      status: 'refused' as const,
      dataset_id: null,
      rows: 0,
      added: 0,
      gaps: 0,
      checksum: 'none' as const,
      error_row: null,
      warnings: [],
      skipped: [],
    };
    // the service's words for an upload it could not place (src-main/data/archive-path.ts)
    expect(
      resultLine({
        ...refused,
        error:
          "/tmp/perpdesk-upload-tEZWSq/binance_spot_BTCUSDT_1m.csv: the file name and folders do not say its symbol, kind; give 'symbol', 'kind' with the request",
      }),
    ).toBe(
      'binance_spot_BTCUSDT_1m.csv: refused — the file name and folders do not say its symbol, kind; fill in Symbol and Kind above and pick the file again',
    );
    // a recorder's REST snapshot file is one row (one snapshot): it read "1 rows (1 new)"
    const snapshot = {
      ...refused,
      ok: true,
      status: 'imported' as const,
      file: 'rest_depth_snapshot.csv',
      rows: 1,
      added: 1,
      error: null,
    };
    expect(resultLine(snapshot)).toBe('rest_depth_snapshot.csv: 1 row (1 new), no gaps, checksum not given');
    expect(resultLine({ ...snapshot, rows: 1_200, added: 0 })).toBe(
      'rest_depth_snapshot.csv: 1,200 rows (0 new), no gaps, checksum not given',
    );
    expect(resultLine({ ...refused, error: 'C:\\Temp\\up\\binance_spot_BTCUSDT_1m.csv: row 3: bad' })).toBe(
      'binance_spot_BTCUSDT_1m.csv: refused — row 3: bad',
    );
    // another file's name in the message stays
    expect(resultLine({ ...refused, error: 'see other/binance_spot_BTCUSDT_1m.csv.bak: x' })).toBe(
      'binance_spot_BTCUSDT_1m.csv: refused — see other/binance_spot_BTCUSDT_1m.csv.bak: x',
    );
  });

  it('datasets and results in words', () => {
    expect(datasetTitle({ market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' })).toBe(
      'BTCUSDT · USD-M · klines 1m',
    );
    expect(datasetTitle({ market: 'spot', symbol: 'ETHUSDT', kind: 'aggTrades', interval: '' })).toBe(
      'ETHUSDT · Spot · aggTrades',
    );
    expect(datasetSpan({ first_time: null, last_time: null, interval: '1m' })).toBe('empty');
    // a gap says where it is, not only what is missing (it was '1 1h candle missing' in a tooltip)
    expect(
      gapText({
        start_time: Date.parse('2023-03-24T13:00:00Z'),
        end_time: Date.parse('2023-03-24T14:00:00Z'),
        detail: '1 1h candle missing',
      }),
    ).toBe('2023-03-24 13:00 → 2023-03-24 14:00 UTC: 1 1h candle missing');
    // a recording of 30 s (the TRXUSDT depth fixture) reads to the ms, not "00:00 → 00:00"
    expect(
      datasetSpan({
        first_time: Date.parse('2025-04-14T00:00:00.061Z'),
        last_time: Date.parse('2025-04-14T00:00:30Z'),
        interval: '',
      }),
    ).toBe('2025-04-14 00:00:00.061 → 2025-04-14 00:00:30 UTC');
    const base = {
      file: 'f.zip',
      dataset_id: 1,
      rows: 1440,
      added: 1440,
      gaps: 1,
      checksum: 'verified' as const,
      error: null,
      error_row: null,
      warnings: [],
      skipped: [],
    };
    expect(resultLine({ ...base, ok: true, status: 'imported' })).toBe(
      'f.zip: 1,440 rows (1,440 new), 1 gap, checksum verified',
    );
    expect(resultLine({ ...base, ok: true, status: 'unchanged' })).toBe('f.zip: already imported, nothing changed');
    // a recorder's JSON lines: the streams it skipped, as the data command says them (it said nothing)
    const skipped = [
      { stream: 'ctkusdt@aggTrade', lines: 38, kind: 'aggTrades' as const },
      { stream: 'sushiusdt@depth@100ms', lines: 255, kind: null },
    ];
    expect(resultLine({ ...base, file: 'ws_events.jsonl', gaps: 0, ok: true, status: 'imported', skipped })).toBe(
      'ws_events.jsonl: 1,440 rows (1,440 new), no gaps, checksum verified; skipped 293 lines of other streams: ' +
        'ctkusdt@aggTrade 38 (kind aggTrades reads them), sushiusdt@depth@100ms 255',
    );
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'row 5: bad' })).toBe(
      'f.zip: refused — row 5: bad',
    );
    expect(resultLine({ ...base, ok: false, status: 'refused', error: 'f.zip: row 5: bad' })).toBe(
      'f.zip: refused — row 5: bad',
    );
  });
});

describe('a dataset in the chart', () => {
  const H = 3_600_000;
  const noon = Date.parse('2023-03-24T12:00:00Z');
  const row = (t: number, o: string): KlineRow => [t, t + H - 1, o, o, o, o, '0', '0', 0, '0', '0', true];

  it('a missing hour is one empty slot between the bars; rows come newest first', () => {
    const { items, holes } = chartItems([row(noon + 3 * H, '4'), row(noon + 2 * H, '3'), row(noon, '1')], '1h');
    expect(items).toEqual([
      { time: noon / 1000, open: 1, high: 1, low: 1, close: 1 },
      { time: (noon + H) / 1000 },
      { time: (noon + 2 * H) / 1000, open: 3, high: 3, low: 3, close: 3 },
      { time: (noon + 3 * H) / 1000, open: 4, high: 4, low: 4, close: 4 },
    ]);
    expect(holes).toBe(1);
    expect(chartItems([row(noon, '1'), row(noon + H, '2')], '1h')).toEqual({ items: expect.any(Array), holes: 0 });
  });

  it('a very long gap is drawn with a bounded number of slots', () => {
    const { items } = chartItems([row(0, '1'), row(10_000 * H, '2')], '1h');
    expect(items).toHaveLength(MAX_HOLE_SLOTS + 2);
  });

  it('the intervals a dataset can be read at', () => {
    expect(readableIntervals('1h')).toEqual(['1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']);
    expect(readableIntervals('1d')).toEqual(['1d', '3d', '1w', '1M']);
    expect(readableIntervals('')).toEqual([]);
  });
});

describe('what a pick uploads', () => {
  const named = (...names: string[]) => names.map((name) => ({ name }));

  it("a .CHECKSUM picked with its zip goes with it as its digest; the CLI's rule (expand-paths.ts)", () => {
    const { uploads, notUploaded } = planPick(
      named('BTCUSDT-1m-2021-05-18.zip.CHECKSUM', 'BTCUSDT-1m-2021-05-18.zip', 'BTCUSDT-1m-2021-05-17.zip'),
    );
    expect(uploads.map((u) => [u.file.name, u.checksum?.name ?? null])).toEqual([
      ['BTCUSDT-1m-2021-05-18.zip', 'BTCUSDT-1m-2021-05-18.zip.CHECKSUM'],
      ['BTCUSDT-1m-2021-05-17.zip', null],
    ]);
    expect(notUploaded).toEqual([]);
  });

  it('every picked file not uploaded is named with the reason (they were dropped without a word)', () => {
    const { uploads, notUploaded } = planPick(
      named('notes.txt', 'BTCUSDT-1m-2021-05-17.zip.CHECKSUM', 'BTCUSDT-1m-2021-05-18.zip', 'trade_stream.csv'),
    );
    expect(uploads.map((u) => u.file.name)).toEqual(['BTCUSDT-1m-2021-05-18.zip', 'trade_stream.csv']);
    expect(uploads.every((u) => u.checksum === null)).toBe(true);
    expect(notUploaded).toEqual([
      "notes.txt: not uploaded — not a .zip, .csv or .jsonl file (nor a gzip'd .csv.gz, .jsonl.gz)",
      // the data CLI's refusal of a .CHECKSUM without its zip (dataset-service.ts)
      'BTCUSDT-1m-2021-05-17.zip.CHECKSUM: not uploaded — a .CHECKSUM file is not data; give its zip (BTCUSDT-1m-2021-05-17.zip)',
    ]);
  });

  it('the digest goes in the upload address', () => {
    const sha = 'ab'.repeat(32);
    expect(uploadUrl('http://h:1', 'X-1m-2021-05-18.zip', { market: 'um', checksum: sha })).toBe(
      `http://h:1/api/v1/datasets/import?name=X-1m-2021-05-18.zip&checksum=${sha}&market=um`,
    );
  });

  it('a digest that does not match names the .CHECKSUM picked, not the route parameter', () => {
    const said =
      "X-1m-2021-05-18.zip does not match the 'checksum' parameter (SHA-256 aa, expected bb): the file is damaged or incomplete";
    expect(resultLine(refusedResult('X-1m-2021-05-18.zip', said))).toBe(
      'X-1m-2021-05-18.zip: refused — X-1m-2021-05-18.zip does not match X-1m-2021-05-18.zip.CHECKSUM (SHA-256 aa, expected bb): the file is damaged or incomplete',
    );
  });
});

describe("a refusal names the dialog's fields, never the command's options", () => {
  const line = (file: string, error: string) => resultLine(refusedResult(file, error));

  it("a recorder's file picked as another kind (recorder-rows.ts wrongRecorderKind)", () => {
    expect(
      line(
        'trade_stream.csv',
        "row 1: the header is a recorder's trade stream, a trades file: import it as kind trades (--kind, or 'kind' in a request), or without a kind (the header tells); nothing of this file was imported",
      ),
    ).toBe(
      'trade_stream.csv: refused — row 1: the header is a recorder\'s trade stream, a trades file: set Kind to trades, or leave it on "from the name" (the header tells), and pick the file again; nothing of this file was imported',
    );
    expect(
      line(
        'diff_depth_stream.csv',
        "row 1: the header is a recorder's depth stream or snapshot, a depth file: import it as kind depth (--kind, or 'kind' in a request), or without a kind (the header tells); nothing of this file was imported",
      ),
    ).toContain('a depth file: set Kind to depth, or leave it on "from the name" (the header tells), and pick');
  });

  it("a file picked as another kind than its header's, or a recorder's JSON lines as a CSV kind (rows.ts notHeader)", () => {
    expect(
      line(
        'trades.csv',
        "row 1: the header \"id,price,qty,quote_qty,time,is_buyer_maker\" is a trades file's, not an aggTrades file's: import it as kind trades (--kind, or 'kind' in a request); nothing of this file was imported",
      ),
    ).toBe(
      'trades.csv: refused — row 1: the header "id,price,qty,quote_qty,time,is_buyer_maker" is a trades file\'s, not an aggTrades file\'s: import it as kind trades: set Kind above and pick the file again; nothing of this file was imported',
    );
    expect(
      line(
        'ws_events.jsonl',
        "row 1: a recorder's JSON lines, not a trades file: kind depth reads their depthUpdate events and depth snapshots, kind aggTrades their aggTrade events (--kind, or 'kind' in a request); nothing of this file was imported",
      ),
    ).toContain('kind aggTrades their aggTrade events: set Kind above and pick the file again; nothing');
  });

  it('what the key lacks or has wrong (kinds.ts keyProblem) points at its field', () => {
    expect(line('my-candles.csv', 'my-candles.csv: klines needs an interval (1s, 1m, 3m, 5m)')).toBe(
      'my-candles.csv: refused — klines needs an interval: choose it in Interval above and pick the file again',
    );
    expect(line('f.csv', 'f.csv: the spot archive has no fundingRate files')).toBe(
      'f.csv: refused — the spot archive has no fundingRate files: change Market or Kind above and pick the file again',
    );
    expect(line('f.csv', 'f.csv: symbol must be 2 to 40 capital letters, digits or _ (got "BTC-USDT")')).toBe(
      'f.csv: refused — the symbol must be 2 to 40 capital letters, digits or _ (got "BTC-USDT"): correct Symbol above and pick the file again',
    );
  });

  it('any option left named as the command writes it reads as its field', () => {
    const said = line('f.csv', 'the um archive has no depth files (--market um with --kind depth); --interval 1m');
    expect(said).not.toMatch(/--\w/);
    expect(said).toBe('f.csv: refused — the um archive has no depth files (Market um with Kind depth); Interval 1m');
  });

  it("the import service's own refusals, through the route, read in the dialog's fields", () => {
    const api = { via: 'api' as const };
    const trades = readFileSync(
      new URL('../fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota/trade_stream.csv', import.meta.url),
      'utf8',
    ).split('\n')[0];
    const said = [
      wrongRecorderKind(trades, 'depth')!,
      wrongRecorderKind(STREAM_CSV, 'trades')!,
      keyProblem({ market: 'spot', symbol: 'ETHUSDT', kind: 'klines', interval: '' })!,
      keyProblem({ market: 'spot', symbol: 'ETHUSDT', kind: 'fundingRate' })!,
      keyProblem({ market: 'um', symbol: 'BTC-USDT', kind: 'trades' })!,
      optionsProblem({ market: 'um', kind: 'aggTrades', interval: '1m' })!,
      optionsProblem({ market: 'spot', kind: 'fundingRate' })!,
      // a renamed zip: its CSV's name says another pair
      entryDisagreement(
        'ETHUSDT-1m-2021-05-16.zip',
        'BTCUSDT-1m-2021-05-16.csv',
        { market: 'spot', symbol: 'ETHUSDT', kind: 'klines', interval: '1m' },
        api,
      ).refusal!,
    ];
    for (const [opts, name] of [
      [{ ...api, market: 'spot', kind: 'klines', symbol: 'ETHUSDT' }, 'my-candles.csv'],
      [{ ...api, market: 'um' }, 'trade_stream.csv'],
    ] as const)
      said.push(
        (() => {
          try {
            resolveKey(name, opts);
          } catch (e) {
            return (e as Error).message;
          }
          throw new Error(`${name} was placed`);
        })(),
      );
    for (const error of said) {
      const shown = line('my-candles.csv', error);
      expect(shown).not.toMatch(/--\w|'(market|symbol|kind|interval)'|with the request/);
      expect(shown).toMatch(/\b(Market|Symbol|Kind|Interval)\b/);
    }
  });

  it("a warning names the field that was taken over the file's name", () => {
    const r = {
      ...refusedResult('BTCUSDT-1m-2021-05-18.zip', ''),
      ok: true,
      status: 'imported' as const,
      error: null,
      rows: 1,
      added: 1,
      warnings: ["the path says symbol BTCUSDT; 'symbol' ETHUSDT was taken"],
    };
    expect(resultLine(r)).toBe(
      'BTCUSDT-1m-2021-05-18.zip: 1 row (1 new), no gaps, checksum not given; the path says symbol BTCUSDT; Symbol ETHUSDT was taken',
    );
  });
});

describe("a dataset's end and its gaps after an import", () => {
  it("a candle dataset runs to its last candle's end, an event dataset to its last event (docs/replay.md)", () => {
    const day16 = Date.parse('2021-05-16T00:00:00Z');
    expect(datasetSpan({ first_time: day16, last_time: Date.parse('2021-05-18T23:59:00Z'), interval: '1m' })).toBe(
      '2021-05-16 00:00 → 2021-05-19 00:00 UTC',
    );
    expect(datasetSpan({ first_time: day16, last_time: Date.parse('2021-05-18T23:00:00Z'), interval: '1h' })).toBe(
      '2021-05-16 00:00 → 2021-05-19 00:00 UTC',
    );
    // a month's candle ends with its month
    expect(datasetSpan({ first_time: day16, last_time: Date.parse('2024-02-01T00:00:00Z'), interval: '1M' })).toBe(
      '2021-05-16 00:00 → 2024-03-01 00:00 UTC',
    );
    expect(
      datasetSpan({
        first_time: Date.parse('2025-04-14T00:00:04.438Z'),
        last_time: Date.parse('2025-04-14T00:00:22.895Z'),
        interval: '',
      }),
    ).toBe('2025-04-14 00:00:04.438 → 2025-04-14 00:00:22.895 UTC');
  });

  it("a file that leaves its dataset a gap says the dataset's count beside its own, as the CLI does", () => {
    const r = {
      ...refusedResult('BTCUSDT-1m-2021-05-18.zip', ''),
      ok: true,
      status: 'imported' as const,
      error: null,
      dataset_id: 1,
      rows: 1440,
      added: 1440,
    };
    expect(resultLine(r, 1)).toBe(
      'BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps (the dataset now has 1), checksum not given',
    );
    expect(resultLine({ ...r, gaps: 1 }, 1)).toBe(
      'BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), 1 gap, checksum not given',
    );
    expect(resultLine(r)).toBe('BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps, checksum not given');
  });
  it("a later file's line does not take an earlier file's gap for its own (the dataset had it before the file)", () => {
    const r = {
      ...refusedResult('BTCUSDT-1m-2021-05-18.zip', ''),
      ok: true,
      status: 'imported' as const,
      error: null,
      dataset_id: 1,
      rows: 1440,
      added: 1440,
    };
    expect(resultLine(r, 1, 1)).toBe(
      'BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps in this file (the dataset has 1, of an earlier file), checksum not given',
    );
    // the 16th and 18th without the 17th: the gap is the 18th's doing, said as before
    expect(resultLine(r, 1, 0)).toBe(
      'BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps (the dataset now has 1), checksum not given',
    );
  });
});

describe('the focus after a delete', () => {
  it("goes to the next dataset's Delete, else the one before, else none (the picker)", () => {
    expect(focusAfterDelete([1, 2, 3], 2, [1, 3])).toBe(3);
    expect(focusAfterDelete([1, 2, 3], 3, [1, 2])).toBe(2);
    expect(focusAfterDelete([1], 1, [])).toBeNull();
    // a refused delete leaves the dataset: its own Delete
    expect(focusAfterDelete([1, 2, 3], 2, [1, 2, 3])).toBe(2);
  });
});
