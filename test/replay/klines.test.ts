// A candles-only replay: the 1m BTCUSDT klines of 2021-05-16..18 (real data,
// test/fixtures/binance/SOURCES.md) replayed through the engine give the venue 1h and 1d candles
// equal to the source on every column (quote volume, trade count and taker-buy quote volume
// included): 1m itself, Binance's own 1h and 1d files, and 5m, 15m, 4h summed from the 1m rows; the
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

  it("finer than the source (1s on 1m data): the four prints alone, their counts and quote volumes the prints' own", () => {
    v.market.seek(START + 120_000);
    v.klines.advanceTo(v.market.time);
    const [vol, quote, count] = [5, 7, 8].map((i) => rows('1m')[0][i]);
    const s1 = v.klines.klines('BTCUSDT', '1s', { startTime: START, endTime: START + 59_999 });
    expect(s1.map((k) => k[0]).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => START + i * 1000));
    const traded = s1.filter((k) => Number(k[6]) > 0).sort((a, b) => a[0] - b[0]);
    expect(traded.map((k) => k[0])).toEqual([0, 15_000, 30_000, 45_000].map((d) => START + d));
    // the volume is the source's, spread over the prints
    expect(traded.reduce((a, k) => a + Math.round(Number(k[6]) * 1e6), 0)).toBe(Math.round(Number(vol) * 1e6));
    // each candle's count is its print's engine trades, and its quote volume theirs: the source's
    // count and quote volume (which no finer candle can know) are the 1m candle's alone
    const first = prints.filter((p) => p.time < START + 60_000);
    for (const k of traded) {
      const at = first.filter((p) => p.time === k[0]);
      expect(k[8], new Date(k[0]).toISOString()).toBe(at.length);
      expect(Number(k[7])).toBeCloseTo(
        at.reduce((a, p) => a + p.price * 0.01 * p.lots * 1e-6, 0),
        6,
      );
    }
    expect(traded.reduce((a, k) => a + k[8], 0)).toBe(first.length);
    expect(first.length).toBeLessThan(Number(count));
    expect(traded.reduce((a, k) => a + Number(k[7]), 0)).not.toBeCloseTo(Number(quote), 2);
  });

  it("candles equal the source on every column: 1m itself, 1h and 1d as Binance's own files, 5m, 15m and 4h summed from it", () => {
    v.market.seek(v.market.status().until);
    expect(v.market.finished).toBe(true);
    v.klines.advanceTo(v.market.time);
    const m1 = rows('1m');
    const want: Record<string, string[][]> = {
      '1m': m1,
      '1h': rows('1h'),
      '1d': rows('1d'),
      '5m': aggregate(m1, 5 * 60_000),
      '15m': aggregate(m1, 15 * 60_000),
      '4h': aggregate(m1, 4 * 3_600_000),
    };
    expect(want['1h'].length).toBe(72);
    for (const [interval, w] of Object.entries(want)) {
      // read in pages of at most 1000 candles (a range read serves 1500 at most)
      const got: ReturnType<typeof v.klines.klines> = [];
      const span = 1000 * (interval === '1m' ? 60_000 : 300_000);
      for (let t = START; t < Date.UTC(2021, 4, 19); t += span)
        got.push(
          ...v.klines
            .klines('BTCUSDT', interval as '1m', {
              startTime: t,
              endTime: Math.min(t + span, Date.UTC(2021, 4, 19)) - 1,
            })
            .filter((k) => k[0] >= t),
        );
      got.sort((x, y) => x[0] - y[0]);
      expect(
        got.map((k) => k[0]),
        interval,
      ).toEqual(w.map((f) => Number(f[0])));
      for (let i = 0; i < w.length; i++) {
        const f = w[i];
        const k = got[i];
        // the source's columns in the served candle's order: open time, close time, open, high,
        // low, close, volume, quote volume, count, taker buy volume, taker buy quote volume
        const source = [f[0], f[6], f[1], f[2], f[3], f[4], f[5], f[7], f[8], f[9], f[10]].map(norm);
        expect(
          k.slice(0, 11).map((x) => norm(String(x))),
          `${interval} ${new Date(k[0]).toISOString()}`,
        ).toEqual(source);
      }
    }
  });
});

/** A decimal string without trailing zeros ("150.90843700" -> "150.908437", "3408" -> "3408"). */
function norm(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** 1m rows summed to a coarser interval as Binance builds it (sums exact, at 8 decimals). */
function aggregate(m1: string[][], ms: number): string[][] {
  const e8 = (x: string): bigint => {
    const [a, b = ''] = x.split('.');
    return BigInt(a + b.padEnd(8, '0').slice(0, 8));
  };
  const s8 = (n: bigint): string => {
    const t = n.toString().padStart(9, '0');
    return `${t.slice(0, -8)}.${t.slice(-8)}`;
  };
  const out: string[][] = [];
  for (let i = 0; i < m1.length;) {
    const open = Math.floor(Number(m1[i][0]) / ms) * ms;
    const group: string[][] = [];
    while (i < m1.length && Math.floor(Number(m1[i][0]) / ms) * ms === open) group.push(m1[i++]);
    const sum = (c: number): string => s8(group.reduce((a, f) => a + e8(f[c]), 0n));
    out.push([
      String(open),
      group[0][1],
      group.reduce((a, f) => (Number(f[2]) > Number(a) ? f[2] : a), group[0][2]),
      group.reduce((a, f) => (Number(f[3]) < Number(a) ? f[3] : a), group[0][3]),
      group[group.length - 1][4],
      sum(5),
      String(open + ms - 1),
      sum(7),
      String(group.reduce((a, f) => a + Number(f[8]), 0)),
      sum(9),
      sum(10),
    ]);
  }
  return out;
}

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
