// A gzip'd file (a recorder's ws_events.jsonl.gz, a .csv.gz) named to the import: its lines are read
// through gunzip (told by its first bytes, 1F 8B), so it imports as the file it holds; a gzip file
// cut short is refused as damaged. Until this was fixed its compressed bytes were read as text: `row
// 1: the header "\u001f\b\byU..." (226 characters) is not an aggTrades header`.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uploadType } from '../../src-shared/dataset-upload.ts';
import { makeApp } from '../helpers/app.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, fixtureRows, KLINES_HEADER, tempDir } from './archive-fixtures.ts';

const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');
const LASOTA = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

const gz = (name: string, bytes: Buffer | string): string => {
  const f = path.join(tempDir(), name);
  writeFileSync(f, gzipSync(bytes));
  return f;
};

describe('a gzip file', () => {
  it("a recording's ws_events.jsonl.gz: the events of the plain file", async () => {
    const opts = { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' };
    const [r] = await service.importFiles([gz('ws_events.jsonl.gz', readFileSync(EVENTS))], opts);
    expect([r.status, r.error, r.rows, r.added]).toEqual(['imported', null, 38, 38]);
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const plain = new DatasetService(new DatasetsRepo(own));
      const [p] = await plain.importFiles([EVENTS], opts);
      expect(r.skipped).toEqual(p.skipped);
      expect(service.trades(r.datasetId!, { limit: 100 })).toEqual(plain.trades(p.datasetId!, { limit: 100 }));
    } finally {
      own.close();
    }
  });

  it('an archive CSV saved by Excel (BOM, CRLF), then gzip: its candles', async () => {
    const day = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 1440);
    const text = '\ufeff' + [KLINES_HEADER, ...day].join('\r\n') + '\r\n';
    const [r] = await service.importFiles([gz('BTCUSDT-1m-2021-05-16.csv.gz', text)], {
      market: 'spot',
      symbol: 'BTCUSDT',
      interval: '1m',
    });
    expect([r.status, r.error, r.rows, r.gaps]).toEqual(['imported', null, 1440, 0]);
    const first = service.klines(r.datasetId!, '1m', { startTime: Number(day[0].split(',')[0]), limit: 1 });
    expect(first[0].slice(0, 5).map(Number)).toEqual(day[0].split(',').slice(0, 5).map(Number));
  });

  it('cut short (a download or copy that stopped): refused as damaged, nothing imported', async () => {
    const whole = gzipSync(readFileSync(EVENTS));
    const f = path.join(tempDir(), 'ws_events.jsonl.gz');
    writeFileSync(f, whole.subarray(0, 20_000));
    const [r] = await service.importFiles([f], { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' });
    expect([r.status, r.error]).toEqual([
      'refused',
      'ws_events.jsonl.gz is damaged: its data does not inflate (unexpected end of file)',
    ]);
    expect(service.list()).toEqual([]);
  });
});

// A folder (`npm run data -- import DIR/`, the import route's `paths`) is searched for .csv.gz and
// .jsonl.gz as for .csv and .jsonl. Until this was fixed they were passed over: a recording's folder
// of .gz files said `no .zip, .csv or .jsonl files under the given paths` (exit 2), the route
// answered `{"results": []}`, and a folder of both imported its plain files alone.
describe('a folder of gzip files', () => {
  /** What an import of the folder says of each file (as the CLI and the route read it: expandPaths, then importFiles). */
  const importFolder = async (svc: DatasetService, dir: string, opts: Record<string, string>) =>
    (await svc.importFiles(expandPaths([dir]).files, opts)).map((r) => [
      path.basename(r.file),
      r.status,
      r.error,
      r.key && `${r.key.symbol} ${r.key.kind}${r.key.interval ? ` ${r.key.interval}` : ''}`,
      r.rows,
      r.added,
    ]);

  it("a recording's folder gzip'd: each file imports as its plain one does", async () => {
    const dir = tempDir();
    for (const name of readdirSync(LASOTA).filter((n) => n.endsWith('.csv')))
      writeFileSync(path.join(dir, `${name}.gz`), gzipSync(readFileSync(path.join(LASOTA, name))));
    const opts = { market: 'um', symbol: 'TRXUSDT' };
    const got = await importFolder(service, dir, opts);
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const plain = await importFolder(new DatasetService(new DatasetsRepo(own)), LASOTA, opts);
      expect(plain.map((p) => p[4])).toEqual([155, 1, 199]);
      expect(got).toEqual(plain.map(([f, ...rest]) => [`${f}.gz`, ...rest]));
    } finally {
      own.close();
    }
  });

  it('a ws_events.jsonl.gz and a day file named as the archive names it, beside a plain file', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'rec'));
    writeFileSync(path.join(dir, 'rec', 'ws_events.jsonl.gz'), gzipSync(readFileSync(EVENTS)));
    const day = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
    writeFileSync(path.join(dir, 'BTCUSDT-1m-2021-05-16.csv.gz'), gzipSync(day.slice(0, 1440).join('\n')));
    writeFileSync(path.join(dir, 'BTCUSDT-1m-2021-05-17.csv'), day.slice(1440, 2880).join('\n'));
    expect(expandPaths([dir]).files.map((f) => path.relative(dir, f))).toEqual([
      'BTCUSDT-1m-2021-05-16.csv.gz',
      'BTCUSDT-1m-2021-05-17.csv',
      path.join('rec', 'ws_events.jsonl.gz'),
    ]);
    // the day files' names say symbol and interval, as a .csv's do
    const candles = await importFolder(service, path.join(dir, 'BTCUSDT-1m-2021-05-16.csv.gz'), { market: 'spot' });
    expect(candles).toEqual([['BTCUSDT-1m-2021-05-16.csv.gz', 'imported', null, 'BTCUSDT klines 1m', 1440, 1440]]);
    const events = await importFolder(service, path.join(dir, 'rec'), {
      market: 'um',
      symbol: 'CTKUSDT',
      kind: 'aggTrades',
    });
    expect(events).toEqual([['ws_events.jsonl.gz', 'imported', null, 'CTKUSDT aggTrades', 38, 38]]);
  });
});

// The upload (the Data dialog's, the SDK's datasets.upload: one file as the raw body, its name in
// `name`) takes a .csv.gz or .jsonl.gz and reads it through the same gunzip. Until this was fixed
// it was refused before a byte was read: `'name' must end in .zip, .csv or .jsonl` (1001).
describe('an uploaded gzip file', () => {
  it('imports as the file it holds, sent as the Data dialog sends it (or as application/gzip)', async () => {
    const t = await makeApp({ simulate: false });
    try {
      const upload = (name: string, query: string, bytes: Buffer, type = uploadType(name)) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/datasets/import?name=${name}&market=um&${query}`,
          payload: bytes,
          headers: { 'content-type': type },
          remoteAddress: '127.0.0.1',
        });
      const said = (r: Awaited<ReturnType<typeof upload>>) => {
        const body = r.json();
        const x = body.data?.results?.[0];
        return x === undefined ? [r.statusCode, body.message] : [x.file, x.status, x.error, x.rows, x.added];
      };
      const trades = gzipSync(readFileSync(path.join(LASOTA, 'trade_stream.csv')));
      expect(said(await upload('trade_stream.csv.gz', 'symbol=TRXUSDT', trades))).toEqual([
        'trade_stream.csv.gz',
        'imported',
        null,
        199,
        199,
      ]);
      const events = gzipSync(readFileSync(EVENTS));
      const sent = await upload('ws_events.jsonl.gz', 'symbol=CTKUSDT&kind=aggTrades', events, 'application/gzip');
      expect(said(sent)).toEqual(['ws_events.jsonl.gz', 'imported', null, 38, 38]);
      // cut short: refused as damaged, named as the client named it
      const cut = await upload('ws_events.jsonl.gz', 'symbol=CTKUSDT&kind=bookTicker', events.subarray(0, 20_000));
      expect(said(cut)).toEqual([
        'ws_events.jsonl.gz',
        'refused',
        'ws_events.jsonl.gz is damaged: its data does not inflate (unexpected end of file)',
        0,
        0,
      ]);
    } finally {
      await t.close();
    }
  });
});
