// The TRXUSDT recording of test/fixtures/binance/ (a Binance-Data-Processor-style recorder: REST
// snapshot, diff-depth stream and trade stream, one CSV each) imported as a user imports it: its
// trade stream as trades, its folder in one command with or without --kind (docs/data.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const LASOTA = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');
const TRADES = path.join(LASOTA, 'trade_stream.csv');
/** The same recorder's spot trade stream: its last column is MUnknownParameter, its times µs. */
const SPOT_TRADES = path.join(FIXTURES, 'depth/binance_spot_TRXUSDT_2025-03-04_lasota/trade_stream.csv');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

describe('the recorder trade stream, as trades', () => {
  it('gives every trade its id, price, quantity, trade time T and aggressor side', async () => {
    const [r] = await service.importFiles([TRADES], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
    expect([r.status, r.rows, r.gaps, r.key?.kind]).toEqual(['imported', 199, 0, 'trades']);
    const t = service.trades(r.datasetId!, { limit: 5000 });
    expect(t).toHaveLength(199);
    // line 2: 1744588804441,trxusdt@trade,trade,1744588804439,1744588804438,TRXUSDT,564661905,0.25461,131.0,1,MARKET
    // (received at ...441, event time E ...439, trade time T ...438: the trade is at T)
    expect(t[0]).toEqual({
      id: 564661905,
      price: '0.25461',
      qty: '131.0',
      quote_qty: '33.35391',
      time: 1744588804438,
      time_us: 1744588804438_000,
      is_buyer_maker: true,
    });
    // line 198: 1744588822690,trxusdt@trade,trade,1744588822687,1744588822687,TRXUSDT,564662101,0.25452,58.0,0,MARKET
    expect(t[196]).toMatchObject({ id: 564662101, price: '0.25452', qty: '58.0', time: 1744588822687 });
    expect(t[196].is_buyer_maker).toBe(false);
    // line 200: 1744588822897,trxusdt@trade,trade,1744588822895,1744588822895,TRXUSDT,564662103,0.25451,1179.0,0,MARKET
    expect(t[198]).toMatchObject({ id: 564662103, price: '0.25451', qty: '1179.0', quote_qty: '300.06729' });
    expect([t[198].time, t[198].is_buyer_maker]).toEqual([1744588822895, false]);
    // every row, read here straight from the CSV: TradeId, Price, Quantity, TransactionTime, IsBuyerMarketMaker
    // (the recording's lines end in CRLF; its prices drop trailing zeros: 0.2546 is 0.25460 here)
    const rows = readFileSync(TRADES, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(t.map((x) => [x.id, Number(x.price), Number(x.qty), x.time, x.is_buyer_maker])).toEqual(
      rows.map((l) => {
        const f = l.split(',');
        return [Number(f[6]), Number(f[7]), Number(f[8]), Number(f[4]), f[9] === '1'];
      }),
    );
    expect(service.get(r.datasetId!)).toMatchObject({
      market: 'um',
      symbol: 'TRXUSDT',
      kind: 'trades',
      rows: 199,
      firstTime: 1744588804438,
      lastTime: 1744588822895,
    });
  });

  it('refuses a bad row by its line, a COIN-M stream, and a pair the file does not hold', async () => {
    const lines = readFileSync(TRADES, 'utf8').trim().split(/\r?\n/);
    lines[9] = lines[9].replace(/,1,MARKET$/, ',2,MARKET').replace(/,0,MARKET$/, ',2,MARKET');
    const bad = path.join(tempDir(), 'trade_stream.csv');
    writeFileSync(bad, lines.join('\n'));
    const [r] = await service.importFiles([bad], { market: 'um', symbol: 'TRXUSDT', kind: 'trades' });
    expect(r.error).toBe(
      'trade_stream.csv: row 10: IsBuyerMarketMaker is not 1 or 0: "2"; nothing of this file was imported',
    );
    const [cm] = await service.importFiles([TRADES], { market: 'cm', symbol: 'TRXUSDT', kind: 'trades' });
    expect(cm.error).toMatch(/^trade_stream\.csv: row 1: a COIN-M trade stream's quantities are contracts/);
    const [other] = await service.importFiles([TRADES], { market: 'um', symbol: 'BTCUSDT', kind: 'trades' });
    // the whole file's fault: no row named (it said 'row 200', the number of the last of its 200 lines)
    expect(other.error).toBe(
      'trade_stream.csv: the file has no rows of BTCUSDT (it has TRXUSDT); nothing of this file was imported',
    );
    expect(other.errorRow).toBeNull();
    expect(service.list()).toEqual([]);
  });
});

describe("a spot recording's trade stream", () => {
  it('is read as trades, told by its header (MUnknownParameter), at its µs trade times', async () => {
    // it was refused: 'the file name and folders do not say its kind', and with --kind trades
    // 'the header "...,IsBuyerMarketMaker,MUnknownParameter" is not a trades header'
    const [r] = await service.importFiles([SPOT_TRADES], { market: 'spot', symbol: 'TRXUSDT' });
    expect([r.status, r.error, r.rows, r.gaps, r.key?.kind]).toEqual(['imported', null, 25, 0, 'trades']);
    const t = service.trades(r.datasetId!, { limit: 5000 });
    // line 2: 1741046401272286,trxusdt@trade,trade,1741046401271969,1741046401271497,TRXUSDT,348656870,0.2312,2619.4,1,True
    expect(t[0]).toEqual({
      id: 348656870,
      price: '0.2312',
      qty: '2619.4',
      quote_qty: '605.60528',
      time: 1741046401271,
      time_us: 1741046401271497,
      is_buyer_maker: true,
    });
    // line 20: ...,1741046406763221,1741046406762662,TRXUSDT,348656888,0.2312,99.4,0,True
    expect(t[18]).toMatchObject({ id: 348656888, qty: '99.4', time_us: 1741046406762662, is_buyer_maker: false });
    const rows = readFileSync(SPOT_TRADES, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(t.map((x) => [x.id, Number(x.price), Number(x.qty), x.time_us, x.is_buyer_maker])).toEqual(
      rows.map((l) => {
        const f = l.split(',');
        return [Number(f[6]), Number(f[7]), Number(f[8]), Number(f[4]), f[9] === '1'];
      }),
    );
    const [again] = await service.importFiles([SPOT_TRADES], { market: 'spot', symbol: 'TRXUSDT', kind: 'trades' });
    expect(again.status).toBe('unchanged');
  });
});

describe("the recording's folder in one import", () => {
  it('without --kind: each file by its header, depth (snapshot and diffs) and trades', async () => {
    const dataDir = tempDir();
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) =>
      runDataCli(
        argv,
        (l) => out.push(l),
        (l) => err.push(l),
      );
    const code = await run('import', LASOTA, '--symbol', 'TRXUSDT', '--market', 'um', '--data-dir', dataDir);
    expect(code, out.join('\n')).toBe(0);
    expect(out.slice(0, 4)).toEqual([
      expect.stringMatching(/^imported {2}diff_depth_stream\.csv -> dataset 1 \(um TRXUSDT depth\): 155 rows, 155 new/),
      expect.stringMatching(/^imported {2}rest_depth_snapshot\.csv -> dataset 1 \(um TRXUSDT depth\): 1 row, 1 new/),
      expect.stringMatching(/^imported {2}trade_stream\.csv -> dataset 2 \(um TRXUSDT trades\): 199 rows, 199 new/),
      `3 of 3 files in ${dataDir}.`,
    ]);
    out.length = 0;
    expect(await run('list', '--data-dir', dataDir)).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(/^1\tum TRXUSDT depth\t156 rows\t/),
      expect.stringMatching(
        /^2\tum TRXUSDT trades\t199 rows\t2025-04-14T00:00:04\.438Z \.\. 2025-04-14T00:00:22\.895Z\t/,
      ),
    ]);
  });

  it('with --kind depth the trade stream is refused, saying how to import it', async () => {
    const r = await service.importFiles([path.join(LASOTA, 'diff_depth_stream.csv'), TRADES], {
      market: 'um',
      symbol: 'TRXUSDT',
      kind: 'depth',
    });
    expect(r.map((x) => x.status)).toEqual(['imported', 'refused']);
    expect(r[1].error).toMatch(
      /^trade_stream\.csv: row 1: the header is a recorder's trade stream, a trades file: import it as kind trades \(--kind, or 'kind' in a request\), or without a kind/,
    );
  });
});
