// A searched folder with links in it: one whose target is gone, one that leads back to a folder
// being searched. Each refused the whole import (`ENOENT ... stat 'DIR/old.zip'`, `ELOOP ...
// DIR/a/up/a/up/...`, through the route `a path cannot be read (ENOENT)`) and nothing went in; now
// the folder's files go in, a broken link named as data is refused alone, naming it, and a link
// back to a folder being searched is not searched again (docs/data.md, Import).
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { fixtureRows, KLINES_HEADER, tempDir, writeArchiveZip } from './archive-fixtures.ts';

let t: TestApp;
let root: string;
let zip: string;
let day: string;

beforeAll(async () => {
  t = await makeApp({ simulate: false });
  root = tempDir();
  zip = writeArchiveZip(root, {
    market: 'spot',
    kind: 'klines',
    symbol: 'BTCUSDT',
    interval: '1h',
    date: '2023-03-24',
    csv: KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv').join('\n'),
    checksum: false,
  }).zip;
  day = path.dirname(zip);
  // a zip moved away from under its link, a folder link gone, and a link back up the tree
  symlinkSync(path.join(root, 'gone', 'BTCUSDT-1h-2023-03-25.zip'), path.join(day, 'BTCUSDT-1h-2023-03-25.zip'));
  symlinkSync(path.join(root, 'gone-folder'), path.join(day, 'old'));
  mkdirSync(path.join(day, 'more'));
  symlinkSync('..', path.join(day, 'more', 'up'));
});
afterAll(() => t.close());

describe('links in a searched folder', () => {
  it('expandPaths keeps the files and the broken data link, and searches no folder twice', () => {
    expect(expandPaths([root]).files).toEqual([zip, path.join(day, 'BTCUSDT-1h-2023-03-25.zip')]);
  });

  it('the import takes the folder: its file imported, the broken link refused alone', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/datasets/import',
      payload: { paths: [root] },
      remoteAddress: '127.0.0.1',
    });
    expect(r.statusCode).toBe(200);
    const results = r.json().data.results as { file: string; status: string; rows: number; error: string | null }[];
    expect(results.map((x) => [x.file, x.status, x.rows, x.error])).toEqual([
      ['BTCUSDT-1h-2023-03-24.zip', 'imported', 23, null],
      [
        'BTCUSDT-1h-2023-03-25.zip',
        'refused',
        0,
        'BTCUSDT-1h-2023-03-25.zip: cannot be read: a link to a file that does not exist (or a loop of links); nothing of this file was imported',
      ],
    ]);
  });
});
