// A day of BTCUSDT trades at chosen market times, for the 24 h ticker's tests (the route's and the
// screen's): four trades of 0.010 between two engine accounts, the answer asked at 10:07:30, a
// time that is not a 15-minute boundary. Worked figures (the 1-minute candles opened from 10:07:30
// yesterday on; the first, 10:08, has no trade and opens at the price then, the 10:05 trade's):
// open 96000.0, high 96500.0, low 95900.0, last 96500.0, change 500.0 (0.521 %), volume 0.030 of
// three trades. A rebuild from the last 96 15-minute candles starts at 10:15 yesterday instead:
// open 95900.0 (the 10:16 trade), change 600.0.
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import type { LocalVenue } from '../../src-main/venue.ts';
import { openingLimit, placeBotOrder } from './exchange-commands.ts';

const MIN = 60_000;
const YESTERDAY = Date.parse('2025-03-04T10:00:00Z');
const TODAY = YESTERDAY + 86_400_000;

export const TICKER_DAY = { start: YESTERDAY + 5 * MIN };

export interface TickerDay {
  /** The market time the ticker is asked at. */
  now: number;
  /** Open time of the window's first 1-minute candle (10:08 yesterday). */
  windowOpen: number;
}

/** One trade of 0.010 at `price` (text, 0.1 tick) at the clock's time: a resting sell taken by a buy. */
function trade(venue: LocalVenue, price: string): void {
  const order = (side: 1 | 2, tif: number) => ({ ...openingLimit(side, price, '0.010'), time_in_force: tif });
  placeBotOrder(venue.exchange, order(2, 1), HOUSE_ACCOUNT);
  const taken = placeBotOrder(venue.exchange, order(1, 2), HOUSE_ACCOUNT + 1);
  if (taken.filled_qty !== '0.010') throw new Error(`the trade at ${price} did not fill: ${JSON.stringify(taken)}`);
}

/** Runs the day on a venue whose wall clock reads `clock.now` (started at TICKER_DAY.start); leaves the clock at the answer's time. */
export function cross24h(venue: LocalVenue, clock: { now: number }): TickerDay {
  const at = (t: number, price: string) => {
    clock.now = t;
    trade(venue, price);
  };
  at(YESTERDAY + 5 * MIN, '96000.0'); // before the window: its price opens the window
  at(YESTERDAY + 10 * MIN, '96100.0');
  at(YESTERDAY + 16 * MIN, '95900.0');
  at(TODAY - 60 * MIN, '96500.0');
  clock.now = TODAY + 7 * MIN + 30_000;
  venue.klines.advanceTo(clock.now);
  return { now: clock.now, windowOpen: YESTERDAY + 8 * MIN };
}
