// The markets and kinds of Binance public market-data files (data.binance.vision) a dataset can
// hold (docs/data.md): declared once here for the service (src-main/data/kinds.ts checks keys
// against them) and the screen's Data dialog (the kinds it offers, which take an interval).

export const MARKETS = ['spot', 'um', 'cm'] as const;
export type Market = (typeof MARKETS)[number];

/** The kinds, candle kinds first. */
export const KINDS = [
  'klines',
  'markPriceKlines',
  'indexPriceKlines',
  'premiumIndexKlines',
  'fundingRate',
  'aggTrades',
  'trades',
  'bookTicker',
  'bookDepth',
  // L2 order book: REST snapshots + the diff-depth stream, as recorded by third-party tools (the
  // archive publishes none); src-main/data/depth-rows.ts reads their layouts
  'depth',
] as const;
export type Kind = (typeof KINDS)[number];

/** The kinds stored as candles: the only ones with an interval. */
export const CANDLE_KINDS: ReadonlySet<Kind> = new Set([
  'klines',
  'markPriceKlines',
  'indexPriceKlines',
  'premiumIndexKlines',
]);

export function isMarket(s: unknown): s is Market {
  return typeof s === 'string' && (MARKETS as readonly string[]).includes(s);
}

export function isKind(s: unknown): s is Kind {
  return typeof s === 'string' && (KINDS as readonly string[]).includes(s);
}
