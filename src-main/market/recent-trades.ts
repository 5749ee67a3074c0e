// The last trades of every pair, kept in memory for `GET /fapi/v1/trades` (a screen opening a
// pair, a bot starting up) and the Binance facade's trades / aggTrades (up to 1000 a request, as
// Binance). A fixed ring per pair: O(1) per trade, bounded memory.
import type { EventBus, TradeEvent } from '../trading/events.ts';

export const RECENT_TRADES_KEPT = 1000;

class Ring {
  private readonly items: TradeEvent[] = [];
  private next = 0;

  push(e: TradeEvent): void {
    if (this.items.length < RECENT_TRADES_KEPT) this.items.push(e);
    else this.items[this.next] = e;
    this.next = this.next + 1 === RECENT_TRADES_KEPT ? 0 : this.next + 1;
  }

  /** Newest first, at most `limit`. */
  newest(limit: number): TradeEvent[] {
    const out: TradeEvent[] = [];
    const n = this.items.length;
    for (let i = 1; i <= Math.min(limit, n); i++) out.push(this.items[(this.next - i + n * 2) % n]);
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
      if (r === undefined) this.rings.set(e.symbol, (r = new Ring()));
      this.lastSymbol = e.symbol;
      this.lastRing = r;
      // kept as emitted: the exchange emits a new object a trade (trading/fills.ts) and no
      // listener changes it (TradeEvent is read-only)
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
