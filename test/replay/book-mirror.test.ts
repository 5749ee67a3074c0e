// The book mirror's level reads between prints: after a print the mirror updates what it read of
// the level in place and reads the level again only once the engine book's update id has moved
// (docs/replay.md "Speed"). Checked on a paper venue against the engine itself: a user's order
// that joins the level between two prints is seen (the next print meets it, nothing is refused),
// and a level of several house orders that a print takes front to back is what the next prints
// find (the growth goes to the level's last order, the front print to its first).
import { cancelOrder, openLimit, upsertAccount } from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { BookMirror } from '../../src-main/replay/book-mirror.ts';
import { PessimisticQueue } from '../../src-main/replay/models/pessimistic-queue.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { paperVenues } from '../trading/venues.ts';

const UNIT = 100_000_000n;
const venue = paperVenues(() => 1_700_000_000_000);
const BOOK = HOUSE_ACCOUNT + 21;
const TAKER = HOUSE_ACCOUNT + 22;

function rig() {
  const ex = venue().exchange;
  const pair = ex.pair('BTCUSDT')!;
  const mirror = new BookMirror(ex, pair, BOOK, TAKER, new PessimisticQueue());
  const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
  const P = pair.math.ticksRound(pair.markPrice);
  /** The ask level at P as [account is the book's ? 'H' : 'U', lots] in queue order. */
  const queue = (): string[] => {
    const ids: number[] = [];
    const accts: number[] = [];
    const rem: number[] = [];
    const n = pair.book.levelQueue(2, P, ids, accts, rem);
    return Array.from({ length: n }, (_, i) => `${accts[i] === BOOK ? 'H' : 'U'}${rem[i]}`);
  };
  const userAsk = (lots: number): number =>
    Number(openLimit(ex, user, { side: 2, price: pair.math.formatPrice(P), qty: pair.math.formatQty(lots) }).order_id);
  return { ex, pair, mirror, user, P, queue, userAsk };
}

describe('book mirror: the level read between prints', () => {
  it('a user order that joins the level after a print is met by the next one', () => {
    const { mirror, P, queue, userAsk } = rig();
    mirror.setLevel(2, P, 100);
    expect(mirror.trade(1, P, 10)).toBe(10);
    expect(queue()).toEqual(['H90']);
    userAsk(50);
    expect(queue()).toEqual(['H90', 'U50']);
    // 95 at P: the house's 90 are not enough, a house order of 5 joins behind the user's; the
    // taker takes the house's 90 and 5 of the user's
    expect(mirror.trade(1, P, 95)).toBe(95);
    expect(queue()).toEqual(['U45', 'H5']);
    expect(mirror.hist[1].get(P)).toBe(5);
    expect(mirror.houseLots(2, P)).toBe(5);
    expect(mirror.usersTraded).toBe(true);
    expect(mirror.stats.rejected).toBe(0);
  });

  it('several house orders taken front to back: the next prints find the level as the engine holds it', () => {
    const { mirror, P, queue, userAsk, ex, user } = rig();
    mirror.setLevel(2, P, 100);
    const id = userAsk(50);
    mirror.setLevel(2, P, 150); // behind the user's order: a second house order
    cancelOrder(ex, user, { symbol: 'BTCUSDT', orderId: id });
    expect(queue()).toEqual(['H100', 'H50']);
    expect(mirror.trade(1, P, 120)).toBe(120); // the first order and 20 of the second
    expect(queue()).toEqual(['H30']);
    expect(mirror.trade(1, P, 10)).toBe(10); // the front order covers it
    expect(queue()).toEqual(['H20']);
    // 40 at P, keeping 25: the level's last (and only) order grows to 65, then the print
    expect(mirror.trade(1, P, 40, 25)).toBe(40);
    expect(queue()).toEqual(['H25']);
    expect(mirror.hist[1].get(P)).toBe(25);
    expect(mirror.stats).toMatchObject({ placed: 2, grown: 1, rejected: 0, takers: 3 });
    expect(mirror.usersTraded).toBe(false);
  });
});
