// The leverage's notional limit and the margin of an order as the order form sees them. The
// venue refuses an open (3013) when the side's notional after it would pass the tier cap of the
// chosen leverage (maxNotionalFor in src-main/risk/tiers.ts), and freezes the initial margin and
// taker fee of the part of it that opens (3009 when the available balance cannot). Max and %
// sizes are capped by both, so they never offer what is refused.
// - Hedge mode (sideNotional): the side's notional is its position at the mark plus its open
//   opening orders at their price (the mark for a market order); every order opens all of it.
// - One-way mode (oneWaySide), as the venue's src-main/trading/ledger.ts (eachOpeningOrder,
//   reducedByNewOrder, capNotional): an order against the net position first reduces it, and
//   only the part beyond it opens, is margined and counts against the cap. The position is set
//   against the resting limit orders on its reducing side oldest first (by id), so a new one
//   takes what they leave of it. The cap measures the net position when it is on the order's
//   side (buys long, sells short), at the mark, plus the opening part of each resting limit
//   order on that side at its price. A plain close is margined for nothing and counts nothing.
// Pure: the view hands in records and prices. Close orders (PositionAction.CLOSE) are
// reduce-only and never count; the order record does not carry reduce_only, so a reduce-only
// open (position_action 1) another client placed counts as opening here (the estimate errs on
// the safe side); the form sends its own one-way reduce-only orders as closes (order-model.ts).
import type { OrderRecord } from '../../../../src-shared/types.ts';
import type { BackingPosition } from './preview.ts';
import { PositionAction, PositionSide, Side } from '../../../../src-shared/enums.ts';
import { positionDirection } from '../positions/position-direction.ts';

type CapPosition = Pick<BackingPosition, 'symbol' | 'position_side' | 'quantity' | 'mark_price'>;
type CapOrder = Pick<OrderRecord, 'symbol' | 'position_side' | 'position_action' | 'price' | 'qty' | 'filled_qty'>;

export interface SideNotionalInput {
  symbol: string;
  /** The position's side (hedge mode). */
  positionSide: PositionSide;
  positions: readonly CapPosition[];
  orders: readonly CapOrder[];
  /** The live mark of the pair; the position record's mark when not a positive number. */
  mark: number | undefined;
}

const markFor = (mark: number | undefined, p: CapPosition): number =>
  mark !== undefined && mark > 0 ? mark : p.mark_price;

/** Hedge mode: the side's notional as the venue counts it against the leverage's cap, USDT. */
export function sideNotional(i: SideNotionalInput): number {
  let total = 0;
  for (const p of i.positions) {
    if (p.symbol !== i.symbol || p.quantity === 0 || p.position_side !== i.positionSide) continue;
    total += Math.abs(p.quantity) * markFor(i.mark, p);
  }
  for (const o of i.orders) {
    if (o.symbol !== i.symbol || o.position_action === PositionAction.CLOSE || o.position_side !== i.positionSide)
      continue;
    const left = Number(o.qty) - Number(o.filled_qty);
    const price = Number(o.price) > 0 ? Number(o.price) : (i.mark ?? NaN);
    if (left > 0 && price > 0) total += left * price;
  }
  return total;
}

export interface OneWaySideInput extends Omit<SideNotionalInput, 'positionSide' | 'orders'> {
  orders: readonly (CapOrder & Pick<OrderRecord, 'id' | 'side'>)[];
}

/** What a new one-way order on a side meets (oneWaySide). */
export interface OneWaySide {
  /**
   * The quantity of it the net position takes first (the position against the order, less what
   * is left of the resting opening orders against it): margined for none and not counted for the
   * cap; 0 when the position is on the order's side or there is none.
   */
  cover: number;
  /** The notional the cap measures for the side before the order, USDT (the venue's capNotional). */
  existing: number;
}

/** A quantity that is float noise of `scale` (0.3 - 0.1 - 0.2) is none. */
const clean = (q: number, scale: number): number => (q > scale * 1e-9 ? q : 0);

/** A resting opening order's part that would open (openingParts). */
interface OpeningPart {
  id: string;
  side: Side;
  price: number;
  /** What is left of the order, base asset. */
  left: number;
  /** The part of `left` that would open a position: what the venue freezes margin for. */
  opens: number;
}

/** One-way mode: the net position on the pair (its size and mark) and the side whose orders reduce it (0: none). */
function netPosition(i: Omit<OneWaySideInput, 'orders'>): { size: number; mark: number; reducing: Side | 0 } {
  // a short is side SHORT (or a negative quantity on LONG), positionDirection reads both
  let net = 0;
  let mark = NaN;
  for (const p of i.positions) {
    if (p.symbol !== i.symbol || p.quantity === 0) continue;
    const d = positionDirection(p);
    net += d.size * d.sign;
    mark = markFor(i.mark, p);
  }
  // sells reduce a long, buys a short
  return { size: Math.abs(net), mark, reducing: net > 0 ? Side.SELL : net < 0 ? Side.BUY : 0 };
}

/**
 * The account's resting opening orders on the pair (limit, not a close, something left) and the
 * part of each that would open, by the venue's rule (src-main/trading/ledger.ts eachOpeningOrder):
 * in hedge mode all that is left; in one-way mode (`oneWay`) the net position is set against the
 * orders on its reducing side oldest first (by id), and each opens what is left of it beyond what
 * the position still covers. `cover`: what of the position the orders leave (one-way).
 */
export function openingParts(i: OneWaySideInput, oneWay: boolean): { parts: OpeningPart[]; cover: number } {
  const { size, reducing } = oneWay ? netPosition(i) : { size: 0, reducing: 0 };
  const resting = i.orders
    .filter((o) => o.symbol === i.symbol && o.position_action !== PositionAction.CLOSE && Number(o.price) > 0)
    .map((o) => ({ id: o.id, side: o.side, price: Number(o.price), left: Number(o.qty) - Number(o.filled_qty) }))
    .filter((o) => o.left > 0)
    .sort((x, y) => Number(x.id) - Number(y.id));
  let cover = size;
  const parts = resting.map((o): OpeningPart => {
    if (o.side !== reducing) return { ...o, opens: o.left };
    const covered = Math.min(o.left, cover);
    cover = clean(cover - covered, size);
    return { ...o, opens: clean(o.left - covered, o.left) };
  });
  return { parts, cover };
}

/** One-way mode: what a new order on `side` meets, by the venue's rule (see the header). */
export function oneWaySide(i: OneWaySideInput, side: Side): OneWaySide {
  const { size, mark, reducing } = netPosition(i);
  let existing = reducing !== 0 && reducing !== side ? size * mark : 0;
  const { parts, cover } = openingParts(i, true);
  for (const o of parts) if (o.side === side) existing += o.opens * o.price;
  return { cover: side === reducing ? cover : 0, existing };
}

/**
 * Largest quantity one more order at `price` may add under `maxNotional` (USDT) given the
 * side's `existing` notional: 0 when the side is already at the cap; Infinity when the cap is
 * unknown (NaN / undefined) or the price is not known (nothing to cap against yet).
 */
export function notionalRoomQty(maxNotional: number | undefined, existing: number, price: number): number {
  if (maxNotional === undefined || !Number.isFinite(maxNotional) || !(price > 0)) return Infinity;
  const room = maxNotional - (existing > 0 ? existing : 0);
  // a hair below the cap: the venue compares the exact notional, the float here may round up
  return room > 0 ? (room * (1 - 1e-9)) / price : 0;
}
