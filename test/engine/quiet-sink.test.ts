// RecordingSink.quiet: the accounts whose orders' lifecycle is not recorded (a replay's historical
// book and prints, which nobody tracks). Their trades, level changes and rejections still are,
// and every other account's events are as before.
import { describe, expect, it } from 'vitest';
import { createBook, RecordingSink, type EngineEvent } from '../../src-main/engine/index.ts';

const QUIET = 2 ** 40 + 11;
const USER = 7;

/** The same commands on a book whose sink keeps QUIET quiet, or not. */
function run(quiet: boolean): EngineEvent[] {
  const sink = new RecordingSink();
  if (quiet) sink.quiet = new Set([QUIET]);
  const book = createBook({ symbol: 'T', bandPpm: 0 }, sink);
  book.placeLimit(1, QUIET, 2, 100, 10, 1); // a quiet ask
  book.placeLimit(2, USER, 2, 100, 5, 1); // a user's ask behind it
  book.placeLimit(3, QUIET, 1, 100, 12, 2); // a quiet IOC buy: takes 10 quiet + 2 of the user's
  book.amend(2, 100, 4); // the user's order amended (3 left -> 2)
  book.placeLimit(4, QUIET, 2, 101, 8, 1);
  book.amend(4, 101, 9); // a quiet order grown
  book.trimOrder(4, 0); // and cancelled
  book.placeLimit(4, QUIET, 2, 101, 8, 1); // id 4 again (the cancelled one's id is free)
  book.placeLimit(4, QUIET, 2, 101, 8, 1); // now a live duplicate: rejected
  book.placeLimit(5, USER, 1, 101, 20, 2); // a user's IOC buy through both asks (its own included: self-trade prevention applies)
  return sink.take();
}

describe('RecordingSink.quiet', () => {
  it("drops the quiet accounts' lifecycle events and nothing else", () => {
    const all = run(false);
    const quiet = run(true);
    const lifecycle = new Set(['accepted', 'partiallyFilled', 'filled', 'amended', 'cancelled', 'expired']);
    // what the quiet sink records is exactly the full record without the quiet accounts' lifecycle events
    const expected = all.filter((e) => !(lifecycle.has(e.type) && 'account' in e && e.account === QUIET));
    expect(quiet).toEqual(expected);
    // and that is a real difference, with trades, levels, a rejection and the user's events kept
    expect(quiet.length).toBeLessThan(all.length);
    expect(quiet.some((e) => e.type === 'trade' && e.makerAccount === QUIET)).toBe(true);
    expect(quiet.some((e) => e.type === 'level')).toBe(true);
    expect(quiet.some((e) => e.type === 'rejected' && e.account === QUIET)).toBe(true);
    const users = (list: EngineEvent[]): EngineEvent[] => list.filter((e) => 'account' in e && e.account === USER);
    expect(users(quiet).length).toBeGreaterThan(2);
    expect(users(quiet)).toEqual(users(all));
    expect(
      quiet.some((e) => e.type !== 'rejected' && lifecycle.has(e.type) && 'account' in e && e.account === QUIET),
    ).toBe(false);
  });

  it('follows its set: an account added later is quiet from then on, a new set replaces the old', () => {
    const sink = new RecordingSink();
    const reserved = new Set<number>();
    sink.quiet = reserved;
    const book = createBook({ symbol: 'T', bandPpm: 0 }, sink);
    const accepted = (): number[] =>
      sink
        .take()
        .filter((e) => e.type === 'accepted')
        .map((e) => e.orderId);
    book.placeLimit(1, QUIET, 2, 100, 10, 1);
    expect(accepted()).toEqual([1]);
    reserved.add(QUIET); // the exchange reserves accounts as replays open
    book.placeLimit(2, QUIET, 2, 101, 10, 1);
    book.placeLimit(3, QUIET + 1, 2, 102, 10, 1);
    book.placeLimit(4, QUIET, 2, 103, 10, 1);
    expect(accepted()).toEqual([3]);
    sink.quiet = new Set([QUIET + 1]); // a new set: QUIET is recorded again
    book.placeLimit(5, QUIET, 2, 104, 10, 1);
    book.placeLimit(6, QUIET + 1, 2, 105, 10, 1);
    expect(accepted()).toEqual([5]);
  });
});
