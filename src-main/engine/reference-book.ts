// A naive, obviously-correct order book with the same commands, events and read views as
// OrderBook, used only as the oracle of the property tests and as the bench's slow baseline.
//
// It keeps one plain array of resting orders and re-sorts it (price priority, then entry
// sequence) whenever it needs a side; level changes are found by diffing the whole L2 book
// before and after each command. Nothing here is clever on purpose: every rule is written the
// way the header of order-book.ts states it.

import type { Amendment, Command, LimitOrder, MarketOrder } from './commands.ts';
import {
  CancelReason,
  CommandKind,
  ExpireReason,
  MAX_PRICE_TICKS,
  MAX_QTY_LOTS,
  OrderFlag,
  OrderType,
  RejectReason,
  Side as SideCode,
  StpMode,
  TimeInForce,
} from './types.ts';
import type { BookConfig, DepthView, EngineSink, Level, OrderView, ReduceOnlyGuard, Side } from './types.ts';

interface RefOrder {
  id: number;
  account: number;
  side: number;
  price: number;
  qty: number;
  rem: number;
  tif: number;
  flags: number;
  stp: number;
  /** Entry sequence: time priority within a level and order of the account's list. */
  seq: number;
}

const intIn = (x: number, lo: number, hi: number): boolean =>
  typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi;
const validId = (x: number): boolean => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const validPrice = (x: number): boolean => intIn(x, 1, MAX_PRICE_TICKS);
const validQty = (x: number): boolean => intIn(x, 1, MAX_QTY_LOTS);
const validCap = (x: number): boolean => x === -1 || intIn(x, 0, MAX_QTY_LOTS);

export class ReferenceBook {
  private resting: RefOrder[] = [];
  private seq = 0;
  private lastUpdateId = 0;
  private readonly band: number;
  private readonly defaultStp: number;
  private readonly sink: EngineSink;
  private readonly guard: ReduceOnlyGuard | undefined;

  constructor(config: BookConfig, sink: EngineSink) {
    this.band = config.bandPpm;
    this.defaultStp = config.defaultStp ?? StpMode.ExpireTaker;
    this.sink = sink;
    this.guard = config.reduceOnlyGuard;
  }

  // -------------------------------------------------------------- commands

  /** Runs one command, as applyCommand runs it on the engine. */
  execute(c: Command): void {
    switch (c.kind) {
      case 'limit':
        return this.placeLimit({ ...c, tif: c.tif ?? TimeInForce.GTC });
      case 'market':
        return this.placeMarket(c);
      case 'cancel':
        return this.cancel(c.orderId, c.account ?? -1);
      case 'cancelAll':
        this.cancelAll(c.account);
        return;
      case 'amend':
        return this.amend(c);
      case 'trim':
        return this.trimOrder(c.orderId, c.capLots);
    }
  }

  placeLimit(order: LimitOrder): void {
    const { orderId, account, side, priceTicks, qtyLots, tif, flags = 0, maxFillLots = -1, stp = 0 } = order;
    let reason = 0;
    if (!validId(orderId)) reason = RejectReason.InvalidOrderId;
    else if (!validId(account)) reason = RejectReason.InvalidAccount;
    else if (side !== SideCode.Buy && side !== SideCode.Sell) reason = RejectReason.InvalidSide;
    else if (!validPrice(priceTicks)) reason = RejectReason.InvalidPrice;
    else if (!validQty(qtyLots)) reason = RejectReason.InvalidQuantity;
    else if (![1, 2, 3, 4].includes(tif)) reason = RejectReason.InvalidTimeInForce;
    else if (flags !== 0 && flags !== OrderFlag.ReduceOnly) reason = RejectReason.InvalidFlags;
    else if (![0, 1, 2, 3].includes(stp)) reason = RejectReason.InvalidStpMode;
    else if (!validCap(maxFillLots)) reason = RejectReason.InvalidCap;
    else if (this.find(orderId)) reason = RejectReason.DuplicateOrderId;
    else if (maxFillLots === 0) reason = RejectReason.NothingToReduce;
    if (reason) return this.sink.onRejected(CommandKind.Limit, orderId, account, reason);
    const qty = maxFillLots > 0 ? Math.min(qtyLots, maxFillLots) : qtyLots;
    this.command(() => {
      this.sink.onAccepted(orderId, account, side, OrderType.Limit, tif, priceTicks, qty, flags);
      const o: RefOrder = {
        id: orderId,
        account,
        side,
        price: priceTicks,
        qty,
        rem: qty,
        tif,
        flags,
        stp: stp || this.defaultStp,
        seq: 0,
      };
      this.enter(o, false);
    });
  }

  placeMarket(order: MarketOrder): void {
    const { orderId, account, side, qtyLots, refPriceTicks, flags = 0, maxFillLots = -1, stp = 0 } = order;
    const tif = order.tif ?? TimeInForce.IOC;
    let reason = 0;
    if (!validId(orderId)) reason = RejectReason.InvalidOrderId;
    else if (!validId(account)) reason = RejectReason.InvalidAccount;
    else if (side !== SideCode.Buy && side !== SideCode.Sell) reason = RejectReason.InvalidSide;
    else if (!validQty(qtyLots)) reason = RejectReason.InvalidQuantity;
    else if (!validPrice(refPriceTicks)) reason = RejectReason.InvalidReferencePrice;
    else if (tif !== TimeInForce.IOC && tif !== TimeInForce.FOK && tif !== TimeInForce.GTX)
      reason = RejectReason.InvalidTimeInForce;
    else if (flags !== 0 && flags !== OrderFlag.ReduceOnly) reason = RejectReason.InvalidFlags;
    else if (![0, 1, 2, 3].includes(stp)) reason = RejectReason.InvalidStpMode;
    else if (!validCap(maxFillLots)) reason = RejectReason.InvalidCap;
    else if (this.find(orderId)) reason = RejectReason.DuplicateOrderId;
    else if (maxFillLots === 0) reason = RejectReason.NothingToReduce;
    if (reason) return this.sink.onRejected(CommandKind.Market, orderId, account, reason);
    const qty = maxFillLots > 0 ? Math.min(qtyLots, maxFillLots) : qtyLots;
    // The band in exact rational arithmetic: ref * (1e6 +- band) / 1e6, rounded toward ref.
    const bound =
      side === SideCode.Buy
        ? Number((BigInt(refPriceTicks) * BigInt(1_000_000 + this.band)) / 1_000_000n)
        : Math.max(1, Number((BigInt(refPriceTicks) * BigInt(1_000_000 - this.band) + 999_999n) / 1_000_000n));
    this.command(() => {
      this.sink.onAccepted(orderId, account, side, OrderType.Market, tif, 0, qty, flags);
      const o: RefOrder = {
        id: orderId,
        account,
        side,
        price: bound,
        qty,
        rem: qty,
        tif,
        flags,
        stp: stp || this.defaultStp,
        seq: 0,
      };
      this.enter(o, true);
    });
  }

  cancel(orderId: number, account = -1): void {
    let reason = 0;
    if (!validId(orderId)) reason = RejectReason.InvalidOrderId;
    else if (account !== -1 && !validId(account)) reason = RejectReason.InvalidAccount;
    const o = reason ? undefined : this.find(orderId);
    if (!reason && (!o || (account !== -1 && o.account !== account))) reason = RejectReason.UnknownOrder;
    if (reason || !o) return this.sink.onRejected(CommandKind.Cancel, orderId, account, reason);
    this.command(() => {
      this.remove(o);
      this.sink.onCancelled(o.id, o.account, o.rem, CancelReason.User);
    });
  }

  cancelAll(account: number): number {
    if (!validId(account)) {
      this.sink.onRejected(CommandKind.CancelAll, -1, account, RejectReason.InvalidAccount);
      return 0;
    }
    const mine = this.resting.filter((o) => o.account === account).sort((a, b) => a.seq - b.seq);
    this.command(() => {
      for (const o of mine) {
        this.remove(o);
        this.sink.onCancelled(o.id, o.account, o.rem, CancelReason.CancelAll);
      }
    });
    return mine.length;
  }

  amend(a: Amendment): void {
    const { orderId, priceTicks, qtyLots, account = -1, maxFillLots = -1, requeue = false } = a;
    let reason = 0;
    if (!validId(orderId)) reason = RejectReason.InvalidOrderId;
    else if (account !== -1 && !validId(account)) reason = RejectReason.InvalidAccount;
    else if (!validPrice(priceTicks)) reason = RejectReason.InvalidPrice;
    else if (!validQty(qtyLots)) reason = RejectReason.InvalidQuantity;
    else if (!validCap(maxFillLots)) reason = RejectReason.InvalidCap;
    const o = reason ? undefined : this.find(orderId);
    if (!reason && (!o || (account !== -1 && o.account !== account))) reason = RejectReason.UnknownOrder;
    let newRem = 0;
    if (!reason && o) {
      const filled = o.qty - o.rem;
      newRem = qtyLots - filled;
      if (maxFillLots > 0) newRem = Math.min(newRem, maxFillLots);
      if (qtyLots <= filled) reason = RejectReason.AmendQtyNotAboveFilled;
      else if (maxFillLots === 0) reason = RejectReason.NothingToReduce;
      else if (priceTicks === o.price && newRem === o.rem) reason = RejectReason.AmendNoChange;
    }
    if (reason || !o) return this.sink.onRejected(CommandKind.Amend, orderId, account, reason);
    this.command(() => {
      const filled = o.qty - o.rem;
      const samePrice = priceTicks === o.price;
      const kept = samePrice && newRem < o.rem && !requeue;
      o.qty = filled + newRem;
      o.rem = newRem;
      this.sink.onAmended(o.id, o.account, priceTicks, o.qty, o.rem, kept);
      if (kept) return;
      if (samePrice) {
        o.seq = ++this.seq;
        return;
      }
      this.remove(o);
      o.price = priceTicks;
      this.enter(o, false);
    });
  }

  trimOrder(orderId: number, capLots: number): void {
    let reason = 0;
    if (!validId(orderId)) reason = RejectReason.InvalidOrderId;
    else if (capLots === -1 || !validCap(capLots)) reason = RejectReason.InvalidCap;
    const o = reason ? undefined : this.find(orderId);
    if (!reason && !o) reason = RejectReason.UnknownOrder;
    if (reason || !o) return this.sink.onRejected(CommandKind.Trim, orderId, -1, reason);
    this.command(() => {
      if (capLots >= o.rem) return;
      if (capLots === 0) {
        this.remove(o);
        this.sink.onCancelled(o.id, o.account, o.rem, CancelReason.ReduceOnly);
        return;
      }
      o.qty -= o.rem - capLots;
      o.rem = capLots;
      this.sink.onAmended(o.id, o.account, o.price, o.qty, o.rem, true);
    });
  }

  // -------------------------------------------------------------- matching

  /** Run a state change, then report every level whose total differs, bids then asks, best first. */
  private command(body: () => void): void {
    const before = this.snapshot();
    body();
    const after = this.snapshot();
    for (const [side, b, a] of [
      [1, before.bids, after.bids],
      [2, before.asks, after.asks],
    ] as const) {
      const prices = [...new Set([...b.map((l) => l[0]), ...a.map((l) => l[0])])].sort((x, y) =>
        side === SideCode.Buy ? y - x : x - y,
      );
      for (const p of prices) {
        const was = b.find((l) => l[0] === p)?.[1] ?? 0;
        const now = a.find((l) => l[0] === p)?.[1] ?? 0;
        if (was !== now) this.sink.onLevelChanged(++this.lastUpdateId, side, p, now);
      }
    }
  }

  private crosses(taker: RefOrder, makerPrice: number): boolean {
    return taker.side === SideCode.Buy ? makerPrice <= taker.price : makerPrice >= taker.price;
  }

  /** The resting orders the taker would meet, in the order it would meet them. */
  private against(taker: RefOrder): RefOrder[] {
    return this.sideOrders(taker.side === SideCode.Buy ? SideCode.Sell : SideCode.Buy).filter((m) =>
      this.crosses(taker, m.price),
    );
  }

  /**
   * What a resting order may fill in a match where `taken` holds, per account, the lots its
   * reduce-only orders and its other orders already took: its remaining lots, or, when it is
   * reduce-only and the guard caps it lower, the guard's cap.
   */
  private fillable(m: RefOrder, taken: Map<number, { reduced: number; other: number }>): number {
    if (!this.guard || (m.flags & OrderFlag.ReduceOnly) === 0) return m.rem;
    const t = taken.get(m.account) ?? { reduced: 0, other: 0 };
    const cap = this.guard.makerCap(m.id, m.account, t.reduced, t.other);
    return cap >= 0 && cap < m.rem ? cap : m.rem;
  }

  private record(m: RefOrder, lots: number, taken: Map<number, { reduced: number; other: number }>): void {
    const t = taken.get(m.account) ?? { reduced: 0, other: 0 };
    if ((m.flags & OrderFlag.ReduceOnly) !== 0) t.reduced += lots;
    else t.other += lots;
    taken.set(m.account, t);
  }

  private enter(t: RefOrder, market: boolean): void {
    const makers = this.against(t);
    if (t.tif === TimeInForce.GTX && makers.length > 0)
      return this.sink.onExpired(t.id, t.account, t.rem, ExpireReason.PostOnly);
    if (t.tif === TimeInForce.FOK) {
      // What would fill before STP stops the taker (ExpireMaker skips own orders instead), each
      // reduce-only maker as far as the guard lets it.
      let fillable = 0;
      const taken = new Map<number, { reduced: number; other: number }>();
      for (const m of makers) {
        if (m.account === t.account) {
          if (t.stp === StpMode.ExpireMaker) continue;
          break;
        }
        const q = this.fillable(m, taken);
        this.record(m, q, taken);
        fillable += q;
      }
      if (fillable < t.rem) return this.sink.onExpired(t.id, t.account, t.rem, ExpireReason.FillOrKill);
    }
    const taken = new Map<number, { reduced: number; other: number }>();
    for (const m of makers) {
      if (t.rem === 0) break;
      if (m.account === t.account) {
        if (t.stp === StpMode.ExpireTaker) return this.sink.onExpired(t.id, t.account, t.rem, ExpireReason.SelfTrade);
        this.remove(m);
        this.sink.onExpired(m.id, m.account, m.rem, ExpireReason.SelfTrade);
        if (t.stp === StpMode.ExpireBoth) return this.sink.onExpired(t.id, t.account, t.rem, ExpireReason.SelfTrade);
        continue;
      }
      // a reduce-only maker capped lower by the guard is trimmed (or, at 0, cancelled) first
      const may = this.fillable(m, taken);
      if (may === 0) {
        this.remove(m);
        this.sink.onCancelled(m.id, m.account, m.rem, CancelReason.ReduceOnly);
        continue;
      }
      if (may < m.rem) {
        m.qty -= m.rem - may;
        m.rem = may;
        this.sink.onAmended(m.id, m.account, m.price, m.qty, m.rem, true);
      }
      const q = Math.min(t.rem, m.rem);
      this.record(m, q, taken);
      t.rem -= q;
      m.rem -= q;
      this.sink.onTrade(m.id, m.account, t.id, t.account, m.price, q, t.side);
      if (m.rem === 0) {
        this.remove(m);
        this.sink.onFilled(m.id, m.account, m.qty);
      } else {
        this.sink.onPartiallyFilled(m.id, m.account, m.qty - m.rem, m.rem);
      }
      if (t.rem === 0) this.sink.onFilled(t.id, t.account, t.qty);
      else this.sink.onPartiallyFilled(t.id, t.account, t.qty - t.rem, t.rem);
    }
    if (t.rem === 0) return;
    if (market) {
      const opposite = this.sideOrders(t.side === SideCode.Buy ? SideCode.Sell : SideCode.Buy);
      return this.sink.onExpired(
        t.id,
        t.account,
        t.rem,
        opposite.length > 0 ? ExpireReason.MarketBand : ExpireReason.MarketNoLiquidity,
      );
    }
    if (t.tif === TimeInForce.IOC) return this.sink.onExpired(t.id, t.account, t.rem, ExpireReason.ImmediateOrCancel);
    t.seq = ++this.seq;
    this.resting.push(t);
  }

  private remove(o: RefOrder): void {
    this.resting = this.resting.filter((x) => x !== o);
  }

  private find(id: number): RefOrder | undefined {
    return this.resting.find((o) => o.id === id);
  }

  /** One side in priority order: best price first, then earliest entry. */
  private sideOrders(side: number): RefOrder[] {
    return this.resting
      .filter((o) => o.side === side)
      .sort((a, b) =>
        a.price !== b.price ? (side === SideCode.Buy ? b.price - a.price : a.price - b.price) : a.seq - b.seq,
      );
  }

  // -------------------------------------------------------------- read views

  get updateId(): number {
    return this.lastUpdateId;
  }

  get orderCount(): number {
    return this.resting.length;
  }

  bestBid(): number {
    return this.sideOrders(1)[0]?.price ?? 0;
  }

  bestAsk(): number {
    return this.sideOrders(2)[0]?.price ?? 0;
  }

  levelCount(side: Side): number {
    return this.topLevels(side).length;
  }

  topLevels(side: Side, n = Number.POSITIVE_INFINITY, stepTicks = 1): Level[] {
    const group = (p: number): number =>
      (side === SideCode.Buy ? Math.floor(p / stepTicks) : Math.ceil(p / stepTicks)) * stepTicks;
    const out: Level[] = [];
    for (const o of this.sideOrders(side)) {
      const g = group(o.price);
      const last = out[out.length - 1];
      if (last && last[0] === g) last[1] += o.rem;
      else out.push([g, o.rem]);
    }
    return out.slice(0, Math.min(out.length, n));
  }

  depth(n = Number.POSITIVE_INFINITY, stepTicks = 1): DepthView {
    return {
      updateId: this.lastUpdateId,
      bids: this.topLevels(1, n, stepTicks),
      asks: this.topLevels(2, n, stepTicks),
    };
  }

  snapshot(): DepthView {
    return this.depth();
  }

  impactBid(notional: number): number | null {
    return this.impact(1, notional);
  }

  impactAsk(notional: number): number | null {
    return this.impact(2, notional);
  }

  private impact(side: Side, notional: number): number | null {
    if (!(notional > 0) || !Number.isFinite(notional)) return null;
    let left = notional;
    let lots = 0;
    for (const [p, q] of this.topLevels(side)) {
      if (p * q >= left) return notional / (lots + left / p);
      lots += q;
      left -= p * q;
    }
    return null;
  }

  getOrder(orderId: number): OrderView | null {
    const o = this.find(orderId);
    if (!o) return null;
    return {
      orderId: o.id,
      account: o.account,
      side: o.side as Side,
      priceTicks: o.price,
      qtyLots: o.qty,
      remainingLots: o.rem,
      filledLots: o.qty - o.rem,
      tif: o.tif as OrderView['tif'],
      flags: o.flags,
      reduceOnly: (o.flags & OrderFlag.ReduceOnly) !== 0,
    };
  }

  openOrderIds(account: number): number[] {
    return this.resting
      .filter((o) => o.account === account)
      .sort((a, b) => a.seq - b.seq)
      .map((o) => o.id);
  }

  levelOrderIds(side: Side, priceTicks: number): number[] {
    return this.sideOrders(side)
      .filter((o) => o.price === priceTicks)
      .map((o) => o.id);
  }
}
