// What a replay reads from the imported datasets (docs/data.md): the replay's port, implemented
// over the datasets store (dataset-replay-data.ts). Every stream is in time order
// (ms UTC) and starts at a given time; prices and quantities are decimal strings as stored, so
// the replay converts them to the pair's ticks and lots once (no float rounding of history).

/** The contract specs of a dataset (decimal strings as in the symbol config). */
export interface ReplaySpecs {
  readonly tickSize: string;
  readonly stepSize: string;
  /** Maintenance tiers: notional cap (USDT, null = no cap), max leverage, maintenance margin rate. */
  readonly tiers: readonly { readonly cap: number | null; readonly maxLeverage: number; readonly mmr: number }[];
}

type ReplayDatasetKind =
  | 'depth'
  | 'trades'
  | 'aggTrades'
  | 'klines'
  | 'markPriceKlines'
  | 'indexPriceKlines'
  | 'premiumIndexKlines'
  | 'fundingRate'
  | 'bookTicker'
  | 'bookDepth';

export interface ReplayDataset {
  readonly id: number;
  readonly market: 'spot' | 'um' | 'cm';
  readonly symbol: string;
  readonly kind: ReplayDatasetKind;
  /** Candle interval for the candle kinds, '' otherwise. */
  readonly interval: string;
  /** ms of the first and last row (candles: open times), null while empty. */
  readonly firstTime: number | null;
  readonly lastTime: number | null;
  readonly specs: ReplaySpecs;
  /** Where the specs come from: the built-in catalogue, the data's decimals, or the user. */
  readonly specsSource: 'catalogue' | 'inferred' | 'edited';
}

/** One L2 event: a REST snapshot (U = u = lastUpdateId, pu -1) or a diff (U first, u final, pu previous final id; -1 in spot). */
export interface HistDepth {
  readonly time: number;
  readonly snapshot: boolean;
  readonly U: number;
  readonly u: number;
  readonly pu: number;
  readonly bids: readonly (readonly [string, string])[];
  readonly asks: readonly (readonly [string, string])[];
}

/** One historical trade. */
export interface HistTrade {
  readonly time: number;
  readonly price: string;
  readonly qty: string;
  /** The buyer was the maker: the aggressor sold. */
  readonly buyerMaker: boolean;
  /** The trades it stands for (an aggregated trade: last - first + 1); absent: 1. */
  readonly trades?: number;
}

/**
 * Trades as the store holds them, a block at a time: rows [start, count) of parallel columns,
 * prices and quantities as integer mantissas at the block's decimals (exactly the decimal
 * strings trades() gives: price[i] / 10^priceDp). The arrays may be reused for the next block:
 * read a row before moving on.
 */
export interface HistTradeBlock {
  readonly start: number;
  readonly count: number;
  /** ms. */
  readonly time: Float64Array;
  readonly price: Float64Array;
  readonly priceDp: number;
  readonly qty: Float64Array;
  readonly qtyDp: number;
  /** 1 when the buyer was the maker (the aggressor sold). */
  readonly buyerMaker: Uint8Array;
  /** Per row, the trades it stands for (aggregated trades: last - first + 1); absent: 1 each. */
  readonly trades?: Float64Array;
}

export interface HistCandle {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly takerBuyVolume: string;
  /** The source's quote volume, trade count and taker-buy quote volume (absent: not adjusted to). */
  readonly quoteVolume?: string;
  readonly trades?: number;
  readonly takerBuyQuoteVolume?: string;
}

/** One settled funding of the archive (fundingRate rows). */
export interface HistFunding {
  readonly time: number;
  readonly rate: number;
}

export interface ReplayData {
  /** Every dataset of a symbol (any market), with its time span and specs. */
  datasets(symbol: string): ReplayDataset[];
  /**
   * The dataset of an id, whatever its symbol, null when there is none: a pinned dataset of
   * another symbol is refused naming it (pins.ts). Without it such a pin is called unknown.
   */
  dataset?(id: number): ReplayDataset | null;
  /** Depth events of a depth dataset at or after `from`, in time order. */
  depth(datasetId: number, from: number): Iterable<HistDepth>;
  /**
   * ms of the last snapshot of a depth dataset at or before `at` (an index look-up), null when
   * there is none. A replay starting late in a long recording reads the depth from there; without
   * this method (a port with no index) it reads from the dataset's first event.
   */
  depthAnchor?(datasetId: number, at: number): number | null;
  /** Trades of a trades / aggTrades dataset at or after `from`, in time order. */
  trades(datasetId: number, from: number): Iterable<HistTrade>;
  /**
   * The same trades in blocks of columns (no decimal strings to build and parse again): the
   * replay's path when the port has it; without it the replay reads trades().
   */
  tradeBlocks?(datasetId: number, from: number): Iterable<HistTradeBlock>;
  /** Candles of a candle dataset with open time in [from, to], ascending. */
  candles(datasetId: number, from: number, to: number): Iterable<HistCandle>;
  /**
   * The last trade of a trades / aggTrades dataset at or before `at` (ms), and the last candle of
   * a candle dataset opened at or before it (index look-ups, however far back), null when there
   * is none: what history showed at `at`, never later (catalogue.ts: the price a replay starts
   * with). Without them (a port with no index) a replay looks a week back for a candle only.
   */
  lastTrade?(datasetId: number, at: number): HistTrade | null;
  lastCandle?(datasetId: number, at: number): HistCandle | null;
  /** Funding rows of a fundingRate dataset at or after `from`, in time order. */
  funding(datasetId: number, from: number): Iterable<HistFunding>;
}
