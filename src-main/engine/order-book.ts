// The matching engine: one limit order book per symbol, commands in, events out.
//
// Pure, synchronous, deterministic: no I/O, no clock, no randomness, no ids invented (order and
// account ids come from the caller). Bad input never throws: every command either emits
// onAccepted/onAmended/... or exactly one onRejected with a RejectReason, and a rejected
// command changes nothing. (Only programming errors throw: bad config, a re-entrant call from
// inside a sink callback, an invalid grouping step.) Units, limits and matching rules: the doc
// of BookCommands (types.ts); event order: EngineSink's; data structures: OrderBook's.

import * as accountModule from './account-table.ts';
import { AccountTable } from './account-table.ts';
import * as levelModule from './level-pool.ts';
import { LevelPool } from './level-pool.ts';
import { OrderIndex } from './order-index.ts';
import * as poolModule from './order-pool.ts';
import { OrderPool } from './order-pool.ts';
import * as ladderModule from './price-ladder.ts';
import { PriceLadder } from './price-ladder.ts';
import * as typesModule from './types.ts';
import type {
  BookCommands,
  BookConfig,
  DepthView,
  EngineSink,
  Level,
  OrderView,
  ReduceOnlyGuard,
  Side,
  TimeInForce,
} from './types.ts';

// Module-level copies of imported constants: V8 folds these into the code, while it reads an
// imported binding through a cell, with a hole check, at every use (measured on the unbundled
// modules, as Node runs them from source, about a tenth of the hot functions' machine code; a
// bundle hoists them anyway).
const { OrderLayout, metaFlags, metaSide, metaStp, metaTif, packMeta } = poolModule;
const { CACHE_SIZE } = ladderModule;
const { A_HEAD, A_TAIL, A_COUNT_BUY, A_COUNT_SELL } = accountModule.AccountLayout;
const { LF_TOTAL, LF_BEFORE, LI_PRICE, LI_HEAD, LI_TAIL, LI_COUNT, LI_SIDE, LI_DIRTY, LI_IN_LADDER } =
  levelModule.LevelLayout;
const {
  CancelReason,
  CommandKind,
  ExpireReason,
  KNOWN_FLAGS,
  MAX_BAND_PPM,
  MAX_PRICE_TICKS,
  MAX_QTY_LOTS,
  OrderFlag,
  OrderType,
  RejectReason,
  StpMode,
} = typesModule;
const {
  F_ID,
  F_ACCOUNT,
  F_QTY,
  F_REM,
  I_PRICE,
  I_NEXT,
  I_PREV,
  I_LEVEL,
  I_ACCOUNT_NEXT,
  I_ACCOUNT_PREV,
  I_ACCOUNT_SLOT,
  I_META,
} = OrderLayout;

const BUY = 1;
const LIMIT = OrderType.Limit;
const MARKET = OrderType.Market;
const GTC = 1;
const IOC = 2;
const FOK = 3;
const GTX = 4;
const EXPIRE_TAKER = StpMode.ExpireTaker;
const EXPIRE_MAKER = StpMode.ExpireMaker;
const EXPIRE_BOTH = StpMode.ExpireBoth;
const PPM = 1_000_000;
/** The ReduceOnly flag as it sits in an order's meta (packMeta: flags << 8). */
const RO_META = OrderFlag.ReduceOnly << 8;

function isId(x: number): boolean {
  if (typeof x !== 'number') return false;
  if ((x | 0) === x) return x >= 0;
  return x > 0 && x <= Number.MAX_SAFE_INTEGER && Math.floor(x) === x;
}
function isPrice(x: number): boolean {
  return typeof x === 'number' && x >= 1 && x <= MAX_PRICE_TICKS && (x | 0) === x;
}
function isQty(x: number): boolean {
  if (typeof x !== 'number') return false;
  if ((x | 0) === x) return x >= 1;
  return x > 0 && x <= MAX_QTY_LOTS && Math.floor(x) === x;
}
function isCap(x: number): boolean {
  return x === -1 || (typeof x === 'number' && x >= 0 && x <= MAX_QTY_LOTS && Math.floor(x) === x);
}
function isTif(x: number): boolean {
  return x === GTC || x === IOC || x === FOK || x === GTX;
}
/** A market order's time in force: IOC (the default), FOK or GTX; a market order never rests (no GTC). */
function isMarketTif(x: number): boolean {
  return x === IOC || x === FOK || x === GTX;
}
function isStp(x: number): boolean {
  return x === 0 || x === EXPIRE_TAKER || x === EXPIRE_MAKER || x === EXPIRE_BOTH;
}
/**
 * The common case of an order's parameters, decided by these checks alone: int32 id, account,
 * price and quantity in range, a valid side and STP mode, no flags or cap. Whatever passes passes
 * the full chain too (int32 >= 0 is an id, int32 >= 1 a price and a quantity); whatever fails
 * goes through the full chain, which names the reason. typeof comes before `| 0`, which would
 * throw on a BigInt, a Symbol or an object whose valueOf throws.
 */
// eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
function isPlain(
  orderId: number,
  account: number,
  side: number,
  price: number,
  qty: number,
  flags: number,
  maxFillLots: number,
  stp: number,
): boolean {
  return (
    flags === 0 &&
    isStp(stp) &&
    maxFillLots === -1 &&
    typeof orderId === 'number' &&
    (orderId | 0) === orderId &&
    orderId >= 0 &&
    typeof account === 'number' &&
    (account | 0) === account &&
    account >= 0 &&
    (side === 1 || side === 2) &&
    typeof price === 'number' &&
    (price | 0) === price &&
    price >= 1 &&
    typeof qty === 'number' &&
    (qty | 0) === qty &&
    qty >= 1
  );
}
function isFlags(x: number): boolean {
  return typeof x === 'number' && (x | 0) === x && (x & ~KNOWN_FLAGS) === 0;
}

/**
 * Data structures (all typed arrays, reused; the hot path allocates nothing):
 * - order-pool.ts: one 64-byte record (a cache line) per order, intrusive FIFO links per level
 *   and per account;
 * - level-pool.ts: one 64-byte record per level (price, total, FIFO head/tail, count, side,
 *   dirty/before for the command's level changes), like the orders;
 * - price-ladder.ts: per side, sorted keys with the best at the end, gallop search from the top
 *   behind a small price -> level cache, lazy removal of levels emptied below the top (a cancel
 *   never shifts the array);
 * - order-index.ts: id -> slot (O(1) cancel), the newest ids direct-mapped in a sliding window
 *   (which doubles, up to maxIdWindow, while many orders outlive it), the rest in id-table.ts
 *   (open addressing); account-table.ts: per-account lists and counts
 *   (direct-mapped for account ids below 2^20).
 * Nothing grows with the depth of a level: entry appends at the tail, cancel unlinks by slot,
 * a fill removes the head. Growth (doubling a pool, compacting a ladder) is amortized O(1).
 * One exception, by necessity: a FOK pre-check sums level totals, but walks the crossed orders
 * one by one when the taker's own account rests orders on the other side (STP decides what
 * could fill).
 */
export class OrderBook implements BookCommands {
  readonly symbol: string;
  readonly bandPpm: number;
  readonly defaultStp: number;
  private readonly sink: EngineSink;
  private readonly orders: OrderPool;
  private readonly levels: LevelPool;
  private readonly bids: PriceLadder;
  private readonly asks: PriceLadder;
  private readonly ids: OrderIndex;
  private readonly accounts: AccountTable;
  private lastUpdateId = 0;
  /** Levels touched by the current command, reported and cleared at its end. */
  private dirtyList: Int32Array;
  private dirtyN = 0;
  /** Levels taken out of a ladder during the command, freed at its end. */
  private retired: Int32Array;
  private retiredN = 0;
  private busy = 0;
  /** Set by sweep() when STP expired the taker. */
  private takerGone = false;
  private readonly guard: ReduceOnlyGuard | null;
  /** Resting reduce-only orders per side ([side]): a match asks the guard only when the side it takes from has some. */
  private readonly roResting = new Int32Array(3);
  /** Number of the current guarded match (sweep or FOK check), for the account table's takings. */
  private matchNo = 0;

  constructor(config: BookConfig, sink: EngineSink) {
    const band = config.bandPpm;
    if (!Number.isInteger(band) || band < 0 || band > MAX_BAND_PPM) {
      throw new RangeError(`bandPpm must be an integer in [0, ${MAX_BAND_PPM}], got ${band}`);
    }
    const stp = config.defaultStp ?? StpMode.ExpireTaker;
    if (stp !== EXPIRE_TAKER && stp !== EXPIRE_MAKER && stp !== EXPIRE_BOTH) {
      throw new RangeError(`defaultStp must be 1, 2 or 3, got ${stp}`);
    }
    this.symbol = config.symbol ?? '';
    this.bandPpm = band;
    this.defaultStp = stp;
    this.sink = sink;
    this.guard = config.reduceOnlyGuard ?? null;
    const orderCap = config.initialOrderCapacity ?? 1024;
    const levelCap = config.initialLevelCapacity ?? 256;
    this.orders = new OrderPool(orderCap);
    this.levels = new LevelPool(levelCap);
    this.bids = new PriceLadder(levelCap);
    this.asks = new PriceLadder(levelCap);
    const idWindow = config.idWindow ?? 65_536;
    this.ids = new OrderIndex(
      idWindow,
      orderCap,
      config.maxIdWindow ?? (config.idWindow === undefined ? 1 << 20 : idWindow),
    );
    this.accounts = new AccountTable();
    this.dirtyList = new Int32Array(64);
    this.retired = new Int32Array(64);
  }

  // ---------------------------------------------------------------- commands

  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  placeLimit(
    orderId: number,
    account: number,
    side: number,
    priceTicks: number,
    qtyLots: number,
    tif: number,
    flags = 0,
    maxFillLots = -1,
    stp = 0,
  ): void {
    this.begin();
    // The common case first (see isPlain); anything else goes through limitReason(), which
    // names what is wrong.
    const reason =
      isPlain(orderId, account, side, priceTicks, qtyLots, flags, maxFillLots, stp) && isTif(tif)
        ? this.ids.get(orderId) !== -1
          ? RejectReason.DuplicateOrderId
          : 0
        : this.limitReason(orderId, account, side, priceTicks, qtyLots, tif, flags, maxFillLots, stp);
    if (reason !== 0) {
      this.sink.onRejected(CommandKind.Limit, orderId, account, reason);
      this.busy = 0;
      return;
    }
    const qty = maxFillLots > 0 && maxFillLots < qtyLots ? maxFillLots : qtyLots;
    this.sink.onAccepted(orderId, account, side, LIMIT, tif, priceTicks, qty, flags);
    const st = stp === 0 ? this.defaultStp : stp;
    // The common case, a GTC or GTX order that does not cross, goes straight to rest(), which is
    // where enter() would send it.
    const opp = side === BUY ? this.asks : this.bids;
    if (
      (tif === GTC || tif === GTX) &&
      (opp.n === 0 || opp.keys[opp.n - 1] < (side === BUY ? -priceTicks : priceTicks))
    ) {
      // Nothing else is touched by this command: the level change is reported right here.
      const L = this.rest(orderId, account, side, priceTicks, qty, qty, packMeta(side, tif, st, flags), false);
      this.sink.onLevelChanged(++this.lastUpdateId, side, priceTicks, this.levels.f64[(L << 3) + LF_TOTAL]);
      if (this.bids.empties > 64 || this.asks.empties > 64) this.flush();
      this.busy = 0;
      return;
    }
    this.enter(orderId, account, side, LIMIT, tif, priceTicks, qty, qty, flags, st);
    this.end();
  }

  /** Why a limit order is refused (0: it is not), checking every parameter in turn. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private limitReason(
    orderId: number,
    account: number,
    side: number,
    priceTicks: number,
    qtyLots: number,
    tif: number,
    flags: number,
    maxFillLots: number,
    stp: number,
  ): number {
    return !isId(orderId)
      ? RejectReason.InvalidOrderId
      : !isId(account)
        ? RejectReason.InvalidAccount
        : side !== 1 && side !== 2
          ? RejectReason.InvalidSide
          : !isPrice(priceTicks)
            ? RejectReason.InvalidPrice
            : !isQty(qtyLots)
              ? RejectReason.InvalidQuantity
              : !isTif(tif)
                ? RejectReason.InvalidTimeInForce
                : !isFlags(flags)
                  ? RejectReason.InvalidFlags
                  : !isStp(stp)
                    ? RejectReason.InvalidStpMode
                    : !isCap(maxFillLots)
                      ? RejectReason.InvalidCap
                      : this.ids.get(orderId) !== -1
                        ? RejectReason.DuplicateOrderId
                        : maxFillLots === 0
                          ? RejectReason.NothingToReduce
                          : 0;
  }

  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  placeMarket(
    orderId: number,
    account: number,
    side: number,
    qtyLots: number,
    refPriceTicks: number,
    flags = 0,
    maxFillLots = -1,
    stp = 0,
    tif = IOC,
  ): void {
    this.begin();
    // The common case first (see isPlain), as in placeLimit().
    const reason =
      isPlain(orderId, account, side, refPriceTicks, qtyLots, flags, maxFillLots, stp) && tif === IOC
        ? this.ids.get(orderId) !== -1
          ? RejectReason.DuplicateOrderId
          : 0
        : this.marketReason(orderId, account, side, qtyLots, refPriceTicks, flags, maxFillLots, stp, tif);
    if (reason !== 0) {
      this.sink.onRejected(CommandKind.Market, orderId, account, reason);
      this.busy = 0;
      return;
    }
    const qty = maxFillLots > 0 && maxFillLots < qtyLots ? maxFillLots : qtyLots;
    this.sink.onAccepted(orderId, account, side, MARKET, tif, 0, qty, flags);
    // FOK and GTX decide inside the band as a limit order at its edge would (enter())
    const bound = bandLimit(side, refPriceTicks, this.bandPpm);
    this.enter(orderId, account, side, MARKET, tif, bound, qty, qty, flags, stp === 0 ? this.defaultStp : stp);
    this.end();
  }

  /** Why a market order is refused (0: it is not), checking every parameter in turn. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private marketReason(
    orderId: number,
    account: number,
    side: number,
    qtyLots: number,
    refPriceTicks: number,
    flags: number,
    maxFillLots: number,
    stp: number,
    tif: number,
  ): number {
    return !isId(orderId)
      ? RejectReason.InvalidOrderId
      : !isId(account)
        ? RejectReason.InvalidAccount
        : side !== 1 && side !== 2
          ? RejectReason.InvalidSide
          : !isQty(qtyLots)
            ? RejectReason.InvalidQuantity
            : !isPrice(refPriceTicks)
              ? RejectReason.InvalidReferencePrice
              : !isMarketTif(tif)
                ? RejectReason.InvalidTimeInForce
                : !isFlags(flags)
                  ? RejectReason.InvalidFlags
                  : !isStp(stp)
                    ? RejectReason.InvalidStpMode
                    : !isCap(maxFillLots)
                      ? RejectReason.InvalidCap
                      : this.ids.get(orderId) !== -1
                        ? RejectReason.DuplicateOrderId
                        : maxFillLots === 0
                          ? RejectReason.NothingToReduce
                          : 0;
  }

  /** Cancel one resting order; with account >= 0 the order must belong to it. */
  cancel(orderId: number, account = -1): void {
    this.begin();
    const reason = !isId(orderId)
      ? RejectReason.InvalidOrderId
      : account !== -1 && !isId(account)
        ? RejectReason.InvalidAccount
        : 0;
    const n = reason === 0 ? this.ids.get(orderId) : -1;
    const F = this.orders.f64;
    if (reason !== 0 || n === -1 || (account !== -1 && F[(n << 3) + F_ACCOUNT] !== account)) {
      this.sink.onRejected(CommandKind.Cancel, orderId, account, reason !== 0 ? reason : RejectReason.UnknownOrder);
      this.busy = 0;
      return;
    }
    const rem = F[(n << 3) + F_REM];
    const acct = F[(n << 3) + F_ACCOUNT];
    this.unlinkFromLevel(n);
    this.sink.onCancelled(orderId, acct, rem, CancelReason.User);
    this.dropOrder(n);
    this.end();
  }

  /** Cancel every resting order of the account, oldest entry first; returns how many. */
  cancelAll(account: number): number {
    this.begin();
    if (!isId(account)) {
      this.sink.onRejected(CommandKind.CancelAll, -1, account, RejectReason.InvalidAccount);
      this.busy = 0;
      return 0;
    }
    const a = this.accounts.find(account);
    let count = 0;
    if (a !== -1) {
      const F = this.orders.f64;
      const I = this.orders.i32;
      let n = this.accounts.i32[(a << 2) + A_HEAD];
      while (n !== -1) {
        const next = I[(n << 4) + I_ACCOUNT_NEXT];
        const rem = F[(n << 3) + F_REM];
        this.unlinkFromLevel(n);
        this.sink.onCancelled(F[(n << 3) + F_ID], account, rem, CancelReason.CancelAll);
        this.dropOrder(n);
        count++;
        n = next;
      }
    }
    this.end();
    return count;
  }

  /**
   * Change price and/or total quantity (see the header for priority rules). maxFillLots, as on
   * placement, caps the new remaining quantity (reduce-only). `requeue` sends the order to the
   * back of its level even when the header's rule would keep its place (Binance's modify
   * reorders every modified order).
   */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  amend(orderId: number, priceTicks: number, qtyLots: number, account = -1, maxFillLots = -1, requeue = false): void {
    this.begin();
    let reason: number = !isId(orderId)
      ? RejectReason.InvalidOrderId
      : account !== -1 && !isId(account)
        ? RejectReason.InvalidAccount
        : !isPrice(priceTicks)
          ? RejectReason.InvalidPrice
          : !isQty(qtyLots)
            ? RejectReason.InvalidQuantity
            : !isCap(maxFillLots)
              ? RejectReason.InvalidCap
              : 0;
    const F = this.orders.f64;
    const I = this.orders.i32;
    const n = reason === 0 ? this.ids.get(orderId) : -1;
    const fb = n << 3;
    const ib = n << 4;
    if (reason === 0 && (n === -1 || (account !== -1 && F[fb + F_ACCOUNT] !== account)))
      reason = RejectReason.UnknownOrder;
    let filled = 0;
    let newRem = 0;
    if (reason === 0) {
      filled = F[fb + F_QTY] - F[fb + F_REM];
      newRem = qtyLots - filled;
      if (qtyLots <= filled) reason = RejectReason.AmendQtyNotAboveFilled;
      else if (maxFillLots === 0) reason = RejectReason.NothingToReduce;
      else {
        if (maxFillLots > 0 && newRem > maxFillLots) newRem = maxFillLots;
        if (priceTicks === I[ib + I_PRICE] && newRem === F[fb + F_REM]) reason = RejectReason.AmendNoChange;
      }
    }
    if (reason !== 0) {
      this.sink.onRejected(CommandKind.Amend, orderId, account, reason);
      this.busy = 0;
      return;
    }
    const acct = F[fb + F_ACCOUNT];
    const oldRem = F[fb + F_REM];
    const newQty = filled + newRem;
    if (priceTicks === I[ib + I_PRICE]) {
      const L = I[ib + I_LEVEL];
      this.touch(L);
      this.levels.f64[(L << 3) + LF_TOTAL] += newRem - oldRem;
      F[fb + F_REM] = newRem;
      F[fb + F_QTY] = newQty;
      const kept = newRem < oldRem && !requeue;
      if (!kept) this.requeue(n);
      this.sink.onAmended(orderId, acct, priceTicks, newQty, newRem, kept);
    } else {
      const meta = I[ib + I_META];
      this.unlinkFromLevel(n);
      this.dropOrder(n);
      this.sink.onAmended(orderId, acct, priceTicks, newQty, newRem, false);
      this.enter(
        orderId,
        acct,
        metaSide(meta),
        LIMIT,
        metaTif(meta),
        priceTicks,
        newQty,
        newRem,
        metaFlags(meta),
        metaStp(meta),
      );
    }
    this.end();
  }

  /**
   * Risk-layer trim: cap a resting order's remaining quantity (priority kept); cap 0 cancels it
   * (CancelReason.ReduceOnly); a cap at or above the remaining quantity changes nothing and
   * emits nothing.
   */
  trimOrder(orderId: number, capLots: number): void {
    this.begin();
    const reason = !isId(orderId)
      ? RejectReason.InvalidOrderId
      : capLots === -1 || !isCap(capLots)
        ? RejectReason.InvalidCap
        : 0;
    const n = reason === 0 ? this.ids.get(orderId) : -1;
    if (reason !== 0 || n === -1) {
      this.sink.onRejected(CommandKind.Trim, orderId, -1, reason !== 0 ? reason : RejectReason.UnknownOrder);
      this.busy = 0;
      return;
    }
    const F = this.orders.f64;
    const I = this.orders.i32;
    const fb = n << 3;
    const rem = F[fb + F_REM];
    if (capLots < rem) {
      const acct = F[fb + F_ACCOUNT];
      if (capLots === 0) {
        this.unlinkFromLevel(n);
        this.sink.onCancelled(orderId, acct, rem, CancelReason.ReduceOnly);
        this.dropOrder(n);
      } else {
        const L = I[(n << 4) + I_LEVEL];
        this.touch(L);
        this.levels.f64[(L << 3) + LF_TOTAL] -= rem - capLots;
        F[fb + F_REM] = capLots;
        F[fb + F_QTY] -= rem - capLots;
        this.sink.onAmended(orderId, acct, I[(n << 4) + I_PRICE], F[fb + F_QTY], capLots, true);
      }
    }
    this.end();
  }

  /**
   * Whether replaceOwnLevel(_, account, side, priceTicks, _) applies: the opposite side's best
   * level is at `priceTicks` and holds orders of `account` only, and this side's best is below
   * it (a buy) or above it (a sell). Reads only.
   */
  replacesOwnLevel(account: number, side: number, priceTicks: number): boolean {
    const buy = side === BUY;
    const opp = buy ? this.asks : this.bids;
    const own = buy ? this.bids : this.asks;
    if (opp.n === 0 || (own.n > 0 && own.keys[own.n - 1] >= (buy ? priceTicks : -priceTicks))) return false;
    const L = opp.slots[opp.n - 1];
    const LI = this.levels.i32;
    if (LI[(L << 4) + LI_PRICE] !== priceTicks) return false;
    const F = this.orders.f64;
    const I = this.orders.i32;
    for (let m = LI[(L << 4) + LI_HEAD]; m !== -1; m = I[(m << 4) + I_NEXT])
      if (F[(m << 3) + F_ACCOUNT] !== account) return false;
    return true;
  }

  /**
   * A GTC limit order that replaces its account's own level on the other side (a quote moving
   * across the price): when replacesOwnLevel(account, side, priceTicks) holds, does what
   * placeLimit(orderId, account, side, priceTicks, qtyLots, GTC, 0, -1, StpMode.ExpireMaker)
   * does there, in one pass, with the same events in the same order (accepted, each order of the
   * level expired by self-trade prevention front first, the two level changes bids first) and
   * the same update ids and book; the level's record moves to this side. Returns false, having
   * changed and reported nothing, when it does not hold or a parameter is not plain (placeLimit
   * decides those cases).
   */
  replaceOwnLevel(orderId: number, account: number, side: number, priceTicks: number, qtyLots: number): boolean {
    this.begin();
    if (
      !isPlain(orderId, account, side, priceTicks, qtyLots, 0, -1, EXPIRE_MAKER) ||
      this.ids.get(orderId) !== -1 ||
      !this.replacesOwnLevel(account, side, priceTicks)
    ) {
      this.busy = 0;
      return false;
    }
    const sink = this.sink;
    sink.onAccepted(orderId, account, side, LIMIT, GTC, priceTicks, qtyLots, 0);
    const buy = side === BUY;
    const opp = buy ? this.asks : this.bids;
    const own = buy ? this.bids : this.asks;
    const F = this.orders.f64;
    const I = this.orders.i32;
    const LF = this.levels.f64;
    const LI = this.levels.i32;
    const L = opp.slots[opp.n - 1];
    // the level's orders expire front first, as sweep() expires a maker of the taker's account
    let m = LI[(L << 4) + LI_HEAD];
    while (m !== -1) {
      const mb = m << 3;
      const mRem = F[mb + F_REM];
      const next = I[(m << 4) + I_NEXT];
      LF[(L << 3) + LF_TOTAL] -= mRem;
      LI[(L << 4) + LI_COUNT]--;
      LI[(L << 4) + LI_HEAD] = next;
      if (next === -1) LI[(L << 4) + LI_TAIL] = -1;
      sink.onExpired(F[mb + F_ID], account, mRem, ExpireReason.SelfTrade);
      this.dropOrder(m);
      m = next;
    }
    opp.n--;
    this.popEmptyTops(opp);
    // the emptied record becomes this side's new best level (nothing at or above the price here)
    const key = buy ? priceTicks : -priceTicks;
    LF[(L << 3) + LF_TOTAL] = 0;
    LI[(L << 4) + LI_SIDE] = side;
    own.insertAt(own.n, key, L);
    own.cache[priceTicks & (CACHE_SIZE - 1)] = L;
    this.restIn(L, orderId, account, side, priceTicks, qtyLots);
    // the level changes as flush() orders them: bids before asks
    if (buy) {
      sink.onLevelChanged(++this.lastUpdateId, BUY, priceTicks, qtyLots);
      sink.onLevelChanged(++this.lastUpdateId, 2, priceTicks, 0);
    } else {
      sink.onLevelChanged(++this.lastUpdateId, BUY, priceTicks, 0);
      sink.onLevelChanged(++this.lastUpdateId, 2, priceTicks, qtyLots);
    }
    // the levels popEmptyTops() retired are freed, the ladders compacted as after any command
    this.flush();
    this.busy = 0;
    return true;
  }

  /** A new GTC order (self-trade prevention ExpireMaker) alone in the empty level L of its side: rest() without the level's look-up. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private restIn(L: number, id: number, acct: number, side: number, price: number, qty: number): void {
    const n = this.newRecord(id, acct, side, price, qty, qty, packMeta(side, GTC, EXPIRE_MAKER, 0));
    const I = this.orders.i32;
    const ib = n << 4;
    const LI = this.levels.i32;
    I[ib + I_LEVEL] = L;
    I[ib + I_NEXT] = -1;
    I[ib + I_PREV] = -1;
    LI[(L << 4) + LI_HEAD] = n;
    LI[(L << 4) + LI_TAIL] = n;
    LI[(L << 4) + LI_COUNT] = 1;
    this.levels.f64[(L << 3) + LF_TOTAL] = qty;
  }

  // ---------------------------------------------------------------- matching

  private begin(): void {
    if (this.busy !== 0)
      throw new Error('OrderBook: re-entrant command (from a sink callback?) or a sink threw earlier');
    this.busy = 1;
  }

  private end(): void {
    if (this.dirtyN === 1 && this.retiredN === 0) {
      // One level touched and none retired (most cancels; a new order that rests without
      // crossing reports its level itself and never gets here): report it here and
      // leave flush() (sorting, recycling) to the rest.
      const L = this.dirtyList[0];
      const lv = this.levels;
      const LF = lv.f64;
      const LI = lv.i32;
      LI[(L << 4) + LI_DIRTY] = 0;
      this.dirtyN = 0;
      const t = LF[(L << 3) + LF_TOTAL];
      if (t !== LF[(L << 3) + LF_BEFORE])
        this.sink.onLevelChanged(++this.lastUpdateId, LI[(L << 4) + LI_SIDE], LI[(L << 4) + LI_PRICE], t);
      if (this.bids.empties > 64 || this.asks.empties > 64) this.flush();
    } else {
      this.flush();
    }
    this.busy = 0;
  }

  /** Match a new (or re-priced) order, then rest or expire what is left. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private enter(
    id: number,
    acct: number,
    side: number,
    type: number,
    tif: number,
    price: number,
    qty: number,
    rem: number,
    flags: number,
    stp: number,
  ): void {
    const buy = side === BUY;
    const opp = buy ? this.asks : this.bids;
    const limitKey = buy ? -price : price;
    if (opp.n > 0 && opp.keys[opp.n - 1] >= limitKey) {
      if (tif === GTX) {
        this.sink.onExpired(id, acct, rem, ExpireReason.PostOnly);
        return;
      }
      if (tif === FOK && !this.canFill(acct, side, opp, limitKey, rem, stp)) {
        this.sink.onExpired(id, acct, rem, ExpireReason.FillOrKill);
        return;
      }
      rem = this.sweep(id, acct, side, opp, limitKey, qty, rem, stp);
      if (rem === 0 || this.takerGone) return;
    } else if (tif === FOK) {
      this.sink.onExpired(id, acct, rem, ExpireReason.FillOrKill);
      return;
    }
    if (type === MARKET) {
      this.sink.onExpired(id, acct, rem, opp.n > 0 ? ExpireReason.MarketBand : ExpireReason.MarketNoLiquidity);
      return;
    }
    if (tif === IOC) {
      this.sink.onExpired(id, acct, rem, ExpireReason.ImmediateOrCancel);
      return;
    }
    this.rest(id, acct, side, price, qty, rem, packMeta(side, tif, stp, flags), true);
  }

  /** Take liquidity from opp while it crosses limitKey; returns the taker's remaining lots. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private sweep(
    takerId: number,
    takerAcct: number,
    takerSide: number,
    opp: PriceLadder,
    limitKey: number,
    qty: number,
    rem: number,
    stp: number,
  ): number {
    const sink = this.sink;
    const F = this.orders.f64;
    const I = this.orders.i32;
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    this.takerGone = false;
    // Resting reduce-only orders on the side taken from: each is asked about before it trades
    // (guardMaker), with what this match took from its account so far (took).
    const guarded = this.guard !== null && this.roResting[takerSide === BUY ? 2 : 1] > 0;
    if (guarded) this.newMatch();
    while (opp.n > 0) {
      const top = opp.n - 1;
      if (opp.keys[top] < limitKey) break;
      const L = opp.slots[top];
      const price = LI[(L << 4) + LI_PRICE];
      this.touch(L);
      let stopped = false;
      // The maker at hand is always the level's head: everything before it was removed.
      let m = LI[(L << 4) + LI_HEAD];
      while (m !== -1) {
        const mb = m << 3;
        const mAcct = F[mb + F_ACCOUNT];
        let mRem = F[mb + F_REM];
        if (mAcct === takerAcct) {
          if (stp === EXPIRE_TAKER) {
            stopped = true;
            break;
          }
          const next = I[(m << 4) + I_NEXT];
          LF[(L << 3) + LF_TOTAL] -= mRem;
          LI[(L << 4) + LI_COUNT]--;
          LI[(L << 4) + LI_HEAD] = next;
          if (next === -1) LI[(L << 4) + LI_TAIL] = -1;
          sink.onExpired(F[mb + F_ID], mAcct, mRem, ExpireReason.SelfTrade);
          this.dropOrder(m);
          m = next;
          if (stp === EXPIRE_BOTH) {
            stopped = true;
            break;
          }
          continue;
        }
        if (guarded) {
          mRem = this.guardMaker(m, L, rem);
          if (mRem === 0) {
            // cancelled: the level's next order is the maker at hand
            m = LI[(L << 4) + LI_HEAD];
            continue;
          }
        }
        const q = rem < mRem ? rem : mRem;
        const mLeft = mRem - q;
        const mId = F[mb + F_ID];
        rem -= q;
        LF[(L << 3) + LF_TOTAL] -= q;
        sink.onTrade(mId, mAcct, takerId, takerAcct, price, q, takerSide);
        if (mLeft === 0) {
          sink.onFilled(mId, mAcct, F[mb + F_QTY]);
          const next = I[(m << 4) + I_NEXT];
          LI[(L << 4) + LI_COUNT]--;
          LI[(L << 4) + LI_HEAD] = next;
          if (next === -1) LI[(L << 4) + LI_TAIL] = -1;
          this.dropOrder(m);
          m = next;
        } else {
          F[mb + F_REM] = mLeft;
          sink.onPartiallyFilled(mId, mAcct, F[mb + F_QTY] - mLeft, mLeft);
        }
        if (rem === 0) {
          sink.onFilled(takerId, takerAcct, qty);
          break;
        }
        sink.onPartiallyFilled(takerId, takerAcct, qty - rem, rem);
      }
      if (LI[(L << 4) + LI_COUNT] === 0) {
        opp.n = top;
        LI[(L << 4) + LI_IN_LADDER] = 0;
        this.retire(L);
        this.popEmptyTops(opp);
      }
      if (stopped) {
        sink.onExpired(takerId, takerAcct, rem, ExpireReason.SelfTrade);
        this.takerGone = true;
        return rem;
      }
      if (rem === 0) return 0;
    }
    return rem;
  }

  /** Could a FOK taker fill `need` lots under its STP mode? Reads only. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private canFill(acct: number, side: number, opp: PriceLadder, limitKey: number, need: number, stp: number): boolean {
    const a = this.accounts.find(acct);
    const selfOpposite =
      a !== -1 &&
      (side === BUY ? this.accounts.i32[(a << 2) + A_COUNT_SELL] : this.accounts.i32[(a << 2) + A_COUNT_BUY]) > 0;
    // resting reduce-only orders may fill less than they show (the guard's caps, as sweep() asks):
    // then every order is counted one by one
    const guarded = this.guard !== null && this.roResting[side === BUY ? 2 : 1] > 0;
    if (guarded) this.newMatch();
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    const F = this.orders.f64;
    const I = this.orders.i32;
    for (let i = opp.n - 1; i >= 0; i--) {
      if (opp.keys[i] < limitKey) return false;
      const L = opp.slots[i];
      if (!selfOpposite && !guarded) {
        need -= LF[(L << 3) + LF_TOTAL];
        if (need <= 0) return true;
        continue;
      }
      for (let m = LI[(L << 4) + LI_HEAD]; m !== -1; m = I[(m << 4) + I_NEXT]) {
        if (F[(m << 3) + F_ACCOUNT] === acct) {
          if (stp === EXPIRE_MAKER) continue;
          return false;
        }
        let take = F[(m << 3) + F_REM];
        if (guarded) {
          const ro = (I[(m << 4) + I_META] & RO_META) !== 0;
          if (ro) {
            const cap = this.capOf(F[(m << 3) + F_ID], F[(m << 3) + F_ACCOUNT], I[(m << 4) + I_ACCOUNT_SLOT]);
            if (cap >= 0 && cap < take) take = cap;
          }
          this.took(I[(m << 4) + I_ACCOUNT_SLOT], ro, take);
        }
        need -= take;
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /**
   * The maker at hand in a guarded sweep (m, the level L's head, met by a taker with `takerRem`
   * lots left): a reduce-only one is first capped by the guard, trimmed to its cap (onAmended,
   * priority kept) or, at 0, cancelled (onCancelled, ReduceOnly), as trimOrder() would. Records
   * what the taker will take from it for its account (took) and returns its remaining lots; 0 when
   * it was cancelled and is gone, the level's next order then its head.
   */
  private guardMaker(m: number, L: number, takerRem: number): number {
    const F = this.orders.f64;
    const I = this.orders.i32;
    const mb = m << 3;
    const ib = m << 4;
    const slot = I[ib + I_ACCOUNT_SLOT];
    let rem = F[mb + F_REM];
    if ((I[ib + I_META] & RO_META) === 0) {
      this.took(slot, false, takerRem < rem ? takerRem : rem);
      return rem;
    }
    const cap = this.capOf(F[mb + F_ID], F[mb + F_ACCOUNT], slot);
    // -1 (no cap), or a cap at or above what it has left: untouched
    if (cap >= 0 && cap < rem) rem = this.capRestingAt(m, L, cap);
    if (rem > 0) this.took(slot, true, takerRem < rem ? takerRem : rem);
    return rem;
  }

  /** Caps the resting reduce-only order m (the level L's head) at `cap` lots below its remaining; returns cap (0: cancelled and gone). */
  private capRestingAt(m: number, L: number, cap: number): number {
    const F = this.orders.f64;
    const I = this.orders.i32;
    const mb = m << 3;
    const ib = m << 4;
    const rem = F[mb + F_REM];
    const LF = this.levels.f64;
    const LI = this.levels.i32;
    if (cap === 0) {
      const next = I[ib + I_NEXT];
      LF[(L << 3) + LF_TOTAL] -= rem;
      LI[(L << 4) + LI_COUNT]--;
      LI[(L << 4) + LI_HEAD] = next;
      if (next === -1) LI[(L << 4) + LI_TAIL] = -1;
      this.sink.onCancelled(F[mb + F_ID], F[mb + F_ACCOUNT], rem, CancelReason.ReduceOnly);
      this.dropOrder(m);
      return 0;
    }
    LF[(L << 3) + LF_TOTAL] -= rem - cap;
    F[mb + F_QTY] -= rem - cap;
    F[mb + F_REM] = cap;
    this.sink.onAmended(F[mb + F_ID], F[mb + F_ACCOUNT], I[ib + I_PRICE], F[mb + F_QTY], cap, true);
    return cap;
  }

  /** The guard's cap for a resting reduce-only order, told what this match took from its account (slot) so far. */
  private capOf(orderId: number, acct: number, slot: number): number {
    const ac = this.accounts;
    const seen = ac.match[slot] === this.matchNo;
    return (this.guard as ReduceOnlyGuard).makerCap(
      orderId,
      acct,
      seen ? ac.taken[slot << 1] : 0,
      seen ? ac.taken[(slot << 1) + 1] : 0,
    );
  }

  /** This match took `lots` from a resting order of the account in `slot` (a reduce-only one or not). */
  private took(slot: number, reduceOnly: boolean, lots: number): void {
    const ac = this.accounts;
    const t = ac.taken;
    if (ac.match[slot] !== this.matchNo) {
      ac.match[slot] = this.matchNo;
      t[slot << 1] = 0;
      t[(slot << 1) + 1] = 0;
    }
    t[(slot << 1) + (reduceOnly ? 0 : 1)] += lots;
  }

  /** A new guarded match: the takings recorded for earlier ones no longer count. */
  private newMatch(): void {
    if (this.matchNo === 0x7fffffff) {
      this.accounts.match.fill(0);
      this.matchNo = 0;
    }
    this.matchNo++;
  }

  // ---------------------------------------------------------------- book upkeep

  /** A new order record (the id's slot, the back of its account's list), not yet in a level; returns its slot. */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private newRecord(
    id: number,
    acct: number,
    side: number,
    price: number,
    qty: number,
    rem: number,
    meta: number,
  ): number {
    const o = this.orders;
    const n = o.alloc();
    const F = o.f64;
    const I = o.i32;
    const fb = n << 3;
    const ib = n << 4;
    F[fb + F_ID] = id;
    F[fb + F_ACCOUNT] = acct;
    F[fb + F_QTY] = qty;
    F[fb + F_REM] = rem;
    I[ib + I_PRICE] = price;
    I[ib + I_META] = meta;
    this.ids.set(id, n);
    const ac = this.accounts;
    const a = ac.slotOf(acct);
    const AI = ac.i32;
    I[ib + I_ACCOUNT_SLOT] = a;
    // Append to the account's list.
    const at = AI[(a << 2) + A_TAIL];
    I[ib + I_ACCOUNT_NEXT] = -1;
    I[ib + I_ACCOUNT_PREV] = at;
    if (at === -1) AI[(a << 2) + A_HEAD] = n;
    else I[(at << 4) + I_ACCOUNT_NEXT] = n;
    AI[(a << 2) + A_TAIL] = n;
    if (side === BUY) AI[(a << 2) + A_COUNT_BUY]++;
    else AI[(a << 2) + A_COUNT_SELL]++;
    if ((meta & RO_META) !== 0) this.roResting[side]++;
    return n;
  }

  /** Rest an order at the back of its level; returns the level. track: record the level as dirty (false: the caller reports it). */
  // eslint-disable-next-line max-params -- hot path: per-order command with primitive arguments, nothing allocated per call
  private rest(
    id: number,
    acct: number,
    side: number,
    price: number,
    qty: number,
    rem: number,
    meta: number,
    track: boolean,
  ): number {
    const n = this.newRecord(id, acct, side, price, qty, rem, meta);
    const I = this.orders.i32;
    const ib = n << 4;

    const ladder = side === BUY ? this.bids : this.asks;
    const ci = price & (CACHE_SIZE - 1);
    let L = ladder.cache[ci];
    let LI = this.levels.i32;
    if (
      L === -1 ||
      LI[(L << 4) + LI_IN_LADDER] === 0 ||
      LI[(L << 4) + LI_PRICE] !== price ||
      LI[(L << 4) + LI_SIDE] !== side
    ) {
      L = this.levelAt(ladder, side, price);
      ladder.cache[ci] = L;
      LI = this.levels.i32; // the pool may have grown
    } else if (LI[(L << 4) + LI_COUNT] === 0) {
      // A lazily emptied level, back in use (the top is never empty).
      ladder.empties--;
    }
    const LF = this.levels.f64;
    if (track) this.touch(L);
    I[ib + I_LEVEL] = L;
    // Append to the level's FIFO.
    const t = LI[(L << 4) + LI_TAIL];
    I[ib + I_NEXT] = -1;
    I[ib + I_PREV] = t;
    if (t === -1) LI[(L << 4) + LI_HEAD] = n;
    else I[(t << 4) + I_NEXT] = n;
    LI[(L << 4) + LI_TAIL] = n;
    LI[(L << 4) + LI_COUNT]++;
    LF[(L << 3) + LF_TOTAL] += rem;
    return L;
  }

  /**
   * The ladder's level at price, found (a lazily emptied one leaves the empties count) or
   * created; for rest() when its cache misses. May grow the level pool.
   */
  private levelAt(ladder: PriceLadder, side: number, price: number): number {
    const lv = this.levels;
    const key = side === BUY ? price : -price;
    const idx = ladder.search(key);
    if (idx >= 0) {
      const L = ladder.slots[idx];
      if (lv.i32[(L << 4) + LI_COUNT] === 0) ladder.empties--;
      return L;
    }
    const L = lv.alloc(price, side);
    lv.i32[(L << 4) + LI_IN_LADDER] = 1;
    ladder.insertAt(-idx - 1, key, L);
    return L;
  }

  private accountUnlink(n: number, a: number): void {
    const I = this.orders.i32;
    const ac = this.accounts;
    const AI = ac.i32;
    const p = I[(n << 4) + I_ACCOUNT_PREV];
    const x = I[(n << 4) + I_ACCOUNT_NEXT];
    if (p === -1) AI[(a << 2) + A_HEAD] = x;
    else I[(p << 4) + I_ACCOUNT_NEXT] = x;
    if (x === -1) AI[(a << 2) + A_TAIL] = p;
    else I[(x << 4) + I_ACCOUNT_PREV] = p;
  }

  /** Move a resting order to the back of its level and of its account's list. */
  private requeue(n: number): void {
    const I = this.orders.i32;
    const lv = this.levels;
    const LI = lv.i32;
    const ib = n << 4;
    const L = I[ib + I_LEVEL];
    if (LI[(L << 4) + LI_TAIL] !== n) {
      const x = I[ib + I_NEXT]; // exists: n is not the tail
      if (LI[(L << 4) + LI_HEAD] === n) LI[(L << 4) + LI_HEAD] = x;
      else {
        const p = I[ib + I_PREV];
        I[(p << 4) + I_NEXT] = x;
        I[(x << 4) + I_PREV] = p;
      }
      const t = LI[(L << 4) + LI_TAIL];
      I[ib + I_NEXT] = -1;
      I[ib + I_PREV] = t;
      I[(t << 4) + I_NEXT] = n;
      LI[(L << 4) + LI_TAIL] = n;
    }
    const a = I[ib + I_ACCOUNT_SLOT];
    const ac = this.accounts;
    const AI = ac.i32;
    if (AI[(a << 2) + A_TAIL] !== n) {
      this.accountUnlink(n, a);
      const at = AI[(a << 2) + A_TAIL];
      I[ib + I_ACCOUNT_NEXT] = -1;
      I[ib + I_ACCOUNT_PREV] = at;
      if (at === -1) AI[(a << 2) + A_HEAD] = n;
      else I[(at << 4) + I_ACCOUNT_NEXT] = n;
      AI[(a << 2) + A_TAIL] = n;
    }
  }

  /** Take a resting order out of its level (the order slot itself stays live). */
  private unlinkFromLevel(n: number): void {
    const F = this.orders.f64;
    const I = this.orders.i32;
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    const ib = n << 4;
    const L = I[ib + I_LEVEL];
    this.touch(L);
    const x = I[ib + I_NEXT];
    if (LI[(L << 4) + LI_HEAD] === n) {
      LI[(L << 4) + LI_HEAD] = x;
      if (x === -1) LI[(L << 4) + LI_TAIL] = -1;
    } else {
      const p = I[ib + I_PREV];
      I[(p << 4) + I_NEXT] = x;
      if (x === -1) LI[(L << 4) + LI_TAIL] = p;
      else I[(x << 4) + I_PREV] = p;
    }
    LF[(L << 3) + LF_TOTAL] -= F[(n << 3) + F_REM];
    if (--LI[(L << 4) + LI_COUNT] === 0) {
      const ladder = metaSide(I[ib + I_META]) === BUY ? this.bids : this.asks;
      if (ladder.slots[ladder.n - 1] === L) {
        ladder.n--;
        LI[(L << 4) + LI_IN_LADDER] = 0;
        this.retire(L);
        this.popEmptyTops(ladder);
      } else {
        ladder.empties++;
      }
    }
  }

  /** Forget a resting order already out of its level: id table, account list, slot. */
  private dropOrder(n: number): void {
    const o = this.orders;
    const I = o.i32;
    this.ids.deleteLive(o.f64[(n << 3) + F_ID]);
    const a = I[(n << 4) + I_ACCOUNT_SLOT];
    this.accountUnlink(n, a);
    const meta = I[(n << 4) + I_META];
    if (metaSide(meta) === BUY) this.accounts.i32[(a << 2) + A_COUNT_BUY]--;
    else this.accounts.i32[(a << 2) + A_COUNT_SELL]--;
    if ((meta & RO_META) !== 0) this.roResting[metaSide(meta)]--;
    o.free(n);
  }

  /** Keep "the top level is non-empty": drop lazily emptied levels that surfaced. */
  private popEmptyTops(ladder: PriceLadder): void {
    const LI = this.levels.i32;
    while (ladder.n > 0) {
      const L = ladder.slots[ladder.n - 1];
      if (LI[(L << 4) + LI_COUNT] !== 0) return;
      ladder.n--;
      ladder.empties--;
      LI[(L << 4) + LI_IN_LADDER] = 0;
      this.retire(L);
    }
  }

  private touch(L: number): void {
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    if (LI[(L << 4) + LI_DIRTY] !== 0) return;
    LI[(L << 4) + LI_DIRTY] = 1;
    LF[(L << 3) + LF_BEFORE] = LF[(L << 3) + LF_TOTAL];
    if (this.dirtyN === this.dirtyList.length) {
      const d = new Int32Array(this.dirtyN * 2);
      d.set(this.dirtyList);
      this.dirtyList = d;
    }
    this.dirtyList[this.dirtyN++] = L;
  }

  private retire(L: number): void {
    if (this.retiredN === this.retired.length) {
      const d = new Int32Array(this.retiredN * 2);
      d.set(this.retired);
      this.retired = d;
    }
    this.retired[this.retiredN++] = L;
  }

  /** End of command: report level changes in canonical order, then recycle level slots. */
  private flush(): void {
    const n = this.dirtyN;
    if (n === 1) {
      const L = this.dirtyList[0];
      const lv = this.levels;
      const LF = lv.f64;
      const LI = lv.i32;
      LI[(L << 4) + LI_DIRTY] = 0;
      const t = LF[(L << 3) + LF_TOTAL];
      if (t !== LF[(L << 3) + LF_BEFORE])
        this.sink.onLevelChanged(++this.lastUpdateId, LI[(L << 4) + LI_SIDE], LI[(L << 4) + LI_PRICE], t);
      this.dirtyN = 0;
    } else if (n !== 0) {
      const d = this.dirtyList;
      const lv = this.levels;
      const LF = lv.f64;
      const LI = lv.i32;
      // Insertion sort: bids before asks, each best first. Sweeps touch levels already in this
      // order, so this is linear in practice.
      for (let i = 1; i < n; i++) {
        const x = d[i];
        const xs = LI[(x << 4) + LI_SIDE];
        const xp = LI[(x << 4) + LI_PRICE];
        let j = i - 1;
        while (j >= 0) {
          const y = d[j];
          const ys = LI[(y << 4) + LI_SIDE];
          const after =
            ys > xs || (ys === xs && (xs === BUY ? LI[(y << 4) + LI_PRICE] < xp : LI[(y << 4) + LI_PRICE] > xp));
          if (!after) break;
          d[j + 1] = y;
          j--;
        }
        d[j + 1] = x;
      }
      const sink = this.sink;
      for (let i = 0; i < n; i++) {
        const L = d[i];
        LI[(L << 4) + LI_DIRTY] = 0;
        const t = LF[(L << 3) + LF_TOTAL];
        if (t !== LF[(L << 3) + LF_BEFORE])
          sink.onLevelChanged(++this.lastUpdateId, LI[(L << 4) + LI_SIDE], LI[(L << 4) + LI_PRICE], t);
      }
      this.dirtyN = 0;
    }
    if (this.retiredN !== 0) {
      for (let i = 0; i < this.retiredN; i++) this.levels.free(this.retired[i]);
      this.retiredN = 0;
    }
    if (this.bids.empties > 64) this.maybeCompact(this.bids);
    if (this.asks.empties > 64) this.maybeCompact(this.asks);
  }

  private maybeCompact(ladder: PriceLadder): void {
    if (ladder.empties * 2 <= ladder.n) return;
    const lv = this.levels;
    const LI = lv.i32;
    ladder.compact(
      (L) => LI[(L << 4) + LI_COUNT] === 0,
      (L) => {
        LI[(L << 4) + LI_IN_LADDER] = 0;
        lv.free(L);
      },
    );
  }

  // ---------------------------------------------------------------- read views

  /** Update id after the last level change (0 before any). */
  get updateId(): number {
    return this.lastUpdateId;
  }

  /**
   * Raises the update id to `id` when it is below (ids that no level change here used: a replay
   * takes the recording's ids so); never lowers it. The next level change is `updateId + 1`.
   */
  raiseUpdateId(id: number): void {
    if (id > this.lastUpdateId) this.lastUpdateId = id;
  }

  /** Number of live resting orders. */
  get orderCount(): number {
    return this.ids.size;
  }

  /** Would a limit order at priceTicks take liquidity on entry (a GTX that would expire)? Reads only. */
  wouldTake(side: number, priceTicks: number): boolean {
    const opp = side === BUY ? this.asks : this.bids;
    return opp.n > 0 && opp.keys[opp.n - 1] >= (side === BUY ? -priceTicks : priceTicks);
  }

  /**
   * Could a FOK limit order of `account` fill qtyLots whole on entry, under its STP mode (0: the
   * book's default), exactly as placeLimit would decide? Reads only: lets the service refuse such
   * an order before the engine sees it.
   */
  fokFillable(account: number, side: number, priceTicks: number, qtyLots: number, stp = 0): boolean {
    if (!this.wouldTake(side, priceTicks)) return false;
    const opp = side === BUY ? this.asks : this.bids;
    return this.canFill(
      account,
      side,
      opp,
      side === BUY ? -priceTicks : priceTicks,
      qtyLots,
      stp === 0 ? this.defaultStp : stp,
    );
  }

  /**
   * The price a market order of `side` sweeps to from reference `refPriceTicks` (the band's edge,
   * bandLimit): the price its FOK / GTX decisions are made at, as wouldTake and fokFillable take it.
   */
  marketLimit(side: number, refPriceTicks: number): number {
    return bandLimit(side, refPriceTicks, this.bandPpm);
  }

  /** Best bid price in ticks, 0 when there is no bid. */
  bestBid(): number {
    const b = this.bids;
    return b.n > 0 ? this.levels.i32[(b.slots[b.n - 1] << 4) + LI_PRICE] : 0;
  }

  /** Best ask price in ticks, 0 when there is no ask. */
  bestAsk(): number {
    const a = this.asks;
    return a.n > 0 ? this.levels.i32[(a.slots[a.n - 1] << 4) + LI_PRICE] : 0;
  }

  /** Number of non-empty levels on a side. */
  levelCount(side: Side): number {
    const l = side === BUY ? this.bids : this.asks;
    return l.n - l.empties;
  }

  /**
   * Best `n` levels of a side, best first, as [price, total]. With stepTicks > 1, levels are
   * grouped like exchanges' price_merges: bids down to floor(p/step)*step, asks up to
   * ceil(p/step)*step, and `n` counts groups.
   */
  topLevels(side: Side, n = Number.POSITIVE_INFINITY, stepTicks = 1): Level[] {
    if (!Number.isInteger(stepTicks) || stepTicks < 1)
      throw new RangeError(`stepTicks must be an integer >= 1, got ${stepTicks}`);
    const ladder = side === BUY ? this.bids : this.asks;
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    const out: Level[] = [];
    if (n <= 0) return out;
    for (let i = ladder.n - 1; i >= 0; i--) {
      const L = ladder.slots[i];
      if (LI[(L << 4) + LI_COUNT] === 0) continue;
      const p = LI[(L << 4) + LI_PRICE];
      const g =
        stepTicks === 1
          ? p
          : side === BUY
            ? Math.floor(p / stepTicks) * stepTicks
            : Math.ceil(p / stepTicks) * stepTicks;
      const last = out.length - 1;
      if (last >= 0 && out[last][0] === g) {
        out[last][1] += LF[(L << 3) + LF_TOTAL];
      } else {
        if (out.length >= n) break;
        out.push([g, LF[(L << 3) + LF_TOTAL]]);
      }
    }
    return out;
  }

  /** Top `n` levels (or groups of stepTicks) of both sides with the update id they reflect. */
  depth(n = Number.POSITIVE_INFINITY, stepTicks = 1): DepthView {
    return {
      updateId: this.lastUpdateId,
      bids: this.topLevels(1, n, stepTicks),
      asks: this.topLevels(2, n, stepTicks),
    };
  }

  /** The whole book, every level, with its update id. */
  snapshot(): DepthView {
    return this.depth();
  }

  /**
   * Average fill price (ticks, fractional) of a market sell of `notional` tick*lot units
   * against the bids (impact bid), or null when the bids cannot absorb it.
   */
  impactBid(notional: number): number | null {
    return this.impact(this.bids, notional);
  }

  /** Same against the asks: the average price a market buy of `notional` would pay. */
  impactAsk(notional: number): number | null {
    return this.impact(this.asks, notional);
  }

  private impact(ladder: PriceLadder, notional: number): number | null {
    if (!(notional > 0) || !Number.isFinite(notional)) return null;
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    let left = notional;
    let lots = 0;
    for (let i = ladder.n - 1; i >= 0; i--) {
      const L = ladder.slots[i];
      const total = LF[(L << 3) + LF_TOTAL];
      if (total === 0) continue;
      const p = LI[(L << 4) + LI_PRICE];
      const levelNotional = p * total;
      if (levelNotional >= left) {
        lots += left / p;
        return notional / lots;
      }
      lots += total;
      left -= levelNotional;
    }
    return null;
  }

  /** A live order, or null. */
  getOrder(orderId: number): OrderView | null {
    if (!isId(orderId)) return null;
    const n = this.ids.get(orderId);
    if (n === -1) return null;
    const F = this.orders.f64;
    const I = this.orders.i32;
    const fb = n << 3;
    const meta = I[(n << 4) + I_META];
    const flags = metaFlags(meta);
    return {
      orderId,
      account: F[fb + F_ACCOUNT],
      side: metaSide(meta) as Side,
      priceTicks: I[(n << 4) + I_PRICE],
      qtyLots: F[fb + F_QTY],
      remainingLots: F[fb + F_REM],
      filledLots: F[fb + F_QTY] - F[fb + F_REM],
      tif: metaTif(meta) as TimeInForce,
      flags,
      reduceOnly: (flags & OrderFlag.ReduceOnly) !== 0,
    };
  }

  /** The account of a live order, -1 when there is none: getOrder(id)?.account without building the view. */
  orderAccount(orderId: number): number {
    if (!isId(orderId)) return -1;
    const n = this.ids.get(orderId);
    return n === -1 ? -1 : this.orders.f64[(n << 3) + F_ACCOUNT];
  }

  /** The lots a live order has left, -1 when there is none: getOrder(id)?.remainingLots without building the view. */
  orderRemaining(orderId: number): number {
    if (!isId(orderId)) return -1;
    const n = this.ids.get(orderId);
    return n === -1 ? -1 : this.orders.f64[(n << 3) + F_REM];
  }

  /** The price of a live order in ticks, -1 when there is none. */
  orderPriceTicks(orderId: number): number {
    if (!isId(orderId)) return -1;
    const n = this.ids.get(orderId);
    return n === -1 ? -1 : this.orders.i32[(n << 4) + I_PRICE];
  }

  /** The lots a live order has filled, -1 when there is none. */
  orderFilledLots(orderId: number): number {
    if (!isId(orderId)) return -1;
    const n = this.ids.get(orderId);
    return n === -1 ? -1 : this.orders.f64[(n << 3) + F_QTY] - this.orders.f64[(n << 3) + F_REM];
  }

  /**
   * The lots left of a live order of `account` resting at `priceTicks` on `side` when it is the
   * first order of its side's best level (the order a taker at that price meets first), else -1.
   */
  headRemaining(orderId: number, account: number, side: Side, priceTicks: number): number {
    if (!isId(orderId)) return -1;
    const n = this.ids.get(orderId);
    if (n === -1) return -1;
    const F = this.orders.f64;
    const I = this.orders.i32;
    if (F[(n << 3) + F_ACCOUNT] !== account || I[(n << 4) + I_PRICE] !== priceTicks) return -1;
    const L = I[(n << 4) + I_LEVEL];
    if (this.levels.i32[(L << 4) + LI_HEAD] !== n || metaSide(I[(n << 4) + I_META]) !== side) return -1;
    const ladder = side === BUY ? this.bids : this.asks;
    return ladder.n > 0 && ladder.slots[ladder.n - 1] === L ? F[(n << 3) + F_REM] : -1;
  }

  /** Whether a live order is the last of its level's queue (false when there is no such order). */
  isLastInLevel(orderId: number): boolean {
    if (!isId(orderId)) return false;
    const n = this.ids.get(orderId);
    return n !== -1 && this.orders.i32[(n << 4) + I_NEXT] === -1;
  }

  /** Ids of the account's resting orders, in the order they (re)entered the book. */
  openOrderIds(account: number): number[] {
    const out: number[] = [];
    if (!isId(account)) return out;
    const a = this.accounts.find(account);
    if (a === -1) return out;
    const F = this.orders.f64;
    const I = this.orders.i32;
    for (let n = this.accounts.i32[(a << 2) + A_HEAD]; n !== -1; n = I[(n << 4) + I_ACCOUNT_NEXT])
      out.push(F[(n << 3) + F_ID]);
    return out;
  }

  /** Ids queued at one price level, front (next to fill) first. */
  levelOrderIds(side: Side, priceTicks: number): number[] {
    const out: number[] = [];
    if (!isPrice(priceTicks)) return out;
    const ladder = side === BUY ? this.bids : this.asks;
    const idx = ladder.search(side === BUY ? priceTicks : -priceTicks);
    if (idx < 0) return out;
    const F = this.orders.f64;
    const I = this.orders.i32;
    for (let n = this.levels.i32[(ladder.slots[idx] << 4) + LI_HEAD]; n !== -1; n = I[(n << 4) + I_NEXT])
      out.push(F[(n << 3) + F_ID]);
    return out;
  }

  /**
   * The orders queued at one level, front first, written into the caller's arrays (ids, their
   * accounts, their remaining lots) from index 0; returns how many. Allocates nothing: for a
   * caller that reads a level per event (the replay's mirror).
   */
  levelQueue(side: Side, priceTicks: number, ids: number[], accounts: number[], remaining: number[]): number {
    if (!isPrice(priceTicks)) return 0;
    const ladder = side === BUY ? this.bids : this.asks;
    const idx = ladder.search(side === BUY ? priceTicks : -priceTicks);
    if (idx < 0) return 0;
    const F = this.orders.f64;
    const I = this.orders.i32;
    let k = 0;
    for (let n = this.levels.i32[(ladder.slots[idx] << 4) + LI_HEAD]; n !== -1; n = I[(n << 4) + I_NEXT], k++) {
      ids[k] = F[(n << 3) + F_ID];
      accounts[k] = F[(n << 3) + F_ACCOUNT];
      remaining[k] = F[(n << 3) + F_REM];
    }
    return k;
  }

  /**
   * Full consistency check of the internal structures (O(book)); returns the problems found.
   * For tests and debugging, never called by the engine itself.
   */
  audit(): string[] {
    const problems: string[] = [];
    const F = this.orders.f64;
    const I = this.orders.i32;
    const lv = this.levels;
    const LF = lv.f64;
    const LI = lv.i32;
    let orders = 0;
    for (const side of [1, 2] as const) {
      const ladder = side === BUY ? this.bids : this.asks;
      let empties = 0;
      let reduceOnly = 0;
      for (let i = 0; i < ladder.n; i++) {
        const L = ladder.slots[i];
        const key = ladder.keys[i];
        if (i > 0 && ladder.keys[i - 1] >= key) problems.push(`side ${side}: keys not ascending at ${i}`);
        if (
          LI[(L << 4) + LI_SIDE] !== side ||
          (side === BUY ? LI[(L << 4) + LI_PRICE] : -LI[(L << 4) + LI_PRICE]) !== key
        )
          problems.push(`side ${side}: level ${L} key mismatch`);
        if (LI[(L << 4) + LI_IN_LADDER] !== 1)
          problems.push(`side ${side}: level ${LI[(L << 4) + LI_PRICE]} in the ladder but not flagged`);
        if (LI[(L << 4) + LI_COUNT] === 0) {
          empties++;
          if (i === ladder.n - 1) problems.push(`side ${side}: empty top level`);
        }
        let sum = 0;
        let count = 0;
        let prev = -1;
        for (let m = LI[(L << 4) + LI_HEAD]; m !== -1; m = I[(m << 4) + I_NEXT]) {
          const id = F[(m << 3) + F_ID];
          const rem = F[(m << 3) + F_REM];
          if (prev !== -1 && I[(m << 4) + I_PREV] !== prev) problems.push(`order ${id}: broken prev link`);
          if (
            I[(m << 4) + I_LEVEL] !== L ||
            I[(m << 4) + I_PRICE] !== LI[(L << 4) + LI_PRICE] ||
            metaSide(I[(m << 4) + I_META]) !== side
          )
            problems.push(`order ${id}: wrong level`);
          if (!(rem > 0) || rem > F[(m << 3) + F_QTY]) problems.push(`order ${id}: bad remaining ${rem}`);
          if (this.ids.get(id) !== m) problems.push(`order ${id}: id table mismatch`);
          if ((I[(m << 4) + I_META] & RO_META) !== 0) reduceOnly++;
          sum += rem;
          count++;
          prev = m;
        }
        if (LI[(L << 4) + LI_TAIL] !== prev) problems.push(`level ${LI[(L << 4) + LI_PRICE]}: bad tail`);
        if (sum !== LF[(L << 3) + LF_TOTAL])
          problems.push(`level ${LI[(L << 4) + LI_PRICE]}: total ${LF[(L << 3) + LF_TOTAL]} != sum ${sum}`);
        if (count !== LI[(L << 4) + LI_COUNT])
          problems.push(`level ${LI[(L << 4) + LI_PRICE]}: count ${LI[(L << 4) + LI_COUNT]} != ${count}`);
        orders += count;
      }
      if (empties !== ladder.empties) problems.push(`side ${side}: empties ${ladder.empties} != ${empties}`);
      if (reduceOnly !== this.roResting[side])
        problems.push(`side ${side}: reduce-only count ${this.roResting[side]} != ${reduceOnly}`);
    }
    if (orders !== this.ids.size) problems.push(`orders in levels ${orders} != id table ${this.ids.size}`);
    // Every account's list: linked both ways, its orders' own, matching its counts; together
    // they hold every resting order exactly once.
    const ac = this.accounts;
    const AI = ac.i32;
    let listed = 0;
    for (let a = 0; a < ac.size; a++) {
      let buys = 0;
      let sells = 0;
      let prev = -1;
      for (let n = AI[(a << 2) + A_HEAD]; n !== -1; n = I[(n << 4) + I_ACCOUNT_NEXT]) {
        const id = F[(n << 3) + F_ID];
        if (I[(n << 4) + I_ACCOUNT_PREV] !== prev)
          problems.push(`account ${ac.id[a]}: broken prev link at order ${id}`);
        if (I[(n << 4) + I_ACCOUNT_SLOT] !== a || F[(n << 3) + F_ACCOUNT] !== ac.id[a])
          problems.push(`order ${id}: in the list of account ${ac.id[a]}, not its own`);
        if (this.ids.get(id) !== n) problems.push(`order ${id}: in an account list but not live`);
        if (metaSide(I[(n << 4) + I_META]) === BUY) buys++;
        else sells++;
        prev = n;
        if (++listed > orders) break; // a cycle
      }
      if (AI[(a << 2) + A_TAIL] !== prev) problems.push(`account ${ac.id[a]}: bad tail`);
      if (AI[(a << 2) + A_COUNT_BUY] !== buys || AI[(a << 2) + A_COUNT_SELL] !== sells) {
        problems.push(
          `account ${ac.id[a]}: counts ${AI[(a << 2) + A_COUNT_BUY]}/${AI[(a << 2) + A_COUNT_SELL]} != listed ${buys}/${sells}`,
        );
      }
      if (ac.find(ac.id[a]) !== a) problems.push(`account ${ac.id[a]}: not found at its slot`);
    }
    if (listed !== orders) problems.push(`orders in account lists ${listed} != orders in levels ${orders}`);
    const bb = this.bestBid();
    const ba = this.bestAsk();
    if (bb !== 0 && ba !== 0 && bb >= ba) problems.push(`crossed: ${bb} >= ${ba}`);
    return problems;
  }
}

/** The price a market order may not sweep beyond (integer math is exact: ref < 2^31, factor <= 2^21). */
export function bandLimit(side: number, refPriceTicks: number, bandPpm: number): number {
  if (side === BUY) return Math.floor((refPriceTicks * (PPM + bandPpm)) / PPM);
  const p = Math.ceil((refPriceTicks * (PPM - bandPpm)) / PPM);
  return p < 1 ? 1 : p;
}

/** Convenience factory for the service layer. */
export function createBook(config: BookConfig, sink: EngineSink): OrderBook {
  return new OrderBook(config, sink);
}
