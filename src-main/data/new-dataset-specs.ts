// The contract specs a new dataset starts with: the built-in catalogue's for a USD-M pair it lists,
// else a placeholder the importer replaces once the data is read (spec-inference.ts).

import { DEFAULT_CATALOGUE } from '../market/catalogue.ts';
import { toNewSymbol } from '../market/seed-catalogue.ts';
import { generateBrackets } from '../risk/tiers.ts';
import type { DatasetKey } from './kinds.ts';
import type { ContractSpecs } from './ports.ts';

/** The built-in catalogue's specs: it lists USD-M perpetuals, so only `um` datasets use it. */
export function catalogueSpecs(key: DatasetKey): ContractSpecs | undefined {
  if (key.market !== 'um') return undefined;
  const e = DEFAULT_CATALOGUE.find((c) => c.symbol === key.symbol);
  if (e === undefined) return undefined;
  const s = toNewSymbol(e, 0);
  return { tickSize: s.tickSize, stepSize: s.stepSize, tiers: tiersOf(s.brackets) };
}

function tiersOf(brackets: readonly { cap: number; maxLeverage: number; mmr: number }[]): ContractSpecs['tiers'] {
  return brackets.map((b) => ({ cap: Number.isFinite(b.cap) ? b.cap : null, maxLeverage: b.maxLeverage, mmr: b.mmr }));
}

/** The importer's placeholder until the data is read (spec-inference.ts), within the 8 decimals the venue lists: generic tiers. */
export function inferredSpecs(priceDp: number, qtyDp: number): ContractSpecs {
  const step = (dp: number): string => (dp === 0 ? '1' : `0.${'0'.repeat(dp - 1)}1`);
  return { tickSize: step(priceDp), stepSize: step(qtyDp), tiers: tiersOf(generateBrackets(20, 10_000)) };
}
