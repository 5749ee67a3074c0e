// The API's market-data records (candles, prices, trading pairs, depth) and their queries,
// exactly as spec/api.md names, orders and types their fields (re-exported by ../types.ts).

import type { ContractType, FuturesSymbolStatus, Side, SymbolStatus, SymbolTag } from '../enums.ts';
import type { Interval } from '../intervals.ts';

/** Body of a candlestick-route error (HTTP 200, no `data`). */
export interface KlinesError {
  code: number;
  message: string;
}

// ---------------------------------------------------------------- candlesticks

/** One candlestick: the spec's 12-element array. */
export type Candle = [
  openTime: number,
  closeTime: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
  quoteVolume: string,
  trades: number,
  takerBuyBaseVolume: string,
  takerBuyQuoteVolume: string,
  isClosed: boolean,
];

/** Index of each candlestick element. */
export const CandleIndex = Object.freeze({
  OPEN_TIME: 0,
  CLOSE_TIME: 1,
  OPEN: 2,
  HIGH: 3,
  LOW: 4,
  CLOSE: 5,
  VOLUME: 6,
  QUOTE_VOLUME: 7,
  TRADES: 8,
  TAKER_BUY_BASE_VOLUME: 9,
  TAKER_BUY_QUOTE_VOLUME: 10,
  IS_CLOSED: 11,
} as const);

/** `/fapi/v1/klines/batch`: pair name to candles, newest first. */
export type KlinesBatch = Record<string, Candle[]>;

// ---------------------------------------------------------------- prices

export interface PriceRecord {
  symbol: string;
  index_price: string;
  mark_price: string;
  last_price: string;
  /** 6 decimals; positive means longs pay shorts. */
  funding_rate: string;
  next_funding_time: number;
  price_precision: number;
  qty_precision: number;
  timestamp: number;
}

export const PRICE_RECORD_FIELDS = [
  'symbol',
  'index_price',
  'mark_price',
  'last_price',
  'funding_rate',
  'next_funding_time',
  'price_precision',
  'qty_precision',
  'timestamp',
] as const satisfies readonly (keyof PriceRecord)[];

/**
 * A record of `GET /api/v1/ticker/24h` (an extension): a pair's rolling 24 h figures over the
 * 1-minute candles that opened in the last 24 h of market time, in exact decimals; prices at the
 * pair's price precision, `volume` in the base asset, `quote_volume` in USDT.
 */
export interface Ticker24hRecord {
  symbol: string;
  open_price: string;
  high_price: string;
  low_price: string;
  last_price: string;
  /** last_price - open_price. */
  price_change: string;
  /** Percent of open_price, 3 decimals. */
  price_change_percent: string;
  weighted_avg_price: string;
  volume: string;
  quote_volume: string;
  trade_count: number;
  /** Market time of the window's first candle, ms (the answer's time with no candle). */
  open_time: number;
  /** Market time of the answer, ms. */
  close_time: number;
}

// ---------------------------------------------------------------- trading pairs

/** A record of `/api/v1/symbols` and `/api/v1/symbols/{symbol}`. */
export interface GeneralSymbol {
  id: number;
  symbol: string;
  base_asset: string;
  quote_asset: string;
  status: SymbolStatus;
  allow_market: boolean;
  price_precision: number;
  qty_precision: number;
  quote_precision: number;
  tick_size: string;
  step_size: string;
  min_qty: string;
  max_qty: string;
  min_quote: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  logo: string;
  sort_order: number;
  is_default: boolean;
  is_hot: boolean;
  is_gainer: boolean;
  is_new: boolean;
  created_at: number;
  updated_at: number;
}

export const GENERAL_SYMBOL_FIELDS = [
  'id',
  'symbol',
  'base_asset',
  'quote_asset',
  'status',
  'allow_market',
  'price_precision',
  'qty_precision',
  'quote_precision',
  'tick_size',
  'step_size',
  'min_qty',
  'max_qty',
  'min_quote',
  'maker_fee_rate',
  'taker_fee_rate',
  'logo',
  'sort_order',
  'is_default',
  'is_hot',
  'is_gainer',
  'is_new',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof GeneralSymbol)[];

/** A record of `/fapi/v1/symbols`. */
export interface FuturesSymbol {
  symbol: string;
  base_asset: string;
  quote_asset: string;
  margin_asset: string;
  contract_type: ContractType;
  status: FuturesSymbolStatus;
  max_leverage: number;
  maintenance_margin_rate: string;
  maker_fee_rate: string;
  taker_fee_rate: string;
  price_precision: number;
  price_step: string;
  qty_precision: number;
  qty_step: string;
  min_qty: string;
  max_qty: string;
  min_notional: string;
  market_price_protect_ratio: string;
  price_merges: string[];
  logo: string;
}

export const FUTURES_SYMBOL_FIELDS = [
  'symbol',
  'base_asset',
  'quote_asset',
  'margin_asset',
  'contract_type',
  'status',
  'max_leverage',
  'maintenance_margin_rate',
  'maker_fee_rate',
  'taker_fee_rate',
  'price_precision',
  'price_step',
  'qty_precision',
  'qty_step',
  'min_qty',
  'max_qty',
  'min_notional',
  'market_price_protect_ratio',
  'price_merges',
  'logo',
] as const satisfies readonly (keyof FuturesSymbol)[];

// ---------------------------------------------------------------- trades and the insurance fund (extensions)

/** One public trade of `GET /fapi/v1/trades`. */
export interface PublicTrade {
  id: string;
  price: string;
  qty: string;
  quote_qty: string;
  /** Market time, ms. */
  time: number;
  taker_side: Side;
  is_buyer_maker: boolean;
}

/** `GET /fapi/v1/time`: the wall clock requests are signed against, and the market's clock. */
export interface ServerTime {
  /** Wall-clock time, ms. */
  server_time: number;
  /** Market (virtual) time, ms. */
  market_time: number;
  /** How many times real time the market clock runs. */
  speed: number;
  /** Whether the market clock stands still. */
  paused: boolean;
}

/** `GET /fapi/v1/insuranceBalance`: the one fund every pair shares (USDT, 8 decimals). */
export interface InsuranceBalance {
  asset: string;
  /** The fund, never below zero. */
  balance: string;
  /** What the house backstop has paid: losses the fund could not cover and nobody was left to deleverage. */
  house_backstop: string;
  /** The pairs the fund backs: every listed pair. */
  symbols: string[];
  /** Market time of the reading, ms. */
  time: number;
}

// ---------------------------------------------------------------- depth

/** `[price, quantity]`; quantity "0" in a delta deletes the level. */
export type PriceLevel = [price: string, qty: string];

/** `data` of `GET /fapi/v1/depth`; `id` is the update id after the last change included. */
export interface DepthSnapshot {
  bids: PriceLevel[];
  asks: PriceLevel[];
  id: number;
}

/** Event type of `depth_update@{symbol}` (Binance's name). */
export const DEPTH_UPDATE_EVENT = 'depthUpdate';
/** Event type of `depth@{symbol},{level}`. */
export const DEPTH_SNAPSHOT_EVENT = 'depth';

/** Levels the `depth@{symbol},{level}` channel accepts (DESIGN section 4). */
export const DEPTH_CHANNEL_LEVELS = Object.freeze([5, 10, 20, 50, 100] as const);
export type DepthChannelLevel = (typeof DEPTH_CHANNEL_LEVELS)[number];

/** A push of `depth_update@{symbol}`: changes with update ids U..u; `pu` is the previous event's `u`. */
export interface DepthUpdateEvent {
  e: typeof DEPTH_UPDATE_EVENT;
  /** Event time, ms. */
  E: number;
  s: string;
  U: number;
  u: number;
  pu: number;
  b: PriceLevel[];
  a: PriceLevel[];
}

/** A push of `depth@{symbol},{level}`: the top `level` levels after update id `u`. */
export interface DepthSnapshotEvent {
  e: typeof DEPTH_SNAPSHOT_EVENT;
  E: number;
  s: string;
  u: number;
  bids: PriceLevel[];
  asks: PriceLevel[];
}

// ---------------------------------------------------------------- query parameters (as typed values)

export interface KlinesQuery {
  symbol: string;
  interval: Interval;
  start_time?: number;
  end_time?: number;
  limit?: number;
}

export interface KlinesBatchQuery {
  /** Comma-separated, at most 20. */
  symbols: string;
  interval: Interval;
  limit?: number;
}

export interface DepthQuery {
  symbol: string;
  with_id?: boolean;
}

/** Filters of `GET /api/v1/symbols`. */
export interface GeneralSymbolsQuery {
  status?: SymbolStatus;
  tag?: SymbolTag;
}

export interface FuturesSymbolsQuery {
  /** Comma-separated. */
  symbols?: string;
  tag?: SymbolTag;
}
