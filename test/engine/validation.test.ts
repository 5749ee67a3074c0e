// Input validation: the engine's placeLimit/placeMarket decide the common case (int32 values, no
// options) with a short check and send everything else through the full chain. Both paths must
// give exactly what the reference book (which has one plain chain) gives, for every edge value in
// every position: accepted or the same rejection reason, never a throw.

import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src-main/engine/order-book.ts';
import { RecordingSink } from '../../src-main/engine/recording-sink.ts';
import type { EngineEvent } from '../../src-main/engine/recording-sink.ts';
import type { LimitOrder, MarketOrder } from '../../src-main/engine/commands.ts';
import { ReferenceBook } from '../../src-main/engine/reference-book.ts';

const CONFIG = { bandPpm: 50_000 };

/** Values that sit on every boundary of the checks: int32 limits, safe-integer limits, non-integers, non-numbers. */
const EDGE: unknown[] = [
  0,
  -0,
  1,
  2,
  3,
  4,
  5,
  -1,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 + 7,
  2 ** 44,
  2 ** 44 + 1,
  Number.MAX_SAFE_INTEGER,
  2 ** 60,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '7',
  null,
  undefined,
  true,
  // never coerced: `| 0` on these would throw (and leave the book refusing every later command)
  1n,
  Symbol('x'),
  {
    valueOf(): number {
      throw new Error('valueOf called');
    },
  },
];

type Args = unknown[];

function books(): { ours: OrderBook; ref: ReferenceBook; oursSink: RecordingSink; refSink: RecordingSink } {
  const oursSink = new RecordingSink();
  const refSink = new RecordingSink();
  const ours = new OrderBook(CONFIG, oursSink);
  const ref = new ReferenceBook(CONFIG, refSink);
  // One resting order (id 1) so that duplicate ids and crossing are in play.
  ours.placeLimit(1, 9, 2, 1000, 5, 1);
  ref.placeLimit({ orderId: 1, account: 9, side: 2, priceTicks: 1000, qtyLots: 5, tif: 1 });
  oursSink.take();
  refSink.take();
  return { ours, ref, oursSink, refSink };
}

const LIMIT_FIELDS = ['orderId', 'account', 'side', 'priceTicks', 'qtyLots', 'tif', 'flags', 'maxFillLots', 'stp'];
const MARKET_FIELDS = ['orderId', 'account', 'side', 'qtyLots', 'refPriceTicks', 'flags', 'maxFillLots', 'stp'];

/** The engine takes the arguments as they are; the reference book the same values by name (undefined: its default). */
function call(book: OrderBook | ReferenceBook, kind: 'limit' | 'market', args: Args): void {
  if (book instanceof ReferenceBook) {
    const names = kind === 'limit' ? LIMIT_FIELDS : MARKET_FIELDS;
    const order = Object.fromEntries(names.map((name, i) => [name, args[i]]));
    if (kind === 'limit') book.placeLimit(order as unknown as LimitOrder);
    else book.placeMarket(order as unknown as MarketOrder);
    return;
  }
  const f = (kind === 'limit' ? book.placeLimit : book.placeMarket) as (...a: unknown[]) => void;
  f.apply(book, args);
}

/** Every variant of the base arguments with one position replaced by one edge value. */
function variants(base: Args, positions: number): Args[] {
  const out: Args[] = [];
  for (let p = 0; p < positions; p++) {
    for (const v of EDGE) {
      const a = [...base];
      a[p] = v;
      out.push(a);
    }
  }
  return out;
}

function compare(kind: 'limit' | 'market', base: Args, positions: number): { accepted: number; rejected: number } {
  let accepted = 0;
  let rejected = 0;
  for (const args of variants(base, positions)) {
    const { ours, ref, oursSink, refSink } = books();
    const label = `${kind}(${args.map((x) => (typeof x === 'object' && x !== null ? 'object' : String(x))).join(', ')})`;
    expect(() => call(ours, kind, args), `${label} threw`).not.toThrow();
    call(ref, kind, args);
    const a: EngineEvent[] = oursSink.take();
    const b: EngineEvent[] = refSink.take();
    expect(a, label).toEqual(b);
    if (a[0]?.type === 'accepted') accepted++;
    else rejected++;
    expect(ours.audit()).toEqual([]);
    // the book still takes commands after any input
    ours.placeLimit(999, 5, 1, 10, 1, 1);
    expect(oursSink.take()[0]).toMatchObject({ type: 'accepted', orderId: 999 });
  }
  return { accepted, rejected };
}

describe('engine input validation (fast path and full chain agree with the reference book)', () => {
  it('placeLimit: every edge value in every position, resting and crossing', () => {
    // orderId, account, side, price, qty, tif, flags, maxFillLots, stp
    const resting = compare('limit', [2, 3, 1, 900, 4, 1, 0, -1, 0], 9);
    const crossing = compare('limit', [2, 3, 1, 1000, 4, 1, 0, -1, 0], 9);
    // Both outcomes occur, including acceptances that only the full chain can grant (ids and
    // quantities beyond int32).
    expect(resting.accepted).toBeGreaterThan(20);
    expect(resting.rejected).toBeGreaterThan(100);
    expect(crossing.accepted).toBeGreaterThan(20);
  });

  it('placeMarket: every edge value in every position', () => {
    // orderId, account, side, qty, refPrice, flags, maxFillLots, stp
    const r = compare('market', [2, 3, 1, 4, 1000, 0, -1, 0], 8);
    expect(r.accepted).toBeGreaterThan(20);
    expect(r.rejected).toBeGreaterThan(100);
  });

  it('accepts ids, accounts and quantities beyond int32 (the full chain, not the fast path)', () => {
    const sink = new RecordingSink();
    const book = new OrderBook(CONFIG, sink);
    book.placeLimit(2 ** 40, 2 ** 33, 1, 900, 2 ** 40, 1);
    book.placeMarket(2 ** 41, 2 ** 34, 2, 2 ** 39, 900);
    const ev = sink.take();
    expect(ev[0]).toMatchObject({ type: 'accepted', orderId: 2 ** 40, account: 2 ** 33, qtyLots: 2 ** 40 });
    expect(ev.find((e) => e.type === 'trade')).toMatchObject({ makerId: 2 ** 40, takerId: 2 ** 41, qtyLots: 2 ** 39 });
    expect(book.getOrder(2 ** 40)?.remainingLots).toBe(2 ** 40 - 2 ** 39);
    expect(book.audit()).toEqual([]);
  });
});
