// The RestClient methods of the routes beside trading, against a real service (listening, on a
// data folder of its own, the SDK over real fetch): one pair's general record, the
// insurance fund, the admin account route, the datasets (import, upload, catalogue, candles,
// trades, specs, delete) and the sweep results (list, one, CSV, one job, the example), each answered as
// the service answers it, and refusals as PerpdeskApiError.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { sweepResults } from '../../../src-main/sweep/reader.ts';
import { coordinatorHere } from '../../../src-main/sweep/coordinator.ts';
import type { JobResult, SweepJob } from '../../../src-main/sweep/job.ts';
import type { SweepSpec } from '../../../src-main/sweep/ports.ts';
import { SqliteSweepStore } from '../../../src-main/sweep/sqlite-store.ts';
import { Errors } from '../../../src-shared/errors.ts';
import { PerpdeskApiError, RestClient } from '../../../src-shared/sdk/index.ts';
import {
  fixtureRows,
  KLINES_HEADER,
  sha256,
  tempDir,
  writeArchiveZip,
  writeBtcusdtDays,
} from '../../data/archive-fixtures.ts';
import { DAY, JAN6, testMetrics } from '../../sweep/fixture.ts';

let svc: ServiceHandle;
let api: RestClient;

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof PerpdeskApiError ? e.code : e),
  );

beforeAll(async () => {
  const dir = tempDir('perpdesk-sdk-routes-');
  svc = await startService({ dataDir: dir, simulate: false, rateLimit: false, sweeps: sweepResults });
  api = new RestClient({ baseUrl: svc.url });
  // a sweep of two jobs, one with a result, as `npm run sweep` writes it
  const store = new SqliteSweepStore(dir);
  const job = (index: number): SweepJob =>
    ({
      id: `swS:${index}`,
      sweepId: 'swS',
      index,
      start: JAN6,
      until: JAN6 + DAY,
      params: { fast: 3 + index },
    }) as unknown as SweepJob;
  const spec = {
    bot: 'node bot.ts',
    replay: 'BTCUSDT@2025-01-06',
    split: 'day',
    symbols: ['BTCUSDT'],
    start: JAN6,
    until: JAN6 + DAY,
    sets: [{ fast: 3 }, { fast: 4 }],
    template: {},
  } as unknown as SweepSpec;
  store.createSweep('swS', spec, [job(0), job(1)], coordinatorHere(), Date.now());
  const result: JobResult = {
    jobId: 'swS:0',
    status: 'ok',
    reason: 'the replay reached its end',
    endedBy: 'replay',
    exitCode: 0,
    signal: null,
    digest: 'd'.repeat(64),
    metrics: testMetrics(0.01, [0.01]),
    equity: [[JAN6, 10_000]],
    outputTail: ['bot: done'],
    firstRequestMs: 1,
    wallMs: 900,
    startMs: 1,
    botMs: 1,
    replayTime: JAN6,
    finished: true,
  } as JobResult;
  store.storeResult('swS', 0, result, 2000);
  store.close();
});
afterAll(async () => {
  await svc?.close();
});

describe('RestClient: market data and administration beside trading', () => {
  it('one pair (generalSymbol), the insurance fund, and a new account (createAccount)', async () => {
    const listed = (await api.generalSymbols()).find((x) => x.symbol === 'BTCUSDT');
    expect(await api.generalSymbol('BTCUSDT')).toEqual(listed);
    expect(await refusal(api.generalSymbol('NOPEUSDT'))).toBe(1101);
    const fund = await api.insuranceBalance();
    expect(fund).toMatchObject({ asset: 'USDT', balance: expect.stringMatching(/^\d+\.\d{8}$/) });
    expect(fund.symbols).toContain('BTCUSDT');
    const made = await api.createAccount({ balance: '2500', position_mode: 'one_way' });
    expect(made).toMatchObject({ balance: '2500.00000000', position_mode: 'one_way' });
    const bot = new RestClient({ baseUrl: svc.url, apiKey: made.api_key, apiSecret: made.api_secret });
    expect(await bot.account()).toMatchObject({ user_id: made.user_id, wallet_balance: '2500.00000000' });
    expect((await api.createAccount({})).balance).toBe('10000.00000000');
  });
});

describe('RestClient: signing over real fetch', () => {
  it("signs a query value holding ' as fetch sends it (%27): it was refused 2004, signature does not match", async () => {
    const made = await api.createAccount({});
    const signed = new RestClient({ baseUrl: svc.url, apiKey: made.api_key, apiSecret: made.api_secret });
    // the route's own refusal of the value, not the signature's
    expect(await refusal(signed.getOrder('BTCUSDT', { clientOrderId: "it's" }))).toBe(Errors.INVALID_PARAMETER.code);
    expect(await refusal(signed.getOrder('BTCUSDT', { clientOrderId: 'never-placed' }))).toBe(
      Errors.ORDER_NOT_FOUND.code,
    );
  });
});

describe('RestClient.datasets', () => {
  it('imports by path, lists, reads candles and trades, edits specs, deletes', async () => {
    const root = tempDir();
    writeBtcusdtDays(root);
    writeArchiveZip(root, {
      market: 'um',
      kind: 'aggTrades',
      symbol: 'BTCUSDT',
      date: '2025-01-06',
      csv:
        'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' +
        '100,94000.10,0.010,500,501,1736121600001,true\n101,94000.20,0.005,502,502,1736121600002,false\n',
    });
    const { results } = await api.datasets.import({ paths: [root] });
    expect(results.every((r) => r.ok)).toBe(true);
    const list = await api.datasets.list();
    const candles = list.find((d) => d.kind === 'klines')!;
    const trades = list.find((d) => d.kind === 'aggTrades')!;
    expect(await api.datasets.get(candles.id)).toEqual(candles);
    const hourly = await api.datasets.klines(candles.id, '1h', { limit: 2 });
    expect(hourly.map((k) => k[0])).toEqual([Date.parse('2021-05-18T23:00:00Z'), Date.parse('2021-05-18T22:00:00Z')]);
    expect(await refusal(api.datasets.klines(999, '1m'))).toBe(6002);
    expect((await api.datasets.trades(trades.id, { start_time: 1736121600002 })).map((t) => t.id)).toEqual([101]);
    // a replay of the candles, pinned to that dataset (StartReplayRequest.datasets)
    const replay = await api.startReplay({
      symbols: ['BTCUSDT'],
      start: Date.parse('2021-05-17T00:00:00Z'),
      datasets: [candles.id],
    });
    expect(JSON.stringify(replay.status.datasets)).toContain(`"id":${candles.id}`);
    await api.closeReplay(replay.id);
    const edited = await api.datasets.setSpecs(candles.id, { tick_size: '0.5', step_size: '0.01' });
    expect(edited.specs).toMatchObject({ tick_size: '0.5', step_size: '0.01', source: 'edited' });
    expect(await api.datasets.delete(trades.id)).toEqual({ id: trades.id });
    expect(await refusal(api.datasets.get(trades.id))).toBe(1106);
  });
});

describe('RestClient.datasets.upload', () => {
  it('uploads a zip and a CSV as the Data dialog does: named, checked against its checksum, imported', async () => {
    const root = tempDir();
    const csv =
      'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker\n' +
      '200,3300.10,0.5,900,900,1736208000001,true\n201,3300.20,0.25,901,902,1736208000002,false\n';
    const made = writeArchiveZip(root, { market: 'um', kind: 'aggTrades', symbol: 'ETHUSDT', date: '2025-01-07', csv });
    const bytes = readFileSync(made.zip);
    const name = path.basename(made.zip);
    // a wrong checksum refuses it, and nothing is imported
    // (a plain `Uint8Array`, as a caller declares one, type-checks: docs/sdk.md says "a Uint8Array")
    const plain: Uint8Array = new Uint8Array(bytes);
    const bad = await api.datasets.upload(name, plain, { market: 'um', checksum: '0'.repeat(64) });
    expect(bad.results[0]).toMatchObject({ ok: false, status: 'refused', file: name, dataset_id: null });
    const good = await api.datasets.upload(name, new Blob([bytes]), { market: 'um', checksum: sha256(bytes) });
    expect(good.results[0]).toMatchObject({ ok: true, status: 'imported', file: name, rows: 2, checksum: 'verified' });
    const id = good.results[0].dataset_id!;
    expect((await api.datasets.trades(id)).map((t) => t.first_trade_id)).toEqual([900, 901]);
    // a CSV whose name says nothing: what it holds is said beside it
    const candles = [KLINES_HEADER, ...fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 3)];
    const r = await api.datasets.upload('my-candles.csv', new TextEncoder().encode(candles.join('\n')), {
      market: 'spot',
      symbol: ' btcusdt ',
      kind: 'klines',
      interval: '1m',
    });
    expect(r.results[0]).toMatchObject({ ok: true, status: 'imported', file: 'my-candles.csv', rows: 3 });
    expect(await api.datasets.get(r.results[0].dataset_id!)).toMatchObject({
      market: 'spot',
      symbol: 'BTCUSDT',
      kind: 'klines',
      interval: '1m',
    });
    // an upload is never signed: asked to be, it is not sent
    await expect(
      api.request('POST', '/api/v1/datasets/import', { upload: { bytes, type: 'application/zip' }, auth: 'signed' }),
    ).rejects.toMatchObject({ code: -1, status: -2 });
  });

  it('sends a market the service does not know, which refuses it naming the markets (not dropped unsaid)', async () => {
    // `usdm` for `um`: until 2026-12-07 the SDK left it out of the request, and the service said the
    // file's name "does not say its market", as if none had been given
    const bytes = new TextEncoder().encode(KLINES_HEADER);
    const err = await api.datasets
      .upload('BTCUSDT-1m-2021-05-16.csv', bytes, { market: 'usdm' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect(err).toMatchObject({ code: Errors.INVALID_PARAMETER.code, status: 400 });
    expect((err as Error).message).toBe(`Invalid query parameter 'market': must be one of "spot", "um", "cm"`);
  });
});

describe('RestClient.sweeps', () => {
  it('lists the sweeps and reads one as JSON and CSV, one job, and the example', async () => {
    const [s] = await api.sweeps.list();
    expect(s).toMatchObject({ id: 'swS', jobs: 2, done: 1, ok: 1, state: 'running' });
    const one = await api.sweeps.get('swS');
    expect(one.jobs_detail.map((j) => j.status)).toEqual(['ok', 'pending']);
    expect(one.sets.map((x) => x.params)).toEqual([{ fast: 3 }, { fast: 4 }]);
    expect((await api.sweeps.csv('swS')).split('\n')[0]).toMatch(/^index,/);
    const job = await api.sweeps.job('swS', 0);
    expect(job).toMatchObject({ index: 0, status: 'ok', output_tail: ['bot: done'], equity: [[JAN6, 10_000]] });
    for (const missing of [api.sweeps.get('nope'), api.sweeps.csv('nope'), api.sweeps.job('swS', 9)])
      expect(await refusal(missing)).toBe(Errors.SWEEP_NOT_FOUND.code);
    expect((await api.sweeps.example()).sweep).toMatch(/^npm run sweep -- /);
  });
});
