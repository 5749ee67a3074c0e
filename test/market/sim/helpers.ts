// Shared setup of the simulator tests: an in-memory venue on an injected wall clock.
import type { TradeEvent } from '../../../src-main/trading/events.ts';
import { openVenue, type LocalVenue as Venue } from '../../../src-main/venue.ts';

export const T0 = Date.UTC(2025, 0, 6, 0, 0, 0); // a Monday, 00:00 UTC (a funding instant)

export interface TestVenue {
  venue: Venue;
  /** Moves the wall clock (and so the market clock, times speed). */
  advanceWall(ms: number): void;
  /** Every trade the exchange announced, in order. */
  trades: TradeEvent[];
  close(): void;
}

export function testVenue(opts: { seed?: number; start?: number; speed?: number } = {}): TestVenue {
  let wall = opts.start ?? T0;
  const venue = openVenue({ dataDir: ':memory:', seed: opts.seed ?? 1, speed: opts.speed, wall: () => wall });
  const trades: TradeEvent[] = [];
  venue.exchange.events.on('trade', (e) => trades.push({ ...e }));
  return {
    venue,
    advanceWall(ms: number) {
      wall += ms;
    },
    trades,
    close: () => venue.close(),
  };
}

export function tradingSymbols(venue: Venue): string[] {
  return [...venue.exchange.pairs.values()].filter((p) => p.row.status === 1).map((p) => p.row.symbol);
}
