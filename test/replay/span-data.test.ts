// Where a replay's span meets its data (docs/replay.md, Session): a span lying in a gap of the
// data is refused naming the gap; a start in a gap shows the last price before it, never a later
// one (No look-ahead); a start earlier on the UTC day of the data's first event starts at that
// event (the TRXUSDT recording begins at 00:00:00.061); a start after the data names its extent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetService } from '../../src-main/data/dataset-service.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import type { ReplayOptions } from '../../src-main/replay/replay-market.ts';
import { fixtureRows } from '../data/archive-fixtures.ts';
import { importInto, importTrxRecording, KLINES, LASOTA, replayDataOf, TRX_TRADES } from './harness.ts';

const SNAPSHOT_TIME = 1744588800061;
const t = (iso: string): number => Date.parse(iso);

let db: DatabaseSync | null = null;
let svc: ServiceHandle | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
  db?.close();
  db = null;
});

/** The spot BTCUSDT 1h klines of 2021-05-16..18 and of the 2023-03-24 outage day: one dataset with a 22-month gap. */
async function gappedKlines(): Promise<DatasetService> {
  db = openDatabase({ dataDir: ':memory:' });
  return importInto(db, [
    {
      paths: [
        path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv'),
        path.join(KLINES, 'binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv'),
      ],
      opts: { market: 'spot', symbol: 'BTCUSDT', interval: '1h' },
    },
  ]);
}

function replay(ds: DatasetService, options: ReplayOptions): Promise<ServiceHandle> {
  return startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: { options, data: replayDataOf(ds), lockstep: true },
  });
}

/** mark, index and last price of a pair, and the 24 h ticker's open and last, as a bot reads them. */
async function shown(s: ServiceHandle, symbol: string): Promise<number[]> {
  const prices = (await s.app.inject({ method: 'GET', url: '/fapi/v1/prices' })).json().data;
  const p = prices.find((x: { symbol: string }) => x.symbol === symbol);
  const ticker = (await s.app.inject({ method: 'GET', url: `/api/v1/ticker/24h?symbols=${symbol}` })).json().data;
  const one = Array.isArray(ticker) ? ticker[0] : ticker;
  return [p.mark_price, p.index_price, p.last_price, one.open_price, one.last_price].map(Number);
}

describe('a span in a gap of the data', () => {
  it('is refused, naming the gap', async () => {
    const ds = await gappedKlines();
    await expect(
      replay(ds, { symbols: ['BTCUSDT'], start: t('2022-06-01T00:00Z'), until: t('2022-06-02T00:00Z') }),
    ).rejects.toThrow(
      'BTCUSDT has no klines data from 2022-06-01T00:00:00.000Z to 2022-06-02T00:00:00.000Z: the span lies in a gap ' +
        'of its data, which stops at 2021-05-19T00:00:00.000Z and resumes at 2023-03-24T00:00:00.000Z',
    );
  });

  it('partly in a gap, replays what there is, showing the last price before the gap until it ends', async () => {
    const ds = await gappedKlines();
    svc = await replay(ds, { symbols: ['BTCUSDT'], start: t('2022-06-01T00:00Z') });
    const status = svc.venue.replay!.status();
    expect(status.start).toBe(t('2022-06-01T00:00Z'));
    expect(status.until).toBe(t('2023-03-25T00:00Z'));
    // the close of 2021-05-18 23:00, the last candle before the clock; not the 2023-03-24 open (28295.42)
    const lastClose = fixtureRows('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv').at(-1)!.split(',')[4];
    expect(await shown(svc, 'BTCUSDT')).toEqual(Array(5).fill(Number(lastClose)));
    expect(lastClose).not.toBe('28295.42');
  });
});

describe('the price a replay starts with', () => {
  it('is the last trade at or before the start, not the next one', async () => {
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, [
      { paths: [TRX_TRADES], opts: { market: 'um', symbol: 'TRXUSDT', kind: 'trades' } },
    ]);
    const rows = readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8').trim().split('\n').slice(1);
    const trades = rows.map((l) => l.split(',')).map((f) => ({ time: Number(f[4]), price: f[7] }));
    // a start between two prints of different prices
    const k = trades.findIndex(
      (x, i) => i + 1 < trades.length && trades[i + 1].price !== x.price && trades[i + 1].time > x.time + 1,
    );
    expect(k).toBeGreaterThanOrEqual(0);
    svc = await replay(ds, { symbols: ['TRXUSDT'], start: trades[k].time + 1 });
    const [mark, index, last] = await shown(svc, 'TRXUSDT');
    expect([mark, index, last]).toEqual(Array(3).fill(Number(trades[k].price)));
    expect(last).not.toBe(Number(trades[k + 1].price));
  });
});

describe('the price an L2 replay starts with (depth + trades)', () => {
  const trades = readFileSync(TRX_TRADES, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .map((f) => ({ time: Number(f[4]), price: Number(f[7]) }));
  const start = t('2025-04-14T00:00:10Z');
  const before = trades.filter((x) => x.time <= start).at(-1)!;
  const next = trades.find((x) => x.time > start)!;

  async function l2Replay(at: number): Promise<ServiceHandle> {
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, []);
    await importTrxRecording(ds);
    return replay(ds, { symbols: ['TRXUSDT'], start: at });
  }

  const step = async (s: ServiceHandle, ms: number): Promise<void> => {
    const r = await s.app.inject({ method: 'POST', url: '/api/v1/replay', payload: { action: 'step', ms } });
    expect(r.json().code).toBe(0);
  };

  it("after the snapshot, is the last trade before the start for mark, index and last price, not the snapshot's mid", async () => {
    // the case: the snapshot (00:00:00.061) is 10 s older than the start, its mid is another price
    expect([before.time, before.price, next.time]).toEqual([1744588809873, 0.2545, 1744588810483]);
    svc = await l2Replay(start);
    // (the 24 h ticker opens at the window's first trade, the recording's at 00:00:04.438: its
    // candles before the start are history's, built from the trades before it)
    expect(trades[0].price).not.toBe(before.price);
    expect(await shown(svc, 'TRXUSDT')).toEqual([
      before.price,
      before.price,
      before.price,
      trades[0].price,
      before.price,
    ]);
    // and so it stays until the first print after the start, whose price the mark then follows
    await step(svc, next.time - start - 1);
    expect((await shown(svc, 'TRXUSDT')).slice(0, 3)).toEqual(Array(3).fill(before.price));
    await step(svc, 1);
    expect((await shown(svc, 'TRXUSDT')).slice(0, 3)).toEqual(Array(3).fill(next.price));
  });

  it("with no trade before the start, the mark and index are the snapshot's mid, the last price its best bid", async () => {
    svc = await l2Replay(SNAPSHOT_TIME + 1000);
    expect(trades[0].time).toBeGreaterThan(SNAPSHOT_TIME + 1000);
    // the recording's snapshot: best bid 0.25461, best ask 0.25462; the mid rounded to the tick (halves up)
    const [mark, index, last] = await shown(svc, 'TRXUSDT');
    expect([mark, index, last]).toEqual([0.25462, 0.25462, 0.25461]);
  });
});

describe('a start just before the data', () => {
  it('earlier on the UTC day of the first event, starts at that event (TRXUSDT@2025-04-14)', async () => {
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, []);
    await importTrxRecording(ds);
    svc = await replay(ds, { symbols: ['TRXUSDT'], start: Date.UTC(2025, 3, 14) });
    expect(svc.venue.replay!.status()).toMatchObject({ start: SNAPSHOT_TIME, time: SNAPSHOT_TIME });
    expect(svc.venue.clock.now()).toBe(SNAPSHOT_TIME);
    // the book of the recording's snapshot after the first step
    const step = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/replay',
      payload: { action: 'step', ms: 1000 },
    });
    expect(step.json().code).toBe(0);
    const depth = (await svc.app.inject({ method: 'GET', url: '/fapi/v1/depth?symbol=TRXUSDT&limit=5' })).json().data;
    expect(depth.bids.length).toBeGreaterThan(0);
    expect(depth.asks.length).toBeGreaterThan(0);
  });

  it('on an earlier day, is refused naming the first event', async () => {
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, []);
    await importTrxRecording(ds);
    await expect(replay(ds, { symbols: ['TRXUSDT'], start: Date.UTC(2025, 3, 13, 23, 59, 59) })).rejects.toThrow(
      /the depth data of TRXUSDT starts at 2025-04-14T00:00:00.061Z, after the replay start \(2025-04-13T23:59:59.000Z; a start earlier on that UTC day starts at its first event\)/,
    );
  });
});

describe('a start after the data', () => {
  it("names the extent of the symbol's data of that kind, not one dataset's end", async () => {
    db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, [
      {
        paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')],
        opts: { market: 'spot', symbol: 'BTCUSDT', interval: '1m' },
      },
      {
        paths: [path.join(KLINES, 'binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv')],
        opts: { market: 'spot', symbol: 'BTCUSDT', interval: '15m' },
      },
    ]);
    await expect(replay(ds, { symbols: ['BTCUSDT'], start: SNAPSHOT_TIME + 939 })).rejects.toThrow(
      'the klines data of BTCUSDT ends before the replay start (2025-04-14T00:00:01.000Z): it runs from ' +
        '2021-05-16T00:00:00.000Z to 2025-01-13T00:00:00.000Z',
    );
    // replayed with the TRXUSDT recording (the report's case): the data's extents do not overlap
    await importTrxRecording(ds);
    await expect(replay(ds, { symbols: ['BTCUSDT', 'TRXUSDT'], start: SNAPSHOT_TIME + 939 })).rejects.toThrow(
      'the data of BTCUSDT (2021-05-16T00:00:00.000Z to 2025-01-13T00:00:00.000Z) and TRXUSDT ' +
        '(2025-04-14T00:00:00.061Z to 2025-04-14T00:00:23.871Z) do not overlap in time',
    );
    // an event dataset's end named is its last event, as the catalogue's last_time (it was that
    // + 1 ms: a start 1 ms after the last event was refused as after data "to" the start itself)
    await expect(replay(ds, { symbols: ['TRXUSDT'], start: 1744588823872 })).rejects.toThrow(
      'the depth data of TRXUSDT ends before the replay start (2025-04-14T00:00:23.872Z): it runs from ' +
        '2025-04-14T00:00:00.061Z to 2025-04-14T00:00:23.871Z',
    );
  });
});
