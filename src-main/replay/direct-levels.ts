// The mirror's direct path for a synthetic book (trades or klines only) while no one but the
// house has an order on the pair (docs/replay.md "Speed", "2026-11-30, 05:00"). There every
// level of the book is one order of the book account whose size is hist's (a refill grows it in
// place, a print trims its front, a side change replaces it), so the mirror knows each level's
// order id and size without reading the engine's levels, and a print or a level change sends
// the same house commands the general pass (book-mirror.ts) would, in the same order, with the
// same counts. Keeps true: while `on`, ids[s] holds the order id of every level hist[s] holds,
// and the engine's book is exactly those orders at those sizes. It ends for good (the general
// pass reads the engine from then on) the first time that may not hold: someone else traded
// with the house, an order that is not one of those rests (the book's order count is not the
// levels' count), a house command was refused, or the mirror replaced its whole book.
import { ApiError } from '../../src-shared/errors.ts';
import { Side } from '../../src-shared/enums.ts';
import type { HouseDesk } from '../trading/house-desk.ts';
import type { PairState } from '../trading/pair-state.ts';
import { LevelMap } from './level-map.ts';

/** What the direct path uses of its mirror (book-mirror.ts, which passes itself). */
interface Mirror {
  readonly hist: [LevelMap, LevelMap];
  readonly usersTraded: boolean;
  readonly pair: PairState;
  readonly desk: HouseDesk;
  readonly stats: {
    placed: number;
    grown: number;
    trimmed: number;
    cancelled: number;
    takers: number;
    rejected: number;
  };
  /** True while a command of the mirror's runs (its trades are its own). */
  own: boolean;
  /** The general pass of a print. */
  trade(takerSide: 1 | 2, price: number, lots: number, keep: number): number;
}

export class DirectLevels {
  /** [bids, asks]: price ticks -> the id of the book account's one order there. */
  private readonly ids: [LevelMap, LevelMap] = [new LevelMap(), new LevelMap()];
  /** The direct path holds (see the header); set once by the synthetic book, before any command. */
  on = false;
  private readonly m: Mirror;

  constructor(mirror: Mirror) {
    this.m = mirror;
  }

  /** Whether the next operation may go the direct way; ends the direct path for good when not. */
  holds(): boolean {
    if (!this.on) return false;
    const m = this.m;
    if (!m.usersTraded && m.pair.book.orderCount === m.hist[0].size + m.hist[1].size) return true;
    this.on = false;
    return false;
  }

  /** The general pass's setLevel() where the direct path holds. */
  set(side: 1 | 2, price: number, lots: number): void {
    const m = this.m;
    const h = m.hist[side - 1];
    const total = h.get(price) ?? 0;
    if (lots > 0) h.set(price, lots);
    else h.delete(price);
    if (total === lots) return;
    const ids = this.ids[side - 1];
    if (total === 0) {
      if (this.place(side, price, lots, false)) ids.set(price, m.desk.orderId);
      return;
    }
    const id = ids.get(price)!;
    if (lots === 0) ids.delete(price);
    try {
      if (lots > total) {
        m.desk.grow(id, lots);
        m.stats.grown++;
      } else {
        m.desk.trim(id, lots);
        if (lots === 0) m.stats.cancelled++;
        else m.stats.trimmed++;
      }
    } catch (err) {
      this.refused(err);
    }
  }

  /**
   * The general pass's trade() where the direct path holds and the print's level keeps `keep`
   * (> 0) after it: the same commands in the same order. Returns the lots the taker got.
   */
  trade(takerSide: 1 | 2, price: number, lots: number, keep: number): number {
    const m = this.m;
    const book = m.pair.book;
    const rest = takerSide === Side.BUY ? 2 : 1;
    const h = m.hist[rest - 1];
    const hi = this.ids[rest - 1];
    const own = m.hist[takerSide - 1];
    const oi = this.ids[takerSide - 1];
    m.hist[0].follow(price);
    m.hist[1].follow(price);
    this.ids[0].follow(price);
    this.ids[1].follow(price);
    // stale better levels of the resting side go, best first
    let at = 0;
    for (;;) {
      const best = rest === 2 ? book.bestAsk() : book.bestBid();
      if (best === 0 || (rest === 2 ? best >= price : best <= price)) {
        if (best === price) at = h.get(price)!;
        break;
      }
      h.delete(best);
      if (!this.cancel(hi, best)) return m.trade(takerSide, price, lots, keep);
    }
    // the own levels at or through the price go; the one at the price is replaced by the print
    let expireOwn = false;
    for (;;) {
      const best = takerSide === Side.BUY ? book.bestBid() : book.bestAsk();
      if (best === 0 || (takerSide === Side.BUY ? best < price : best > price)) break;
      own.delete(best);
      if (best === price) {
        oi.delete(best);
        expireOwn = true;
        break;
      }
      if (!this.cancel(oi, best)) return m.trade(takerSide, price, lots, keep);
    }
    if (at === 0) {
      // nothing rests at the price (the own level there, if any, is crossed by it): one housePrint
      m.own = true;
      try {
        m.desk.print(takerSide, price, lots, keep, expireOwn);
        m.stats.takers++;
        m.stats.placed++;
        if (expireOwn) m.stats.cancelled++;
        h.set(price, keep);
        hi.set(price, m.desk.orderId);
        return lots;
      } catch (err) {
        this.refused(err);
      } finally {
        m.own = false;
      }
      // refused (nothing changed): the general pass goes on from the book as it is
      return m.trade(takerSide, price, lots, keep);
    }
    const front = hi.get(price)!;
    if (at < lots) {
      try {
        m.desk.grow(front, lots + keep);
        m.stats.grown++;
        at = lots + keep;
      } catch (err) {
        this.refused(err);
      }
    }
    let got = 0;
    m.own = true;
    try {
      got = m.desk.takeFront(takerSide, price, lots, front);
      m.stats.takers++;
    } catch (err) {
      this.refused(err);
    } finally {
      m.own = false;
    }
    const left = at - got;
    if (left > 0) h.set(price, left);
    else {
      h.delete(price);
      hi.delete(price);
    }
    return got;
  }

  /** The book account's level at `price` cancelled (its one order trimmed to 0); false when refused. */
  private cancel(ids: LevelMap, price: number): boolean {
    const id = ids.get(price)!;
    ids.delete(price);
    try {
      this.m.desk.trim(id, 0);
      this.m.stats.cancelled++;
      return true;
    } catch (err) {
      this.refused(err);
      return false;
    }
  }

  /** A GTC order of the book account, counted as the general pass counts it; false when refused. */
  private place(side: 1 | 2, price: number, lots: number, expireOwn: boolean): boolean {
    const m = this.m;
    m.own = true;
    try {
      m.desk.place(side, price, lots, expireOwn);
      m.stats.placed++;
      return true;
    } catch (err) {
      this.refused(err);
      return false;
    } finally {
      m.own = false;
    }
  }

  /** A house command was refused: counted, and the direct path ends (hist may differ from the engine now). */
  private refused(err: unknown): void {
    if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
    this.m.stats.rejected++;
    this.on = false;
  }
}
