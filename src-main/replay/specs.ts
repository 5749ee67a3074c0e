// The contract specs a replayed pair is listed with (docs/replay.md "What a replayed pair is made
// of"): the dataset's tick, step and tiers, or, when those are only the importer's placeholder
// ('inferred'), a tick and a lot read from the data itself; and the symbol row built from them.
import { DEFAULT_CATALOGUE } from '../market/catalogue.ts';
import { decimalsOf } from '../market/seed-catalogue.ts';
import type { NewSymbol } from '../core/symbol.ts';
import { makeBrackets } from '../risk/tiers.ts';
import { inferTickStep } from '../data/spec-inference.ts';
import type { ReplayData, ReplayDataset, ReplaySpecs } from './ports.ts';
import { createScale } from '../../src-shared/decimal.ts';
import { roundedTextUnits } from './units.ts';

/**
 * History's price on the pair's tick: as it is when it is on it, else rounded as the replay rounds
 * its prints (units.ts: halves up), so the price the pair starts with is the close its last candle
 * shows (47579.85 on a 0.1 tick is 47579.9, mark, index and last price alike).
 */
function priceOnTick(text: string, tickSize: string): string {
  const scale = createScale(tickSize);
  if (scale.toUnits(text).ok) return text;
  const units = roundedTextUnits(text, scale);
  return Number.isNaN(units) || units <= 0 ? text : scale.fromUnits(units);
}

/**
 * Specs read from the data when the dataset's are only the importer's placeholder ('inferred'):
 * the catalogue's spec inference rule (data/spec-inference.ts) over the main dataset and the
 * trades one read together; the main dataset's tiers.
 */
export function dataSpecs(data: ReplayData, main: ReplayDataset, trades: ReplayDataset | null): ReplaySpecs {
  return { ...inferTickStep(data, trades === null ? [main] : [main, trades]), tiers: main.specs.tiers };
}

/**
 * The symbol row a replay venue lists for a replayed pair: the dataset's tick, step and tiers;
 * fees and display fields from the built-in catalogue when it knows the symbol, else the majors'
 * defaults. minQty is one step (the historical book holds any size), the price band 10 %.
 */
export function replaySymbolRow(symbol: string, specs: ReplaySpecs, initialPrice: string, sortOrder = 0): NewSymbol {
  const e = DEFAULT_CATALOGUE.find((c) => c.symbol === symbol);
  const brackets = makeBrackets(
    specs.tiers.map((t) => ({ cap: t.cap ?? Number.MAX_SAFE_INTEGER, maxLeverage: t.maxLeverage, mmr: t.mmr })),
  );
  const base = e?.base ?? symbol.replace(/(USDT|USDC|BUSD|USD)$/, '');
  return {
    symbol,
    baseAsset: base,
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    contractType: 1,
    status: 1,
    allowMarket: true,
    pricePrecision: decimalsOf(specs.tickSize),
    qtyPrecision: decimalsOf(specs.stepSize),
    quotePrecision: 8,
    tickSize: specs.tickSize,
    stepSize: specs.stepSize,
    minQty: specs.stepSize,
    maxQty: '1000000000',
    minNotional: e?.minNotional ?? '5',
    makerFeeRate: e?.makerFeeRate ?? '0.0002',
    takerFeeRate: e?.takerFeeRate ?? '0.0005',
    maxLeverage: brackets[0].maxLeverage,
    maintenanceMarginRate: String(brackets[0].mmr),
    brackets,
    marketPriceProtectRatio: '0.10',
    priceMerges: e?.priceMerges ?? [specs.tickSize],
    logo: `/logos/${base}.svg`,
    sortOrder,
    isDefault: sortOrder === 0,
    isHot: false,
    isGainer: false,
    isNew: false,
    tags: [],
    initialPrice: priceOnTick(initialPrice, specs.tickSize),
  };
}
