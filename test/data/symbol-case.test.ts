// A symbol given for an import in lower case (`btcusdt`, as the trading routes take it) is its
// upper case, BTCUSDT: through the route's JSON `symbol`, an upload's `?symbol=` and `--symbol`.
// One holding anything but letters, digits or _ is still refused, naming what was given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const FILE = path.join(FIXTURES, 'klines', 'binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv');
const KEY = { market: 'spot', kind: 'klines', interval: '15m' };

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
});
afterAll(() => t.close());

const importJson = async (symbol: string) => {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/v1/datasets/import',
    payload: { paths: [FILE], symbol, ...KEY },
    remoteAddress: '127.0.0.1',
  });
  expect(r.statusCode).toBe(200);
  return r.json().data.results[0];
};

const datasets = async (): Promise<string[]> =>
  (await t.app.inject({ method: 'GET', url: '/api/v1/datasets' }))
    .json()
    .data.map((d: { symbol: string; rows: number }) => `${d.symbol} ${d.rows}`);

describe('a lower-case symbol', () => {
  it("the route's JSON symbol btcusdt imports into BTCUSDT, and an upload's ?symbol=btcusdt adds to the same dataset", async () => {
    const a = await importJson('btcusdt');
    expect(a.error).toBeNull();
    expect(a).toMatchObject({ ok: true, status: 'imported', rows: 672, added: 672, warnings: [] });
    expect(await datasets()).toEqual(['BTCUSDT 672']);

    const q = new URLSearchParams({ name: 'candles.csv', symbol: 'btcUSDT', ...KEY });
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/v1/datasets/import?${q}`,
      payload: readFileSync(FILE),
      headers: { 'content-type': 'text/csv' },
      remoteAddress: '127.0.0.1',
    });
    const b = r.json().data.results[0];
    expect(b.error).toBeNull();
    expect(b).toMatchObject({ ok: true, status: 'unchanged', dataset_id: a.dataset_id, added: 0 });
    expect(await datasets()).toEqual(['BTCUSDT 672']);
  });

  it('the same symbol as the file name says, in another case, is not said to contradict it', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/v1/datasets/import?${new URLSearchParams({ name: 'BTCUSDT-15m-2025-01-06.csv', symbol: 'btcusdt', market: 'spot' })}`,
      payload: readFileSync(FILE),
      headers: { 'content-type': 'text/csv' },
      remoteAddress: '127.0.0.1',
    });
    const res = r.json().data.results[0];
    expect(res.error).toBeNull();
    expect(res.warnings).toEqual([]);
  });

  it('a symbol with a character no symbol has is refused, naming it as given', async () => {
    const a = await importJson('btc-usdt');
    expect(a).toMatchObject({ ok: false, status: 'refused', dataset_id: null });
    expect(a.error).toBe(`${FILE}: symbol must be 2 to 40 capital letters, digits or _ (got "btc-usdt")`);
  });

  it('npm run data -- import --symbol btcusdt imports into BTCUSDT; --symbol btc-usdt is refused as given', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const dir = tempDir();
    const argv = ['import', FILE, '--data-dir', dir, '--market', 'spot', '--kind', 'klines', '--interval', '15m'];
    expect(
      await runDataCli(
        [...argv, '--symbol', 'btcusdt'],
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(0);
    expect(out[0]).toMatch(/^imported {2}.* -> dataset 1 \(spot BTCUSDT klines 15m\): 672 rows, 672 new/);
    expect(
      await runDataCli(
        [...argv, '--symbol', 'btc-usdt'],
        (l) => out.push(l),
        (l) => err.push(l),
      ),
    ).toBe(2);
    expect(err.join('\n')).toContain('--symbol must be 2 to 40 capital letters, digits or _ (got "btc-usdt")');
  });
});
