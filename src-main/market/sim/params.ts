// Per-symbol settings of the simulated market, with defaults by symbol class.
//
// Classes: BTC is the calmest and deepest; ETH next; the other default majors ("large caps");
// meme-tagged pairs are the wildest; everything else is an alt. Every figure can be overridden
// per symbol (SimulatorOptions.params). Volatility is the annualized volatility of the latent
// price's diffusion (jumps come on top); intensities are per second of market time.
import type { SymbolRow } from '../../core/symbol.ts';
import type { Rng } from './rng.ts';

export interface SymbolSimParams {
  /** Annualized volatility of the diffusion, e.g. 0.45 = 45 %/year (its long-run average). */
  volatility: number;
  /** Average number of price jumps per day. */
  jumpsPerDay: number;
  /** Laplace scale of a jump's log size (0.004 = a typical jump of 0.4 %). */
  jumpScale: number;
  /** Average taker orders per second at activity 1 (the day's mean hour) and normal volatility. */
  takerRate: number;
  /** Median notional of a taker order, USDT (sizes have a Pareto tail of index 1.5). */
  takerMedianNotional: number;
  /** Typical notional of the best queue of each side (the touch crowd), USDT. */
  touchQueueNotional: number;
  /** Resting orders of the deep book per side, and the median notional of one. */
  deepOrders: number;
  deepOrderNotional: number;
  /** Price levels the market maker quotes on each side. */
  makerLevels: number;
  /** Notional the house market maker (the deep-book supplier behind the crowd) shows on each side, USDT. */
  makerDepthNotional: number;
  /** Half-spread floor of the house market maker, as a fraction of price (0.0001 = 1 bp); the touch is the crowd's. */
  makerBaseHalfSpread: number;
  /** Standard deviation of a venue's basis to the latent price, as a fraction (0.0002 = 2 bp). */
  venueBasis: number;
  /**
   * Times a second, on average, the crowd (the touch and the deep book) moves its quotes to the fair
   * price, at most once a step (10, the live step rate: every step); between those moves its quotes hold where
   * they are. Below the step rate where the index crosses many ticks a step and the pair trades less
   * than once a step (1000PEPEUSDT): otherwise every print lies a move away from the last.
   */
  requoteRate: number;
}

type SymbolClass = 'btc' | 'eth' | 'major' | 'alt' | 'meme';

function symbolClass(row: Pick<SymbolRow, 'symbol' | 'baseAsset' | 'isDefault' | 'tags'>): SymbolClass {
  if (row.baseAsset === 'BTC') return 'btc';
  if (row.baseAsset === 'ETH') return 'eth';
  if (row.tags.includes('meme')) return 'meme';
  if (row.isDefault) return 'major';
  return 'alt';
}

// Calibration (docs/realism.md): BTCUSDT and ETHUSDT follow Binance USD-M's order of magnitude
// (tens of trades a second, a median trade of a few hundred USDT, a one-tick spread, depth out past
// 1 %); smaller classes trade less and show less depth. The tick of each pair comes from the
// catalogue; the touch is one tick wide on every pair.
const BY_CLASS: Record<SymbolClass, SymbolSimParams> = {
  btc: {
    volatility: 0.45,
    jumpsPerDay: 2,
    jumpScale: 0.003,
    takerRate: 36,
    takerMedianNotional: 600,
    touchQueueNotional: 150_000,
    deepOrders: 150,
    deepOrderNotional: 100_000,
    makerLevels: 10,
    makerDepthNotional: 900_000,
    makerBaseHalfSpread: 0.0008,
    venueBasis: 0.00015,
    requoteRate: 10,
  },
  eth: {
    volatility: 0.6,
    jumpsPerDay: 2.5,
    jumpScale: 0.004,
    takerRate: 18,
    takerMedianNotional: 400,
    touchQueueNotional: 80_000,
    deepOrders: 150,
    deepOrderNotional: 30_000,
    makerLevels: 10,
    makerDepthNotional: 500_000,
    makerBaseHalfSpread: 0.001,
    venueBasis: 0.0002,
    requoteRate: 10,
  },
  major: {
    volatility: 0.75,
    jumpsPerDay: 3,
    jumpScale: 0.005,
    takerRate: 5,
    takerMedianNotional: 300,
    touchQueueNotional: 20_000,
    deepOrders: 100,
    deepOrderNotional: 6_000,
    makerLevels: 8,
    makerDepthNotional: 150_000,
    makerBaseHalfSpread: 0.0015,
    venueBasis: 0.0003,
    requoteRate: 10,
  },
  alt: {
    volatility: 1.0,
    jumpsPerDay: 4,
    jumpScale: 0.008,
    takerRate: 2.5,
    takerMedianNotional: 200,
    touchQueueNotional: 8_000,
    deepOrders: 80,
    deepOrderNotional: 2_000,
    makerLevels: 8,
    makerDepthNotional: 80_000,
    makerBaseHalfSpread: 0.002,
    venueBasis: 0.0004,
    requoteRate: 10,
  },
  meme: {
    volatility: 1.3,
    jumpsPerDay: 6,
    jumpScale: 0.012,
    takerRate: 3,
    takerMedianNotional: 200,
    touchQueueNotional: 8_000,
    deepOrders: 80,
    deepOrderNotional: 2_500,
    makerLevels: 8,
    makerDepthNotional: 60_000,
    makerBaseHalfSpread: 0.0025,
    venueBasis: 0.0006,
    requoteRate: 1,
  },
};

const LIMITS: Record<keyof SymbolSimParams, [number, number]> = {
  volatility: [0.01, 5],
  jumpsPerDay: [0, 200],
  jumpScale: [0, 0.1],
  takerRate: [0.05, 50],
  takerMedianNotional: [1, 1e8],
  touchQueueNotional: [1, 1e10],
  deepOrders: [0, 400],
  deepOrderNotional: [1, 1e9],
  makerLevels: [2, 50],
  makerDepthNotional: [100, 1e10],
  makerBaseHalfSpread: [0, 0.01],
  venueBasis: [0, 0.01],
  requoteRate: [0.01, 10],
};

/** Defaults of the row's class with `override` applied; throws RangeError on a value out of range. */
export function paramsFor(row: SymbolRow, override: Partial<SymbolSimParams> = {}): SymbolSimParams {
  const p: SymbolSimParams = { ...BY_CLASS[symbolClass(row)] };
  for (const [k, v] of Object.entries(override) as Array<[keyof SymbolSimParams, number | undefined]>) {
    if (v === undefined) continue;
    const lim = LIMITS[k];
    if (lim === undefined) throw new RangeError(`unknown simulator setting '${k}'`);
    if (!Number.isFinite(v) || v < lim[0] || v > lim[1])
      throw new RangeError(`${row.symbol}: ${k} must be from ${lim[0]} to ${lim[1]}, got ${v}`);
    p[k] = k === 'makerLevels' || k === 'deepOrders' ? Math.round(v) : v;
  }
  return p;
}

/**
 * The deep book's settings of a pair (deep-book.ts): its orders and their notional, and by class its
 * shape: outside BTC its orders start 0.1 % behind the best at most (however coarse the tick) and
 * grow with the distance (1 + d / 0.1 %), so the 1 % depth has the real books' weight behind 0.5 %
 * (their share within 0.5 %: 0.31-0.55, docs/realism.md, the depth profile); BTCUSDT keeps its own.
 */
export function deepShape(
  row: Pick<SymbolRow, 'symbol' | 'baseAsset' | 'isDefault' | 'tags'>,
  p: Pick<SymbolSimParams, 'deepOrders' | 'deepOrderNotional'>,
): { orders: number; orderNotional: number; sizeScale?: number; innerMax?: number } {
  const base = { orders: p.deepOrders, orderNotional: p.deepOrderNotional };
  return symbolClass(row) === 'btc' ? base : { ...base, sizeScale: 0.001, innerMax: 0.001 };
}

export const MS_PER_YEAR = 365 * 24 * 3600 * 1000;

/** The crowd holds its quotes between requotes only where the index's typical step move spans more ticks than this. */
const HOLD_TICKS = 5;

/**
 * The chance that the crowd moves its quotes to the fair price (fairTicks, in ticks) in a step of
 * dtMs: 1 (every step) at requoteRate x dtMs >= 1 s, or where the step's typical move at the
 * pair's volatility is HOLD_TICKS ticks or less (holding would change a coarse touch by a tick at
 * most); otherwise 1 - e^(-requoteRate x dtMs / 1000).
 */
export function requoteChance(p: SymbolSimParams, fairTicks: number, dtMs: number): number {
  const rate = (p.requoteRate * dtMs) / 1000;
  if (rate >= 1 || p.volatility * Math.sqrt(dtMs / MS_PER_YEAR) * fairTicks <= HOLD_TICKS) return 1;
  return 1 - Math.exp(-rate);
}

/** Whether the crowd requotes in a step (requoteChance), drawn from rng when the chance is below 1. */
export function requotes(p: SymbolSimParams, fairTicks: number, dtMs: number, rng: Rng): boolean {
  const chance = requoteChance(p, fairTicks, dtMs);
  return chance >= 1 || rng.next() < chance;
}

/** The live simulator's step, ms of market time: the book can change ten times a second (Binance's depth stream is 100 ms). */
export const LIVE_STEP_MS = 100;
