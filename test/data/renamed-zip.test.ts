// A zip renamed as another pair's (BTCUSDT-1m-2021-05-16.zip copied to ETHUSDT-1m-2021-05-16.zip)
// still holds BTCUSDT-1m-2021-05-16.csv, the name the archive gave it: it is refused, not stored
// as ETHUSDT's candles, by the CLI and the upload route alike; an option that names the symbol
// takes it, said as a warning (docs/data.md, Rules). Real 1m klines, a day of the fixture.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';

const root = writeBtcusdtDays(tempDir());
const day = path.join(root, 'spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-16.zip');

/** The day's zip copied under `name`, in the archive's folders of that name's symbol and interval. */
function renamed(name: string): string {
  const [symbol, interval] = name.split('-');
  const dir = path.join(tempDir(), 'spot/daily/klines', symbol, interval);
  mkdirSync(dir, { recursive: true });
  copyFileSync(day, path.join(dir, name));
  return path.join(dir, name);
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

describe('a renamed zip', () => {
  it("is refused as another pair's data, leaving no dataset; --symbol takes it with a warning", async () => {
    const dataDir = tempDir();
    const eth = renamed('ETHUSDT-1m-2021-05-16.zip');
    const r = await run('import', eth, '--data-dir', dataDir);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([
      "refused   ETHUSDT-1m-2021-05-16.zip holds BTCUSDT-1m-2021-05-16.csv, a file of symbol BTCUSDT, not ETHUSDT as the zip's path says (a renamed zip, or another pair's data); nothing of this file was imported; give --symbol to import it as either",
      `0 of 1 file in ${dataDir}; 1 refused.`,
    ]);
    expect((await run('list', '--data-dir', dataDir)).out).toEqual([`No datasets in ${dataDir}.`]);

    const taken = await run('import', eth, '--symbol', 'ETHUSDT', '--data-dir', dataDir);
    expect(taken.code).toBe(0);
    expect(taken.out.slice(0, 2)).toEqual([
      'imported  ETHUSDT-1m-2021-05-16.zip -> dataset 1 (spot ETHUSDT klines 1m): 1440 rows, 1440 new, 0 gaps, checksum none beside the file',
      'warning   ETHUSDT-1m-2021-05-16.zip: the zip holds BTCUSDT-1m-2021-05-16.csv, which says symbol BTCUSDT; --symbol ETHUSDT was taken',
    ]);
  });

  it('of another interval is refused naming it; the true names import', async () => {
    const dataDir = tempDir();
    const r = await run('import', renamed('BTCUSDT-1h-2021-05-16.zip'), '--data-dir', dataDir);
    expect(r.code).toBe(1);
    expect(r.out[0]).toBe(
      "refused   BTCUSDT-1h-2021-05-16.zip holds BTCUSDT-1m-2021-05-16.csv, a file of interval 1m, not 1h as the zip's path says (a renamed zip, or another interval's data); nothing of this file was imported; give --interval to import it as either",
    );
    const good = await run('import', root, '--data-dir', dataDir);
    expect(good.code).toBe(0);
    expect(good.out.at(-1)).toBe(`3 of 3 files in ${dataDir}.`);
  });

  describe('uploaded', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeApp({ simulate: false });
    });
    afterAll(() => t.close());

    it('under a name of another pair is refused, naming the field of the request', async () => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/v1/datasets/import?name=ETHUSDT-1m-2021-05-16.zip&market=spot',
        payload: readFileSync(day),
        headers: { 'content-type': 'application/zip' },
      });
      expect(r.json().data.results[0]).toMatchObject({
        ok: false,
        status: 'refused',
        dataset_id: null,
        error:
          "ETHUSDT-1m-2021-05-16.zip holds BTCUSDT-1m-2021-05-16.csv, a file of symbol BTCUSDT, not ETHUSDT as the zip's path says (a renamed zip, or another pair's data); nothing of this file was imported; give 'symbol' with the request",
      });
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/datasets' });
      expect(list.json().data).toEqual([]);
    });
  });
});
