// Mark and funding from the datasets when present: mark = the close of markPriceKlines candles at
// their close time; funding settled at the fundingRate rows' own times with their rates (not at
// the 8-hour rule).
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../data/archive-fixtures.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const UNIT = 100_000_000n;
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');
const T1 = START + 8 * 3_600_000 + 123; // a recorded funding time off the 8-hour grid by 123 ms

describe('fundingRate and markPriceKlines datasets', () => {
  let v: ReplayVenue;
  let acct: number;
  beforeAll(async () => {
    const f = path.join(tempDir(), 'BTCUSDT-fundingRate-2021-05.csv');
    writeFileSync(
      f,
      `calc_time,funding_interval_hours,last_funding_rate\n${START + 7},8,0.00050000\n${T1},8,-0.00030000\n${START + 16 * 3_600_000},8,0.00020000\n`,
    );
    v = await replayVenue(
      [
        { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
        { paths: [M1], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'markPriceKlines', interval: '1m' } },
        { paths: [f], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'fundingRate' } },
      ],
      { symbols: ['BTCUSDT'], start: START, until: START + 10 * 3_600_000 },
    );
    v.market.seek(START + 60_000);
    acct = upsertAccount(v.exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT }, 0).id;
    expect(
      placeOrder(v.exchange, acct, {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 2,
        qty: '0.010000',
      }).status,
    ).toBe(3);
  }, 60_000);
  afterAll(() => v?.close());

  it("the mark is the mark candle's close at its close time", () => {
    const rows = readFileSync(M1, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    v.market.seek(START + 5 * 60_000 - 1); // 00:04:59.999, the close time of the 00:04 candle
    expect(v.exchange.pair('BTCUSDT')!.markPrice).toBe(Number(rows[4][4]));
    v.market.seek(START + 6 * 60_000 - 2);
    expect(v.exchange.pair('BTCUSDT')!.markPrice).toBe(Number(rows[4][4]));
  });

  it('funding is settled at the recorded time with the recorded rate; before it only its time is shown', () => {
    const pair = v.exchange.pair('BTCUSDT')!;
    // the next settlement's time, and the rate settled last (00:00:00.007's): not -0.0003, the
    // rate of 08:00, which nobody knows at 00:01 (no look-ahead)
    expect([pair.fundingRate, pair.nextFundingTime]).toEqual([0.0005, T1]);
    const before = v.exchange.walletOf(acct);
    v.market.seek(T1 - 123 + 60); // 08:00:00.060: the 8-hour rule would have paid by now
    expect(v.exchange.walletOf(acct)).toBe(before);
    v.market.seek(T1 - 1);
    expect(v.exchange.walletOf(acct)).toBe(before);
    expect(() => v.market.seek(T1 - 2)).toThrow(RangeError); // forward only
    const mark = pair.markPrice;
    v.market.seek(T1);
    const received = v.exchange.walletOf(acct) - before;
    // a long receives at a negative rate: 0.01 x mark x 0.0003
    expect(Number(received)).toBeCloseTo(0.01 * mark * 0.0003 * 1e8, -1);
    expect(received).toBeGreaterThan(0n);
    expect([pair.fundingRate, pair.nextFundingTime]).toEqual([-0.0003, START + 16 * 3_600_000]);
  });
});
