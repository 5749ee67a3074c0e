// A recording whose last line is cut short (a recorder stopped mid-write): its whole lines import and
// the cut line is dropped and said; until this was fixed the file was refused, `row 1535: not a JSON
// object`. A line cut short before the last still refuses the file, naming it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const EVENTS = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl');
const TEXT = readFileSync(EVENTS, 'utf8');
const LINES = TEXT.trim().split('\n');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

const write = (text: string): string => {
  const f = path.join(tempDir(), 'ws_events.jsonl');
  writeFileSync(f, text);
  return f;
};
const events = (on: DatabaseSync, id: number): unknown[] => [
  ...on.prepare('SELECT time, seq, data FROM dataset_events WHERE dataset_id = ? ORDER BY time, seq').all(id),
];
const CUT = `the last line, ${LINES.length}, is cut short (not a whole JSON object, as a recorder stopped mid-write leaves it): dropped`;

describe("a recording's last line cut short", () => {
  // the last line is a SUSHIUSDT bookTicker: the pairs' rows are those of the whole file
  it.each([
    ['aggTrades', 'CTKUSDT', 38],
    ['depth', 'SUSHIUSDT', 255],
    ['bookTicker', 'SUSHIUSDT', 304],
  ] as const)('%s of %s: the whole lines import, the cut one is said', async (kind, symbol, rows) => {
    const cut = write(TEXT.slice(0, TEXT.trimEnd().length - 60));
    const [r] = await service.importFiles([cut], { market: 'um', symbol, kind });
    expect([r.status, r.error, r.rows, r.warnings]).toEqual(['imported', null, rows, [CUT]]);
    // the same rows as the file without its last line
    const own = openDatabase({ dataDir: ':memory:' });
    try {
      const plain = new DatasetService(new DatasetsRepo(own));
      const opts = { market: 'um', symbol, kind };
      const [w] = await plain.importFiles([write(LINES.slice(0, -1).join('\n') + '\n')], opts);
      expect([w.status, w.rows, w.warnings]).toEqual(['imported', rows, []]);
      if (kind === 'aggTrades')
        expect(service.trades(r.datasetId!, { limit: 100 })).toEqual(plain.trades(w.datasetId!, { limit: 100 }));
      else expect(events(db, r.datasetId!)).toEqual(events(own, w.datasetId!));
    } finally {
      own.close();
    }
  });

  it('a line cut short before the last still refuses the file, naming it', async () => {
    const lines = [...LINES];
    lines[99] = lines[99].slice(0, 80);
    const [r] = await service.importFiles([write(lines.join('\n') + '\n')], {
      market: 'um',
      symbol: 'CTKUSDT',
      kind: 'depth',
    });
    expect([r.status, r.error]).toEqual([
      'refused',
      'ws_events.jsonl: row 100: not a JSON object; nothing of this file was imported',
    ]);
  });
});
