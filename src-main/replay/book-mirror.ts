// The historical book of one pair as resting orders of the replay's book account in the venue's
// engine, and historical trades as IOC takers of its taker account (docs/replay.md "The
// historical book", "Prints", "Fills and queue models", "Speed"). Keeps true: after every call
// the book account shows hist's size at each level, except where others traded since (put back
// at the next call); only the book account's orders are changed here, by the house commands as
// numbers (the exchange's house desk: no command or answer object); levels are read without
// allocating.
import { ApiError } from '../../src-shared/errors.ts';
import { Side } from '../../src-shared/enums.ts';
import type { Exchange } from '../trading/exchange.ts';
import type { TradeEvent } from '../trading/events.ts';
import type { HouseDesk } from '../trading/house-desk.ts';
import type { PairState } from '../trading/pair-state.ts';
import { DirectLevels } from './direct-levels.ts';
import { LevelMap } from './level-map.ts';
import type { QueueModel } from './models/queue-model.ts';

export interface MirrorStats {
  placed: number;
  grown: number;
  trimmed: number;
  cancelled: number;
  takers: number;
  rejected: number;
  resyncs: number;
}

/** Orders of the book account at a level without user orders before a growth merges them into one. */
const CONSOLIDATE_AT = 4;

export class BookMirror {
  /** [bids, asks]: price ticks -> lots the book account should show. */
  readonly hist: [LevelMap, LevelMap] = [new LevelMap(), new LevelMap()];
  /**
   * Someone else than the house has traded on the pair (a user's order took the book, or a
   * print met a user's order): positions may be open, so the replay runs the venue's risk check
   * after the prints that move the price.
   */
  usersTraded = false;
  /** Trades of the mirror's own commands its listener heard (those the desk did not book itself). */
  private heardOwn = 0;
  readonly stats: MirrorStats = { placed: 0, grown: 0, trimmed: 0, cancelled: 0, takers: 0, rejected: 0, resyncs: 0 };
  private readonly ex: Exchange;
  /** The pair mirrored (read by the direct path). */
  readonly pair: PairState;
  private readonly symbol: string;
  private readonly bookAccount: number;
  private readonly takerAccount: number;
  private readonly model: QueueModel;
  /** Prices of the book account's side (bids, asks) where others traded since the last resync. */
  private readonly touched: [Set<number>, Set<number>] = [new Set(), new Set()];
  /** True while the mirror's own command runs (its trades are its own, not others'; set by the direct path too). */
  own = false;
  private readonly unsubscribe: () => void;
  // scratch of scan(): the level's queue as the engine gives it, and the book account's part
  private readonly qIds: number[] = [];
  private readonly qAccounts: number[] = [];
  private readonly qRem: number[] = [];
  private readonly hIds: number[] = [];
  private readonly hRem: number[] = [];
  private nHouse = 0;
  private nAhead = 0;
  private total = 0;
  private users = false;
  /** The level's last order is the book account's (hIds[nHouse - 1]): a growth can grow it. */
  private lastHouse = false;
  /**
   * The level the scratch holds (side 0: none) and the engine book's update id it holds it at:
   * while that id has not moved, the level is as the scratch says (every change of a level's
   * orders changes its total, which raises the id), so scan() reads it again from the scratch.
   */
  private scanSide = 0;
  private scanPrice = 0;
  private scanUpdateId = -1;
  /** The house commands on this pair, as numbers. */
  readonly desk: HouseDesk;
  /** The synthetic book's direct path (direct-levels.ts): off unless the synthetic book turns it on. */
  readonly direct = new DirectLevels(this);
  /** A placement of the book account runs; the trades such placements made (users' orders they crossed: no print's). */
  placing = false;
  crossed = 0;

  constructor(ex: Exchange, pair: PairState, bookAccount: number, takerAccount: number, model: QueueModel) {
    this.ex = ex;
    this.pair = pair;
    this.symbol = pair.row.symbol;
    this.bookAccount = bookAccount;
    this.takerAccount = takerAccount;
    this.model = model;
    this.desk = ex.houseDesk(this.symbol, { book: bookAccount, taker: takerAccount });
    const heard = (e: TradeEvent): void => {
      if (e.symbol !== this.symbol) return;
      if (this.own) {
        this.heardOwn++;
        return;
      }
      // a trade the mirror did not send (a user's or a liquidation's order taking the book): the
      // resting side's level at its price may have lost house lots
      this.usersTraded = true;
      this.touched[e.takerSide === Side.BUY ? 1 : 0].add(e.priceTicks);
    };
    this.unsubscribe = ex.events.on('trade', heard);
    // the trades the desk books itself are all the mirror's own: counted there, not heard here
    this.desk.unheard = heard;
  }

  /** Trades the mirror's own commands made (a print meeting several resting orders makes several). */
  get ownTrades(): number {
    return this.heardOwn + this.desk.booked;
  }

  /** Stops noting others' trades (the replay is closed). */
  dispose(): void {
    this.unsubscribe();
  }

  /** Puts the historical sizes back at the levels others traded at since the last call. */
  restoreIfTouched(): void {
    if (this.touched[0].size === 0 && this.touched[1].size === 0) return;
    this.stats.resyncs++;
    for (let s = 0; s < 2; s++) {
      const side = (s + 1) as 1 | 2;
      const t = this.touched[s];
      const h = this.hist[s];
      for (const p of t) this.apply(side, p, h.get(p) ?? 0);
      t.clear();
    }
  }

  /** Sets one level (side 1 bids, 2 asks) to `lots` (0 removes it). */
  setLevel(side: 1 | 2, price: number, lots: number): void {
    if (this.direct.holds()) {
      this.direct.set(side, price, lots);
      return;
    }
    const h = this.hist[side - 1];
    if (lots > 0) h.set(price, lots);
    else h.delete(price);
    this.apply(side, price, lots);
  }

  /** Replaces the whole book (a snapshot): removals first, so nothing crosses on the way. */
  replace(bids: Map<number, number>, asks: Map<number, number>): void {
    this.direct.on = false;
    const next = [bids, asks];
    for (let s = 0; s < 2; s++) {
      const side = (s + 1) as 1 | 2;
      for (const p of this.housePrices(side)) {
        if (!next[s].has(p)) this.apply(side, p, 0);
      }
    }
    for (let s = 0; s < 2; s++) {
      const side = (s + 1) as 1 | 2;
      const h = this.hist[s];
      h.clear();
      for (const [p, lots] of next[s]) {
        h.set(p, lots);
        this.apply(side, p, lots);
      }
    }
  }

  /**
   * One historical print: `lots` at `price`, the aggressor on `takerSide`. First the book account
   * shows at least `lots` at that price and nothing better on the resting side (stale levels go),
   * then an IOC taker at the price consumes the engine's queue in price-time order; or, when the
   * level is placed for the print and nobody else's order can be met, one housePrint does both.
   * Returns the lots the taker got (= lots, unless the exchange refused it). `keep`: the lots the
   * level is to show after the print when it has to be topped up for it (the synthetic book's
   * level size): the top-up brings them too, so the level needs no refill after the print.
   */
  trade(takerSide: 1 | 2, price: number, lots: number, keep = 0): number {
    if (this.direct.holds()) {
      if (keep > 0) return this.direct.trade(takerSide, price, lots, keep);
      this.direct.on = false;
    }
    const book = this.pair.book;
    const rest = takerSide === Side.BUY ? 2 : 1;
    const h = this.hist[rest - 1];
    // the touch is at the print's price: both sides' levels in use are around it
    this.hist[0].follow(price);
    this.hist[1].follow(price);
    // stale better levels of the resting side: history traded at `price`, so none were there
    let through = false;
    // the resting side's best does not reach the price: nothing rests there (what follows changes
    // only the taker's side), so the level at the price needs no read
    let restEmptyAtPrice = false;
    for (let guard = 0; guard < 100_000; guard++) {
      const best = rest === 2 ? book.bestAsk() : book.bestBid();
      if (best === 0 || (rest === 2 ? best >= price : best <= price)) {
        restEmptyAtPrice = best !== price;
        break;
      }
      const house = this.scan(rest, best);
      h.delete(best);
      if (house === 0) {
        through = true; // only user orders there: history trades through them
        break;
      }
      this.applyScanned(rest, best, 0);
    }
    // the book account's own orders on the taker's side at or through the price go too (a sell
    // printed at P means no ask at or below P): else the level topped up below would cross them
    const own = this.hist[takerSide - 1];
    // the own level at the price when the top-up below is to take it away as it is placed, and
    // its house orders (cancelled so)
    let expireOwn = false;
    let expired = 0;
    for (let guard = 0; guard < 100_000; guard++) {
      const best = takerSide === Side.BUY ? book.bestBid() : book.bestAsk();
      if (best === 0 || (takerSide === Side.BUY ? best < price : best > price)) break;
      const house = this.scan(takerSide, best);
      own.delete(best);
      if (house === 0) {
        through = true; // only user orders there: the top-up below trades with them
        break;
      }
      if (best === price && !this.users && !through) {
        // the book account's alone, and the only level at or through the price (the side's
        // best is the price): a side change of the touch. The top-up below (the rest side is
        // empty at the price, as this level would cross it) cancels it as it meets it, one
        // command instead of two
        expireOwn = true;
        expired = this.nHouse;
        break;
      }
      this.applyScanned(takerSide, best, 0);
    }
    let at = restEmptyAtPrice ? this.scanEmpty() : this.scan(rest, price);
    const users = this.users;
    // nobody at the price on the resting side and nothing better or crossing but the book
    // account's own level at the price (the top-up takes it away): the print can meet only the
    // level placed for it, one housePrint (the level keeps `keep`, the print is booked) instead
    // of a placement and an IOC taker. Not without a level to place when the own level is to go.
    if (
      at === 0 &&
      !users &&
      !through &&
      (keep > 0 || !expireOwn) &&
      this.print(takerSide, price, lots, keep, expireOwn)
    ) {
      this.stats.cancelled += expired;
      if (keep > 0) h.set(price, keep);
      else h.delete(price);
      return lots;
    }
    // the order the taker meets first when it may be the book account's (the desk checks that it
    // is, and that it covers the print; else the taker is placed as any)
    let front = this.nAhead > 0 ? this.hIds[0] : 0;
    if (expireOwn) {
      if (this.place(rest, price, lots + keep, true)) {
        this.stats.cancelled += expired;
        at = lots + keep;
        front = this.desk.orderId;
      } else {
        this.apply(takerSide, price, 0); // refused (nothing changed): the own level goes as any other
        front = 0;
      }
    } else if (at < lots) {
      const last = this.lastHouse ? this.hIds[this.nHouse - 1] : -1;
      if (this.grow(rest, price, lots - at + keep)) {
        at = lots + keep;
        front = last === -1 ? this.desk.orderId : last;
      }
    }
    // the scratch holds this level as it is now (no command since its scan): after the taker, it
    // is updated in place instead of read again at the next print (below)
    const u0 = book.updateId;
    const fresh = this.scanSide === rest && this.scanPrice === price && this.scanUpdateId === u0;
    let got = 0;
    this.own = true;
    try {
      got = front > 0 ? this.desk.takeFront(takerSide, price, lots, front) : this.desk.take(takerSide, price, lots);
      this.stats.takers++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
    } finally {
      this.own = false;
    }
    // without user orders at the level, before it, or crossing it (which the top-up would trade
    // with) the taker took only the level's house lots: no read needed
    if (users || through) this.usersTraded = true;
    const left = users || through ? this.scan(rest, price) : at - got;
    if (left > 0) {
      h.set(price, left);
      // the taker took `got` of the level's house lots front to back (the front order trimmed,
      // or an IOC's sweep of this level alone: nobody else's order there), one level change
      if (fresh && !users && !through && got > 0 && book.updateId === u0 + 1) this.taken(got, u0 + 1);
    } else h.delete(price);
    return got;
  }

  /**
   * The scratch's level (the book account's orders alone) after a taker took `got` of its lots,
   * fewer than it holds, front to back, which left the book at update id `updateId`: the scan of
   * it as the engine now holds it, without reading it.
   */
  private taken(got: number, updateId: number): void {
    const ids = this.hIds;
    const rem = this.hRem;
    const n = this.nHouse;
    let gone = 0;
    let g = got;
    while (g > 0) {
      const r = rem[gone];
      if (r <= g) {
        g -= r;
        gone++;
      } else {
        rem[gone] = r - g;
        g = 0;
      }
    }
    if (gone > 0)
      for (let k = gone; k < n; k++) {
        ids[k - gone] = ids[k];
        rem[k - gone] = rem[k];
      }
    this.nHouse = n - gone;
    this.nAhead = n - gone;
    this.total -= got;
    this.scanUpdateId = updateId;
  }

  /** The book account's lots at a level: what the engine holds. */
  houseLots(side: 1 | 2, price: number): number {
    return this.scan(side, price);
  }

  /** The prices where the book account has orders on a side (from the engine: read only on a resync or a snapshot). */
  private housePrices(side: 1 | 2): Set<number> {
    const out = new Set<number>();
    const book = this.pair.book;
    for (const id of book.openOrderIds(this.bookAccount)) {
      const o = book.getOrder(id);
      if (o !== null && o.side === side) out.add(o.priceTicks);
    }
    return out;
  }

  /**
   * Reads the book account's orders at a level into the scratch arrays, in queue order: the
   * first `nAhead` are ahead of the first other order, the rest behind it; `total` their lots,
   * `users` whether anyone else queues there. Allocates nothing (a print reads a few levels);
   * the arrays hold until the next scan.
   */
  private scan(side: 1 | 2, price: number): number {
    const book = this.pair.book;
    const updateId = book.updateId;
    if (updateId === this.scanUpdateId && price === this.scanPrice && side === this.scanSide) return this.total;
    const n = book.levelQueue(side, price, this.qIds, this.qAccounts, this.qRem);
    let k = 0;
    let total = 0;
    let users = false;
    let nAhead = 0;
    for (let i = 0; i < n; i++) {
      if (this.qAccounts[i] === this.bookAccount) {
        this.hIds[k] = this.qIds[i];
        this.hRem[k] = this.qRem[i];
        total += this.qRem[i];
        k++;
        if (!users) nAhead = k;
      } else users = true;
    }
    this.nHouse = k;
    this.lastHouse = n > 0 && this.qAccounts[n - 1] === this.bookAccount;
    this.nAhead = nAhead;
    this.total = total;
    this.users = users;
    this.scanSide = side;
    this.scanPrice = price;
    this.scanUpdateId = updateId;
    return total;
  }

  /** What scan() reads at a level where nothing rests. */
  private scanEmpty(): number {
    this.scanSide = 0;
    this.nHouse = 0;
    this.lastHouse = false;
    this.nAhead = 0;
    this.total = 0;
    this.users = false;
    return 0;
  }

  private apply(side: 1 | 2, price: number, lots: number): void {
    this.scan(side, price);
    this.applyScanned(side, price, lots);
  }

  /** apply() on the level scan() just read (nothing changed the book in between). */
  private applyScanned(side: 1 | 2, price: number, lots: number): void {
    const total = this.total;
    if (total === lots) {
      return;
    }
    const nHouse = this.nHouse;
    const nAhead = this.nAhead;
    if (lots > total) {
      // a level without user orders is one order again once it has grown a few times (nobody's
      // priority to keep there; the level's own order count stays small)
      if (!this.users && nAhead >= CONSOLIDATE_AT) {
        this.shrink(0, nAhead, total);
        this.place(side, price, lots);
      } else this.grow(side, price, lots - total);
      return;
    }
    const d = total - lots;
    if (!this.users) {
      this.shrink(0, nAhead, d);
    } else {
      let aheadLots = 0;
      for (let i = 0; i < nAhead; i++) aheadLots += this.hRem[i];
      const behindLots = total - aheadLots;
      const fromAhead = this.model.fromAhead(aheadLots, behindLots, d);
      this.shrink(0, nAhead, fromAhead);
      this.shrink(nAhead, nHouse, d - fromAhead);
    }
  }

  /**
   * Takes `lots` off the scanned house orders [from, to), from the back of the run (its front
   * keeps its place). The scan must be the one of this level (nothing scans in between).
   */
  private shrink(from: number, to: number, lots: number): void {
    let left = lots;
    for (let i = to - 1; i >= from && left > 0; i--) {
      const id = this.hIds[i];
      const rem = this.hRem[i];
      const take = Math.min(rem, left);
      left -= take;
      try {
        this.desk.trim(id, rem - take);
        if (take === rem) this.stats.cancelled++;
        else this.stats.trimmed++;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
        this.stats.rejected++;
      }
    }
  }

  /**
   * Adds `lots` at the back of the scanned level: the last order grows when it is the book
   * account's, else a new order joins the queue. The scan must be the one of this level.
   */
  private grow(side: 1 | 2, price: number, lots: number): boolean {
    if (!this.lastHouse) return this.place(side, price, lots);
    const k = this.nHouse - 1;
    try {
      this.desk.grow(this.hIds[k], this.hRem[k] + lots);
      this.stats.grown++;
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return false;
    }
  }

  /** A housePrint of the book account (maker, keeping `keep` at the price) and the taker account; false when the exchange refused it. */
  private print(takerSide: 1 | 2, price: number, lots: number, keep: number, expireOwn: boolean): boolean {
    this.own = true;
    try {
      this.desk.print(takerSide, price, lots, keep, expireOwn);
      this.stats.takers++;
      if (keep > 0) this.stats.placed++;
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return false;
    } finally {
      this.own = false;
    }
  }

  /** Adds a GTC order of the book account; false when the exchange refused it. */
  private place(side: 1 | 2, price: number, lots: number, expireOwn = false): boolean {
    // its trades (with a user's order crossing it, or one it meets with expireOwn) are the mirror's own
    this.own = true;
    this.placing = true;
    const before = this.ownTrades;
    try {
      this.desk.place(side, price, lots, expireOwn);
      this.stats.placed++;
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      return false;
    } finally {
      this.crossed += this.ownTrades - before;
      this.own = false;
      this.placing = false;
    }
  }
}
