// The dataset routes on the real application (inject): catalogue, candles in /fapi/v1/klines
// form, trades, import by path and by upload (loopback only), specs, delete, OpenAPI.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';
import { byDay, FIXTURES, fixtureRows, KLINES_HEADER, sha256, tempDir, writeArchiveZip } from './archive-fixtures.ts';

let t: TestApp;
let root: string;

beforeAll(async () => {
  t = await makeApp({ simulate: false });
  root = tempDir();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as string, headers, remoteAddress: ip });

describe('import by path, then read', () => {
  let id: number;
  const rows1m = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

  beforeAll(async () => {
    for (const [date, rows] of byDay(rows1m)) {
      writeArchiveZip(root, {
        market: 'spot',
        kind: 'klines',
        symbol: 'BTCUSDT',
        interval: '1m',
        date,
        csv: KLINES_HEADER + '\n' + rows.join('\n'),
      });
    }
    // the whole archive tree at once: folders are searched
    const r = await post('/api/v1/datasets/import', { paths: [root] });
    expect(r.statusCode).toBe(200);
    const results = r.json().data.results;
    expect(results.map((x: { status: string; checksum: string }) => `${x.status}/${x.checksum}`)).toEqual([
      'imported/verified',
      'imported/verified',
      'imported/verified',
    ]);
    id = results[0].dataset_id;
  });

  it('GET /api/v1/datasets lists it with its span, rows, gaps and specs', async () => {
    const r = await getJson(t.app, '/api/v1/datasets');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        id,
        market: 'spot',
        symbol: 'BTCUSDT',
        kind: 'klines',
        interval: '1m',
        first_time: Date.parse('2021-05-16T00:00:00Z'),
        last_time: Date.parse('2021-05-18T23:59:00Z'),
        rows: 4320,
        files: 3,
        gaps: [],
        specs: expect.objectContaining({ tick_size: '0.01', step_size: '0.000001', source: 'inferred' }),
        first_snapshot_time: null,
      },
    ]);
    expect((await getJson(t.app, `/api/v1/datasets/${id}`)).body.data.rows).toBe(4320);
  });

  it('klines answer like /fapi/v1/klines: newest first, 12 elements, aggregated exactly', async () => {
    const h1 = fixtureRows('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv').map((l) => l.split(','));
    const r = await getJson(t.app, `/api/v1/datasets/${id}/klines?interval=1h&limit=3`);
    expect(r.status).toBe(200);
    const want = h1
      .slice(-3)
      .reverse()
      .map((f) => [Number(f[0]), Number(f[6]), f[1], f[2], f[3], f[4], f[5], f[7], Number(f[8]), f[9], f[10], true]);
    expect(r.body).toEqual(want);
    const range = await getJson(
      t.app,
      `/api/v1/datasets/${id}/klines?interval=1d&start_time=0&end_time=${Date.parse('2021-05-17T00:00:00Z')}`,
    );
    expect(range.body.map((k: unknown[]) => k[0])).toEqual([
      Date.parse('2021-05-17T00:00:00Z'),
      Date.parse('2021-05-16T00:00:00Z'),
    ]);
    // candles opening in [start_time, end_time], at the dataset's interval and aggregated: windows
    // that follow each other ([a, b], [b + 1, c]) share no candle
    for (const [interval, period] of [
      ['1m', 60_000],
      ['1h', 3_600_000],
    ] as const) {
      const step = 1.5 * period; // every other boundary inside a candle
      const seen: number[] = [];
      const a0 = Date.parse('2021-05-16T01:00:00Z');
      for (let a = a0; a < a0 + 6 * step; a += step) {
        const w = await getJson(
          t.app,
          `/api/v1/datasets/${id}/klines?interval=${interval}&start_time=${a}&end_time=${a + step - 1}`,
        );
        seen.push(...w.body.map((k: number[]) => k[0]).reverse());
      }
      expect(seen, interval).toEqual(Array.from({ length: 9 }, (_, i) => a0 + i * period));
    }
  });

  it('klines errors follow the klines codes (HTTP 200)', async () => {
    const cases: [string, number][] = [
      [`/api/v1/datasets/${id}/klines?interval=7m`, 6001],
      [`/api/v1/datasets/${id}/klines`, 6006],
      [`/api/v1/datasets/${id}/klines?interval=1h&limit=0`, 6004],
      [`/api/v1/datasets/${id}/klines?interval=1h&start_time=1`, 6003],
      [`/api/v1/datasets/${id}/klines?interval=1h&start_time=1&end_time=2&limit=5`, 6003],
      [`/api/v1/datasets/999/klines?interval=1h`, 6002],
      [`/api/v1/datasets/${id}/klines?interval=1s`, 6000],
      [`/api/v1/datasets/${id}/klines?interval=1m&start_time=0&end_time=${Date.parse('2021-05-19T00:00:00Z')}`, 6000],
    ];
    for (const [url, code] of cases) {
      const r = await getJson(t.app, url);
      expect([url, r.status, r.body.code]).toEqual([url, 200, code]);
    }
  });

  it('import, delete and specs answer loopback callers only', async () => {
    expect((await post('/api/v1/datasets/import', { paths: [root] }, {}, '10.0.0.7')).json().code).toBe(2102);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/datasets/${id}`, remoteAddress: '10.0.0.7' });
    expect([del.statusCode, del.json().code]).toEqual([403, 2102]);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/datasets/${id}/specs`,
      payload: { tick_size: '0.01', step_size: '0.00001' },
      remoteAddress: '10.0.0.7',
    });
    expect(put.statusCode).toBe(403);
  });

  it("a request's market against the path's is taken and said in the result's warnings, in the route's words", async () => {
    const dir = tempDir();
    writeArchiveZip(dir, {
      market: 'spot',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date: '2021-05-16',
      csv: rows1m.slice(0, 5).join('\n'),
    });
    const r = await post('/api/v1/datasets/import', { paths: [dir], market: 'um' });
    const [res] = r.json().data.results;
    expect(res).toMatchObject({ ok: true, status: 'imported' });
    expect(res.warnings).toEqual(["the path says market spot; 'market' um was taken"]);
  });

  it('re-importing the tree changes nothing', async () => {
    const r = await post('/api/v1/datasets/import', { paths: [root] });
    expect(r.json().data.results.map((x: { status: string }) => x.status)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
  });

  it('specs are editable and the record says so', async () => {
    const r = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/datasets/${id}/specs`,
      payload: { tick_size: '0.01', step_size: '0.00001' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.specs).toMatchObject({ tick_size: '0.01', step_size: '0.00001', source: 'edited' });
  });

  it('specs the venue could not list (tick and step decimals above 8 together) are refused, nothing changed', async () => {
    // (they were taken, and a replay of the pair then failed to start with 5000 Internal error)
    const r = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/datasets/${id}/specs`,
      payload: { tick_size: '0.00000001', step_size: '0.00000001' },
    });
    expect([r.statusCode, r.json().code]).toEqual([400, 1001]);
    expect(r.json().message).toBe(
      'tick_size 0.00000001 and step_size 0.00000001 have 16 decimals together; money is kept to 8 decimals, ' +
        'so the two may have at most 8 together (tick 0.0001 with step 0.0001, say)',
    );
    const now = await t.app.inject({ method: 'GET', url: `/api/v1/datasets/${id}` });
    expect(now.json().data.specs).toMatchObject({ tick_size: '0.01', step_size: '0.00001', source: 'edited' });
  });

  it("a tick above the dataset's first price is refused naming it, nothing changed (it was taken)", async () => {
    // until 2026-12-08 it was taken, and only a replay of the pair refused it, at its start
    const put = (tick_size: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/datasets/${id}/specs`,
        payload: { tick_size, step_size: '0.00001' },
      });
    const r = await put('100000');
    expect([r.statusCode, r.json().code]).toEqual([400, 1001]);
    expect(r.json().message).toMatch(
      /^tick_size 100000 is above the dataset's first price \(46762\.99(0*)\), which is no whole number of ticks \(it rounds to 0\)/,
    );
    const now = await t.app.inject({ method: 'GET', url: `/api/v1/datasets/${id}` });
    expect(now.json().data.specs).toMatchObject({ tick_size: '0.01', step_size: '0.00001', source: 'edited' });
    // the edge, as a replay rounds (half up): 46762.99 is one tick of 93525.98, none of 93525.99
    expect((await put('93525.99')).json().code).toBe(1001);
    expect((await put('93525.98')).json().code).toBe(0);
    expect((await put('0.01')).json().code).toBe(0);
  });

  it('a file whose name does not say its dataset is refused naming the request fields, not the CLI options', async () => {
    const dir = tempDir();
    const file = `${dir}/my-candles.csv`;
    writeFileSync(file, `${KLINES_HEADER}\n`);
    const r = await post('/api/v1/datasets/import', { paths: [file] });
    const [res] = r.json().data.results;
    expect(res.status).toBe('refused');
    expect(res.error).toBe(
      `${file}: the file name and folders do not say its market, symbol, kind; give 'market' (spot, um or cm), 'symbol', 'kind' with the request`,
    );
    expect(res.error).not.toMatch(/--/);
  });

  it('a bad path is a 400 with the reason', async () => {
    const r = await post('/api/v1/datasets/import', { paths: ['/no/such/place'] });
    expect([r.statusCode, r.json().code]).toEqual([400, 1001]);
    expect(r.json().message).toMatch(/no such file or folder/);
  });
});

describe('first_snapshot_time of a depth dataset', () => {
  it("the recorder's depth: its first REST snapshot's time, null for a diff stream recorded alone (a replay refuses it)", async () => {
    const spot = path.join(FIXTURES, 'depth/binance_spot_TRXUSDT_2025-03-04_lasota');
    const um = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');
    for (const [dir, market] of [
      [spot, 'spot'],
      [um, 'um'],
    ])
      expect((await post('/api/v1/datasets/import', { paths: [dir], market, symbol: 'TRXUSDT' })).statusCode).toBe(200);
    const list = (await getJson(t.app, '/api/v1/datasets')).body.data as {
      id: number;
      market: string;
      symbol: string;
      kind: string;
      first_snapshot_time: number | null;
    }[];
    const trx = list.filter((d) => d.symbol === 'TRXUSDT').map((d) => [d.market, d.kind, d.first_snapshot_time]);
    expect(trx).toEqual([
      ['spot', 'depth', null],
      ['spot', 'trades', null],
      ['um', 'depth', Date.parse('2025-04-14T00:00:00.061Z')],
      ['um', 'trades', null],
    ]);
    const umDepth = list.find((d) => d.symbol === 'TRXUSDT' && d.market === 'um' && d.kind === 'depth')!;
    const one = await getJson(t.app, `/api/v1/datasets/${umDepth.id}`);
    expect(one.body.data.first_snapshot_time).toBe(Date.parse('2025-04-14T00:00:00.061Z'));
  });

  it('is looked up once per import, not on every list (a diff stream alone is read to its end)', async () => {
    const store = t.venue.datasets.store;
    const read = store.firstSnapshotTime.bind(store);
    const asked: number[] = [];
    store.firstSnapshotTime = (id: number) => {
      asked.push(id);
      return read(id);
    };
    try {
      for (let i = 0; i < 3; i++) expect((await getJson(t.app, '/api/v1/datasets')).status).toBe(200);
      expect(asked).toEqual([]); // the lists of the test before read both depth datasets already
    } finally {
      store.firstSnapshotTime = read;
    }
  });
});

describe('upload', () => {
  it("a recorder's JSON lines file uploads as the Data dialog sends it (it was refused: 'name' must end in .zip or .csv)", async () => {
    const bytes = readFileSync(
      path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed/rest_depth_snapshots.jsonl'),
    );
    const r = await post(
      '/api/v1/datasets/import?name=rest_depth_snapshots.jsonl&market=um&symbol=SUSHIUSDT&kind=depth',
      bytes,
      {
        'content-type': 'application/octet-stream',
      },
    );
    expect(r.statusCode).toBe(200);
    expect(r.json().data.results[0]).toMatchObject({
      ok: true,
      status: 'imported',
      rows: 1,
      file: 'rest_depth_snapshots.jsonl',
    });
  });

  it('a refused upload names the file as the client named it, not the temporary copy the service made', async () => {
    const r = await post('/api/v1/datasets/import?name=prices.csv', 'open_time,open\n', { 'content-type': 'text/csv' });
    expect(r.statusCode).toBe(200);
    const res = r.json().data.results[0];
    expect(res).toMatchObject({ ok: false, status: 'refused', file: 'prices.csv' });
    expect(res.error).toBe(
      "prices.csv: the file name and folders do not say its market, symbol, kind; give 'market' (spot, um or cm), 'symbol', 'kind' with the request",
    );
  });

  it('an uploaded zip with its name and checksum is imported; a wrong checksum refuses it; trades read back', async () => {
    const csv =
      'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' +
      '100,94000.10,0.010,500,501,1736121600001,true\n101,94000.20,0.005,502,502,1736121600002,false\n102,93999.90,1.000,503,510,1736121600050,true\n';
    const z = writeArchiveZip(tempDir(), {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv,
      checksum: false,
    });
    const bytes = readFileSync(z.zip);
    const bad = await post(
      `/api/v1/datasets/import?name=BTCUSDT-aggTrades-2025-01-06.zip&market=um&checksum=${'0'.repeat(64)}`,
      bytes,
      { 'content-type': 'application/zip' },
    );
    expect(bad.statusCode).toBe(200);
    expect(bad.json().data.results[0]).toMatchObject({ ok: false, status: 'refused' });
    // named as the client sent it: the parameter, not a .CHECKSUM file it never had
    expect(bad.json().data.results[0].error).toMatch(
      /^BTCUSDT-aggTrades-2025-01-06\.zip does not match the 'checksum' parameter \(SHA-256 [0-9a-f]{64}, expected 0{64}\)/,
    );
    const good = await post(
      `/api/v1/datasets/import?name=BTCUSDT-aggTrades-2025-01-06.zip&market=um&checksum=${sha256(bytes)}`,
      bytes,
      { 'content-type': 'application/zip' },
    );
    const res = good.json().data.results[0];
    expect(res).toMatchObject({ ok: true, status: 'imported', rows: 3, checksum: 'verified' });
    const trades = await getJson(t.app, `/api/v1/datasets/${res.dataset_id}/trades?start_time=1736121600002&limit=5`);
    expect(trades.body.data).toEqual([
      {
        id: 101,
        price: '94000.20',
        qty: '0.005',
        first_trade_id: 502,
        last_trade_id: 502,
        time: 1736121600002,
        time_us: 1736121600002000,
        is_buyer_maker: false,
      },
      {
        id: 102,
        price: '93999.90',
        qty: '1.000',
        first_trade_id: 503,
        last_trade_id: 510,
        time: 1736121600050,
        time_us: 1736121600050000,
        is_buyer_maker: true,
      },
    ]);
    const ds = await getJson(t.app, `/api/v1/datasets/${res.dataset_id}`);
    expect(ds.body.data.specs).toMatchObject({ tick_size: '0.1', step_size: '0.001', source: 'catalogue' });
    expect((await getJson(t.app, `/api/v1/datasets/${res.dataset_id}/klines?interval=1m`)).body.code).toBe(6000);
    expect((await getJson(t.app, `/api/v1/datasets/999/trades`)).body.code).toBe(1106);
  });

  it('an upload without a name is refused', async () => {
    const r = await post('/api/v1/datasets/import', Buffer.from('x'), { 'content-type': 'application/zip' });
    expect([r.statusCode, r.json().code]).toEqual([400, 1002]);
  });

  it('a name of more bytes than a file name holds is refused with 1001, not written (it was 5000: ENAMETOOLONG)', async () => {
    const csv = KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv').join('\n');
    const q = (name: string) =>
      `/api/v1/datasets/import?name=${encodeURIComponent(name)}&market=spot&symbol=NAMEUSDT&interval=1h`;
    // 120 characters, within the 200 the schema takes, but 3 bytes each: 364 bytes
    const long = `${'日'.repeat(120)}.csv`;
    const r = await post(q(long), csv, { 'content-type': 'text/csv' });
    expect([r.statusCode, r.json().code, r.json().message]).toEqual([
      400,
      1001,
      "Invalid query parameter 'name': must be at most 246 bytes in UTF-8, what a file name can hold on disk (got 364); rename the file",
    ]);
    // 246 bytes: written and imported, named as sent
    const most = `${'日'.repeat(80)}ab.csv`;
    const res = (await post(q(most), csv, { 'content-type': 'text/csv' })).json().data.results[0];
    expect(res).toMatchObject({ ok: true, status: 'imported', rows: 23, file: most });
  });

  it('delete removes the dataset', async () => {
    const list = (await getJson(t.app, '/api/v1/datasets')).body.data as { id: number }[];
    const r = await t.app.inject({ method: 'DELETE', url: `/api/v1/datasets/${list[0].id}` });
    expect(r.json()).toEqual({ code: 0, message: expect.any(String), data: { id: list[0].id } });
    expect((await getJson(t.app, '/api/v1/datasets')).body.data).toHaveLength(list.length - 1);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/datasets/${list[0].id}` })).json().code).toBe(1106);
  });
});

describe('strict input (docs/api-input-rules.md)', () => {
  const code = async (r: Promise<{ statusCode: number; json: () => { code: number; message: string } }>) => {
    const a = await r;
    return [a.statusCode, a.json().code, a.json().message];
  };
  const send = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload: payload as string, headers, remoteAddress: '127.0.0.1' });

  it('a JSON import body has its declared JSON types, no unknown field, valid enums', async () => {
    expect(await code(send('POST', '/api/v1/datasets/import', { paths: [root], symbol: null }))).toEqual([
      400,
      1001,
      expect.stringContaining("'symbol'"),
    ]);
    expect(await code(send('POST', '/api/v1/datasets/import', { paths: root }))).toEqual([
      400,
      1001,
      expect.stringContaining("'paths'"),
    ]);
    expect(await code(send('POST', '/api/v1/datasets/import', { paths: [root], market: 'usdm' }))).toEqual([
      400,
      1001,
      expect.stringContaining('market'),
    ]);
    expect(await code(send('POST', '/api/v1/datasets/import', { paths: [root], extra: 1 }))).toEqual([
      400,
      1003,
      expect.stringContaining('extra'),
    ]);
    expect(await code(send('POST', '/api/v1/datasets/import', {}))).toEqual([
      400,
      1002,
      expect.stringContaining('paths'),
    ]);
  });

  it('an upload is the raw body: its query is checked, its bytes are not read as JSON', async () => {
    const csv = { 'content-type': 'text/csv' };
    expect(await code(send('POST', '/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.csv&foo=1', 'x', csv))).toEqual([
      400,
      1003,
      expect.stringContaining('foo'),
    ]);
    expect(
      await code(send('POST', '/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.csv&checksum=abc', 'x', csv)),
    ).toEqual([400, 1001, expect.stringContaining('checksum')]);
    // a JSON-looking upload is still bytes of a CSV file: refused by its rows, not by the body rules
    const r = await send('POST', '/api/v1/datasets/import?name=BTCUSDT-1m-2025-01-06.csv&market=spot', '{"paths": 1}', {
      'content-type': 'application/octet-stream',
    });
    expect([r.statusCode, r.json().data.results[0].status]).toEqual([200, 'refused']);
  });

  it('path ids and query numbers take the strict integer syntax', async () => {
    expect(await code(send('GET', '/api/v1/datasets/Infinity'))).toEqual([400, 1001, expect.stringContaining("'id'")]);
    expect(await code(send('GET', `/api/v1/datasets/${2 ** 53}`))).toEqual([
      400,
      1001,
      expect.stringContaining("'id'"),
    ]);
    expect(await code(send('GET', '/api/v1/datasets/1?x=1'))).toEqual([400, 1003, expect.stringContaining("'x'")]);
    expect(await code(send('GET', '/api/v1/datasets/1/trades?limit=1e1'))).toEqual([
      400,
      1001,
      expect.stringContaining("'limit'"),
    ]);
    // the klines style: HTTP 200 with the klines codes
    expect(await code(send('GET', '/api/v1/datasets/1/klines?interval=1m&limit=1e1'))).toEqual([
      200,
      6004,
      expect.any(String),
    ]);
    expect(await code(send('GET', '/api/v1/datasets/1/klines?interval=1m&x=1'))).toEqual([
      200,
      6000,
      expect.stringContaining("'x'"),
    ]);
  });

  it('a specs body is strict JSON: decimal strings, no numbers, no unknown field', async () => {
    expect(await code(send('PUT', '/api/v1/datasets/1/specs', { tick_size: 0.01, step_size: '0.001' }))).toEqual([
      400,
      1001,
      expect.stringContaining("'tick_size'"),
    ]);
    expect(await code(send('PUT', '/api/v1/datasets/1/specs', { tick_size: '1e-2', step_size: '0.001' }))).toEqual([
      400,
      1001,
      expect.stringContaining('tick_size'),
    ]);
    expect(
      await code(send('PUT', '/api/v1/datasets/1/specs', { tick_size: '0.01', step_size: '0.001', tiers: [] })),
    ).toEqual([400, 1003, expect.stringContaining('tiers')]);
    expect(await code(send('PUT', '/api/v1/datasets/1/specs', { tick_size: '0.00', step_size: '0.001' }))).toEqual([
      400,
      1001,
      expect.stringContaining('greater than 0'),
    ]);
  });
});

it('the OpenAPI document lists the dataset routes', async () => {
  const doc = (await getJson(t.app, '/openapi.json')).body;
  for (const p of [
    '/api/v1/datasets',
    '/api/v1/datasets/{id}',
    '/api/v1/datasets/{id}/klines',
    '/api/v1/datasets/{id}/trades',
    '/api/v1/datasets/import',
    '/api/v1/datasets/{id}/specs',
  ]) {
    expect(doc.paths[p], p).toBeDefined();
  }
  expect(Object.keys(doc.paths['/api/v1/datasets/import'].post.requestBody.content)).toContain('application/zip');
  expect(doc.paths['/api/v1/datasets/{id}'].delete).toBeDefined();
});
