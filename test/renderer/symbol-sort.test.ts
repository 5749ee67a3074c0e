// The pair picker's column sort: worked orders by hand, unknown figures last, ties stable.
import { describe, expect, it } from 'vitest';
import { nextSort, sortEntries } from '../../src-renderer/src/features/topbar/symbol-sort.ts';
import type { SymbolEntry } from '../../src-renderer/src/features/symbols/symbols-store.ts';
import type { Ticker } from '../../src-renderer/src/features/topbar/ticker-store.ts';

const entry = (symbol: string, maxLeverage: number): SymbolEntry =>
  ({
    general: { symbol },
    futures: { max_leverage: maxLeverage },
    tags: [],
    priceDecimals: 2,
    qtyDecimals: 3,
  }) as unknown as SymbolEntry;
const ticker = (last: number, open24: number, quoteVolume24: number): Ticker =>
  ({
    last,
    fundingRate: 0.0001,
    day: {
      open_price: open24.toFixed(2),
      last_price: last.toFixed(2),
      price_change_percent: (((last - open24) / open24) * 100).toFixed(3),
      quote_volume: String(quoteVolume24),
    },
  }) as unknown as Ticker;

const entries = [entry('BTCUSDT', 125), entry('ETHUSDT', 100), entry('DOGEUSDT', 75), entry('NEWUSDT', 20)];
const tickers: Record<string, Ticker> = {
  BTCUSDT: ticker(101, 100, 5e9), // +1%
  ETHUSDT: ticker(95, 100, 2e9), // -5%
  DOGEUSDT: ticker(110, 100, 3e8), // +10%
  // NEWUSDT: no ticker yet
};
const order = (xs: SymbolEntry[]): string[] => xs.map((e) => e.general.symbol);

describe('sortEntries', () => {
  it('by 24h change, highest first, the pair without figures last', () => {
    expect(order(sortEntries(entries, { key: 'change', dir: -1 }, tickers))).toEqual([
      'DOGEUSDT',
      'BTCUSDT',
      'ETHUSDT',
      'NEWUSDT',
    ]);
    expect(order(sortEntries(entries, { key: 'change', dir: 1 }, tickers))).toEqual([
      'ETHUSDT',
      'BTCUSDT',
      'DOGEUSDT',
      'NEWUSDT',
    ]);
  });

  it('by volume and by max leverage; by pair name A-Z; no sort keeps the catalogue order', () => {
    expect(order(sortEntries(entries, { key: 'volume', dir: -1 }, tickers))).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'DOGEUSDT',
      'NEWUSDT',
    ]);
    expect(order(sortEntries(entries, { key: 'leverage', dir: 1 }, tickers))).toEqual([
      'NEWUSDT',
      'DOGEUSDT',
      'ETHUSDT',
      'BTCUSDT',
    ]);
    expect(order(sortEntries(entries, { key: 'pair', dir: 1 }, tickers))).toEqual([
      'BTCUSDT',
      'DOGEUSDT',
      'ETHUSDT',
      'NEWUSDT',
    ]);
    expect(order(sortEntries(entries, null, tickers))).toEqual(['BTCUSDT', 'ETHUSDT', 'DOGEUSDT', 'NEWUSDT']);
  });

  it('by funding: a pair that settles none (paused: next_funding_time 0) has no rate and goes last', () => {
    // it sorted by the rate its price record still carries, 0.0100% for the paused FTTUSDT, which
    // the picker listed though the top bar says "—"
    const fund = (rate: number, next: number): Ticker => ({ fundingRate: rate, nextFundingTime: next }) as Ticker;
    const rows = [entry('PAUSEDUSDT', 20), entry('BTCUSDT', 125), entry('ETHUSDT', 100)];
    const rates = { PAUSEDUSDT: fund(0.0005, 0), BTCUSDT: fund(0.0001, 1), ETHUSDT: fund(-0.0002, 1) };
    expect(order(sortEntries(rows, { key: 'funding', dir: -1 }, rates))).toEqual(['BTCUSDT', 'ETHUSDT', 'PAUSEDUSDT']);
    expect(order(sortEntries(rows, { key: 'funding', dir: 1 }, rates))).toEqual(['ETHUSDT', 'BTCUSDT', 'PAUSEDUSDT']);
  });

  it('a header click: a new column sorts descending (the pair A-Z), the same one flips', () => {
    expect(nextSort(null, 'change')).toEqual({ key: 'change', dir: -1 });
    expect(nextSort({ key: 'change', dir: -1 }, 'change')).toEqual({ key: 'change', dir: 1 });
    expect(nextSort({ key: 'change', dir: 1 }, 'pair')).toEqual({ key: 'pair', dir: 1 });
  });
});
