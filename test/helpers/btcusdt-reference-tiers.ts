// reference/exchange.md's BTCUSDT maintenance tiers (Binance, late 2024), row for row, written
// from the reference and not from src-main/risk/tiers.ts, so that a test comparing the venue's
// table with it can fail: shared by the pure table's test (test/risk/tiers.test.ts) and the one of
// what a venue trades with (test/trading/reference-tiers.test.ts).

/** [tier, floor, cap (notional USDT), MMR, cum, max leverage], tier 1 first. */
export const BTCUSDT_REFERENCE_TIERS: ReadonlyArray<readonly [number, number, number, number, number, number]> = [
  [1, 0, 50e3, 0.004, 0, 125],
  [2, 50e3, 600e3, 0.005, 50, 100],
  [3, 600e3, 3e6, 0.0065, 950, 75],
  [4, 3e6, 12e6, 0.01, 11_450, 50],
  [5, 12e6, 70e6, 0.02, 131_450, 25],
  [6, 70e6, 100e6, 0.025, 481_450, 20],
  [7, 100e6, 230e6, 0.05, 2_981_450, 10],
  [8, 230e6, 480e6, 0.1, 14_481_450, 5],
  [9, 480e6, 600e6, 0.125, 26_481_450, 4],
  [10, 600e6, 800e6, 0.15, 41_481_450, 3],
  [11, 800e6, 1.2e9, 0.25, 121_481_450, 2],
  [12, 1.2e9, 1.8e9, 0.5, 421_481_450, 1],
];

const COLUMNS = ['tier', 'floor', 'cap', 'mmr', 'cum', 'maxLeverage'] as const;

/** One column of the reference table, tier 1 first. */
export const referenceColumn = (name: (typeof COLUMNS)[number]): number[] =>
  BTCUSDT_REFERENCE_TIERS.map((row) => row[COLUMNS.indexOf(name)]);
