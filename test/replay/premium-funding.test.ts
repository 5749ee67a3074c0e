// Funding derived from premiumIndexKlines when there are no fundingRate rows (docs/replay.md
// "Mark, index, funding"): at 08:00 UTC the rate is Binance's rule on the premium candles' closes
// of 00:00..08:00 (weights 1..n, F = avgP + clamp(0.01 % - avgP, +-0.05 %)), computed here from
// the fixture's own numbers; the predicted rate follows the samples so far; a replay started
// within the interval still counts the interval's samples before its start; fundingRate rows win.
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

/** The premium of minute i of the day: rising from 0.05 % to about 0.11 %, with a wobble. */
const premiumAt = (i: number): number => Number((0.0005 + i * 1.25e-6 + ((i * 7) % 5) * 1e-6).toFixed(8));

function premiumCsv(): string {
  const lines = [
    'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore',
  ];
  for (let i = 0; i < 16 * 60; i++) {
    const p = premiumAt(i).toFixed(8);
    lines.push([START + i * 60_000, p, p, p, p, '0', START + (i + 1) * 60_000 - 1, '0', '60', '0', '0', '0'].join(','));
  }
  const f = path.join(tempDir(), 'BTCUSDT-premiumIndexKlines-1m-2021-05-16.csv');
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** Binance's rule, written out here: weights 1..n, interest 0.01 %, clamp 0.05 %, 6 decimals. */
function binanceRate(samples: number[]): number {
  let w = 0;
  let sum = 0;
  samples.forEach((p, i) => ((sum += (i + 1) * p), (w += i + 1)));
  const avg = sum / w;
  const f = avg + Math.min(0.0005, Math.max(-0.0005, 0.0001 - avg));
  return Math.round(f * 1e6) / 1e6;
}

let v: ReplayVenue | null = null;
afterEach(() => {
  v?.close();
  v = null;
});

const files = (extra: Array<{ paths: string[]; opts: any }> = []) => [
  { paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } },
  { paths: [premiumCsv()], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'premiumIndexKlines', interval: '1m' } },
  ...extra,
];

async function longAt(
  start: number,
  extra: Array<{ paths: string[]; opts: any }> = [],
): Promise<{ v: ReplayVenue; acct: number }> {
  const venue = await replayVenue(files(extra) as any, { symbols: ['BTCUSDT'], start, until: START + 10 * H });
  v = venue;
  venue.market.seek(start + 60_000);
  const acct = upsertAccount(
    venue.exchange,
    { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT },
    0,
  ).id;
  expect(
    placeOrder(venue.exchange, acct, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.010000',
    }).status,
  ).toBe(3);
  return { v: venue, acct };
}

describe('funding from premiumIndexKlines', () => {
  const first8h = Array.from({ length: 480 }, (_, i) => premiumAt(i));

  it("settles at 08:00 at Binance's rule over the interval's premium closes, the predicted rate following them", async () => {
    const { v, acct } = await longAt(START);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 4 * H);
    // the samples so far: the candles closed by 04:00 (the 03:59 candle closes at 03:59:59.999)
    expect(pair.fundingRate).toBe(binanceRate(first8h.slice(0, 240)));
    expect(pair.nextFundingTime).toBe(START + 8 * H);
    const rate = binanceRate(first8h);
    // above the clamp band: not the interest rate
    expect(rate).toBeGreaterThan(0.0001);
    v.market.seek(START + 8 * H - 1);
    const before = v.exchange.walletOf(acct);
    const mark = pair.markPrice;
    v.market.seek(START + 8 * H);
    const paid = before - v.exchange.walletOf(acct);
    expect(Number(paid)).toBeCloseTo(0.01 * mark * rate * 1e8, -1);
    // the next interval's samples start again from its own first close
    v.market.seek(START + 8 * H + 120_000);
    expect(pair.fundingRate).toBe(binanceRate([premiumAt(480), premiumAt(481)]));
  }, 60_000);

  it("a replay started inside the interval counts its samples from the interval's beginning", async () => {
    const { v, acct } = await longAt(START + 3 * H + 30 * 60_000);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 8 * H - 1);
    expect(pair.fundingRate).toBe(binanceRate(first8h));
    const before = v.exchange.walletOf(acct);
    const mark = pair.markPrice;
    v.market.seek(START + 8 * H);
    expect(Number(before - v.exchange.walletOf(acct))).toBeCloseTo(0.01 * mark * binanceRate(first8h) * 1e8, -1);
  }, 60_000);

  it('fundingRate rows win over the premium', async () => {
    const f = path.join(tempDir(), 'BTCUSDT-fundingRate-2021-05-premium.csv');
    writeFileSync(f, `calc_time,funding_interval_hours,last_funding_rate\n${START + 8 * H},8,-0.00020000\n`);
    const { v, acct } = await longAt(START, [
      { paths: [f], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'fundingRate' } },
    ]);
    const pair = v.exchange.pair('BTCUSDT')!;
    v.market.seek(START + 4 * H);
    // not the 08:00 row's rate before 08:00 (no look-ahead), nor the premium's prediction: the rate
    // settled last, none yet in this file: the interest rate
    expect([pair.fundingRate, pair.nextFundingTime]).toEqual([0.0001, START + 8 * H]);
    const before = v.exchange.walletOf(acct);
    v.market.seek(START + 8 * H);
    // a long receives at a negative rate
    expect(v.exchange.walletOf(acct)).toBeGreaterThan(before);
    expect(pair.fundingRate).toBe(-0.0002);
  }, 60_000);
});
