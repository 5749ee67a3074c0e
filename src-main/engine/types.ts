// Engine vocabulary: numeric codes, limits, the event sink contract and the book's command API.
//
// Every code here is part of the engine's contract with the risk and service layers; codes are
// stable (never renumber, only add). All numbers crossing this boundary are integers: prices in
// ticks, quantities in lots, order and account ids as given by the caller.

/** Order side; the same numbers as the API (1 buy, 2 sell). */
export const Side = { Buy: 1, Sell: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Order type; the same numbers as the API (1 limit, 2 market). */
export const OrderType = { Limit: 1, Market: 2 } as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

/** Time in force; the same numbers as the API. GTX is post-only: it expires if any part would take. */
export const TimeInForce = { GTC: 1, IOC: 2, FOK: 3, GTX: 4 } as const;
export type TimeInForce = (typeof TimeInForce)[keyof typeof TimeInForce];

/**
 * Self-trade prevention, decided by the taker's mode when it meets a resting order of the same
 * account. 0 on a command means "the book's default" (ExpireTaker unless configured otherwise).
 */
export const StpMode = { BookDefault: 0, ExpireTaker: 1, ExpireMaker: 2, ExpireBoth: 3 } as const;
export type StpMode = (typeof StpMode)[keyof typeof StpMode];

/** Order flag bits. Reduce-only is recorded for look-ups; its cap is the command's maxFillLots. */
export const OrderFlag = { ReduceOnly: 1 } as const;
export const KNOWN_FLAGS = OrderFlag.ReduceOnly;

/** Which command a rejection answers. */
export const CommandKind = { Limit: 1, Market: 2, Cancel: 3, CancelAll: 4, Amend: 5, Trim: 6 } as const;
export type CommandKind = (typeof CommandKind)[keyof typeof CommandKind];

export const RejectReason = {
  InvalidOrderId: 1, // not a safe integer >= 0
  InvalidAccount: 2, // not a safe integer >= 0
  InvalidSide: 3,
  InvalidPrice: 4, // not an integer in [1, MAX_PRICE_TICKS]
  InvalidQuantity: 5, // not an integer in [1, MAX_QTY_LOTS]
  InvalidTimeInForce: 6,
  InvalidStpMode: 7,
  InvalidFlags: 8,
  InvalidReferencePrice: 9, // market order without a usable reference price
  InvalidCap: 10, // maxFillLots / trim cap not -1 or an integer in [0, MAX_QTY_LOTS]
  DuplicateOrderId: 11, // the id belongs to a live order of this book
  UnknownOrder: 12, // no live order with that id (or it belongs to another account)
  NothingToReduce: 13, // cap 0 on placement or amendment: a reduce-only order with no position
  AmendNoChange: 14,
  AmendQtyNotAboveFilled: 15, // new total quantity <= quantity already filled
} as const;
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

export const ExpireReason = {
  ImmediateOrCancel: 1, // IOC remainder
  FillOrKill: 2, // FOK could not fill whole; the book is untouched
  PostOnly: 3, // GTX would have taken
  MarketBand: 4, // market remainder: the next level lies outside the protection band
  MarketNoLiquidity: 5, // market remainder: the opposite side is empty
  SelfTrade: 6, // self-trade prevention (taker or maker, see the order id)
} as const;
export type ExpireReason = (typeof ExpireReason)[keyof typeof ExpireReason];

export const CancelReason = {
  User: 1, // cancel(orderId)
  CancelAll: 2, // cancelAll(account)
  ReduceOnly: 3, // trimOrder(orderId, 0): the position it reduced is gone
} as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

/** Prices are stored in Int32 slots (asks as negated keys), so 2^31 - 1 is the ceiling. */
export const MAX_PRICE_TICKS = 2_147_483_647;
/**
 * Per-order ceiling. Quantities live in Float64 (exact to 2^53); 2^44 per order keeps a level
 * total exact for 512 maximal orders, and real venues sit many orders of magnitude below.
 */
export const MAX_QTY_LOTS = 17_592_186_044_416; // 2^44
/** Band is parts per million of the reference price; 1,000,000 = 100%. */
export const MAX_BAND_PPM = 1_000_000;

/**
 * Where the engine reports what happened, one call per event, primitives only, so nothing is
 * allocated per event. Calls arrive in order; a command's level changes come last, after its
 * order and trade events. A sink must not call back into the book and must not throw (a
 * re-entrant call throws; a throwing sink leaves the book unusable).
 *
 * Per command, first the order events in the order they happen
 * (accepted, then per match: trade, maker filled/partially filled, taker filled/partially
 * filled; expiries and cancels where they happen), then the command's level changes. Each level
 * whose total differs after the command from before it gets exactly one onLevelChanged carrying
 * the next update id (+1 each, no gaps), its side, price and new total (0 = gone), bids first
 * (best to worst), then asks (best to worst). The depth feed's U/u and the snapshot id use
 * these ids.
 */
export interface EngineSink {
  /** A new order passed validation (status NEW). qtyLots is after the reduce-only cap. Market: price 0, its tif (IOC, FOK or GTX). */
  onAccepted(
    orderId: number,
    account: number,
    side: number,
    orderType: number,
    tif: number,
    priceTicks: number,
    qtyLots: number,
    flags: number,
  ): void;
  /** A command was refused; nothing changed. orderId/account echo the command (-1 when it had none). */
  onRejected(command: number, orderId: number, account: number, reason: number): void;
  /** One match. The maker's side is the opposite of takerSide. */
  onTrade(
    makerId: number,
    makerAccount: number,
    takerId: number,
    takerAccount: number,
    priceTicks: number,
    qtyLots: number,
    takerSide: number,
  ): void;
  /** After a trade: the order has filledLots in total and remainingLots still open. */
  onPartiallyFilled(orderId: number, account: number, filledLots: number, remainingLots: number): void;
  /** After a trade: the order is complete with filledLots in total. */
  onFilled(orderId: number, account: number, filledLots: number): void;
  /** Price or quantity changed (amend or trim). qtyLots is the new total (filled + remaining). */
  onAmended(
    orderId: number,
    account: number,
    priceTicks: number,
    qtyLots: number,
    remainingLots: number,
    priorityKept: boolean,
  ): void;
  onCancelled(orderId: number, account: number, remainingLots: number, reason: number): void;
  onExpired(orderId: number, account: number, remainingLots: number, reason: number): void;
  /**
   * A price level's total changed; totalLots 0 means the level is gone. updateId rises by exactly 1
   * per call (more where the book's id was raised in between: raiseUpdateId).
   */
  onLevelChanged(updateId: number, side: number, priceTicks: number, totalLots: number): void;
}

/**
 * The engine's command surface (the reference book takes the same commands as objects).
 *
 * Units and limits
 * - Prices are integer ticks in [1, 2^31-1]; quantities integer lots in [1, 2^44] per order;
 *   level totals are exact while they stay below 2^53 (>= 512 maximal orders per level).
 * - Order and account ids are safe integers >= 0. Duplicate detection covers live orders only:
 *   the caller must not reuse the id of a finished order if it wants ids to stay unique.
 * - Impact notional is in tick*lot units (price ticks x lots): convert a quote notional N with
 *   N / (tickSize * lotSize).
 *
 * Matching rules
 * - Price-time priority, FIFO within a level. Trades print at the maker's price.
 * - GTC rests; IOC fills what it can, the rest expires; FOK fills completely or expires whole
 *   with the book untouched; GTX (post-only) expires whole if any part would take.
 * - Market orders are limited to the band: a buy sweeps up to floor(ref*(1+band)), a sell
 *   down to max(1, ceil(ref*(1-band))), ref being the reference price given with the command
 *   (the service passes mark); the remainder expires (MarketBand, or MarketNoLiquidity when the
 *   opposite side is empty). Their time in force is IOC (default), FOK or GTX (GTC is
 *   InvalidTimeInForce: a market order never rests), decided as for a limit order at the band's
 *   edge: a FOK fills whole inside the band or expires whole (FillOrKill) with the book untouched;
 *   a GTX expires whole (PostOnly) when anything inside the band would trade, and otherwise
 *   expires as any market order that meets nothing (MarketBand / MarketNoLiquidity).
 * - Reduce-only / risk cap: maxFillLots >= 0 caps what the order may ever fill; the order's
 *   quantity is trimmed to it at entry (onAccepted reports the trimmed quantity) and a cap of 0
 *   is rejected (NothingToReduce). While it rests, trimOrder(id, cap) lowers its remaining
 *   quantity (priority kept) or cancels it when cap is 0; a cap >= remaining is a silent no-op.
 *   The cap is per order: the risk layer keeps the sum over an account's reduce-only orders
 *   within the position between commands (trimOrder). Within one match, where one taker may
 *   meet several reduce-only orders of an account, the book asks the config's
 *   reduceOnlyGuard (see ReduceOnlyGuard) before each resting reduce-only order trades, and
 *   trims it first (onAmended, priority kept) or cancels it (onCancelled, ReduceOnly) as
 *   trimOrder would, the taker going on to the next order; a FOK counts what those orders may
 *   fill. Without a guard, a resting order's cap is only what trimOrder set.
 * - Self-trade prevention by the taker's mode (default ExpireTaker, like Binance): ExpireTaker
 *   stops the taker at the first own resting order and expires its remainder; ExpireMaker
 *   expires each own resting order met and keeps matching; ExpireBoth expires both. A FOK order
 *   counts only what it could fill under its mode, so a FOK that fails touches nothing.
 * - Amend(id, price, qty) takes the new TOTAL quantity (as Binance: filled part included).
 *   Same price and smaller quantity: priority kept (unless the caller asks for a requeue). Same
 *   price and larger quantity: moves to the back of its level (priority lost). New price: the
 *   order leaves the book and re-enters as a taker with its own time in force and STP mode (it
 *   may trade; a GTX that would take expires), then rests at the back of the new level. New
 *   total <= filled is rejected.
 */
export interface BookCommands {
  placeLimit(
    orderId: number,
    account: number,
    side: number,
    priceTicks: number,
    qtyLots: number,
    tif: number,
    flags?: number,
    maxFillLots?: number,
    stp?: number,
  ): void;
  placeMarket(
    orderId: number,
    account: number,
    side: number,
    qtyLots: number,
    refPriceTicks: number,
    flags?: number,
    maxFillLots?: number,
    stp?: number,
    tif?: number,
  ): void;
  cancel(orderId: number, account?: number): void;
  cancelAll(account: number): number;
  amend(
    orderId: number,
    priceTicks: number,
    qtyLots: number,
    account?: number,
    maxFillLots?: number,
    requeue?: boolean,
  ): void;
  trimOrder(orderId: number, capLots: number): void;
}

/**
 * The risk layer's answer to "how much may this resting reduce-only order fill now?", asked by
 * the book during a match (a taker's sweep, or a FOK's fill check) just before a resting order
 * with the ReduceOnly flag would trade. The book knows no positions; the guard does, as they
 * stood before the command, and the book tells it what the match has already taken from the
 * same account's resting orders (all on the same side of the book): `reducedLots` through its
 * reduce-only orders, `otherLots` through its other orders (in one-way mode those reduce the
 * position too; in hedge mode they open the other side). Answer an integer: the lots the order
 * may fill at most (0: none, the book cancels it), or -1 for no cap. Called with primitives,
 * nothing allocated by the book; it must not call back into the book, must not throw, and its
 * answer must depend only on its arguments and state the book's commands do not change.
 */
export interface ReduceOnlyGuard {
  makerCap(orderId: number, account: number, reducedLots: number, otherLots: number): number;
}

export interface BookConfig {
  /** Informational; the engine keeps one book per symbol and never reads it. */
  readonly symbol?: string;
  /** Caps resting reduce-only orders while they are matched (see ReduceOnlyGuard); none by default. */
  readonly reduceOnlyGuard?: ReduceOnlyGuard;
  /** Market-order protection band around the command's reference price, parts per million. */
  readonly bandPpm: number;
  /** STP mode for commands that pass 0 (default ExpireTaker, as Binance). */
  readonly defaultStp?: StpMode;
  /** Pre-sized capacities; both grow by doubling when exceeded. */
  readonly initialOrderCapacity?: number;
  readonly initialLevelCapacity?: number;
  /**
   * The direct id window: a power of two W (default 65,536, 4 bytes each) covering the newest
   * ids (after a slide, the newest 15/16 W at least); older or out-of-pattern ids go to a hash
   * table. See order-index.ts.
   */
  readonly idWindow?: number;
  /**
   * The power of two the id window may double up to when many orders outlive it (a deep book),
   * sparing them the hash. Default 2^20 (4 MB, used only when needed) when idWindow is not
   * given; when idWindow is given, the default is idWindow itself (a fixed window).
   */
  readonly maxIdWindow?: number;
}

/** [priceTicks, totalLots] */
export type Level = [number, number];

export interface DepthView {
  /** Update id after the last level change included. */
  readonly updateId: number;
  readonly bids: Level[];
  readonly asks: Level[];
}

export interface OrderView {
  readonly orderId: number;
  readonly account: number;
  readonly side: Side;
  readonly priceTicks: number;
  /** Total quantity: filled + remaining (changed by amend and trim). */
  readonly qtyLots: number;
  readonly remainingLots: number;
  readonly filledLots: number;
  readonly tif: TimeInForce;
  readonly flags: number;
  readonly reduceOnly: boolean;
}
