// The house desk's trades and the mirror's listener: the trades the desk books itself (a print, a
// front take, the house's trades kept as numbers) reach every 'trade' listener but the one it was
// given as `unheard`, which counts them from `booked`; every other trade (a user's order met)
// reaches all listeners. The replay's mirror counts its own trades so (BookMirror.ownTrades).
import { openLimit, upsertAccount } from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import type { TradeEvent } from '../../src-main/trading/events.ts';
import { paperVenues } from '../trading/venues.ts';

const UNIT = 100_000_000n;
const venue = paperVenues(() => 1_700_000_000_000);

describe('house desk: trades it books itself', () => {
  it('reach every listener but the unheard one, which reads them from booked', () => {
    const ex = venue().exchange;
    const pair = ex.pair('BTCUSDT')!;
    const all: number[] = [];
    const unheardSeen: number[] = [];
    const unheard = (e: TradeEvent): void => void unheardSeen.push(e.tradeId);
    ex.events.on('trade', (e) => all.push(e.tradeId));
    ex.events.on('trade', unheard);
    const desk = ex.houseDesk('BTCUSDT', { book: HOUSE_ACCOUNT + 11, taker: HOUSE_ACCOUNT + 12 });
    desk.unheard = unheard;
    const P = pair.math.ticksRound(pair.markPrice);
    desk.place(2, P, 10, false);
    const front = desk.orderId;
    desk.takeFront(1, P, 4, front); // booked by the desk
    desk.take(1, P, 3); // the house's trades kept as numbers: booked by the desk
    desk.print(2, P + 1, 5, 6, true); // a side change: booked by the desk
    expect(all.length).toBe(3);
    expect(unheardSeen).toEqual([]);
    expect(desk.booked).toBe(3);
    // a user's order (the best bid, ahead of the print's level) met by the house taker: the
    // engine's events, heard by every listener
    const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
    openLimit(ex, user, { side: 1, price: pair.math.formatPrice(P + 2), qty: '0.002' });
    desk.take(2, P + 2, 2);
    expect(all.length).toBe(4);
    expect(unheardSeen).toEqual([all[3]]);
    expect(desk.booked).toBe(3);
  });
});
