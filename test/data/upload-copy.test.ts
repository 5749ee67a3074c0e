// An uploaded file is copied for its import into the data folder's `uploads`, which the next start
// on the folder clears: a service killed (or crashed) while it imported an upload left its copy, up
// to 4 GB, in the OS temp folder for good (docs/data.md, Rules).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { fixtureRows, KLINES_HEADER, tempDir } from './archive-fixtures.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('the copy of an upload', () => {
  it("a copy a killed service left in the folder's uploads is removed at the next start", async () => {
    const dir = tempDir();
    const left = path.join(dir, 'uploads', 'perpdesk-upload-Ab12Cd');
    mkdirSync(left, { recursive: true });
    writeFileSync(path.join(left, 'BTCUSDT-aggTrades-2025-01-07.csv'), 'agg_trade_id,price\n');
    t = await makeApp({ dataDir: dir, simulate: false });
    expect(existsSync(left)).toBe(false);
  });

  it('is written under the data folder while it is imported, and removed once it is', async () => {
    const dir = tempDir();
    t = await makeApp({ dataDir: dir, simulate: false });
    const datasets = t.venue.datasets;
    const importFiles = datasets.importFiles.bind(datasets);
    const seen: string[] = [];
    datasets.importFiles = (paths, opts) => {
      seen.push(...paths);
      return importFiles(paths, opts);
    };
    const csv = KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv').join('\n');
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/datasets/import?name=BTCUSDT-1h-2023-03-24.csv&market=spot',
      payload: csv,
      headers: { 'content-type': 'text/csv' },
      remoteAddress: '127.0.0.1',
    });
    expect(r.json().data.results[0]).toMatchObject({ ok: true, status: 'imported', rows: 23 });
    expect(seen).toHaveLength(1);
    expect(path.relative(path.join(dir, 'uploads'), seen[0])).toMatch(
      /^perpdesk-upload-\w+\/BTCUSDT-1h-2023-03-24\.csv$/,
    );
    expect(readdirSync(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('a name holding a NUL is refused with 1001, nothing written (it was 5000 Internal error)', async () => {
    const dir = tempDir();
    t = await makeApp({ dataDir: dir, simulate: false });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/datasets/import?name=BTCUSDT-1h-2023-03-24%00.csv&market=spot',
      payload: KLINES_HEADER + '\n',
      headers: { 'content-type': 'text/csv' },
      remoteAddress: '127.0.0.1',
    });
    expect([r.statusCode, r.json()]).toEqual([
      400,
      {
        code: 1001,
        message: "Invalid query parameter 'name': must not hold a NUL character (%00), which no file name can hold",
        data: null,
      },
    ]);
    const uploads = path.join(dir, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    expect(t.venue.datasets.list()).toEqual([]);
  });
});
