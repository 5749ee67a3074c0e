// A zip whose entry's bytes do not have the CRC-32 its headers record is damaged: yauzl does not
// check that, so file-source.ts does while streaming, and the file is refused whole (by the CLI,
// a folder import and the upload route alike). Built from the real 1h fixture, one byte altered.
// Also: the one CSV of a zip that macOS's Compress made (an AppleDouble entry beside it).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { byDay, fixtureRows, KLINES_HEADER, tempDir } from './archive-fixtures.ts';

const NAME = 'BTCUSDT-1h-2021-05-17';
const rows = byDay(fixtureRows('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv')).get('2021-05-17')!;
const csv = KLINES_HEADER + '\n' + rows.join('\n') + '\n';

/** The day's zip (stored when `level` is 0, so its CSV bytes lie in it as they are), with `damage` done to its bytes. */
function zipOf(level: 0 | 6, damage: (zip: Uint8Array) => void = () => {}): Buffer {
  const zip = zipSync({ [`${NAME}.csv`]: strToU8(csv) }, { level, mtime: new Date('2025-01-01T00:00:00Z') });
  damage(zip);
  return Buffer.from(zip);
}

/** Changes the last digit of the first row's trade count (its 9th column), as a bad disk or copy could. */
function oneDigit(zip: Uint8Array): void {
  const row = rows[0];
  const at = Buffer.from(zip).indexOf(row, 0, 'latin1');
  expect(at).toBeGreaterThan(0);
  const cols = row.split(',');
  const end = at + cols.slice(0, 9).join(',').length - 1; // the count's last digit
  zip[end] = zip[end] === 0x39 ? 0x38 : zip[end] + 1;
}

function writeZip(bytes: Buffer): string {
  const dir = path.join(tempDir(), 'data/spot/daily/klines/BTCUSDT/1h');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${NAME}.zip`);
  writeFileSync(file, bytes);
  return file;
}

async function run(...argv: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await runDataCli(
    argv,
    (l) => out.push(l),
    () => {},
  );
  return { code, out };
}

describe('a zip with a wrong CRC-32', () => {
  it('the intact zip imports (the test data is good)', async () => {
    const r = await run('import', writeZip(zipOf(0)), '--data-dir', tempDir());
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^imported {2}BTCUSDT-1h-2021-05-17\.zip -> dataset 1 .*: 24 rows, 24 new/);
  });

  it('a stored zip with one digit changed is refused, by the CLI and in a folder, and nothing is kept', async () => {
    const file = writeZip(zipOf(0, oneDigit));
    const dataDir = tempDir();
    for (const target of [file, path.dirname(file)]) {
      const r = await run('import', target, '--data-dir', dataDir);
      expect(r.code).toBe(1);
      expect(r.out[0]).toMatch(
        /^refused {3}BTCUSDT-1h-2021-05-17\.zip is damaged: CRC-32 mismatch in BTCUSDT-1h-2021-05-17\.csv \(its data has [0-9a-f]{8}, the zip records [0-9a-f]{8}\)$/,
      );
    }
    expect((await run('list', '--data-dir', dataDir)).out).toEqual([`No datasets in ${dataDir}.`]);
  });

  it('a damaged byte that breaks a row is said as the damage, not as the row', async () => {
    // a day of 1m klines (200 KB, read in several chunks), a letter in its first row's open time:
    // the row check meets it long before the entry's end, where its CRC-32 is known
    const day = byDay(fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')).get('2021-05-17')!;
    const zip = zipSync({ 'BTCUSDT-1m-2021-05-17.csv': strToU8(day.join('\n')) }, { level: 0 });
    zip[Buffer.from(zip).indexOf(day[0], 0, 'latin1') + 3] = 0x78;
    const dir = path.join(tempDir(), 'data/spot/daily/klines/BTCUSDT/1m');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'BTCUSDT-1m-2021-05-17.zip'), zip);
    const r = await run('import', dir, '--data-dir', tempDir());
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(
      /^refused {3}BTCUSDT-1m-2021-05-17\.zip is damaged: CRC-32 mismatch in .*; nothing of this file was imported$/,
    );
  });

  it('a deflated zip damaged inside is said to be damaged, not a bad row', async () => {
    const deflated = zipOf(6, (zip) => {
      // 100 bytes in the middle of the compressed data
      for (let i = 400; i < 500; i++) zip[i] ^= 0x5a;
    });
    const r = await run('import', writeZip(deflated), '--data-dir', tempDir());
    expect(r.code).toBe(1);
    expect(r.out[0]).toMatch(/^refused {3}BTCUSDT-1h-2021-05-17\.zip is damaged: its data does not inflate \(/);
    expect(r.out[0]).not.toMatch(/ row \d+:/);
  });

  it("a zip made by macOS's Compress (its __MACOSX/._ entry beside the CSV) reads its one CSV", async () => {
    // the AppleDouble entry holds the CSV's resource fork, a few binary bytes, not rows
    const zip = zipSync(
      {
        [`${NAME}.csv`]: strToU8(csv),
        [`__MACOSX/._${NAME}.csv`]: new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0]),
      },
      { level: 6, mtime: new Date('2025-01-01T00:00:00Z') },
    );
    const r = await run('import', writeZip(Buffer.from(zip)), '--data-dir', tempDir());
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^imported {2}BTCUSDT-1h-2021-05-17\.zip -> dataset 1 .*: 24 rows, 24 new/);
    // two CSVs of rows are still two
    const two = zipSync({ [`${NAME}.csv`]: strToU8(csv), [`copy/${NAME}.csv`]: strToU8(csv) });
    const refused = await run('import', writeZip(Buffer.from(two)), '--data-dir', tempDir());
    expect(refused.out[0]).toBe(
      'refused   BTCUSDT-1h-2021-05-17.zip holds 2 CSV files; an archive zip holds exactly one',
    );
  });

  describe('uploaded', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeApp({ simulate: false });
    });
    afterAll(() => t.close());

    it('without a checksum, it is refused and leaves no dataset', async () => {
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/v1/datasets/import?name=${NAME}.zip&market=spot`,
        payload: zipOf(0, oneDigit),
        headers: { 'content-type': 'application/zip' },
      });
      expect(r.json().data.results[0]).toMatchObject({ ok: false, status: 'refused', dataset_id: null });
      expect(r.json().data.results[0].error).toMatch(/^BTCUSDT-1h-2021-05-17\.zip is damaged: CRC-32 mismatch/);
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/datasets' });
      expect(list.json().data).toEqual([]);
      // the intact bytes go in
      const good = await t.app.inject({
        method: 'POST',
        url: `/api/v1/datasets/import?name=${NAME}.zip&market=spot`,
        payload: zipOf(0),
        headers: { 'content-type': 'application/zip' },
      });
      expect(good.json().data.results[0]).toMatchObject({ ok: true, rows: 24 });
    });
  });
});
