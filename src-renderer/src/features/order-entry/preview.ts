// What an order would cost before it is sent: notional, initial margin, fee, total cost, the
// estimated liquidation price of the resulting position and, for a close, the estimated
// realized PnL. Pure functions of the form and market state; estimates only (the server's
// figures rule). The liquidation price takes the pair's maintenance tiers when they are known
// (GET /fapi/v1/leverage lists them): each side with the rate and amount of the tier its notional
// falls in at that price, as the venue works it out (risk/liquidation-price.ts); else the first
// tier (the pair's maintenance_margin_rate, no maintenance amount). Cross margin follows the reference formula (exchange.md, "Liquidation
// price"): WB - TMM1 + UPNL1 = the wallet less isolated margins, less the other cross
// positions' maintenance (their own rate, no amount), plus their unrealized PnL at the live
// mark, less this order's fee (crossBacking()). Hedge mode, cross: the symbol's position on the
// other side is solved together with this one, as the venue does (Binance's hedge-mode formula,
// risk/liquidation-price.ts), so crossBacking() leaves it out too.
// One-way mode: an open against the net position first reduces it, and the venue margins only
// the part beyond what the position covers (notional-cap.ts oneWaySide): the cost and margin are
// of that part, a plain close costs nothing; the preview shows the closed part's PnL and the
// liquidation price of what is left, or of the flipped part.
// A liquidation price more than 100% away from the entry is shown as none (NaN): a long can
// never lose more than 100% of its entry, so a short is held to the same range; otherwise a
// small short backed by a large cross wallet shows a liquidation price of millions while
// the same long shows none.
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { MarginMode, PositionSide, Side } from '../../../../src-shared/enums.ts';

export interface PreviewInput {
  side: Side;
  action: 'open' | 'close';
  /** Limit price, or the price a market order is expected to fill at. */
  price: number;
  /**
   * The price the venue values the opening part at when it freezes the margin and the taker fee
   * (a market order: the mark, api.md Order rules); `price` when not given.
   */
  marginPrice?: number;
  qty: number;
  /** Whether the order takes liquidity (market, or a limit that crosses the book). */
  taker: boolean;
  /**
   * A limit order that crosses the book: the levels of the other side it meets, best first,
   * [price, quantity]. It takes them up to its price, each at its own (the taker fee), and the rest
   * rests at its price (the maker fee): its fee is estimated so. Without them a taker's fee is
   * estimated at `price`.
   */
  fills?: ReadonlyArray<readonly [price: number, qty: number]>;
  /**
   * A market order: it takes the levels in `fills` whatever their price (it has no limit), and
   * what the levels shown leave is estimated at the last of them (the taker fee); `price` is its
   * best price, where it starts.
   */
  market?: boolean;
  /**
   * An immediate-or-cancel limit order: what the book does not fill at once expires instead of
   * resting, so it pays no fee (a maker's, as a resting part would) and an order that crosses
   * nothing pays none at all.
   */
  expires?: boolean;
  leverage: number;
  marginMode: MarginMode;
  makerFee: number;
  takerFee: number;
  mmr: number;
  available: number;
  /**
   * Cross margin: WB - TMM1 + UPNL1 of the reference formula (crossBacking()); the available
   * balance stands in when it is not given.
   */
  crossBacking?: number;
  /** The pair's maintenance tiers, lowest first (GET /fapi/v1/leverage); `mmr` alone without them. */
  tiers?: readonly Tier[];
  /** The position this order adds to or closes, if any. */
  position?: { qty: number; entry: number; margin: number } | null;
  /** Hedge mode, cross: the symbol's position on the other side, solved with this one (an open only). */
  opposite?: OppositeLeg | null;
  /**
   * One-way mode, an open against the net position: the position it reduces first (its size
   * > 0, entry, margin). The order closes that much of it and opens (flips to) the rest.
   */
  against?: { qty: number; entry: number; margin: number } | null;
  /**
   * One-way mode: how much of the order the net position takes before it opens (the position
   * less the resting orders against it, notional-cap.ts oneWaySide; all of a reduce-only
   * order): margined for nothing. Default 0.
   */
  covered?: number;
  /**
   * One-way mode, a reduce-only open: it never opens, and the venue trims it to the position
   * against it (`against`) as it enters, as it does every close: so it never flips.
   */
  reduceOnly?: boolean;
}

/** The other side of a hedged symbol: its quantity (base asset, > 0) and entry. */
interface OppositeLeg {
  qty: number;
  entry: number;
}

export interface Preview {
  notional: number;
  margin: number;
  /** The fee the order is expected to pay (maker when it would rest, else taker). */
  fee: number;
  /** What the venue holds to accept an open: the margin plus the taker fee (a close: its fee). */
  cost: number;
  liquidation: number;
  /** Estimated realized PnL of a close, or of the part of a one-way open that reduces the position (before fees); else NaN. */
  pnl: number;
  /**
   * A close or reduce-only order larger than the position it reduces: the position, which the
   * venue trims it to as it enters (the figures above are of that quantity); else NaN.
   */
  trimmedTo: number;
}

/** Largest adverse move, as a share of the entry, for which a liquidation price is shown. */
const LIQUIDATION_RANGE = 1;

/** One maintenance tier: notional up to `cap` (USDT) keeps notional x `mmr` - `cum`. */
export interface Tier {
  cap: number;
  mmr: number;
  cum: number;
}

/** The tier a notional falls in (its cap at or above it); above the last cap, the last. */
function tierAt(tiers: readonly Tier[], notional: number): Tier {
  return tiers.find((t) => notional <= t.cap) ?? tiers[tiers.length - 1];
}

/** One position as liquidationPrice() reads it. */
export interface LiquidationInput {
  long: boolean;
  /** Q: the position's quantity, base asset. */
  qty: number;
  /** EP: its entry price. */
  entry: number;
  /** WB: the margin backing it (isolated margin, or the cross wallet's share, crossBacking()). */
  walletBacking: number;
  /** MMR: the tier's maintenance margin rate. */
  mmr: number;
  /** The tier's maintenance amount (0 in the first tier). */
  cum?: number;
  /** The pair's tiers, lowest first: when given, `mmr` and `cum` are those of each side's tier at the price. */
  tiers?: readonly Tier[];
  /** Hedge mode, cross: the opposite side of the symbol (same MMR); WB then leaves it out. */
  opposite?: OppositeLeg | null;
}

/**
 * Liquidation price of one position (DESIGN section 5): s = +1 long / -1 short,
 * LP = (WB + cum - s x Q x EP) / (Q x MMR - s x Q); with an opposite side (Qo, EPo) of the
 * same symbol, both solved together: LP = (WB + cum + cumo - s x Q x EP + s x Qo x EPo) /
 * (Q x MMR + Qo x MMRo - s x Q + s x Qo). With `tiers`, MMR and cum are each side's at the price:
 * the formula is taken on every stretch of prices where no side changes tier, and its root kept
 * where it falls inside its own stretch (the one nearest the entry when a hedge has two). NaN when
 * there is none within LIQUIDATION_RANGE of the entry (a long at or below 0, a short at or above
 * twice the entry) or the input is nonsense.
 */
export function liquidationPrice({
  long,
  qty,
  entry,
  walletBacking,
  mmr,
  cum = 0,
  tiers,
  opposite,
}: LiquidationInput): number {
  const s = long ? 1 : -1;
  if (!(qty > 0) || !(entry > 0)) return NaN;
  const legs = [{ s, q: qty, ep: entry }];
  if (opposite && opposite.qty > 0) legs.push({ s: -s, q: opposite.qty, ep: opposite.entry });
  const inRange = (lp: number): boolean =>
    lp > 0 && Number.isFinite(lp) && Math.abs(lp - entry) < LIQUIDATION_RANGE * entry;
  // the root on a stretch of prices where every side keeps one tier (its rate and amount)
  const root = (tierOf: (notional: number) => { mmr: number; cum: number }, at: number): number => {
    let num = walletBacking;
    let den = 0;
    for (const l of legs) {
      const t = tierOf(l.q * at);
      num += t.cum - l.s * l.q * l.ep;
      den += l.q * t.mmr - l.s * l.q;
    }
    return den === 0 ? NaN : num / den;
  };
  if (!tiers || tiers.length === 0) {
    // one rate for both sides, the amount counted once
    const lp = root(() => ({ mmr, cum: 0 }), 0) + cum / legs.reduce((d, l) => d + l.q * mmr - l.s * l.q, 0);
    return inRange(lp) ? lp : NaN;
  }
  const tierOf = (notional: number): Tier => tierAt(tiers, notional);
  // the prices where a side's notional reaches a tier's cap bound the stretches
  const kinks = legs.flatMap((l) => tiers.slice(0, -1).map((t) => t.cap / l.q)).sort((a, b) => a - b);
  const ends = [0, ...kinks, Infinity];
  let best = NaN;
  for (let k = 0; k + 1 < ends.length; k++) {
    const lo = ends[k];
    const hi = ends[k + 1];
    if (!(hi > lo)) continue;
    const lp = root(tierOf, hi === Infinity ? lo * 2 + 1 : (lo + hi) / 2);
    if (!(lp >= lo && lp <= hi) || !inRange(lp)) continue;
    if (Number.isNaN(best) || Math.abs(lp - entry) < Math.abs(best - entry)) best = lp;
  }
  return best;
}

/** The fields of a position record that crossBacking() reads. */
export type BackingPosition = Pick<
  PositionRecord,
  | 'symbol'
  | 'position_side'
  | 'margin_mode'
  | 'quantity'
  | 'entry_price'
  | 'mark_price'
  | 'maintenance_margin_rate'
  | 'margin'
>;

/**
 * WB - TMM1 + UPNL1 for a cross position: the wallet less every isolated position's margin,
 * less the maintenance of the other cross positions, plus their unrealized PnL at `markOf`
 * (the record's mark when the live one is unknown). `isThis` picks the position the order
 * adds to (and, hedge mode, cross, the other side of the symbol), which the formula counts
 * through its own quantity instead. A position's maintenance is notional x rate - amount of the
 * tier its notional falls in, with `tiersOf` its pair's tiers; without them its record's rate
 * and no amount (which overstates it by the amount from the second tier on).
 */
export function crossBacking(
  wallet: number,
  positions: readonly BackingPosition[],
  isThis: (p: BackingPosition) => boolean,
  markOf: (symbol: string) => number | undefined,
  tiersOf: (symbol: string) => readonly Tier[] | undefined = () => undefined,
): number {
  let backing = wallet;
  for (const p of positions) {
    if (p.quantity === 0) continue;
    if (p.margin_mode === MarginMode.ISOLATED) {
      backing -= p.margin;
      continue;
    }
    if (isThis(p)) continue;
    const live = markOf(p.symbol);
    const mark = live !== undefined && live > 0 ? live : p.mark_price;
    // one-way: a short is a negative quantity on LONG; hedge: SHORT is short
    const sign = p.position_side === PositionSide.SHORT ? -1 : 1;
    const notional = Math.abs(p.quantity) * mark;
    const tiers = tiersOf(p.symbol);
    const tier = tiers && tiers.length > 0 ? tierAt(tiers, notional) : { mmr: p.maintenance_margin_rate, cum: 0 };
    backing += (mark - p.entry_price) * p.quantity * sign - (notional * tier.mmr - tier.cum);
  }
  return backing;
}

/** The position a close or a one-way reduce-only open reduces (its size > 0), which caps it; else null. */
function reducedPosition(i: PreviewInput): { qty: number; entry: number } | null {
  const p = i.action === 'close' ? i.position : i.reduceOnly ? i.against : null;
  return p && Math.abs(p.qty) > 0 ? { qty: Math.abs(p.qty), entry: p.entry } : null;
}

export function preview(i: PreviewInput): Preview {
  const asked = i.qty > 0 ? i.qty : 0;
  // a close or reduce-only order enters trimmed to the position it reduces (api.md, Order rules):
  // it trades, pays and realizes no more than that, and never flips the position
  const reduced = reducedPosition(i);
  const qty = reduced ? Math.min(asked, reduced.qty) : asked;
  const trimmedTo = reduced && asked > reduced.qty * (1 + 1e-9) ? reduced.qty : NaN;
  // a size with no price to value it at (a limit order with no price, or one that is not a
  // number): nothing is estimated, and the form shows '—', not a cost of 0 for an order that has one
  if (qty > 0 && !(i.price > 0))
    return { notional: NaN, margin: NaN, fee: NaN, cost: NaN, liquidation: NaN, pnl: NaN, trimmedTo };
  const notional = i.price > 0 ? qty * i.price : 0;
  const crossing = i.taker && i.fills ? crossingTrades(i, qty) : null;
  const fee = crossing ? crossing.fee : i.expires && !i.taker ? 0 : notional * (i.taker ? i.takerFee : i.makerFee);
  // the price it trades at: a crossing limit order's at the levels it reaches (the rest at its
  // limit), not at its limit, so its PnL and the entry it gives are of those (its cost stays at its limit)
  const at = crossing ? crossing.price : i.price;
  const long = i.action === 'open' ? i.side === Side.BUY : i.side === Side.SELL;
  if (i.action === 'close') {
    const pnl = reduced && qty > 0 && i.price > 0 ? (at - reduced.entry) * qty * (long ? 1 : -1) : NaN;
    return { notional, margin: 0, fee, cost: fee, liquidation: NaN, pnl, trimmedTo };
  }
  // what the venue margins: the part of the order beyond what the one-way net position takes (a
  // reduce-only order: none of it)
  const coveredIn = i.reduceOnly ? qty : i.covered !== undefined && i.covered > 0 ? i.covered : 0;
  const covered = Math.min(qty, coveredIn);
  const marginAt = i.marginPrice !== undefined && i.marginPrice > 0 ? i.marginPrice : i.price;
  const opening = qty - covered > qty * 1e-9 ? (qty - covered) * (marginAt > 0 ? marginAt : 0) : 0;
  const { margin, hold } = openingHold(opening, i.leverage, i.takerFee);
  const a = i.against && i.against.qty > 0 ? i.against : null;
  if (a) return { notional, margin, fee, cost: hold, trimmedTo, ...againstPosition(i, a, qty, long, { fee, at }) };
  const p = i.position;
  const totalQty = qty + (p ? Math.abs(p.qty) : 0);
  const entry = totalQty > 0 ? (qty * at + (p ? Math.abs(p.qty) * p.entry : 0)) / totalQty : 0;
  // the opening fee leaves the cross wallet; an isolated position keeps its margin
  // an isolated position locks the initial margin of its fills, at the prices they trade at (not
  // at the limit or the mark the order's hold was valued at)
  const backing =
    i.marginMode === MarginMode.ISOLATED
      ? ((qty - covered) * at) / Math.max(1, i.leverage) + (p ? p.margin : 0)
      : (i.crossBacking ?? i.available) - fee;
  const liquidation =
    qty > 0 && i.price > 0
      ? liquidationPrice({
          long,
          qty: totalQty,
          entry,
          walletBacking: backing,
          mmr: i.mmr,
          tiers: i.tiers,
          opposite: i.marginMode === MarginMode.CROSS ? i.opposite : null,
        })
      : NaN;
  return { notional, margin, fee, cost: hold, liquidation, pnl: NaN, trimmedTo };
}

/**
 * A limit order of `qty` that crosses the book (`fills`): the levels it reaches take it at their
 * prices, as a taker; what they leave rests at its limit, as a maker (an IOC order's expires: no
 * fee). A market order takes the levels whatever their price, what they leave at the last one.
 * Its fee, and the average price it trades at (the resting rest counted at its limit).
 */
function crossingTrades(i: PreviewInput, qty: number): { fee: number; price: number } {
  const buy = i.side === Side.BUY;
  const market = i.market === true;
  let left = qty;
  let fee = 0;
  let value = 0;
  // a market order's rest, past the levels shown, at the last of them
  let deepest = i.price;
  for (const [price, size] of i.fills ?? []) {
    if (left <= qty * 1e-9 || (!market && (buy ? price > i.price : price < i.price))) break;
    const take = Math.min(left, size);
    fee += take * price * i.takerFee;
    value += take * price;
    left -= take;
    deepest = price;
  }
  const rest = left > qty * 1e-9 ? left : 0;
  const restAt = market ? deepest : i.price;
  const price = qty > 0 ? (value + rest * restAt) / qty : i.price;
  if (market) return { fee: fee + rest * restAt * i.takerFee, price };
  // the rest rests as a maker, or an IOC order's expires unfilled (no fee)
  return { fee: rest > 0 && !i.expires ? fee + rest * i.price * i.makerFee : fee, price };
}

/**
 * One-way mode, an order of `qty` against net position `a` (the other way from `long`): the
 * realized PnL of the part it closes and the liquidation price of what is left (the rest of the
 * position at its entry, or the flipped part at `at`, the price the order trades at; none when it
 * closes it all), `fee` its fee.
 * The closed part's PnL and the fee move the cross wallet; an isolated position keeps its margin
 * in proportion, a flipped one gets its initial margin.
 */
function againstPosition(
  i: PreviewInput,
  a: { qty: number; entry: number; margin: number },
  qty: number,
  long: boolean,
  { fee, at }: { fee: number; at: number },
): { liquidation: number; pnl: number } {
  if (!(qty > 0) || !(i.price > 0)) return { liquidation: NaN, pnl: NaN };
  const closing = Math.min(qty, a.qty);
  const pnl = (at - a.entry) * closing * (long ? -1 : 1);
  const left = a.qty - closing;
  const flip = qty - closing;
  if (left <= a.qty * 1e-9 && flip <= qty * 1e-9) return { liquidation: NaN, pnl };
  const rest = left > a.qty * 1e-9;
  const cross = i.marginMode === MarginMode.CROSS;
  const backing = cross
    ? (i.crossBacking ?? i.available) - fee + pnl
    : rest
      ? (a.margin * left) / a.qty
      : (flip * at) / Math.max(1, i.leverage);
  const liquidation = liquidationPrice({
    long: rest ? !long : long,
    qty: rest ? left : flip,
    entry: rest ? a.entry : at,
    walletBacking: backing,
    mmr: i.mmr,
    tiers: i.tiers,
  });
  return { liquidation, pnl };
}

/**
 * What the venue holds for the opening part of an order, worth `notional` at its price: its
 * initial margin at `leverage` and, with the taker fee, what it freezes while the order is open,
 * whichever side of the book it ends on (api.md: opening orders freeze initial margin plus the
 * taker fee; src-main/trading/ledger.ts orderMargin); a maker fill then pays the lower fee and the
 * rest comes back. The order form's preview and the open orders' Margin column both use it.
 */
export function openingHold(notional: number, leverage: number, takerFee: number): { margin: number; hold: number } {
  const margin = notional / Math.max(1, leverage);
  return { margin, hold: margin + notional * takerFee };
}

/** Largest quantity `available` can open at `price` and `leverage`, fees included. */
export function maxOpenQty(available: number, price: number, leverage: number, takerFee: number): number {
  if (!(available > 0) || !(price > 0)) return 0;
  return (available * leverage) / (price * (1 + leverage * takerFee));
}
