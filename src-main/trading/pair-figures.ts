// A pair's risk and funding figures as the API surfaces show them: leverage brackets, the largest
// notional a leverage allows, a position's maintenance margin, the funding rate cap and schedule,
// the liquidation clearance fee rate, the price filter's ceiling, money units and mark prices as text. The transport asks here instead of doing
// risk or engine arithmetic itself, so every surface answers the same figures.
import { SymbolStatus } from '../../src-shared/enums.ts';
import type { MaintenanceBracket } from '../../src-shared/types/position-settings.ts';
import { MAX_PRICE_TICKS } from '../engine/types.ts';
import { FUNDING_INTEREST_RATE, FUNDING_INTERVAL_MS, fundingRateCap } from '../risk/funding.ts';
import { formatNumber } from '../../src-shared/decimal.ts';
import { LIQUIDATION_FEE_RATE } from '../risk/liquidation-fee.ts';
import { formatMoney } from '../risk/money.ts';
import { bracketFor, maxNotionalFor } from '../risk/tiers.ts';
import type { PairView } from './pair-state.ts';

export type { SymbolMath } from '../risk/money.ts';

/** Money units (1e-8 USDT) as a decimal string with 8 places. */
export function moneyText(units: bigint): string {
  return formatMoney(units);
}

/**
 * A mark or index price as every surface publishes it: 8 decimals, as Binance publishes them,
 * so the figure a bot reads is the one the unrealized PnL, margin and liquidation are computed
 * from (rounded to the pair's tick it differed by up to half a tick from those). A replay's
 * historical marks (8 decimals) come back as they were. Not finite (not known yet): "0".
 */
export function markText(price: number): string {
  return Number.isFinite(price) ? formatNumber(price, 8) : '0';
}

/** The largest position notional `leverage` allows on the pair (its bracket table). */
export function maxNotional(pair: PairView, leverage: number): number {
  return maxNotionalFor(pair.row.brackets, leverage);
}

/** The pair's maintenance tiers as the native API lists them (GET / POST /fapi/v1/leverage), decimal strings. */
export function bracketTable(pair: PairView): MaintenanceBracket[] {
  return pair.row.brackets.map((b) => ({
    tier: b.tier,
    notional_floor: String(b.floor),
    notional_cap: String(b.cap),
    maintenance_margin_rate: String(b.mmr),
    maintenance_amount: String(b.cum),
    max_leverage: b.maxLeverage,
  }));
}

/** The maintenance margin rate of a position of `notional` (its bracket's). */
export function maintenanceRate(pair: PairView, notional: number): number {
  return bracketFor(pair.row.brackets, notional).mmr;
}

/** Maintenance margin of a position of `notional` (its bracket's rate less the bracket's amount), at least 0. */
export function maintenanceMargin(pair: PairView, notional: number): number {
  const b = bracketFor(pair.row.brackets, notional);
  return Math.max(0, notional * b.mmr - b.cum);
}

/** The funding rate's cap (the floor is its negative) and the settlement interval, hours. */
export function fundingLimits(pair: PairView): { cap: number; intervalHours: number } {
  return { cap: fundingRateCap(pair.row.brackets), intervalHours: FUNDING_INTERVAL_MS / 3_600_000 };
}

/**
 * The interest rate of the funding formula and the pair's next settlement (market time), as the
 * venue's market source scheduled it (the simulator, a replay): 0 when nothing will settle the
 * pair's funding, as every surface shows it (REST, price@, Binance's premiumIndex and markPrice
 * stream; the screen's countdown shows none): a pair not trading (paused or delisted: the
 * simulator leaves it alone), every pair of a venue without a market (--no-sim), and a replayed
 * pair past its last fundingRate row. Before, the price records and premiumIndex made up the next
 * 8 h boundary for paused FTTUSDT while price@ said 0, and a --no-sim venue announced a settlement
 * at every 8 h boundary (next_funding_time 1796630400000, funding_rate 0.000100) that never came.
 */
export function fundingSchedule(pair: PairView): { interestRate: number; nextFundingTime: number } {
  const next = pair.row.status === SymbolStatus.TRADING ? pair.nextFundingTime : 0;
  return { interestRate: FUNDING_INTEREST_RATE, nextFundingTime: next };
}

/**
 * The liquidation clearance fee rate a liquidation charges on the pair's closed notional, as a
 * decimal string ("0.0125"): one rate for every pair, the one trading/liquidation.ts charges.
 */
export function liquidationFeeRate(): string {
  return LIQUIDATION_FEE_RATE;
}

/** The highest price the book takes, as the pair's price text. */
export function maxPriceText(pair: PairView): string {
  return pair.math.formatPrice(MAX_PRICE_TICKS);
}
