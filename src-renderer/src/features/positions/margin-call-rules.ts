// When the screen makes a margin call (margin-calls.ts): the service's margin ratio of a position
// (maintenance margin over the margin that backs it; liquidation at 100 %) at or over CALL_RATIO,
// as Binance's margin call at 80 %. Cross positions share the account's cross margin, and so one
// ratio: they make one call; an isolated position makes its own. A call is made once, and again
// only after the ratio has come back under REARM_RATIO (funds added, the position reduced, the
// price back), so a ratio that hovers about 80 % does not call at every read. Pure: no DOM.
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { MarginMode } from '../../../../src-shared/enums.ts';

export const CALL_RATIO = 0.8;
export const REARM_RATIO = 0.7;

export interface MarginCall {
  /** `cross`, or `isolated:<symbol>:<side>`. */
  key: string;
  ratio: number;
  /** The positions the ratio is of (the cross ones, or the one isolated). */
  positions: PositionRecord[];
}

/** The groups of positions one margin ratio is of, with that ratio (the highest read, for cross). */
function groups(positions: readonly PositionRecord[]): Map<string, { ratio: number; positions: PositionRecord[] }> {
  const out = new Map<string, { ratio: number; positions: PositionRecord[] }>();
  for (const p of positions) {
    if (p.quantity === 0 || !Number.isFinite(p.margin_ratio)) continue;
    const key = p.margin_mode === MarginMode.ISOLATED ? `isolated:${p.symbol}:${p.position_side}` : 'cross';
    const g = out.get(key) ?? { ratio: 0, positions: [] };
    g.ratio = Math.max(g.ratio, p.margin_ratio);
    g.positions.push(p);
    out.set(key, g);
  }
  return out;
}

/**
 * The calls these positions make, given the groups called before and not re-armed since
 * (`called`, which this updates: a group that calls joins it, one under REARM_RATIO or gone leaves).
 */
export function marginCalls(positions: readonly PositionRecord[], called: Set<string>): MarginCall[] {
  const now = groups(positions);
  for (const key of [...called]) {
    const g = now.get(key);
    if (g === undefined || g.ratio < REARM_RATIO) called.delete(key);
  }
  const calls: MarginCall[] = [];
  for (const [key, g] of now) {
    if (g.ratio < CALL_RATIO || called.has(key)) continue;
    called.add(key);
    calls.push({ key, ratio: g.ratio, positions: g.positions });
  }
  return calls;
}
