// The `price@` push of one symbol (docs/api.md "WebSocket"): each wall second from the hub's tick,
// and from the flush before a REPLAY answer once a market second, so a lockstep bot sees the mark
// its steps reach (docs/replay.md, Bots and determinism) whatever the machine's speed.
import type { SymbolFeed } from './conn.ts';
import type { FanOut } from './fan-out.ts';
import { pricePayload } from './payloads.ts';

/** Market ms between two price@ pushes of a REPLAY answer's flush. */
const STEP_PRICE_MS = 1000;

/** Pushes the symbol's price record stamped E (market time) to its price@ subscribers, if any. */
export function pushPrice(out: FanOut, f: SymbolFeed, E: number): void {
  if (f.price === null) return;
  f.priceAt = E;
  out.broadcast(f.price, out.serialise(f.price.name, pricePayload(f.pair, E)));
}

/** A REPLAY answer's flush pushes price@ when a market second has passed since its last push. */
export function priceDueAt(f: SymbolFeed, E: number): boolean {
  return f.price !== null && E - f.priceAt >= STEP_PRICE_MS;
}
