// The last trades of every pair, kept in memory for `GET /fapi/v1/trades` (a screen opening a
// pair, a bot starting up) and the Binance facade's trades / aggTrades (up to 1000 a request, as
// Binance). A fixed ring per pair: O(1) per trade, bounded memory.
import type { EventBus, TradeEvent } from '../trading/events.ts';

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

  constructor(events: EventBus) {
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

  close(): void {
    this.off();
  }
}
