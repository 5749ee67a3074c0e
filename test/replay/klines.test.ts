// A candles-only replay: the 1m BTCUSDT klines of 2021-05-16..18 (real data,
// test/fixtures/binance/SOURCES.md) replayed through the engine give the venue 1h and 1d candles
// equal to Binance's own 1h and 1d files (open, high, low, close, volume, taker buy volume); the
// path inside a candle follows the documented rule; funding is settled every 8 h at 00/08/16 UTC.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KLINES, replayVenue, type ReplayVenue } from './harness.ts';

const PERIOD = '2021-05-16_to_2021-05-18';
const rows = (interval: string): string[][] =>
  readFileSync(path.join(KLINES, `binance_spot_BTCUSDT_${interval}_${PERIOD}.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
const START = Date.UTC(2021, 4, 16);
const UNIT = 100_000_000n;

describe('1m BTCUSDT 2021-05-16..18, klines only', () => {
  let v: ReplayVenue;
  const prints: Array<{ time: number; price: number; lots: number; side: number }> = [];
  beforeAll(async () => {
    v = await replayVenue(
      [
        {
          paths: [path.join(KLINES, `binance_spot_BTCUSDT_1m_${PERIOD}.csv`)],
          opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
        },
      ],
      {
        symbols: ['BTCUSDT'],
        start: START,
      },
    );
    v.exchange.events.on('trade', (e) => {
      if (e.time < START + 120_000)
        prints.push({ time: e.time, price: e.priceTicks, lots: e.qtyLots, side: e.takerSide });
    });
  }, 60_000);
  afterAll(() => v?.close());

  it("the pair is listed at the data's decimals and the status says klines", () => {
    const pair = v.exchange.pair('BTCUSDT')!;
    expect([pair.row.tickSize, pair.row.stepSize]).toEqual(['0.01', '0.000001']);
    expect(v.market.status()).toMatchObject({
      sources: { BTCUSDT: 'klines' },
      start: START,
      until: Date.UTC(2021, 4, 19),
      time: START,
    });
  });

  it("the first minute's prints follow open -> nearer extreme -> other extreme -> close, a quarter of the volume each", () => {
    const [o, h, l, c, vol, tbv] = [1, 2, 3, 4, 5, 9].map((i) => rows('1m')[0][i]);
    const pair = v.exchange.pair('BTCUSDT')!;
    const ticks = (s: string): number => Math.round(Number(s) / 0.01);
    const lots = (s: string): number => Math.round(Number(s) * 1e6);
    const nearHigh = Number(h) - Number(o) <= Number(o) - Number(l);
    const path4 = nearHigh ? [o, h, l, c] : [o, l, h, c];
    v.market.seek(START + 60_000);
    const first = prints.filter((p) => p.time < START + 60_000);
    // group the engine's trades (one per resting order consumed) by time and side
    const groups = new Map<string, { price: number; lots: number }>();
    for (const p of first) {
      const k = `${p.time}:${p.side}`;
      const g = groups.get(k) ?? { price: p.price, lots: 0 };
      expect(p.price).toBe(g.price);
      g.lots += p.lots;
      groups.set(k, g);
    }
    const V = lots(vol);
    const B = lots(tbv);
    const q = Math.floor(V / 4);
    const b = Math.floor(B / 4);
    for (let i = 0; i < 4; i++) {
      const t = START + i * 15_000;
      const buy = i === 3 ? B - 3 * b : b;
      const sell = (i === 3 ? V - 3 * q : q) - buy;
      expect(groups.get(`${t}:1`)).toEqual({ price: ticks(path4[i]), lots: buy });
      expect(groups.get(`${t}:2`)).toEqual({ price: ticks(path4[i]), lots: sell });
    }
    expect(pair.math.formatPrice(ticks(path4[3]))).toBe(Number(c).toFixed(2));
  });

  it("1h and 1d candles equal Binance's own files", () => {
    v.market.seek(v.market.status().until);
    expect(v.market.finished).toBe(true);
    v.klines.advanceTo(v.market.time);
    for (const interval of ['1h', '1d'] as const) {
      const want = rows(interval);
      const got = v.klines
        .klines('BTCUSDT', interval, { startTime: START, endTime: Date.UTC(2021, 4, 19) - 1 })
        .filter((k) => k[0] >= START)
        .sort((x, y) => x[0] - y[0]);
      expect(got.map((k) => k[0])).toEqual(want.map((f) => Number(f[0])));
      for (let i = 0; i < want.length; i++) {
        const f = want[i];
        const k = got[i];
        // open, high, low, close, volume, taker buy volume
        expect([k[2], k[3], k[4], k[5], k[6], k[9]].map(Number), `${interval} ${new Date(k[0]).toISOString()}`).toEqual(
          [f[1], f[2], f[3], f[4], f[5], f[9]].map(Number),
        );
      }
    }
  });
});

describe('funding without fundingRate data', () => {
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await replayVenue(
      [
        {
          paths: [path.join(KLINES, `binance_spot_BTCUSDT_1m_${PERIOD}.csv`)],
          opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
        },
      ],
      {
        symbols: ['BTCUSDT'],
        start: START,
        until: START + 9 * 3_600_000,
      },
    );
    v.market.seek(START + 60_000);
  }, 60_000);
  afterAll(() => v?.close());

  it('a funding position pays at 08:00 UTC at the 0.01 % rule', () => {
    // a small long opened in the first minutes, before the first funding time
    const acct = upsertAccount(
      v.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT },
      0,
    ).id;
    const r = placeOrder(v.exchange, acct, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.010000',
    });
    expect(r.status).toBe(3);
    const before = v.exchange.walletOf(acct);
    v.market.seek(START + 8 * 3_600_000 - 1);
    expect(v.exchange.walletOf(acct)).toBe(before);
    const mark = v.exchange.pair('BTCUSDT')!.markPrice;
    v.market.seek(START + 8 * 3_600_000);
    const paid = before - v.exchange.walletOf(acct);
    // 0.01 BTC x mark x 0.0001, in 1e-8 USDT (rounding within a unit)
    expect(Number(paid)).toBeCloseTo(0.01 * mark * 0.0001 * 1e8, -1);
    expect(paid).toBeGreaterThan(0n);
  });
});
