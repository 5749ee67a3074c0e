// A candles-only replay over Binance's 2023-03-24 outage (real data, test/fixtures/binance/SOURCES.md:
// the 1h file of that day has 23 rows: the 12:00 hour traded nothing and closed at 12:39:41.646,
// and there is no 13:00 candle at all). The venue's candles are history's: no candle of any
// interval where history has none (unless the venue itself traded there: your trades count), the
// recorded close_time kept once the candle is closed, and 4h and 1d equal Binance's own files.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const DAY = Date.UTC(2023, 2, 24);
const H = 3_600_000;
const OUTAGE_CLOSE = 1679661581646; // the 12:00 candle's recorded close_time (12:39:41.646)
const rows = (interval: string): string[][] =>
  readFileSync(path.join(KLINES, `binance_spot_BTCUSDT_${interval}_2023-03-24_outage_gap.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
/** A decimal string without trailing zeros ("28080.00000000" -> "28080", "0.00000000" -> "0"). */
const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
/** A served candle's first 11 columns, as the source orders them in the served order. */
const source = (f: string[]): string[] => [f[0], f[6], f[1], f[2], f[3], f[4], f[5], f[7], f[8], f[9], f[10]].map(norm);
const served = (k: ReadonlyArray<unknown>): string[] => k.slice(0, 11).map((x) => norm(String(x)));

const open = (): Promise<ReplayVenue> =>
  replayVenue(
    [
      {
        paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv')],
        opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1h' },
      },
    ],
    { symbols: ['BTCUSDT'], start: DAY, until: DAY + 24 * H },
  );

function candles(v: ReplayVenue, interval: '1m' | '15m' | '1h' | '4h' | '1d', from: number, to: number) {
  return v.klines.klines('BTCUSDT', interval, { startTime: from, endTime: to - 1 }).reverse();
}

describe('1h BTCUSDT 2023-03-24 (the outage day), klines only', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await open();
  }, 60_000);
  afterAll(() => v?.close());

  it('during the day: the open hour shows its period end, a closed outage hour its recorded close, the hole nothing', () => {
    v.market.seek(DAY + 12 * H + 30 * 60_000); // 12:30, inside the zero-volume hour
    v.klines.advanceTo(v.market.time);
    const at1230 = candles(v, '1h', DAY + 11 * H, DAY + 13 * H);
    expect(at1230.map((k) => [k[0], k[1], k[11]])).toEqual([
      [DAY + 11 * H, DAY + 12 * H - 1, true],
      // not yet closed: the outage is not known before it ends (no look-ahead)
      [DAY + 12 * H, DAY + 13 * H - 1, false],
    ]);
    v.market.seek(DAY + 13 * H + 30 * 60_000); // 13:30, in the hole
    v.klines.advanceTo(v.market.time);
    const at1330 = candles(v, '1h', DAY + 11 * H, DAY + 14 * H);
    expect(at1330.map((k) => [k[0], k[1], k[11]])).toEqual([
      [DAY + 11 * H, DAY + 12 * H - 1, true],
      [DAY + 12 * H, OUTAGE_CLOSE, true],
    ]);
    expect(v.klines.currentKline('BTCUSDT', '1h')).toBeUndefined();
    expect(v.klines.klines('BTCUSDT', '1h', { limit: 1 })[0][0]).toBe(DAY + 12 * H);
    // the 4h candle has history in it (the 12:00 hour): it is there, open
    expect(v.klines.currentKline('BTCUSDT', '4h')?.[0]).toBe(DAY + 12 * H);
  });

  it("at the end: 1h equals the source on every column (23 candles), 4h and 1d equal Binance's files", () => {
    v.market.seek(v.market.status().until);
    v.klines.advanceTo(v.market.time);
    for (const interval of ['1h', '4h', '1d'] as const) {
      const want = rows(interval);
      const got = candles(v, interval, DAY, DAY + 24 * H);
      expect(got.length, interval).toBe(want.length);
      for (let i = 0; i < want.length; i++)
        expect(served(got[i]), `${interval} ${new Date(got[i][0]).toISOString()}`).toEqual(source(want[i]));
    }
    expect(rows('1h')).toHaveLength(23);
  });

  it('finer intervals: the prints inside history, nothing after the recorded close or in the hole', () => {
    const m1 = candles(v, '1m', DAY + 12 * H, DAY + 14 * H + 60_000).map((k) => k[0]);
    // 12:00 .. 12:39 (the hour's flat candles up to its recorded close), then 14:00
    const want = [...Array.from({ length: 40 }, (_, i) => DAY + 12 * H + i * 60_000), DAY + 14 * H];
    expect(m1).toEqual(want);
    expect(candles(v, '15m', DAY + 12 * H, DAY + 14 * H + 1).map((k) => k[0])).toEqual([
      DAY + 12 * H,
      DAY + 12 * H + 15 * 60_000,
      DAY + 12 * H + 30 * 60_000,
      DAY + 14 * H,
    ]);
  });
});

describe('your own trades in the outage count, as on the live venue', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await open();
  }, 60_000);
  afterAll(() => v?.close());

  it('a trade after the recorded close and one in the missing hour make their candles', () => {
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'gapuser01', apiSecret: 'gapuser01-secret', kind: 'user', balance: 100_000n * 100_000_000n },
      0,
    ).id;
    const buy = () =>
      placeOrder(v.exchange, acct, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 2,
        qty: '0.01',
      });
    v.market.seek(DAY + 12 * H + 50 * 60_000); // 12:50, after the 12:00 hour's recorded close
    expect(buy().status).toBe(3);
    v.market.seek(DAY + 13 * H + 20 * 60_000); // 13:20, the hour history does not have
    expect(buy().status).toBe(3);
    v.market.seek(v.market.status().until);
    v.klines.advanceTo(v.market.time);

    const h1 = candles(v, '1h', DAY, DAY + 24 * H);
    expect(h1).toHaveLength(24);
    const [twelve, thirteen] = h1.filter((k) => k[0] === DAY + 12 * H || k[0] === DAY + 13 * H);
    // the 12:00 hour is no longer history's alone: it runs to its period's end, with your trade
    expect([twelve[1], norm(twelve[6]), twelve[8]]).toEqual([DAY + 13 * H - 1, '0.01', 1]);
    expect([thirteen[1], norm(thirteen[6]), thirteen[8]]).toEqual([DAY + 14 * H - 1, '0.01', 1]);
    // the other hours are still the source's
    const want = rows('1h').filter((f) => Number(f[0]) !== DAY + 12 * H);
    expect(h1.filter((k) => k[0] !== DAY + 12 * H && k[0] !== DAY + 13 * H).map(served)).toEqual(want.map(source));
    // the minutes of your trades are there, the other minutes of the hole are not
    const m1 = candles(v, '1m', DAY + 12 * H + 40 * 60_000, DAY + 14 * H).map((k) => k[0]);
    expect(m1).toEqual([DAY + 12 * H + 50 * 60_000, DAY + 13 * H + 20 * 60_000]);
    // the 4h candle over the outage adds your two trades to history's
    const h4 = candles(v, '4h', DAY + 12 * H, DAY + 16 * H);
    expect(h4[0][8]).toBe(Number(rows('4h')[3][8]) + 2);
  });
});
