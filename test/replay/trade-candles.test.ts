// Candles of a replay of trades follow from the trades as Binance builds them (docs/replay.md
// "Candles"): every column of every 1s and 1m candle, computed here straight from the TRXUSDT
// trade recording (test/fixtures/binance/depth, SOURCES.md), equals the venue's, when the replay
// reads the recording as trades and as aggregated trades (consecutive trades of one taker order,
// same time, price and side, made one aggTrades row with first and last trade ids, as Binance
// aggregates them): an aggregated trade counts as the trades it stands for.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../data/archive-fixtures.ts';
import { LASOTA, replayVenue, TRX_TRADES } from './harness.ts';

interface RawTrade {
  id: number;
  time: number;
  price: string;
  qty: string;
  buyerMaker: boolean;
}

const raw: RawTrade[] = readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','))
  .map((f) => ({ id: Number(f[6]), time: Number(f[4]), price: f[7], qty: f[8], buyerMaker: f[9] === '1' }));

/** The recording as the archive's aggTrades CSV: runs of one time, price and side made one row. */
function aggTradesCsv(): { file: string; rows: number } {
  const out = ['agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker'];
  for (let i = 0; i < raw.length;) {
    const a = raw[i];
    let j = i;
    let qty = 0;
    while (j < raw.length && raw[j].time === a.time && raw[j].price === a.price && raw[j].buyerMaker === a.buyerMaker)
      qty += Number(raw[j++].qty);
    out.push([out.length, a.price, qty.toFixed(1), a.id, raw[j - 1].id, a.time, a.buyerMaker].join(','));
    i = j;
  }
  const file = path.join(tempDir(), 'TRXUSDT-aggTrades-2025-04-14.csv');
  writeFileSync(file, out.join('\n') + '\n');
  return { file, rows: out.length - 1 };
}

/** a decimal string as an integer at `dp` decimals */
const units = (s: string, dp: number): bigint => {
  const [a, b = ''] = s.split('.');
  return BigInt(a + b.padEnd(dp, '0').slice(0, dp));
};
const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
const text = (n: bigint, dp: number): string => {
  const t = n.toString().padStart(dp + 1, '0');
  return norm(`${t.slice(0, -dp)}.${t.slice(-dp)}`);
};

/** Binance's candles of the raw trades at `ms`: [open time, o, h, l, c, volume, quote, count, taker buy volume, taker buy quote]. */
function expected(ms: number): string[][] {
  const out = new Map<number, RawTrade[]>();
  for (const t of raw) {
    const k = Math.floor(t.time / ms) * ms;
    out.set(k, [...(out.get(k) ?? []), t]);
  }
  return [...out].map(([open, ts]) => {
    const px = ts.map((t) => Number(t.price));
    const quote = (list: RawTrade[]): bigint => list.reduce((a, t) => a + units(t.price, 5) * units(t.qty, 1), 0n);
    const vol = (list: RawTrade[]): bigint => list.reduce((a, t) => a + units(t.qty, 1), 0n);
    const buys = ts.filter((t) => !t.buyerMaker);
    return [
      String(open),
      norm(ts[0].price),
      String(Math.max(...px)),
      String(Math.min(...px)),
      norm(ts[ts.length - 1].price),
      text(vol(ts), 1),
      text(quote(ts), 6),
      String(ts.length),
      text(vol(buys), 1),
      text(quote(buys), 6),
    ];
  });
}

async function servedCandles(file: string, kind: 'trades' | 'aggTrades'): Promise<Record<string, string[][]>> {
  const v = await replayVenue([{ paths: [file], opts: { market: 'um', symbol: 'TRXUSDT', kind } }], {
    symbols: ['TRXUSDT'],
    start: raw[0].time,
  });
  try {
    v.market.seek(v.market.status().until);
    v.klines.advanceTo(raw[raw.length - 1].time + 120_000);
    const out: Record<string, string[][]> = {};
    for (const iv of ['1s', '1m'] as const) {
      out[iv] = v.klines
        .klines('TRXUSDT', iv, { limit: 1500 })
        .filter((k) => k[8] > 0)
        .sort((a, b) => a[0] - b[0])
        .map((k) => [k[0], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10]].map((x) => norm(String(x))));
    }
    return out;
  } finally {
    v.close();
  }
}

describe('candles of a replay of trades', () => {
  it('as trades: every column of every 1s and 1m candle is the recording as Binance builds it', async () => {
    const got = await servedCandles(TRX_TRADES, 'trades');
    expect(got['1s']).toEqual(expected(1000));
    expect(got['1m']).toEqual(expected(60_000));
  }, 60_000);

  it('as aggregated trades: the same candles, each row counting the trades it stands for', async () => {
    const agg = aggTradesCsv();
    expect(agg.rows).toBeLessThan(raw.length); // some rows stand for several trades
    const got = await servedCandles(agg.file, 'aggTrades');
    expect(got['1s']).toEqual(expected(1000));
    expect(got['1m']).toEqual(expected(60_000));
  }, 60_000);
});
