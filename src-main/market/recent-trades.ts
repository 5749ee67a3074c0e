// The last trades of every pair, kept in memory for `GET /fapi/v1/trades` (a screen opening a
// pair, a bot starting up) and the Binance facade's trades / aggTrades (up to 1000 a request, as
// Binance). A fixed ring per pair: O(1) per trade, bounded memory. With a TapeStore the rings
// survive a restart: they are loaded when built, and checkpoint() (the venue's market checkpoint,
// once a second, and its clean stop) writes the trades pushed since the last one into their
// slots, so the trade path itself only counts them.
import type { EventBus, TradeEvent } from '../trading/events.ts';
import type { TapeRow, TapeStore } from './ports.ts';

export const RECENT_TRADES_KEPT = 1000;

/**
 * One pair's last trades as columns, not as the emitted objects: a print kept by reference lived
 * until 1,000 later trades overwrote it (a fifth of a second at a busy bot's pace), long enough to
 * be promoted to old space and wait there for a full mark-compact. The columns hold the same
 * numbers exactly (ids, ticks, lots and ms are safe integers) and `newest` builds the few objects
 * a request asks for.
 */
class Ring {
  private readonly tradeId = new Float64Array(RECENT_TRADES_KEPT);
  private readonly priceTicks = new Float64Array(RECENT_TRADES_KEPT);
  private readonly qtyLots = new Float64Array(RECENT_TRADES_KEPT);
  private readonly time = new Float64Array(RECENT_TRADES_KEPT);
  private readonly takerSide = new Uint8Array(RECENT_TRADES_KEPT);
  private readonly symbol: string;
  private count = 0;
  private next = 0;
  /** Trades pushed since the last checkpoint (the newest of them are in the slots before `next`). */
  unsaved = 0;

  constructor(symbol: string) {
    this.symbol = symbol;
  }

  push(e: TradeEvent): void {
    const i = this.next;
    this.tradeId[i] = e.tradeId;
    this.priceTicks[i] = e.priceTicks;
    this.qtyLots[i] = e.qtyLots;
    this.time[i] = e.time;
    this.takerSide[i] = e.takerSide;
    if (this.count < RECENT_TRADES_KEPT) this.count++;
    this.next = i + 1 === RECENT_TRADES_KEPT ? 0 : i + 1;
    this.unsaved++;
  }

  /** Puts a stored trade back into its slot (rows ascending by id: the last one is the newest). */
  restore(r: TapeRow): void {
    const i = r.slot;
    this.tradeId[i] = r.tradeId;
    this.priceTicks[i] = r.priceTicks;
    this.qtyLots[i] = r.qtyLots;
    this.time[i] = r.time;
    this.takerSide[i] = r.takerSide;
    if (this.count < RECENT_TRADES_KEPT) this.count++;
    this.next = i + 1 === RECENT_TRADES_KEPT ? 0 : i + 1;
  }

  /** The trades pushed since the last checkpoint that the ring still holds, as rows of their slots. */
  unsavedRows(out: TapeRow[]): void {
    const n = Math.min(this.unsaved, this.count);
    for (let k = n; k >= 1; k--) {
      const i = (this.next - k + RECENT_TRADES_KEPT) % RECENT_TRADES_KEPT;
      out.push({
        symbol: this.symbol,
        slot: i,
        tradeId: this.tradeId[i],
        priceTicks: this.priceTicks[i],
        qtyLots: this.qtyLots[i],
        takerSide: this.takerSide[i],
        time: this.time[i],
      });
    }
  }

  /** Newest first, at most `limit`. */
  newest(limit: number): TradeEvent[] {
    const out: TradeEvent[] = [];
    const n = Math.min(limit, this.count);
    for (let k = 1; k <= n; k++) {
      const i = (this.next - k + RECENT_TRADES_KEPT) % RECENT_TRADES_KEPT;
      out.push({
        symbol: this.symbol,
        tradeId: this.tradeId[i],
        priceTicks: this.priceTicks[i],
        qtyLots: this.qtyLots[i],
        takerSide: this.takerSide[i],
        time: this.time[i],
      });
    }
    return out;
  }
}

export class RecentTrades {
  private readonly rings = new Map<string, Ring>();
  private readonly off: () => void;
  private lastSymbol = '';
  private lastRing: Ring | undefined = undefined;

  private readonly store: TapeStore | null;

  /** With a store: the rings it holds are loaded now, and checkpoint() writes to it. */
  constructor(events: EventBus, store: TapeStore | null = null) {
    this.store = store;
    if (store !== null) {
      for (const r of store.loadAll()) {
        // a slot outside this build's ring (a ring size changed): the newer trades refill it
        if (r.slot >= RECENT_TRADES_KEPT) continue;
        this.ring(r.symbol).restore(r);
      }
    }
    this.off = events.on('trade', (e) => {
      // runs of one pair's trades: its ring without a look-up
      let r = e.symbol === this.lastSymbol ? this.lastRing : this.rings.get(e.symbol);
      if (r === undefined) this.rings.set(e.symbol, (r = new Ring(e.symbol)));
      this.lastSymbol = e.symbol;
      this.lastRing = r;
      r.push(e);
    });
  }

  newest(symbol: string, limit: number): TradeEvent[] {
    return this.rings.get(symbol)?.newest(limit) ?? [];
  }

  /**
   * Writes the trades pushed since the last checkpoint (at most a ring's worth a pair) to the
   * store; false, having written nothing, while another connection holds the write lock (the next
   * checkpoint writes them; `wait`: waits for it, a clean stop). Not inside another caller's unit, whose rollback would take them along.
   */
  checkpoint(wait = false): boolean {
    const store = this.store;
    if (store === null || store.inUnit) return store === null;
    const rows: TapeRow[] = [];
    for (const r of this.rings.values()) if (r.unsaved > 0) r.unsavedRows(rows);
    if (!store.saveMany(rows, wait)) return false;
    for (const r of this.rings.values()) r.unsaved = 0;
    return true;
  }

  private ring(symbol: string): Ring {
    let r = this.rings.get(symbol);
    if (r === undefined) this.rings.set(symbol, (r = new Ring(symbol)));
    return r;
  }

  close(): void {
    this.off();
  }
}
