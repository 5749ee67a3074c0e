// A JSON-lines recording of the websocket (cryptofeed's, test/fixtures/binance/SOURCES.md) holds
// the depthUpdate events and the aggTrade events of its pairs (and bookTicker, kline): its aggTrade
// events go in as an aggTrades dataset of their pair, the archive's aggTrades columns from the
// event's a, p, q, f, l, T, m; an import says the lines of the streams it skipped, one count per
// stream (docs/data.md). Until this was fixed `--kind aggTrades` refused the file ("... is not a
// aggTrades header") and `--kind depth` skipped the trades without a word.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
const EVENTS = path.join(CRYPTOFEED, 'ws_events.jsonl');
const SNAPSHOTS = path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

/** The recording's aggTrade events of `symbol`, read straight from its lines. */
function rawAggTrades(symbol: string): Record<string, unknown>[] {
  return readFileSync(EVENTS, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"e":"aggTrade"'))
    .map((l) => (JSON.parse(l) as { data: Record<string, unknown> }).data)
    .filter((d) => d.s === symbol);
}

describe("a JSON-lines recording's aggTrade events, as aggTrades", () => {
  it('are the pair\'s aggTrades: id a, price p, qty q, first f, last l, time T, buyer maker m (it was "not a aggTrades header")', async () => {
    const [r] = await service.importFiles([EVENTS], { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' });
    expect(r.error).toBeNull();
    expect([r.status, r.rows, r.added, r.gaps, r.key?.kind]).toEqual(['imported', 38, 38, 0, 'aggTrades']);
    const t = service.trades(r.datasetId!, { limit: 5000 });
    // the first: {"e":"aggTrade","E":1626992741575,"a":16599292,"s":"CTKUSDT","p":"1.01100","q":"10","f":23961322,"l":23961322,"T":1626992741421,"m":false}
    expect(t[0]).toEqual({
      id: 16599292,
      price: '1.01100',
      qty: '10',
      first_trade_id: 23961322,
      last_trade_id: 23961322,
      time: 1626992741421,
      time_us: 1626992741421_000,
      is_buyer_maker: false,
    });
    const raw = rawAggTrades('CTKUSDT');
    expect(
      t.map((x) => [x.id, Number(x.price), Number(x.qty), x.first_trade_id, x.last_trade_id, x.time, x.is_buyer_maker]),
    ).toEqual(raw.map((d) => [d.a, Number(d.p), Number(d.q), d.f, d.l, d.T, d.m]));
    expect(service.get(r.datasetId!)).toMatchObject({ market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades', rows: 38 });
  });

  it("say the streams they skipped, SUSHIUSDT's depthUpdate lines among them", async () => {
    const [r] = await service.importFiles([EVENTS], { market: 'um', symbol: 'SUSHIUSDT', kind: 'aggTrades' });
    expect([r.status, r.rows]).toEqual(['imported', 40]);
    expect(r.skipped).toEqual(
      expect.arrayContaining([
        { stream: 'sushiusdt@depth@100ms', lines: 255, kind: 'depth' },
        { stream: 'sushiusdt@bookTicker', lines: 305, kind: 'bookTicker' },
        { stream: 'ctkusdt@aggTrade', lines: 38, kind: null },
      ]),
    );
  });

  it('a bad aggTrade event refuses the file, naming its line and field', async () => {
    const dir = tempDir();
    const lines = readFileSync(EVENTS, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"ctkusdt@aggTrade"'));
    lines[at] = lines[at].replace('"p":"1.01100"', '"p":"1.0x1"');
    writeFileSync(path.join(dir, 'ws_events.jsonl'), lines.join('\n'));
    const [r] = await service.importFiles([path.join(dir, 'ws_events.jsonl')], {
      market: 'um',
      symbol: 'CTKUSDT',
      kind: 'aggTrades',
    });
    expect(r.status).toBe('refused');
    expect(r.errorRow).toBe(at + 1);
    expect(r.error).toBe(
      `ws_events.jsonl: row ${at + 1}: p is not a positive decimal: "1.0x1"; nothing of this file was imported`,
    );
  });

  it('a file with no aggTrade event of the pair says what it holds instead', async () => {
    const [r] = await service.importFiles([SNAPSHOTS], { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' });
    expect(r.status).toBe('refused');
    expect(r.error).toBe(
      'rest_depth_snapshots.jsonl: the file has no aggTrades rows of CTKUSDT: its 4 lines are of other streams: ' +
        'ctkusdt depth snapshot 1 (kind depth reads them), sushiusdt depth snapshot 1, akrousdt depth snapshot 1, ' +
        'keepusdt depth snapshot 1; nothing of this file was imported',
    );
  });
});

describe('--kind depth on the recording', () => {
  it("counts the lines of every stream it skipped, the pair's aggTrade stream among them (it said nothing)", async () => {
    const [r] = await service.importFiles([EVENTS], { market: 'um', symbol: 'CTKUSDT', kind: 'depth' });
    expect([r.status, r.rows]).toEqual(['imported', 185]);
    // the pair's own streams another kind reads first (as first met), with the kind that reads them
    expect(r.skipped.slice(0, 2)).toEqual([
      { stream: 'ctkusdt@bookTicker', lines: 145, kind: 'bookTicker' },
      { stream: 'ctkusdt@aggTrade', lines: 38, kind: 'aggTrades' },
    ]);
    expect(r.skipped).toContainEqual({ stream: 'sushiusdt@depth@100ms', lines: 255, kind: null });
    expect(r.skipped.reduce((n, s) => n + s.lines, 0)).toBe(1535 - 185);
  });
});

describe('npm run data -- import', () => {
  it('imports both from one recording and says what each skipped', async () => {
    const dataDir = tempDir();
    const out: string[] = [];
    const common = ['--symbol', 'CTKUSDT', '--market', 'um', '--data-dir', dataDir];
    const depth = await runDataCli(
      ['import', EVENTS, SNAPSHOTS, '--kind', 'depth', ...common],
      (l) => out.push(l),
      () => {},
    );
    expect(depth).toBe(0);
    expect(out[0]).toMatch(
      /^imported {2}ws_events\.jsonl -> dataset 1 \(um CTKUSDT depth\): 185 rows, 185 new, 0 gaps/,
    );
    expect(out[1]).toMatch(
      /^skipped {3}ws_events\.jsonl: 1350 lines of other streams: ctkusdt@bookTicker 145 \(kind bookTicker reads them\), ctkusdt@aggTrade 38 \(kind aggTrades reads them\), ctkusdt@kline_1m 1 \(kind klines reads them\), ctkusdt@kline_1m unfinished candles 31, sushiusdt@bookTicker 305, /,
    );
    out.length = 0;
    const trades = await runDataCli(
      ['import', EVENTS, '--kind', 'aggTrades', ...common],
      (l) => out.push(l),
      () => {},
    );
    expect(trades).toBe(0);
    expect(out[0]).toMatch(
      /^imported {2}ws_events\.jsonl -> dataset 2 \(um CTKUSDT aggTrades\): 38 rows, 38 new, 0 gaps/,
    );
  });
});
