// CandlesRepo.writeMany: many rows a statement (and the rest one a row) as one upsert each: a
// candle listed twice in one flush, in one statement or across two, ends as its last copy.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src-main/core/candle.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { openDatabase } from '../../src-main/store/database.ts';

const dbs: Array<{ close(): void }> = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

function candle(openTime: number, close: number): Candle {
  return {
    interval: '1m', openTime, open: 100, high: Math.max(100, close), low: Math.min(100, close), close, volume: close * 3,
    quoteVolume: 10n ** 20n + BigInt(close), trades: close % 7, takerBuyVolume: close, takerBuyQuoteVolume: BigInt(close) * 5n,
  };
}

describe('CandlesRepo.writeMany', () => {
  it('stores every candle of a long flush, the last copy of a repeated one', () => {
    const db = openDatabase({ dataDir: ':memory:' });
    dbs.push(db);
    const repo = new CandlesRepo(db);
    const list: Candle[] = [];
    const symbols: string[] = [];
    // 200 candles of two symbols; open times repeat within the first statement's rows (index 3 and
    // 40), across statements (10 and 100) and into the rows written one by one (5 and 199)
    for (let i = 0; i < 200; i++) {
      const t = i === 40 ? 3 : i === 100 ? 10 : i === 199 ? 5 : i;
      list.push(candle(t * 60_000, 1000 + i));
      symbols.push(i % 2 === 0 ? 'BTCUSDT' : 'ETHUSDT');
    }
    repo.writeMany(symbols, list);
    const expected = new Map<string, Candle>();
    list.forEach((c, i) => expected.set(`${symbols[i]} ${c.openTime}`, c));
    const stored = new Map<string, Candle>();
    for (const s of ['BTCUSDT', 'ETHUSDT']) for (const c of repo.range(s, '1m', 0, 1e12)) stored.set(`${s} ${c.openTime}`, c);
    expect(stored.size).toBe(expected.size);
    for (const [k, c] of expected) expect(stored.get(k), k).toEqual(c);
    // the repeats: 40 and 100 are ETH/BTC rows of their own time; 3 (ETH) and 40 (BTC) differ in symbol
    expect(stored.get('BTCUSDT 600000')!.close).toBe(1100);
    expect(stored.get('ETHUSDT 300000')!.close).toBe(1199);
  });

  it('writes only the first n rows', () => {
    const db = openDatabase({ dataDir: ':memory:' });
    dbs.push(db);
    const repo = new CandlesRepo(db);
    const list = Array.from({ length: 130 }, (_, i) => candle(i * 60_000, i + 1));
    repo.writeMany(list.map(() => 'BTCUSDT'), list, 97);
    const got = repo.range('BTCUSDT', '1m', 0, 1e12);
    expect(got.map((c) => c.close)).toEqual(list.slice(0, 97).map((c) => c.close));
  });
});
