// Maintenance-margin brackets (tiers) per symbol, in quote currency (USDT) notional.
//
// Invariants enforced by makeBrackets:
// - brackets are contiguous: the first floor is 0 and each floor equals the previous cap;
// - MMR never decreases and max leverage never increases from one tier to the next;
// - MMR < 1 / maxLeverage in every tier, so a position opened at the tier's maximum
//   leverage is not liquidatable at its entry price;
// - cum_n = cum_(n-1) + floor_n x (MMR_n - MMR_(n-1)), which makes the maintenance
//   margin notional x MMR - cum continuous across tier boundaries.
// Membership: a notional belongs to the tier with floor < notional <= cap (tier 1 also
// holds 0), so the cap is the largest notional allowed at the tier's leverage. Because
// maintenance margin is continuous, the boundary choice never changes a margin amount.
// Limits: MMRs carry at most 6 decimals (they are held as integer parts per million so
// cum is exact); cum is exact whenever floors are whole USDT. Notionals above the last
// cap use the last tier for maintenance but have no allowed leverage (maxLeverageFor 0).

export interface BracketSpec {
  /** Upper notional bound of the tier, USDT (inclusive). */
  readonly cap: number;
  /** Maintenance margin rate, a fraction (0.004 = 0.40%). */
  readonly mmr: number;
  readonly maxLeverage: number;
}

export interface Bracket extends BracketSpec {
  /** 1-based tier number. */
  readonly tier: number;
  /** Lower notional bound, USDT (exclusive, except 0 in tier 1). */
  readonly floor: number;
  /** Maintenance amount, USDT: subtracted from notional x mmr. */
  readonly cum: number;
}

const PPM = 1_000_000;

function toPpm(mmr: number): number {
  const ppm = Math.round(mmr * PPM);
  if (!(mmr > 0 && mmr < 1) || Math.abs(mmr * PPM - ppm) > 1e-6) {
    throw new RangeError(`mmr must be in (0, 1) with at most 6 decimals, got ${mmr}`);
  }
  return ppm;
}

/** Validates tier specs (ordered by cap) and derives floor, cum and tier number. */
export function makeBrackets(specs: readonly BracketSpec[]): readonly Bracket[] {
  if (specs.length === 0) throw new RangeError('a bracket table needs at least one tier');
  const out: Bracket[] = [];
  let floor = 0;
  let prevPpm = 0;
  let prevLev = Infinity;
  // cum in micro-USDT: floor x delta-ppm is an exact integer for whole-USDT floors, so
  // the only rounding is the final division.
  let cumMicro = 0;
  specs.forEach((spec, i) => {
    const ppm = toPpm(spec.mmr);
    if (!(spec.cap > floor) || !Number.isFinite(spec.cap)) {
      throw new RangeError(`tier ${i + 1}: cap ${spec.cap} must be finite and above ${floor}`);
    }
    if (!Number.isInteger(spec.maxLeverage) || spec.maxLeverage < 1 || spec.maxLeverage > prevLev) {
      throw new RangeError(`tier ${i + 1}: maxLeverage ${spec.maxLeverage} must be an integer >= 1, non-increasing`);
    }
    if (ppm < prevPpm) throw new RangeError(`tier ${i + 1}: mmr must not decrease`);
    if (ppm * spec.maxLeverage >= PPM) {
      throw new RangeError(`tier ${i + 1}: mmr ${spec.mmr} must be below 1/maxLeverage`);
    }
    cumMicro += floor * (ppm - prevPpm);
    out.push({
      tier: i + 1,
      floor,
      cap: spec.cap,
      mmr: ppm / PPM,
      maxLeverage: spec.maxLeverage,
      cum: cumMicro / PPM,
    });
    floor = spec.cap;
    prevPpm = ppm;
    prevLev = spec.maxLeverage;
  });
  return Object.freeze(out.map((b) => Object.freeze(b)));
}

function checkNotional(notional: number): void {
  if (!(notional >= 0) || notional === Infinity) {
    throw new RangeError(`notional must be a finite number >= 0, got ${notional}`);
  }
}

/** The tier a position of this notional (USDT, >= 0) falls in; above the table: the last tier. */
export function bracketFor(brackets: readonly Bracket[], notional: number): Bracket {
  checkNotional(notional);
  // Tables are short (<= ~12 tiers), so a linear scan beats a binary search in practice.
  for (const b of brackets) {
    if (notional <= b.cap) return b;
  }
  return brackets[brackets.length - 1];
}

/** Largest leverage allowed for this notional; 0 when it exceeds the table's last cap. */
export function maxLeverageFor(brackets: readonly Bracket[], notional: number): number {
  checkNotional(notional);
  const last = brackets[brackets.length - 1];
  if (notional > last.cap) return 0;
  return bracketFor(brackets, notional).maxLeverage;
}

/** Largest notional allowed at this leverage; 0 when the leverage exceeds every tier's max. */
export function maxNotionalFor(brackets: readonly Bracket[], leverage: number): number {
  let cap = 0;
  // (an index loop: this runs on every user order, and for-of made an iterator result per tier)
  for (let i = 0; i < brackets.length; i++) if (brackets[i].maxLeverage >= leverage) cap = brackets[i].cap;
  return cap;
}

/** Binance BTCUSDT maintenance tiers, late 2024 (reference/exchange.md). */
export const BTCUSDT_BRACKETS: readonly Bracket[] = makeBrackets([
  { cap: 50_000, mmr: 0.004, maxLeverage: 125 },
  { cap: 600_000, mmr: 0.005, maxLeverage: 100 },
  { cap: 3_000_000, mmr: 0.0065, maxLeverage: 75 },
  { cap: 12_000_000, mmr: 0.01, maxLeverage: 50 },
  { cap: 70_000_000, mmr: 0.02, maxLeverage: 25 },
  { cap: 100_000_000, mmr: 0.025, maxLeverage: 20 },
  { cap: 230_000_000, mmr: 0.05, maxLeverage: 10 },
  { cap: 480_000_000, mmr: 0.1, maxLeverage: 5 },
  { cap: 600_000_000, mmr: 0.125, maxLeverage: 4 },
  { cap: 800_000_000, mmr: 0.15, maxLeverage: 3 },
  { cap: 1_200_000_000, mmr: 0.25, maxLeverage: 2 },
  { cap: 1_800_000_000, mmr: 0.5, maxLeverage: 1 },
]);

// Leverage ladder and cap multipliers (cap_n / cap_1) taken from BTCUSDT's table, so a
// generated table has BTCUSDT's shape scaled to the symbol's first-tier cap.
const LEVERAGE_LADDER = [125, 100, 75, 50, 25, 20, 10, 5, 4, 3, 2, 1] as const;
// One extra multiplier for tables whose first tier is above 125x (13 tiers).
const CAP_MULTIPLIERS = [1, 12, 60, 240, 1_400, 2_000, 4_600, 9_600, 12_000, 16_000, 24_000, 36_000, 54_000] as const;

/**
 * A tier table for a symbol without published tiers: the first tier allows maxLeverage up
 * to firstCap, later tiers step down BTCUSDT's leverage ladder (125, 100, 75, 50, 25, 20,
 * 10, 5, 4, 3, 2, 1) with caps growing by BTCUSDT's multipliers. Each tier's MMR is half
 * its initial margin rate, 1 / (2 x leverage), rounded to 6 decimals: this reproduces
 * BTCUSDT's MMRs except 75x (0.6667% vs 0.65%) and 3x (16.6667% vs 15%).
 */
export function generateBrackets(maxLeverage: number, firstCap: number): readonly Bracket[] {
  if (!Number.isInteger(maxLeverage) || maxLeverage < 1) {
    throw new RangeError(`maxLeverage must be an integer >= 1, got ${maxLeverage}`);
  }
  if (!(firstCap > 0) || !Number.isFinite(firstCap)) {
    throw new RangeError(`firstCap must be a finite number > 0, got ${firstCap}`);
  }
  const leverages = [maxLeverage, ...LEVERAGE_LADDER.filter((l) => l < maxLeverage)];
  return makeBrackets(
    leverages.map((lev, i) => ({
      cap: firstCap * CAP_MULTIPLIERS[i],
      mmr: Math.round(PPM / (2 * lev)) / PPM,
      maxLeverage: lev,
    })),
  );
}
