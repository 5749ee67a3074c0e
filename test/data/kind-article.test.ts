// A refused file's message names its kind with its article: "an aggTrades header" (docs/data.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

describe('an aggTrades CSV refused', () => {
  it('names its kind with "an" (it read "is not a aggTrades header", "a aggTrades row")', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'a.csv'), 'id,price,qty\n1,2,3\n');
    writeFileSync(path.join(dir, 'b.csv'), '1,2,3\n');
    const opts = { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' };
    const [a, b] = await service.importFiles([path.join(dir, 'a.csv'), path.join(dir, 'b.csv')], opts);
    expect(a.error).toMatch(
      /^a\.csv: row 1: the header "id,price,qty" is not an aggTrades header \(expected agg_trade_id,/,
    );
    expect(b.error).toBe('b.csv: row 1: 3 columns; an aggTrades row has 7 or 8; nothing of this file was imported');
    // a kind starting with a consonant keeps "a"
    const [c] = await service.importFiles([path.join(dir, 'a.csv')], { ...opts, kind: 'trades' });
    expect(c.error).toMatch(/is not a trades header/);
  });
});

describe('a file imported as another kind than it is', () => {
  const KLINES = path.join(FIXTURES, 'klines/binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv');
  const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');

  it("names the kind its header is (it said only that the header is not the kind's)", async () => {
    const [r] = await service.importFiles([KLINES], { market: 'spot', symbol: 'BTCUSDT', kind: 'aggTrades' });
    expect(r.error).toMatch(
      /^binance_spot_BTCUSDT_1h_2023-03-24_outage_gap\.csv: row 1: the header "open_time,open,[^"]*" is a candle file's \(klines, markPriceKlines, indexPriceKlines, premiumIndexKlines\), not an aggTrades file's: import it as kind klines \(or the price klines it is\) with its interval \(--kind, or 'kind' in a request\); nothing of this file was imported$/,
    );
    expect(service.list()).toEqual([]);
  });

  it("says a recorder's JSON lines are read by kinds depth, aggTrades, bookTicker, trades and klines (it quoted the first JSON line as a header)", async () => {
    const [r] = await service.importFiles([EVENTS], { market: 'um', symbol: 'CTKUSDT', kind: 'fundingRate' });
    expect(r.errorRow).toBe(1);
    expect(r.error).toBe(
      "ws_events.jsonl: row 1: a recorder's JSON lines, not a fundingRate file: kind depth reads their depthUpdate events and " +
        'depth snapshots, kind aggTrades their aggTrade events, kind bookTicker their bookTicker events, kind trades their trade events, ' +
        "kind klines their closed kline events (--kind, or 'kind' in a request); nothing of this file was imported",
    );
  });
});

describe('a headerless candle file imported as another kind', () => {
  it('says its 12 columns are a candle file\'s (it said "12 columns; an aggTrades row has 7 or 8")', async () => {
    const dir = tempDir();
    const rows = readFileSync(path.join(FIXTURES, 'klines/binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv'), 'utf8');
    writeFileSync(path.join(dir, 'BTCUSDT-1h-2023-03-24.csv'), rows.slice(rows.indexOf('\n') + 1));
    const [r] = await service.importFiles([path.join(dir, 'BTCUSDT-1h-2023-03-24.csv')], {
      market: 'spot',
      symbol: 'BTCUSDT',
      kind: 'trades',
    });
    expect(r.error).toBe(
      "BTCUSDT-1h-2023-03-24.csv: row 1: 12 columns, a candle file's (klines, markPriceKlines, indexPriceKlines, premiumIndexKlines), " +
        "not a trades file's (6 or 7): import it as kind klines (or the price klines it is) with its interval (--kind, or 'kind' in a request); " +
        'nothing of this file was imported',
    );
  });
});

describe("a recorder's JSON lines imported without a kind", () => {
  it('names the kinds that read them (it said only "give --kind")', async () => {
    const events = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');
    const [r] = await service.importFiles([events], { market: 'um', symbol: 'CTKUSDT' });
    expect(r.error).toBe(
      `${events}: the file name and folders do not say its kind (a recorder's JSON lines: kind depth reads their ` +
        'depthUpdate events and depth snapshots, kind aggTrades their aggTrade events, kind bookTicker their bookTicker events, ' +
        'kind trades their trade events, kind klines their closed kline events); give --kind',
    );
  });
});
