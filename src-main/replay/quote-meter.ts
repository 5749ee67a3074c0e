// The quote of a book mirror's own trades (book-mirror.ts: the trades its commands make, the
// desk's own bookings included), each at the price it was booked at, as the venue's candles book
// it: a klines replay brings its candles' quote volumes to the source's from it (symbol-replay.ts
// pathPrint; a user's order resting better than a print fills at its own price, not the print's).
import { Side } from '../../src-shared/enums.ts';
import type { Exchange } from '../trading/exchange.ts';
import type { BookMirror } from './book-mirror.ts';

export class QuoteMeter {
  /** Price ticks x lots of the mirror's own trades since the meter began. */
  quote = 0n;
  /** The same of those with a buying taker. */
  buyQuote = 0n;
  /** Stops counting (the replay is closed). */
  readonly dispose: () => void;

  constructor(ex: Exchange, mirror: Pick<BookMirror, 'own' | 'placing' | 'pair'>) {
    const symbol = mirror.pair.row.symbol;
    // every 'trade' listener hears the desk's own bookings but the mirror's (HouseDesk.unheard)
    this.dispose = ex.events.on('trade', (e) => {
      // a user's order a placement crossed is no print's: it counts as a trade of the user's own
      if (!mirror.own || mirror.placing || e.symbol !== symbol) return;
      const q = BigInt(e.priceTicks) * BigInt(e.qtyLots);
      this.quote += q;
      if (e.takerSide === Side.BUY) this.buyQuote += q;
    });
  }
}
