// A CSV unzipped beside its zip in a folder (X.csv beside X.zip, as a user who opened Binance's
// archive leaves it): the zip is read and the CSV left out as its data (docs/data.md, Import).
// Before, both were read: the klines' file counted twice in the dataset, and a trades CSV imported
// then refused its own zip as overlapping, the import failing (exit 1) with the data complete.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { fixtureRows, KLINES_HEADER, tempDir, writeArchiveZip } from './archive-fixtures.ts';

let t: TestApp;
let root: string;
let zip: string;
let csv: string;

beforeAll(async () => {
  t = await makeApp({ simulate: false });
  root = tempDir();
  const text = KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv').join('\n');
  const a = writeArchiveZip(root, {
    market: 'spot',
    kind: 'klines',
    symbol: 'BTCUSDT',
    interval: '1h',
    date: '2023-03-24',
    csv: text,
  });
  zip = a.zip;
  csv = path.join(path.dirname(zip), a.csvName);
  writeFileSync(csv, text);
});
afterAll(() => t.close());

describe('a CSV unzipped beside its zip', () => {
  it('expandPaths reads the zip and leaves its CSV out, saying whose data it is', () => {
    const r = expandPaths([root]);
    expect(r.files).toEqual([zip]);
    expect(r.unzipped).toEqual([{ path: csv, zip }]);
    // named alone, the CSV is read
    expect(expandPaths([csv]).files).toEqual([csv]);
  });

  it('the import takes the folder once: one file, its rows, the dataset counting one file', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/datasets/import',
      payload: { paths: [root] },
      remoteAddress: '127.0.0.1',
    });
    expect(r.statusCode).toBe(200);
    const results = r.json().data.results as { file: string; status: string; rows: number }[];
    expect(results.map((x) => [x.file, x.status, x.rows])).toEqual([['BTCUSDT-1h-2023-03-24.zip', 'imported', 23]]);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/datasets', remoteAddress: '127.0.0.1' });
    const sets = list.json().data as { files: number }[];
    expect(sets.map((d) => d.files)).toEqual([1]);
  });
});
