// The contract specs a replayed pair is listed with (docs/replay.md "What a replayed pair is made
// of"): the dataset's tick, step and tiers, or, when those are only the importer's placeholder
// ('inferred'), a tick and a lot read from the data itself; and the symbol row built from them.
import { DEFAULT_CATALOGUE } from '../market/catalogue.ts';
import { decimalsOf } from '../market/seed-catalogue.ts';
import type { NewSymbol } from '../core/symbol.ts';
import { makeBrackets } from '../risk/tiers.ts';
import type { ReplayData, ReplayDataset, ReplaySpecs } from './ports.ts';

/** Decimals of a decimal string, trailing zeros not counted ('9781.0' has 0, '0.25460' 4). */
function significantDecimals(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
}

const SPEC_SAMPLE_EVENTS = 50;
const SPEC_SAMPLE_ROWS = 10_000;
/** Tick and step decimals together stay within the money precision (risk/money.ts). */
const MAX_SPEC_DECIMALS = 8;

/**
 * Specs read from the data when the dataset's are only the importer's placeholder ('inferred':
 * events keep 8/8 decimals; candles and trades the most decimals seen, trailing zeros included):
 * a tick and a lot at the most significant decimals of the first rows (50 depth events, 10,000
 * trades or candles) of the main dataset and the trades one. Tick + step decimals are capped at
 * 8, the step giving way (sizes then round to it).
 */
export function dataSpecs(data: ReplayData, main: ReplayDataset, trades: ReplayDataset | null): ReplaySpecs {
  let pdp = 0;
  let qdp = 0;
  const price = (p: string): void => {
    pdp = Math.max(pdp, significantDecimals(p));
  };
  const qty = (q: string): void => {
    qdp = Math.max(qdp, significantDecimals(q));
  };
  const from = main.firstTime ?? 0;
  if (main.kind === 'depth') {
    let n = 0;
    for (const ev of data.depth(main.id, from)) {
      for (const rows of [ev.bids, ev.asks])
        for (const [p, q] of rows) {
          price(p);
          qty(q);
        }
      if (++n >= SPEC_SAMPLE_EVENTS) break;
    }
  } else if (main.kind === 'klines') {
    let n = 0;
    for (const c of data.candles(main.id, from, Number.MAX_SAFE_INTEGER)) {
      for (const p of [c.open, c.high, c.low, c.close]) price(p);
      qty(c.volume);
      qty(c.takerBuyVolume);
      if (++n >= SPEC_SAMPLE_ROWS) break;
    }
  }
  const t = trades ?? (main.kind === 'trades' || main.kind === 'aggTrades' ? main : null);
  if (t) {
    let n = 0;
    for (const x of data.trades(t.id, t.firstTime ?? 0)) {
      price(x.price);
      qty(x.qty);
      if (++n >= SPEC_SAMPLE_ROWS) break;
    }
  }
  pdp = Math.min(pdp, MAX_SPEC_DECIMALS);
  qdp = Math.min(qdp, MAX_SPEC_DECIMALS - pdp);
  const step = (dp: number): string => (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`);
  return { tickSize: step(pdp), stepSize: step(qdp), tiers: main.specs.tiers };
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
    initialPrice,
  };
}
