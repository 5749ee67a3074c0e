// A fundingRate dataset covering part of the span (docs/replay.md "Mark, index, funding"): its rows
// settle where it has them; before its first row's 8-hour slot and after its last row's, funding
// runs as without the dataset (every 8 h at 00/08/16 UTC, here at 0.01 %: no premium data), not
// stopping with the rows (next funding time 0, nothing settled for the rest of the span) nor
// waiting for them (next funding time the dataset's first row, days away).
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../data/archive-fixtures.ts';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const START = Date.UTC(2021, 4, 16);
const H = 3_600_000;
const UNIT = 100_000_000n;
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

/** A replay of the 2021 1m candles with fundingRate rows at `rows` ([ms, rate]), a long of 0.01 BTC held from 00:01. */
async function venue(rows: [number, string][]): Promise<{ v: ReplayVenue; acct: number }> {
  const f = path.join(tempDir(), 'BTCUSDT-fundingRate-2021-05.csv');
  writeFileSync(
    f,
    `calc_time,funding_interval_hours,last_funding_rate\n${rows.map(([t, r]) => `${t},8,${r}\n`).join('')}`,
  );
  const v = await replayVenue(
    [
      { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
      { paths: [f], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'fundingRate' } },
    ],
    { symbols: ['BTCUSDT'], start: START, until: START + 40 * H },
  );
  v.market.seek(START + 60_000);
  const acct = upsertAccount(v.exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT }, 0).id;
  const order = { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010000' };
  expect(placeOrder(v.exchange, acct, order).status).toBe(3);
  return { v, acct };
}

/** What the long paid at a settlement at `t` (wallet before - after), the funding shown after it. */
function settle(v: ReplayVenue, acct: number, t: number): { paid: bigint; rate: number; next: number } {
  v.market.seek(t - 1);
  const before = v.exchange.walletOf(acct);
  v.market.seek(t);
  const pair = v.exchange.pair('BTCUSDT')!;
  return { paid: before - v.exchange.walletOf(acct), rate: pair.fundingRate, next: pair.nextFundingTime };
}

describe('a fundingRate dataset covering part of the span', () => {
  let v: ReplayVenue | undefined;
  afterEach(() => v?.close());

  it('after its last row, funding goes on every 8 h', async () => {
    const r = await venue([
      [START + 7, '0.00050000'],
      [START + 8 * H + 5, '-0.00030000'],
    ]);
    v = r.v;
    expect(v.exchange.pair('BTCUSDT')!.nextFundingTime).toBe(START + 8 * H + 5);
    const row = settle(v, r.acct, START + 8 * H + 5);
    expect(row.paid).toBeLessThan(0n); // a long receives at a negative rate
    expect([row.rate, row.next]).toEqual([-0.0003, START + 16 * H]);
    const at16 = settle(v, r.acct, START + 16 * H);
    expect(at16.paid).toBeGreaterThan(0n); // 0.01 %: the long pays
    expect([at16.rate, at16.next]).toEqual([0.0001, START + 24 * H]);
    expect(settle(v, r.acct, START + 24 * H).paid).toBeGreaterThan(0n);
  }, 60_000);

  it('before its first row, funding runs every 8 h, and the rows settle from there', async () => {
    const r = await venue([
      [START + 16 * H + 3, '-0.00040000'],
      [START + 24 * H + 3, '-0.00020000'],
    ]);
    v = r.v;
    expect(v.exchange.pair('BTCUSDT')!.nextFundingTime).toBe(START + 8 * H);
    const at8 = settle(v, r.acct, START + 8 * H);
    expect(at8.paid).toBeGreaterThan(0n);
    expect(at8.next).toBe(START + 16 * H + 3);
    // not a settlement of the schedule at 16:00 besides the row's
    const before = v.exchange.walletOf(r.acct);
    v.market.seek(START + 16 * H + 2);
    expect(v.exchange.walletOf(r.acct)).toBe(before);
    const row = settle(v, r.acct, START + 16 * H + 3);
    expect(row.paid).toBeLessThan(0n);
    expect([row.rate, row.next]).toEqual([-0.0004, START + 24 * H + 3]);
  }, 60_000);
});
