// The house market maker of one symbol: `levels` resting GTC limit orders per side around a
// fair price, sent through the bot-order path (no margin, not stored, need_cache false).
//
// Quotes sit on a grid of `spacing` ticks: best bid = floor(fair x (1 - h) / spacing) x spacing,
// best ask = ceil(fair x (1 + h) / spacing) x spacing, then every `spacing` ticks outwards. A top
// moves only when it leaves a dead band around that ideal (-1.6 .. +0.4 steps), so index noise
// and small moves leave the grid where it is, and a refresh is a diff: orders off the
// wanted grid (or eaten down below 30 % of their size) are cancelled, missing levels are placed,
// everything else keeps its queue position. Cancels go first, so a new order never meets one of
// the maker's own (which self-trade prevention would expire).
// Inventory: fills are found by comparing each own order's remaining quantity with the book
// (only when the book's update id moved). The fair price is skewed against the inventory by up to
// one half-spread and the side that would grow it is quoted smaller; beyond 3x the inventory
// limit half of it is laid off elsewhere (a hedge on other venues: a bookkeeping step only).
// Deeper levels hold more (weights 1 + 0.4 i), each size randomised +-30 %.
// Orders the exchange rejects (price band right after a jump, a paused pair) are counted and
// retried on the next refresh (after a growing pause when every order of a refresh failed); they
// never throw out of here.
import { ApiError } from '../../../src-shared/errors.ts';
import { Side } from '../../../src-shared/enums.ts';
import type { Exchange } from '../../trading/exchange.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { PairLimits } from './order-sizing.ts';
import type { Rng } from './rng.ts';
import { placeHouseLimit, type Party } from './house-orders.ts';

interface Quote {
  id: number;
  price: number;
  target: number;
  rem: number;
}

export interface MakerStats {
  placed: number;
  cancelled: number;
  rejected: number;
  filledLots: number;
  hedges: number;
}

const TOP_UP_BELOW = 0.3;
const SKEW = 1;
const HEDGE_AT = 3;
/** Dead band of a quote's top, in grid steps: kept while ideal - 1.6 < top <= ideal + 0.4 (bids). */
const DEAD_BELOW = 1.6;
const DEAD_ABOVE = 0.4;

export class MarketMaker {
  /** Net position in lots (long > 0), from the maker's fills. */
  inventory = 0;
  readonly stats: MakerStats = { placed: 0, cancelled: 0, rejected: 0, filledLots: 0, hedges: 0 };
  private bids: Quote[] = [];
  private asks: Quote[] = [];
  private seenUpdateId = -1;
  private lastBidTop = 0;
  private lastAskTop = 0;
  private lastSpacing = 0;
  private dirty = true;
  private cooldown = 0;
  private rejectStreak = 0;
  private readonly party: Party;
  private readonly ex: Exchange;
  private readonly pair: PairState;
  private readonly limits: PairLimits;
  private readonly rng: Rng;
  private readonly account: number;
  private readonly levels: number;
  private readonly depthNotional: number;
  private readonly weights: number[];
  private readonly weightSum: number;

  /** levels: price levels a side; depthNotional: USDT shown on each side. */
  constructor(party: Party, levels: number, depthNotional: number) {
    this.party = party;
    this.ex = party.ex;
    this.pair = party.pair;
    this.limits = party.limits;
    this.rng = party.rng;
    this.account = party.account;
    this.levels = levels;
    this.depthNotional = depthNotional;
    this.weights = Array.from({ length: levels }, (_, i) => 1 + 0.4 * i);
    this.weightSum = this.weights.reduce((a, b) => a + b, 0);
  }

  /** Ids of the maker's resting orders, bids then asks, best first. */
  orderIds(): number[] {
    return [...this.bids.map((q) => q.id), ...this.asks.map((q) => q.id)];
  }

  /** Inventory limit in lots at `price`: half of one side's depth. */
  inventoryLimit(price: number): number {
    return Math.max(1, (0.5 * this.depthNotional) / (price * this.limits.lot));
  }

  /** Books the fills of resting orders since the last look (only when the book changed). */
  sync(): void {
    const book = this.pair.book;
    if (book.updateId === this.seenUpdateId) return;
    this.syncSide(this.bids, 1);
    this.syncSide(this.asks, -1);
    this.seenUpdateId = book.updateId;
  }

  private syncSide(list: Quote[], sign: number): void {
    const book = this.pair.book;
    let w = 0;
    for (let i = 0; i < list.length; i++) {
      const q = list[i];
      const v = book.getOrder(q.id);
      const rem = v === null ? 0 : v.remainingLots;
      if (rem < q.rem) {
        this.book(sign * (q.rem - rem));
        q.rem = rem;
        this.dirty = true;
      }
      if (rem > 0) list[w++] = q;
    }
    list.length = w;
  }

  private book(lots: number): void {
    this.inventory += lots;
    this.stats.filledLots += Math.abs(lots);
  }

  /**
   * Brings the quotes to the grid for `fair` (USDT), half-spread `h` (fraction of price) and
   * `spacing` (ticks, >= 1).
   */
  quote(fair: number, h: number, spacing: number): void {
    this.sync();
    if (this.cooldown > 0) {
      this.cooldown--;
      return;
    }
    const tick = this.limits.tick;
    const limit = this.inventoryLimit(fair);
    if (Math.abs(this.inventory) > HEDGE_AT * limit) {
      this.inventory = Math.trunc(this.inventory / 2);
      this.stats.hedges++;
    }
    const u = Math.max(-1, Math.min(1, this.inventory / limit));
    const fm = fair * (1 - SKEW * u * h);
    const x = (fm * (1 - h)) / tick;
    const y = (fm * (1 + h)) / tick;
    // a top that is still near its ideal stays (dead band), so index noise does not churn quotes
    let bidTop =
      spacing === this.lastSpacing &&
      this.lastBidTop > x - DEAD_BELOW * spacing &&
      this.lastBidTop <= x + DEAD_ABOVE * spacing
        ? this.lastBidTop
        : Math.floor(x / spacing) * spacing;
    let askTop =
      spacing === this.lastSpacing &&
      this.lastAskTop < y + DEAD_BELOW * spacing &&
      this.lastAskTop >= y - DEAD_ABOVE * spacing
        ? this.lastAskTop
        : Math.ceil(y / spacing) * spacing;
    if (bidTop < spacing) bidTop = spacing;
    if (askTop <= bidTop) askTop = bidTop + spacing;
    if (!this.dirty && bidTop === this.lastBidTop && askTop === this.lastAskTop && spacing === this.lastSpacing) return;
    this.lastBidTop = bidTop;
    this.lastAskTop = askTop;
    this.lastSpacing = spacing;
    this.dirty = false;

    // cancels first (both sides), then the missing levels best first
    const wantBid = (p: number) => p <= bidTop && (bidTop - p) % spacing === 0 && (bidTop - p) / spacing < this.levels;
    const wantAsk = (p: number) => p >= askTop && (p - askTop) % spacing === 0 && (p - askTop) / spacing < this.levels;
    this.prune(this.bids, wantBid);
    this.prune(this.asks, wantAsk);
    const bidScale = 1 - 0.5 * Math.max(0, u);
    const askScale = 1 - 0.5 * Math.max(0, -u);
    const placed = this.stats.placed;
    const rejected = this.stats.rejected;
    for (let i = 0; i < this.levels; i++) {
      const p = bidTop - i * spacing;
      if (p < 1) break;
      if (!this.bids.some((q) => q.price === p)) this.place(1, p, i, bidScale);
    }
    for (let i = 0; i < this.levels; i++) {
      const p = askTop + i * spacing;
      if (p > 2_000_000_000) break;
      if (!this.asks.some((q) => q.price === p)) this.place(2, p, i, askScale);
    }
    // an exchange that refuses everything (a paused pair, a failed store) is retried after
    // 2, 4, ... 256 refreshes instead of paying for a storm of rejections every step
    if (this.stats.placed === placed && this.stats.rejected > rejected) {
      this.rejectStreak = Math.min(this.rejectStreak + 1, 8);
      this.cooldown = 2 ** this.rejectStreak;
    } else {
      this.rejectStreak = 0;
    }
    this.seenUpdateId = this.pair.book.updateId;
  }

  private prune(list: Quote[], want: (p: number) => boolean): void {
    let w = 0;
    for (let i = 0; i < list.length; i++) {
      const q = list[i];
      if (want(q.price) && q.rem >= TOP_UP_BELOW * q.target) {
        list[w++] = q;
      } else {
        this.cancel(q);
      }
    }
    list.length = w;
  }

  private cancel(q: Quote): void {
    const book = this.pair.book;
    const v = book.getOrder(q.id);
    if (v === null) return;
    // fills since the last sync are booked before the order goes
    if (v.remainingLots < q.rem) this.book((v.side === Side.BUY ? 1 : -1) * (q.rem - v.remainingLots));
    try {
      this.ex.execute({ kind: 'cancelBot', symbol: this.pair.row.symbol, orderId: q.id });
      this.stats.cancelled++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
    }
  }

  private place(side: 1 | 2, price: number, level: number, scale: number): void {
    const notional = ((this.depthNotional * this.weights[level]) / this.weightSum) * scale * this.rng.between(0.7, 1.3);
    const lots = this.limits.lotsFor(notional, price);
    let r;
    try {
      r = placeHouseLimit(this.party, side, price, lots);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // the exchange's refusal is counted; anything else is a bug
      this.stats.rejected++;
      this.dirty = true; // try again on the next refresh
      return;
    }
    this.stats.placed++;
    // it may have met resting orders of others first
    const f = r.filledLots;
    if (f > 0) this.book(side === Side.BUY ? f : -f);
    const rem = lots - f;
    if (rem > 0) (side === 1 ? this.bids : this.asks).push({ id: r.orderId, price, target: lots, rem });
  }

  /** Cancels every resting order of the maker. */
  cancelAll(): void {
    this.sync();
    for (const q of this.bids) this.cancel(q);
    for (const q of this.asks) this.cancel(q);
    this.bids = [];
    this.asks = [];
    this.dirty = true;
    this.seenUpdateId = this.pair.book.updateId;
  }

  /** Lots the maker shows on a side (1 bids, 2 asks), from its own records. */
  shownLots(side: 1 | 2): number {
    let n = 0;
    for (const q of side === 1 ? this.bids : this.asks) n += q.rem;
    return n;
  }
}
