// A gzip'd file (a recorder's ws_events.jsonl.gz, a .csv.gz) named to the import: its lines are read
// through gunzip (told by its first bytes, 1F 8B), so it imports as the file it holds; a gzip file
// cut short is refused as damaged. Until this was fixed its compressed bytes were read as text: `row
// 1: the header "\u001f\b\byU..." (226 characters) is not an aggTrades header`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, fixtureRows, KLINES_HEADER, tempDir } from './archive-fixtures.ts';

const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');

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
