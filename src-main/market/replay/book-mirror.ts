// The historical book of one pair as resting orders of the replay's book account in the venue's
// engine, and historical trades as IOC takers of its taker account (docs/replay.md "Fills and
// queue models").
//
// Invariants
//   - `hist` holds, per side, the size in lots the book account should show at each price (the
//     historical level, or the synthetic one). After every call the book account's orders at a
//     price total exactly hist's size there, except while a user's order has consumed some of it:
//     a change of the book by anyone else is noticed by its update id, and the next call puts the
//     historical sizes back first (no market impact).
//   - A level that grows gets a new order at the back of the queue (behind every user order); a
//     level that shrinks is reduced in place (trimBot keeps priority), choosing which of the
//     book account's orders shrink by the queue model: pessimistic = the ones behind the first
//     user order first; probabilistic = split between ahead and behind as hftbacktest's
//     ProbQueueModel with f(x) = x^3. Without user orders at a level there is nothing to choose.
//   - Only the book account's orders are ever changed here; user orders are touched only by the
//     takers (history trading through or at their price).
import { Side, TimeInForce } from '../../../src-shared/enums.ts';
import type { Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { houseLimit } from '../sim/house-orders.ts';
import type { QueueModel } from './replay-market.ts';

/** Exponent of the probabilistic queue model's f(x) = x^n (hftbacktest's PowerProbQueueFunc3 with n = 3). */
export const QUEUE_POWER = 3;

export interface MirrorStats {
  placed: number;
  trimmed: number;
  cancelled: number;
  takers: number;
  rejected: number;
  resyncs: number;
}

/** Orders of the book account at a level without user orders before a growth merges them into one. */
const CONSOLIDATE_AT = 4;

interface HouseSlice {
  id: number;
  rem: number;
}

export class BookMirror {
  /** [bids, asks]: price ticks -> lots the book account should show. */
  readonly hist: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  readonly stats: MirrorStats = { placed: 0, trimmed: 0, cancelled: 0, takers: 0, rejected: 0, resyncs: 0 };
  private readonly ex: Exchange;
  private readonly pair: PairState;
  private readonly symbol: string;
  private readonly bookAccount: number;
  private readonly takerAccount: number;
  private readonly model: QueueModel;
  /** Prices where the book account may have orders, per side. */
  private readonly housePrices: [Set<number>, Set<number>] = [new Set(), new Set()];
  private seenUpdateId: number;

  constructor(ex: Exchange, pair: PairState, bookAccount: number, takerAccount: number, model: QueueModel) {
    this.ex = ex;
    this.pair = pair;
    this.symbol = pair.row.symbol;
    this.bookAccount = bookAccount;
    this.takerAccount = takerAccount;
    this.model = model;
    this.seenUpdateId = pair.book.updateId;
  }

  /** Puts the historical sizes back when someone else changed the book since our last call. */
  restoreIfTouched(): void {
    if (this.pair.book.updateId === this.seenUpdateId) return;
    this.stats.resyncs++;
    for (let s = 0; s < 2; s++) {
      const side = (s + 1) as 1 | 2;
      for (const p of [...this.housePrices[s]]) if (!this.hist[s].has(p)) this.apply(side, p, 0);
      for (const [p, lots] of this.hist[s]) this.apply(side, p, lots);
    }
    this.seen();
  }

  /** Sets one level (side 1 bids, 2 asks) to `lots` (0 removes it). */
  setLevel(side: 1 | 2, price: number, lots: number): void {
    const h = this.hist[side - 1];
    if (lots > 0) h.set(price, lots);
    else h.delete(price);
    this.apply(side, price, lots);
    this.seen();
  }

  /** Replaces the whole book (a snapshot): removals first, so nothing crosses on the way. */
  replace(bids: Map<number, number>, asks: Map<number, number>): void {
    const next = [bids, asks];
    for (let s = 0; s < 2; s++) {
      const side = (s + 1) as 1 | 2;
      for (const p of [...this.housePrices[s]]) {
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
    this.seen();
  }

  /**
   * One historical print: `lots` at `price`, the aggressor on `takerSide`. First the book account
   * shows at least `lots` at that price and nothing better on the resting side (stale levels go),
   * then an IOC taker at the price consumes the engine's queue in price-time order. Returns the
   * lots the taker got (= lots, unless the exchange refused it).
   */
  trade(takerSide: 1 | 2, price: number, lots: number): number {
    const book = this.pair.book;
    const rest = takerSide === Side.BUY ? 2 : 1;
    const h = this.hist[rest - 1];
    // stale better levels of the resting side: history traded at `price`, so none were there
    for (let guard = 0; guard < 100_000; guard++) {
      const best = rest === 2 ? book.bestAsk() : book.bestBid();
      if (best === 0 || (rest === 2 ? best >= price : best <= price)) break;
      const house = this.slices(rest, best).total;
      h.delete(best);
      if (house === 0) break; // only user orders there: history trades through them
      this.apply(rest, best, 0);
    }
    // the book account's own orders on the taker's side at or through the price go too (a sell
    // printed at P means no ask at or below P): else the level topped up below would cross them
    const own = this.hist[takerSide - 1];
    for (let guard = 0; guard < 100_000; guard++) {
      const best = takerSide === Side.BUY ? book.bestBid() : book.bestAsk();
      if (best === 0 || (takerSide === Side.BUY ? best < price : best > price)) break;
      const house = this.slices(takerSide, best).total;
      own.delete(best);
      if (house === 0) break;
      this.apply(takerSide, best, 0);
    }
    const at = this.slices(rest, price).total;
    if (at < lots) this.place(rest, price, lots - at);
    let got = 0;
    try {
      const r = this.ex.execute({
        kind: 'placeBot',
        input: {
          symbol: this.symbol, side: takerSide, position_side: takerSide, position_action: 1, type: 1,
          price: this.pair.math.formatPrice(price), qty: this.pair.math.formatQty(lots), time_in_force: TimeInForce.IOC, need_cache: false,
        },
        engineAccount: this.takerAccount,
      });
      const f = this.pair.math.qty.toUnits(r.filled_qty);
      got = f.ok ? f.value : 0;
      this.stats.takers++;
    } catch {
      this.stats.rejected++;
    }
    const left = this.slices(rest, price).total;
    if (left > 0) h.set(price, left);
    else h.delete(price);
    this.seen();
    return got;
  }

  /** The book account's lots at a level: what the engine holds. */
  houseLots(side: 1 | 2, price: number): number {
    return this.slices(side, price).total;
  }

  private seen(): void {
    this.seenUpdateId = this.pair.book.updateId;
  }

  /** The book account's orders at a level, ahead of and behind the first other order (queue order). */
  private slices(side: 1 | 2, price: number): { ahead: HouseSlice[]; behind: HouseSlice[]; total: number; users: boolean } {
    const book = this.pair.book;
    const ahead: HouseSlice[] = [];
    const behind: HouseSlice[] = [];
    let total = 0;
    let users = false;
    for (const id of book.levelOrderIds(side, price)) {
      const v = book.getOrder(id);
      if (v === null) continue;
      if (v.account === this.bookAccount) {
        (users ? behind : ahead).push({ id, rem: v.remainingLots });
        total += v.remainingLots;
      } else users = true;
    }
    return { ahead, behind, total, users };
  }

  private apply(side: 1 | 2, price: number, lots: number): void {
    const q = this.slices(side, price);
    if (q.total === lots) {
      if (lots === 0) this.housePrices[side - 1].delete(price);
      return;
    }
    if (lots > q.total) {
      // a level without user orders is one order again once it has grown a few times (nobody's
      // priority to keep there; the level's own order count stays small)
      if (!q.users && q.ahead.length >= CONSOLIDATE_AT) {
        this.shrink(q.ahead, q.total);
        this.place(side, price, lots);
      } else this.place(side, price, lots - q.total);
      return;
    }
    const d = q.total - lots;
    if (!q.users) {
      this.shrink(q.ahead, d);
    } else {
      const aheadLots = sum(q.ahead);
      const behindLots = sum(q.behind);
      let fromAhead: number;
      if (this.model === 'pessimistic') {
        fromAhead = Math.max(0, d - behindLots);
      } else {
        const fb = behindLots ** QUEUE_POWER;
        const ff = aheadLots ** QUEUE_POWER;
        const prob = fb + ff > 0 ? fb / (fb + ff) : 0.5;
        fromAhead = Math.min(aheadLots, Math.round((1 - prob) * d));
        fromAhead = Math.max(fromAhead, d - behindLots);
      }
      this.shrink(q.ahead, fromAhead);
      this.shrink(q.behind, d - fromAhead);
    }
    if (lots === 0) this.housePrices[side - 1].delete(price);
  }

  /** Takes `lots` off a run of the book account's orders, from its back (the front keeps its place). */
  private shrink(run: HouseSlice[], lots: number): void {
    let left = lots;
    for (let i = run.length - 1; i >= 0 && left > 0; i--) {
      const o = run[i];
      const take = Math.min(o.rem, left);
      left -= take;
      try {
        if (take === o.rem) {
          this.ex.execute({ kind: 'cancelBot', symbol: this.symbol, orderId: o.id });
          this.stats.cancelled++;
        } else {
          this.ex.execute({ kind: 'trimBot', symbol: this.symbol, orderId: o.id, lots: o.rem - take });
          this.stats.trimmed++;
        }
      } catch {
        this.stats.rejected++;
      }
    }
  }

  private place(side: 1 | 2, price: number, lots: number): void {
    try {
      this.ex.execute(houseLimit(this.pair, side, price, lots, this.bookAccount));
      this.housePrices[side - 1].add(price);
      this.stats.placed++;
    } catch {
      this.stats.rejected++;
    }
  }
}

function sum(run: HouseSlice[]): number {
  let s = 0;
  for (const o of run) s += o.rem;
  return s;
}
