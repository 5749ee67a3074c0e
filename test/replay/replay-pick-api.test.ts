// POST /api/v1/replays `datasets`: the datasets a replay reads, by id (docs/replay.md "Choosing
// the datasets"). A live service holds BTCUSDT's candles of 2025-01-06..12 three ways (USD-M 1h,
// spot 15m, USD-M 1d) and ETHUSDT's 1h; the venue alone picks the USD-M 1h candles, a pin reads
// the spot 15m ones (the status says so), and every pin it cannot read is 1001 naming it.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { call, KLINES } from './harness.ts';

const WEEK = (interval: string): string =>
  path.join(KLINES, `binance_spot_BTCUSDT_${interval}_2025-01-06_to_2025-01-12.csv`);
const START = Date.parse('2025-01-06T00:00:00Z');

let live: ServiceHandle;
let dir: string;
const ids: Record<string, number> = {};

async function importOne(name: string, file: string, symbol: string, market: string, interval: string): Promise<void> {
  const [r] = await live.venue.datasets.importFiles([file], {
    symbol,
    market: market as 'um',
    kind: 'klines',
    interval,
  });
  if (!r.ok) throw new Error(`import of ${file} failed: ${r.error}`);
  ids[name] = r.datasetId!;
}

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-pick-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  await importOne('um1h', WEEK('1h'), 'BTCUSDT', 'um', '1h');
  await importOne('spot15m', WEEK('15m'), 'BTCUSDT', 'spot', '15m');
  await importOne('um1d', WEEK('1d'), 'BTCUSDT', 'um', '1d');
  await importOne('eth1h', WEEK('1h'), 'ETHUSDT', 'um', '1h');
  await importOne(
    'old1h',
    path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv'),
    'BTCUSDT',
    'spot',
    '1h',
  );
});

afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function started(body: object): Promise<{ id: string; url: string; status: any }> {
  const r = await call(live.url, 'POST', '/api/v1/replays', {
    symbols: ['BTCUSDT'],
    start: START,
    lockstep: true,
    ...body,
  });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

describe('POST /api/v1/replays datasets', () => {
  it('without it the venue reads the USD-M 1h candles; pinned, the spot 15m ones, and the status says so', async () => {
    const auto = await started({});
    expect(auto.status.datasets.BTCUSDT).toEqual([
      { role: 'klines', id: ids.um1h, market: 'um', kind: 'klines', interval: '1h' },
    ]);
    await call(live.url, 'DELETE', `/api/v1/replays/${auto.id}`);

    const pinned = await started({ datasets: [ids.spot15m] });
    expect(pinned.status.sources).toEqual({ BTCUSDT: 'klines' });
    expect(pinned.status.datasets.BTCUSDT).toEqual([
      { role: 'klines', id: ids.spot15m, market: 'spot', kind: 'klines', interval: '15m' },
    ]);
    // it plays the 15m candles: after 15 minutes of history the 00:00 15m candle is the spot file's first row
    const step = await call(pinned.url, 'POST', '/api/v1/replay', { action: 'step', ms: 15 * 60_000 });
    expect(step.body.data.time, step.text).toBe(START + 15 * 60_000);
    const k = await call(pinned.url, 'GET', '/fapi/v1/klines?symbol=BTCUSDT&interval=15m&limit=2');
    const first = (k.body as unknown[][]).find((c) => c[0] === START);
    expect(first, k.text).toEqual([
      START,
      START + 15 * 60_000 - 1,
      '98363.61',
      '98626.77',
      '98363.61',
      '98455.89',
      '159.94725',
      '15757307.02497990',
      37955,
      '83.69236',
      '8244504.24170150',
      true,
    ]);
    await call(live.url, 'DELETE', `/api/v1/replays/${pinned.id}`);
  });

  it.each([
    ['an unknown id', () => [999_999], /^Cannot replay: there is no dataset 999999 of BTCUSDT to read/],
    [
      "another symbol's dataset",
      () => [ids.eth1h],
      /^Cannot replay: dataset \d+ \(um 1h klines of ETHUSDT\) is not a dataset of the replayed pair \(BTCUSDT\)/,
    ],
    [
      'two datasets for one role',
      () => [ids.um1h, ids.spot15m],
      /^Cannot replay: dataset \d+ \(um 1h klines of BTCUSDT\) and dataset \d+ \(spot 15m klines of BTCUSDT\) are both pinned as BTCUSDT's klines data/,
    ],
    ['an id listed twice', () => [ids.spot15m, ids.spot15m], /^Cannot replay: dataset \d+ is listed twice/],
    [
      'a dataset that does not cover the start',
      () => [ids.old1h],
      /^Cannot replay: the pinned dataset \d+ \(spot 1h klines of BTCUSDT\) ends before the replay start \(2025-01-06T00:00:00.000Z\): it runs from 2021-05-16T00:00:00.000Z to 2021-05-19T00:00:00.000Z$/,
    ],
  ])('refuses %s with 1001 naming it', async (_what, pins, message) => {
    const r = await call(live.url, 'POST', '/api/v1/replays', { symbols: ['BTCUSDT'], start: START, datasets: pins() });
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toMatch(message);
    expect(live.replays!.size).toBe(0);
  });

  it('a span the pinned dataset has no row in is refused naming it (the span checks of the replay)', async () => {
    const r = await call(live.url, 'POST', '/api/v1/replays', {
      symbols: ['BTCUSDT'],
      start: START + 6 * 3_600_000,
      until: START + 12 * 3_600_000,
      datasets: [ids.um1d],
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toMatch(
      /^Cannot replay: BTCUSDT's 1d candles have none opening from 2025-01-06T06:00:00.000Z to 2025-01-06T12:00:00.000Z in the pinned dataset \d+ \(um 1d klines of BTCUSDT\): /,
    );
  });

  it.each([
    [['12'], /'datasets': item 0 must be a JSON (integer|number)/],
    [[1.5], /datasets/],
    [[0], /datasets/],
  ])('refuses datasets %j by its schema (1001)', async (pins, message) => {
    const r = await call(live.url, 'POST', '/api/v1/replays', { symbols: ['BTCUSDT'], start: START, datasets: pins });
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toMatch(message);
  });
});
