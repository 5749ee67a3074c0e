// Turns the default catalogue into stored pairs: precisions from the tick and step sizes,
// maintenance tiers from the risk module, logos served by the service itself (no remote content).
import { BTCUSDT_BRACKETS, generateBrackets } from '../risk/tiers.ts';
import type { NewSymbol } from '../core/symbol.ts';
import { DEFAULT_CATALOGUE, type CatalogueEntry } from './catalogue.ts';
import type { CatalogueStore } from './ports.ts';

export function decimalsOf(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.length - dot - 1;
}

export function toNewSymbol(e: CatalogueEntry, sortOrder: number): NewSymbol {
  const brackets = e.symbol === 'BTCUSDT' ? BTCUSDT_BRACKETS : generateBrackets(e.maxLeverage, e.firstTierCap);
  return {
    symbol: e.symbol,
    baseAsset: e.base,
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    contractType: 1,
    status: e.status,
    allowMarket: e.allowMarket,
    pricePrecision: decimalsOf(e.tickSize),
    qtyPrecision: decimalsOf(e.stepSize),
    quotePrecision: 8,
    tickSize: e.tickSize,
    stepSize: e.stepSize,
    minQty: e.minQty,
    maxQty: e.maxQty,
    minNotional: e.minNotional,
    makerFeeRate: e.makerFeeRate,
    takerFeeRate: e.takerFeeRate,
    maxLeverage: brackets[0].maxLeverage,
    maintenanceMarginRate: String(brackets[0].mmr),
    brackets,
    marketPriceProtectRatio: e.marketProtectRatio,
    priceMerges: e.priceMerges,
    logo: `/logos/${e.base}.svg`,
    sortOrder,
    isDefault: e.isDefault,
    isHot: e.isHot,
    isGainer: e.isGainer,
    isNew: e.tags.includes('new'),
    tags: e.tags,
    initialPrice: e.initialPrice,
  };
}

/** Lists every default pair that the store does not have yet. Returns how many were added. */
export function seedCatalogue(repo: CatalogueStore, now: number): number {
  return repo.insertMissing(
    DEFAULT_CATALOGUE.map((e, i) => toNewSymbol(e, (i + 1) * 10)),
    now,
  );
}
