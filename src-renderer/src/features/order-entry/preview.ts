// What an order would cost before it is sent: notional, initial margin, fee, total cost, the
// estimated liquidation price of the resulting position and, for a close, the estimated
// realized PnL. Pure functions of the form and market state; estimates only (the server's
// figures rule): the first maintenance tier (the pair's maintenance_margin_rate, no
// maintenance amount), and for cross margin the available balance as the wallet that backs
// the position (other positions' maintenance and PnL are left out).

export interface PreviewInput {
  side: 1 | 2;
  action: 'open' | 'close';
  /** Limit price, or the price a market order is expected to fill at. */
  price: number;
  qty: number;
  /** Whether the order takes liquidity (market, or a limit that crosses the book). */
  taker: boolean;
  leverage: number;
  marginMode: 1 | 2;
  makerFee: number;
  takerFee: number;
  mmr: number;
  available: number;
  /** The position this order adds to or closes, if any. */
  position?: { qty: number; entry: number; margin: number } | null;
}

export interface Preview {
  notional: number;
  margin: number;
  fee: number;
  cost: number;
  liquidation: number;
  /** Estimated realized PnL of a close (before fees); NaN for an open. */
  pnl: number;
}

/**
 * Liquidation price of one position (DESIGN section 5): s = +1 long / -1 short,
 * LP = (WB + cum - s x Q x EP) / (Q x MMR - s x Q), `cum` being the tier's maintenance amount
 * (0 in the first tier); NaN when it does not exist (never liquidates, or nonsense input).
 */
export function liquidationPrice(long: boolean, qty: number, entry: number, walletBacking: number, mmr: number, cum = 0): number {
  const s = long ? 1 : -1;
  const denom = qty * mmr - s * qty;
  if (!(qty > 0) || !(entry > 0) || denom === 0) return NaN;
  const lp = (walletBacking + cum - s * qty * entry) / denom;
  return lp > 0 && Number.isFinite(lp) ? lp : NaN;
}

export function preview(i: PreviewInput): Preview {
  const qty = i.qty > 0 ? i.qty : 0;
  const notional = i.price > 0 ? qty * i.price : 0;
  const fee = notional * (i.taker ? i.takerFee : i.makerFee);
  const long = i.action === 'open' ? i.side === 1 : i.side === 2;
  if (i.action === 'close') {
    const p = i.position;
    const closing = p ? Math.min(qty, Math.abs(p.qty)) : 0;
    const pnl = p && closing > 0 && i.price > 0 ? (i.price - p.entry) * closing * (long ? 1 : -1) : NaN;
    return { notional, margin: 0, fee, cost: fee, liquidation: NaN, pnl };
  }
  const margin = notional / Math.max(1, i.leverage);
  const p = i.position;
  const totalQty = qty + (p ? Math.abs(p.qty) : 0);
  const entry = totalQty > 0 ? (notional + (p ? Math.abs(p.qty) * p.entry : 0)) / totalQty : 0;
  const backing = i.marginMode === 1 ? margin + (p ? p.margin : 0) : i.available;
  const liquidation = qty > 0 && i.price > 0 ? liquidationPrice(long, totalQty, entry, backing, i.mmr) : NaN;
  return { notional, margin, fee, cost: margin + fee, liquidation, pnl: NaN };
}

/** Largest quantity `available` can open at `price` and `leverage`, fees included. */
export function maxOpenQty(available: number, price: number, leverage: number, takerFee: number): number {
  if (!(available > 0) || !(price > 0)) return 0;
  return (available * leverage) / (price * (1 + leverage * takerFee));
}
