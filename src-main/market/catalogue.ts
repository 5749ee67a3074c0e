// The default trading-pair catalogue, written to SQLite on a venue's first start.
//
// Figures follow Binance USD-M's published filters for these pairs (tick and step sizes,
// minimum notional, fees, leverage), rounded where a pair's real values change often.
// `initialPrice` seeds the simulator the first time a pair is listed.

export interface CatalogueEntry {
  symbol: string;
  base: string;
  status: 1 | 2 | 3;
  allowMarket: boolean;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
  makerFeeRate: string;
  takerFeeRate: string;
  maxLeverage: number;
  /** Notional cap of the first maintenance tier (USDT); BTCUSDT uses the reference's exact tiers. */
  firstTierCap: number;
  marketProtectRatio: string;
  priceMerges: string[];
  isDefault: boolean;
  isHot: boolean;
  isGainer: boolean;
  tags: Array<'new' | 'meme' | 'innovation'>;
  initialPrice: string;
}

const majors = { makerFeeRate: '0.0002', takerFeeRate: '0.0005', marketProtectRatio: '0.05' } as const;
const alts = { makerFeeRate: '0.0002', takerFeeRate: '0.0005', marketProtectRatio: '0.10' } as const;

export const DEFAULT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    symbol: 'BTCUSDT', base: 'BTC', status: 1, allowMarket: true,
    tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '1000', minNotional: '100',
    ...majors, maxLeverage: 125, firstTierCap: 50_000,
    priceMerges: ['0.1', '1', '10', '50', '100'],
    isDefault: true, isHot: true, isGainer: false, tags: [], initialPrice: '96000.0',
  },
  {
    symbol: 'ETHUSDT', base: 'ETH', status: 1, allowMarket: true,
    tickSize: '0.01', stepSize: '0.001', minQty: '0.001', maxQty: '10000', minNotional: '20',
    ...majors, maxLeverage: 125, firstTierCap: 50_000,
    priceMerges: ['0.01', '0.1', '1', '10'],
    isDefault: true, isHot: true, isGainer: false, tags: [], initialPrice: '3400.00',
  },
  {
    symbol: 'SOLUSDT', base: 'SOL', status: 1, allowMarket: true,
    tickSize: '0.01', stepSize: '0.01', minQty: '0.01', maxQty: '100000', minNotional: '5',
    ...majors, maxLeverage: 100, firstTierCap: 20_000,
    priceMerges: ['0.01', '0.1', '1'],
    isDefault: true, isHot: true, isGainer: true, tags: [], initialPrice: '185.00',
  },
  {
    symbol: 'BNBUSDT', base: 'BNB', status: 1, allowMarket: true,
    tickSize: '0.01', stepSize: '0.01', minQty: '0.01', maxQty: '20000', minNotional: '5',
    ...majors, maxLeverage: 75, firstTierCap: 10_000,
    priceMerges: ['0.01', '0.1', '1'],
    isDefault: true, isHot: false, isGainer: false, tags: [], initialPrice: '650.00',
  },
  {
    symbol: 'XRPUSDT', base: 'XRP', status: 1, allowMarket: true,
    tickSize: '0.0001', stepSize: '0.1', minQty: '0.1', maxQty: '10000000', minNotional: '5',
    ...majors, maxLeverage: 75, firstTierCap: 10_000,
    priceMerges: ['0.0001', '0.001', '0.01'],
    isDefault: true, isHot: true, isGainer: false, tags: [], initialPrice: '2.2000',
  },
  {
    symbol: 'DOGEUSDT', base: 'DOGE', status: 1, allowMarket: true,
    tickSize: '0.00001', stepSize: '1', minQty: '1', maxQty: '50000000', minNotional: '5',
    ...alts, maxLeverage: 75, firstTierCap: 10_000,
    priceMerges: ['0.00001', '0.0001', '0.001'],
    isDefault: true, isHot: true, isGainer: true, tags: ['meme'], initialPrice: '0.32000',
  },
  {
    symbol: '1000PEPEUSDT', base: '1000PEPE', status: 1, allowMarket: true,
    tickSize: '0.0000001', stepSize: '1', minQty: '1', maxQty: '800000000', minNotional: '5',
    ...alts, maxLeverage: 50, firstTierCap: 5_000,
    priceMerges: ['0.0000001', '0.000001', '0.00001'],
    isDefault: false, isHot: true, isGainer: true, tags: ['meme'], initialPrice: '0.0135000',
  },
  {
    symbol: 'WIFUSDT', base: 'WIF', status: 1, allowMarket: true,
    tickSize: '0.0001', stepSize: '0.1', minQty: '0.1', maxQty: '2000000', minNotional: '5',
    ...alts, maxLeverage: 50, firstTierCap: 5_000,
    priceMerges: ['0.0001', '0.001', '0.01'],
    isDefault: false, isHot: false, isGainer: false, tags: ['meme', 'new'], initialPrice: '2.1000',
  },
  {
    symbol: 'TAOUSDT', base: 'TAO', status: 1, allowMarket: true,
    tickSize: '0.01', stepSize: '0.001', minQty: '0.001', maxQty: '10000', minNotional: '5',
    ...alts, maxLeverage: 50, firstTierCap: 5_000,
    priceMerges: ['0.01', '0.1', '1'],
    isDefault: false, isHot: false, isGainer: false, tags: ['innovation'], initialPrice: '450.00',
  },
  {
    symbol: 'ONDOUSDT', base: 'ONDO', status: 1, allowMarket: true,
    tickSize: '0.0001', stepSize: '0.1', minQty: '0.1', maxQty: '5000000', minNotional: '5',
    ...alts, maxLeverage: 50, firstTierCap: 5_000,
    priceMerges: ['0.0001', '0.001', '0.01'],
    isDefault: false, isHot: false, isGainer: true, tags: ['innovation'], initialPrice: '1.3000',
  },
  {
    symbol: 'ENAUSDT', base: 'ENA', status: 1, allowMarket: true,
    tickSize: '0.0001', stepSize: '1', minQty: '1', maxQty: '5000000', minNotional: '5',
    ...alts, maxLeverage: 50, firstTierCap: 5_000,
    priceMerges: ['0.0001', '0.001', '0.01'],
    isDefault: false, isHot: false, isGainer: false, tags: ['new'], initialPrice: '0.9000',
  },
  {
    symbol: 'HYPEUSDT', base: 'HYPE', status: 1, allowMarket: true,
    tickSize: '0.001', stepSize: '0.01', minQty: '0.01', maxQty: '200000', minNotional: '5',
    ...alts, maxLeverage: 20, firstTierCap: 5_000,
    priceMerges: ['0.001', '0.01', '0.1'],
    isDefault: false, isHot: true, isGainer: false, tags: ['new', 'innovation'], initialPrice: '25.000',
  },
  {
    // A paused pair: listed, shown, not trading (exercises status filters and rejections).
    symbol: 'FTTUSDT', base: 'FTT', status: 2, allowMarket: false,
    tickSize: '0.0001', stepSize: '0.1', minQty: '0.1', maxQty: '1000000', minNotional: '5',
    ...alts, maxLeverage: 20, firstTierCap: 5_000,
    priceMerges: ['0.0001', '0.001'],
    isDefault: false, isHot: false, isGainer: false, tags: [], initialPrice: '2.5000',
  },
  {
    // A delisted pair kept for history.
    symbol: 'LUNA2USDT', base: 'LUNA2', status: 3, allowMarket: false,
    tickSize: '0.0001', stepSize: '1', minQty: '1', maxQty: '1000000', minNotional: '5',
    ...alts, maxLeverage: 20, firstTierCap: 5_000,
    priceMerges: ['0.0001', '0.001'],
    isDefault: false, isHot: false, isGainer: false, tags: [], initialPrice: '0.4000',
  },
];
