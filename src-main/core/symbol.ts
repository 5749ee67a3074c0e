// A trading pair of the catalogue as the venue keeps it (the store's row, the exchange's pair
// definition, the market's and the transport's view of it). Plain data, below every layer, and
// the rule of which pairs are listed.
import { SymbolStatus } from '../../src-shared/enums.ts';
import type { Bracket } from '../risk/tiers.ts';

/** A maintenance tier as stored (JSON); an infinite cap is stored as null. */
export type MaintenanceBracket = Bracket;

export type SymbolTag = 'new' | 'meme' | 'innovation';

export interface SymbolRow {
  id: number;
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  marginAsset: string;
  contractType: number;
  /** 1 trading, 2 paused, 3 delisted (the /api/v1 meaning). */
  status: number;
  allowMarket: boolean;
  pricePrecision: number;
  qtyPrecision: number;
  quotePrecision: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
  makerFeeRate: string;
  takerFeeRate: string;
  maxLeverage: number;
  maintenanceMarginRate: string;
  brackets: readonly MaintenanceBracket[];
  marketPriceProtectRatio: string;
  priceMerges: string[];
  logo: string;
  sortOrder: number;
  isDefault: boolean;
  isHot: boolean;
  isGainer: boolean;
  isNew: boolean;
  tags: SymbolTag[];
  initialPrice: string;
  createdAt: number;
  updatedAt: number;
}

export type NewSymbol = Omit<SymbolRow, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * Whether a pair is listed: trading or paused, not delisted (status 3). The one rule of every
 * surface: a delisted pair is kept for its history (its symbol records, depth, trades and klines
 * still answer on the native API) but has no price record, no mark, index or funding rate:
 * `/fapi/v1/prices`, the insurance fund's pairs and the 24 h tickers without `symbols` leave it out,
 * `complete_price` answers 7001 and the /ws `price@` stream 1101; the Binance dialect knows
 * listed pairs only.
 */
export function isListed(row: Pick<SymbolRow, 'status'>): boolean {
  return row.status !== SymbolStatus.DELISTED;
}
