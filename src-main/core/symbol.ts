// A trading pair of the catalogue as the venue keeps it (the store's row, the exchange's pair
// definition, the market's and the transport's view of it). Plain data, below every layer.
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
