// RecordingSink.columns: trades between two quiet accounts, while nothing else is recorded, kept
// as numbers instead of event objects (a replay's house prints). What take() and `events` read is
// the same list, in the same order, as with columns off, whatever else the commands record (a
// user's order met, level changes, rejections); only a run of quiet trades alone stays numbers.
import { describe, expect, it } from 'vitest';
import { createBook, RecordingSink, type EngineEvent } from '../../src-main/engine/index.ts';

const BOOK = 2 ** 29 + 11;
const TAKER = 2 ** 29 + 12;
const USER = 7;

type Step = (book: ReturnType<typeof createBook>) => void;

/** Commands, each with columns on or off; per command what take() gives and the numbers kept before it. */
function run(steps: Step[], columns: boolean, levels: boolean): { events: EngineEvent[][]; kept: number[] } {
  const sink = new RecordingSink();
  sink.quiet = new Set([BOOK, TAKER]);
  sink.levels = levels;
  const book = createBook({ symbol: 'T', bandPpm: 0 }, sink);
  const events: EngineEvent[][] = [];
  const kept: number[] = [];
  for (const step of steps) {
    sink.columns = columns;
    step(book);
    sink.columns = false;
    kept.push(sink.colTrades);
    events.push(sink.take());
    expect(sink.colTrades).toBe(0);
  }
  return { events, kept };
}

const steps: Step[] = [
  (b) => b.placeLimit(1, BOOK, 2, 100, 10, 1),
  (b) => b.placeLimit(2, BOOK, 2, 100, 5, 1),
  (b) => b.placeLimit(3, BOOK, 2, 101, 8, 1),
  (b) => b.placeLimit(4, TAKER, 1, 100, 12, 2), // two quiet trades and nothing else
  (b) => b.placeLimit(5, USER, 2, 101, 4, 1), // a user's ask behind the house's at 101
  (b) => b.placeLimit(6, BOOK, 2, 101, 3, 1), // and the house's again behind it
  (b) => b.placeLimit(7, TAKER, 1, 101, 20, 2), // quiet, the user's, quiet: order kept across the spill
  (b) => b.placeLimit(8, BOOK, 2, 102, 6, 1),
  (b) => b.placeLimit(9, BOOK, 2, 102, 6, 1),
  (b) => b.placeLimit(9, TAKER, 1, 102, 1, 2), // a duplicate id: a rejection
  (b) => b.placeLimit(10, TAKER, 1, 102, 7, 2), // two quiet trades again
  (b) => b.placeLimit(11, USER, 1, 102, 5, 2), // a user's taker: objects as always
];

describe('RecordingSink.columns', () => {
  for (const levels of [false, true]) {
    it(`reads the same events as without columns (level changes ${levels ? 'recorded' : 'off'})`, () => {
      const off = run(steps, false, levels);
      const on = run(steps, true, levels);
      expect(on.events).toEqual(off.events);
      expect(off.kept.every((n) => n === 0)).toBe(true);
      // the trades recorded alone were kept as numbers: the two quiet-only takers without level events
      expect(on.kept).toEqual(levels ? steps.map(() => 0) : [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0]);
      const trades = off.events.flat().filter((e) => e.type === 'trade');
      expect(trades.some((e) => e.type === 'trade' && e.makerAccount === USER)).toBe(true);
    });
  }

  it('keeps a run of quiet trades as numbers, in the order matched, with events left empty', () => {
    const sink = new RecordingSink();
    sink.quiet = new Set([BOOK, TAKER]);
    sink.levels = false;
    const book = createBook({ symbol: 'T', bandPpm: 0 }, sink);
    for (let i = 0; i < 20; i++) book.placeLimit(1 + i, BOOK, 2, 100 + (i % 3), 1 + i, 1);
    sink.columns = true;
    book.placeLimit(100, TAKER, 1, 102, 1_000, 2); // sweeps 20 orders: the columns grow past 16 trades
    sink.columns = false;
    expect(sink.events).toEqual([]);
    expect(sink.colTrades).toBe(20);
    const rows: number[][] = [];
    for (let k = 0; k < sink.colTrades; k++) rows.push([...sink.cols.subarray(k * 7, k * 7 + 7)]);
    // price-time order: the 100s (ids 1, 4, ...), then the 101s, then the 102s
    const ids = [0, 1, 2].flatMap((r) => Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 3 === r));
    expect(rows).toEqual(ids.map((i) => [1 + i, BOOK, 100, TAKER, 100 + (i % 3), 1 + i, 1]));
    // take() turns them into the events a sink without columns records
    const events = sink.take();
    expect(events).toHaveLength(20);
    expect(events[0]).toEqual({
      type: 'trade',
      makerId: 1,
      makerAccount: BOOK,
      takerId: 100,
      takerAccount: TAKER,
      priceTicks: 100,
      qtyLots: 1,
      takerSide: 1,
    });
    expect(sink.colTrades).toBe(0);
  });
});
