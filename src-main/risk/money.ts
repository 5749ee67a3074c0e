// Exact money arithmetic of one trading pair.
//
// Invariants and limits
// - Money (wallets, margins, fees, PnL, notionals) is a bigint count of 1e-8 USDT ("units").
//   Every balance change is a sum of such integers, so accounting identities hold exactly.
// - A notional priceTicks x qtyLots is exact in units when the tick's and the step's decimals
//   add up to at most 8 (true for every listed pair; `SymbolMath` refuses a pair otherwise).
// - Fees round half up to 1e-8 USDT. Prices derived from sums (entry price, break-even) are
//   floats for display and risk thresholds only; they never feed back into balances.
import { createScale, type StepScale } from '../../src-shared/decimal.ts';

const MONEY_DECIMALS = 8;

export interface PairFilters {
  symbol: string;
  tickSize: string;
  stepSize: string;
  pricePrecision: number;
  qtyPrecision: number;
  makerFeeRate: string;
  takerFeeRate: string;
}

/** A decimal rate such as "0.0005" as an exact fraction num/den. */
export interface Rate {
  num: bigint;
  den: bigint;
  /** The same rate as a float, for estimates. */
  value: number;
}

export function parseRate(text: string): Rate {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`bad rate '${text}'`);
  const frac = m[2] ?? '';
  return { num: BigInt(m[1] + frac), den: 10n ** BigInt(frac.length), value: Number(text) };
}

/** round(a * r) half up, for a >= 0 or < 0 (symmetric: half away from zero). */
export function mulRate(a: bigint, r: Rate): bigint {
  const p = a * r.num;
  const neg = p < 0n;
  const abs = neg ? -p : p;
  const q = (abs * 2n + r.den) / (2n * r.den);
  return neg ? -q : q;
}

/** floor(a * num / den) for a >= 0 (exact proportional split). */
export function mulDivFloor(a: bigint, num: bigint, den: bigint): bigint {
  return (a * num) / den;
}

/** ceil(a / b) for a >= 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export function unitsToNumber(u: bigint): number {
  return Number(u) / 1e8;
}

export function formatMoney(u: bigint, decimals = MONEY_DECIMALS): string {
  const neg = u < 0n;
  let abs = neg ? -u : u;
  if (decimals < MONEY_DECIMALS) {
    const div = 10n ** BigInt(MONEY_DECIMALS - decimals);
    abs = (abs + div / 2n) / div;
  }
  const s = abs.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? `.${s.slice(s.length - decimals)}` : '';
  return `${neg && abs !== 0n ? '-' : ''}${int}${frac}`;
}

export class SymbolMath {
  readonly symbol: string;
  readonly price: StepScale;
  readonly qty: StepScale;
  readonly maker: Rate;
  readonly taker: Rate;
  /** units per (tick x lot). */
  private readonly k: bigint;
  /** k as a Number (Infinity when it is not a safe integer: notional then always takes the BigInt path). */
  private readonly kNumber: number;
  readonly tickValue: number;
  readonly lotValue: number;
  /** The step (base units per lot) as an exact fraction. */
  private readonly lot: Rate;
  /** valueAt's last price and that price in units x the step's numerator (marks repeat). */
  private lastPrice = Number.NaN;
  private lastScaled = 0n;

  constructor(f: PairFilters) {
    this.symbol = f.symbol;
    this.price = createScale(f.tickSize, Math.max(f.pricePrecision, 0));
    this.qty = createScale(f.stepSize, Math.max(f.qtyPrecision, 0));
    const nd = this.price.stepDecimals + this.qty.stepDecimals;
    if (nd > MONEY_DECIMALS) {
      throw new Error(`${f.symbol}: tick and step decimals (${nd}) exceed the money precision (${MONEY_DECIMALS})`);
    }
    this.k = BigInt(this.price.stepUnits) * BigInt(this.qty.stepUnits) * 10n ** BigInt(MONEY_DECIMALS - nd);
    this.kNumber = this.k <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(this.k) : Number.POSITIVE_INFINITY;
    this.maker = parseRate(f.makerFeeRate);
    this.taker = parseRate(f.takerFeeRate);
    this.tickValue = Number(f.tickSize);
    this.lotValue = Number(f.stepSize);
    this.lot = parseRate(f.stepSize);
  }

  /** Exact notional of priceTicks x qtyLots, in units. */
  notional(priceTicks: number, qtyLots: number): bigint {
    // a product of integers below 2^53 is exact as a Number: one BigInt instead of two multiplies
    if (Number.isSafeInteger(priceTicks) && Number.isSafeInteger(qtyLots)) {
      const v = priceTicks * qtyLots * this.kNumber;
      if (Number.isSafeInteger(v)) return BigInt(v);
    }
    return BigInt(priceTicks) * BigInt(qtyLots) * this.k;
  }

  /**
   * The smallest price ticks x lots whose notional is at least `units` (a minimum notional as a
   * product of integers: notional(t, l) < units exactly when t * l is below it).
   */
  tickLotsAtLeast(units: bigint): number {
    return Number((units + this.k - 1n) / this.k);
  }

  /**
   * Value of `lots` at a float price (the mark), in units: the price is first rounded to 1e-8
   * USDT, then the product is exact and rounded once, half up. Margin and PnL at the mark go
   * through here so that sums of them are sums of integers.
   */
  valueAt(price: number, lots: number): bigint {
    if (price !== this.lastPrice) {
      this.lastScaled = BigInt(Math.round(price * 1e8)) * this.lot.num;
      this.lastPrice = price;
    }
    const p = this.lastScaled * BigInt(lots);
    const den = this.lot.den;
    return p < 0n ? -((-p * 2n + den) / (2n * den)) : (p * 2n + den) / (2n * den);
  }

  fee(notional: bigint, maker: boolean): bigint {
    return mulRate(notional, maker ? this.maker : this.taker);
  }

  priceOf(ticks: number): number {
    return Number(this.price.fromUnits(ticks));
  }

  qtyOf(lots: number): number {
    return Number(this.qty.fromUnits(lots));
  }

  /** Nearest tick at or below a float price (bids, long liquidation). */
  ticksFloor(price: number): number {
    return Math.floor(price / this.tickValue + 1e-9);
  }

  /** Nearest tick at or above a float price. */
  ticksCeil(price: number): number {
    return Math.ceil(price / this.tickValue - 1e-9);
  }

  ticksRound(price: number): number {
    return Math.round(price / this.tickValue);
  }

  formatPrice(ticks: number): string {
    return this.price.fromUnits(ticks);
  }

  formatQty(lots: number): string {
    return this.qty.fromUnits(lots);
  }

  /**
   * The average price of `lots` that traded for `quote` units (an order's fills): quote / quantity
   * exactly, rounded half up at 8 decimals (MONEY_DECIMALS, the most any price step has), as text.
   * `shortest`: without the trailing zeros past the price's precision ("96080.958", "95000.0");
   * else all 8 decimals (Binance's avgPrice). Before any fill: zero at the price's precision
   * (shortest) or "0".
   */
  averagePrice(quote: bigint, lots: number, shortest = false): string {
    const precision = this.price.precision;
    if (lots <= 0) return shortest ? (0).toFixed(precision) : '0';
    const den = BigInt(lots) * this.lot.num;
    const scaled = (2n * quote * this.lot.den + den) / (2n * den);
    const text = formatMoney(scaled);
    if (!shortest) return text;
    let end = text.length;
    const keep = text.length - MONEY_DECIMALS + precision - (precision === 0 ? 1 : 0);
    while (end > keep && text.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (text[end - 1] === '.') end--;
    return text.slice(0, end);
  }

  /** A float price shown at the pair's price precision. */
  roundPrice(price: number): number {
    const p = 10 ** this.price.precision;
    return Math.round(price * p) / p;
  }
}
