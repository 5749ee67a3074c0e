// CandleStore.writeMany, both stores: SQLite (CandlesRepo: up to 64 rows a statement, each row an
// upsert) and memory (MemoryCandleStore: an append for the next candle, else a search): a candle
// listed twice in one flush, in one statement or across two, or out of order, ends as its last
// copy, in open-time order.
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../src-main/core/candle.ts';
import { storedCandle } from '../helpers/stored-candle.ts';
import type { CandleStore } from '../../src-main/market/ports.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { MemoryCandleStore } from '../../src-main/store/memory-candle-store.ts';
import { openDatabase } from '../../src-main/store/database.ts';

const dbs: Array<{ close(): void }> = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

const stores: Array<[string, () => CandleStore]> = [
  [
    'CandlesRepo',
    () => {
      const db = openDatabase({ dataDir: ':memory:' });
      dbs.push(db);
      return new CandlesRepo(db);
    },
  ],
  ['MemoryCandleStore', () => new MemoryCandleStore()],
];

describe.each(stores)('%s.writeMany', (_name, open) => {
  it('stores every candle of a long flush, the last copy of a repeated one', () => {
    const repo = open();
    const list: Candle[] = [];
    const symbols: string[] = [];
    // 200 candles of two symbols; open times repeat within the first statement's rows (index 3 and
    // 40), across statements (10 and 100), into the last, short statement (5 and 199), and as the
    // series' newest candle again (149 and 151, both ETHUSDT)
    for (let i = 0; i < 200; i++) {
      const t = i === 40 ? 3 : i === 100 ? 10 : i === 199 ? 5 : i === 151 ? 149 : i;
      list.push(storedCandle(t * 60_000, 1000 + i));
      symbols.push(i % 2 === 0 ? 'BTCUSDT' : 'ETHUSDT');
    }
    repo.writeMany(symbols, list);
    const expected = new Map<string, Candle>();
    list.forEach((c, i) => expected.set(`${symbols[i]} ${c.openTime}`, c));
    const stored = new Map<string, Candle>();
    for (const s of ['BTCUSDT', 'ETHUSDT']) {
      const got = repo.range(s, '1m', 0, 1e12);
      // one candle an open time, ascending
      for (let i = 1; i < got.length; i++) expect(got[i].openTime).toBeGreaterThan(got[i - 1].openTime);
      for (const c of got) stored.set(`${s} ${c.openTime}`, c);
    }
    expect(stored.size).toBe(expected.size);
    for (const [k, c] of expected) expect(stored.get(k), k).toEqual(c);
    // the repeats: 40 and 100 are ETH/BTC rows of their own time; 3 (ETH) and 40 (BTC) differ in symbol
    expect(stored.get('BTCUSDT 600000')!.close).toBe(1100);
    expect(stored.get('ETHUSDT 300000')!.close).toBe(1199);
    expect(stored.get(`ETHUSDT ${149 * 60_000}`)!.close).toBe(1151);
  });

  it('writes only the first n rows', () => {
    const repo = open();
    const list = Array.from({ length: 130 }, (_, i) => storedCandle(i * 60_000, i + 1));
    repo.writeMany(
      list.map(() => 'BTCUSDT'),
      list,
      97,
    );
    const got = repo.range('BTCUSDT', '1m', 0, 1e12);
    expect(got.map((c) => c.close)).toEqual(list.slice(0, 97).map((c) => c.close));
  });
});
