// Scenario tests for each accurate-mode rule of spec/api.md (Events), plus a property test:
// any valid delivery of a change stream (split into windows, with duplicates, drops and
// snapshots taken at arbitrary ids) ends with the book equal to the reference book.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LocalOrderBook,
  type BookState,
  type DepthSnapshot,
  type DepthUpdate,
  type PriceLevel,
} from '../../../src-shared/sdk/local-order-book.ts';
import { ManualScheduler } from '../../helpers/manual-scheduler.ts';
import type { DepthSnapshot as RestDepth, DepthSnapshotEvent, DepthUpdateEvent } from '../../../src-shared/types.ts';

interface Deferred {
  resolve: (s: DepthSnapshot) => void;
  reject: (e: unknown) => void;
  settled: boolean;
}

/** A fetchSnapshot whose calls the test answers explicitly. */
function controlledFetch() {
  const calls: Deferred[] = [];
  const fn = (): Promise<DepthSnapshot> =>
    new Promise<DepthSnapshot>((resolve, reject) => {
      const d: Deferred = {
        settled: false,
        resolve: (s) => {
          d.settled = true;
          resolve(s);
        },
        reject: (e) => {
          d.settled = true;
          reject(e);
        },
      };
      calls.push(d);
    });
  return { calls, fn, last: () => calls[calls.length - 1] };
}

/** Lets promise callbacks run (no time passes). */
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

function ev(U: number, u: number, b: PriceLevel[] = [], a: PriceLevel[] = [], pu = U - 1): DepthUpdate {
  return { e: 'depthUpdate', E: 0, s: 'BTCUSDT', U, u, pu, b, a };
}

function snap(id: number, bids: PriceLevel[], asks: PriceLevel[] = []): DepthSnapshot {
  return { id, bids, asks };
}

function setup(opts: Partial<ConstructorParameters<typeof LocalOrderBook>[0]> = {}) {
  const sched = new ManualScheduler();
  const f = controlledFetch();
  const errors: unknown[] = [];
  const book = new LocalOrderBook({
    symbol: 'BTCUSDT',
    fetchSnapshot: f.fn,
    scheduler: sched,
    verifyIdleMs: 0,
    onError: (e) => errors.push(e),
    ...opts,
  });
  const states: BookState[] = [];
  book.onStateChange((s) => states.push(s));
  return { sched, f, book, states, errors };
}

/** Brings a fresh book live at id 9 with bids 101/100/99/98 and asks 102/103. */
async function liveAt9(opts: Partial<ConstructorParameters<typeof LocalOrderBook>[0]> = {}) {
  const t = setup(opts);
  t.book.start();
  t.book.handleDelta(ev(1, 3, [['97', '4']]));
  t.book.handleDelta(
    ev(4, 6, [
      ['100', '2'],
      ['99', '5'],
    ]),
  );
  t.book.handleDelta(ev(7, 9, [['101', '1']], [['102', '3']]));
  t.f.last().resolve(
    snap(
      5,
      [
        ['100', '9'],
        ['98', '1'],
      ],
      [['103', '1']],
    ),
  );
  await flush();
  return t;
}

describe('LocalOrderBook accurate mode', () => {
  it('buffers deltas until the snapshot, drops u <= id, applies from the bracketing event on', async () => {
    const t = setup();
    t.book.start();
    expect(t.f.calls).toHaveLength(1);
    t.book.handleDelta(ev(1, 3, [['97', '4']]));
    t.book.handleDelta(
      ev(4, 6, [
        ['100', '2'],
        ['99', '5'],
      ]),
    );
    t.book.handleDelta(ev(7, 9, [['101', '1']], [['102', '3']]));
    expect(t.book.bids()).toEqual([]);
    expect(t.book.bufferedCount).toBe(3);
    expect(t.book.state).toBe('syncing');

    t.f.last().resolve(
      snap(
        5,
        [
          ['100', '9'],
          ['98', '1'],
        ],
        [['103', '1']],
      ),
    );
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(9);
    // [1-3] discarded (no 97); [4-6] brackets 5+1 although U < 6; [7-9] follows.
    expect(t.book.bids()).toEqual([
      ['101', '1'],
      ['100', '2'],
      ['99', '5'],
      ['98', '1'],
    ]);
    expect(t.book.asks()).toEqual([
      ['102', '3'],
      ['103', '1'],
    ]);
    expect(t.book.bestBid()).toEqual(['101', '1']);
    expect(t.book.bestAsk()).toEqual(['102', '3']);
    expect(t.book.bids(2)).toEqual([
      ['101', '1'],
      ['100', '2'],
    ]);
    expect(t.book.resyncCount).toBe(0);
  });

  it('goes live on a snapshot newer than every buffered event and checks the next one', async () => {
    const t = setup();
    t.book.start();
    t.book.handleDelta(ev(1, 3, [['97', '4']]));
    t.f.last().resolve(snap(10, [['100', '1']]));
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(10);
    expect(t.book.bids()).toEqual([['100', '1']]);
    t.book.handleDelta(ev(11, 12, [['100', '3']]));
    expect(t.book.bids()).toEqual([['100', '3']]);
    expect(t.book.lastUpdateId).toBe(12);
  });

  it('drops stale events while live without touching the book', async () => {
    const t = await liveAt9();
    let updates = 0;
    t.book.onUpdate(() => updates++);
    t.book.handleDelta(ev(7, 9, [['101', '50']]));
    t.book.handleDelta(ev(3, 8, [['100', '77']]));
    expect(t.book.bids()[0]).toEqual(['101', '1']);
    expect(t.book.lastUpdateId).toBe(9);
    expect(updates).toBe(0);
    t.book.handleDelta(ev(10, 10, [['101', '2']]));
    expect(updates).toBe(1);
    expect(t.book.bids()[0]).toEqual(['101', '2']);
  });

  it('quantity 0 deletes a level, in any decimal spelling; deleting an absent level is fine', async () => {
    const t = await liveAt9();
    t.book.handleDelta(
      ev(
        10,
        10,
        [
          ['101', '0'],
          ['50', '0'],
        ],
        [
          ['102', '0.000'],
          ['200', '0'],
        ],
      ),
    );
    expect(t.book.state).toBe('live');
    expect(t.book.bids()).toEqual([
      ['100', '2'],
      ['99', '5'],
      ['98', '1'],
    ]);
    expect(t.book.asks()).toEqual([['103', '1']]);
  });

  it('on a gap re-initialises with a new snapshot, counts it, and keeps the gapping event', async () => {
    const t = await liveAt9();
    expect(t.states).toEqual(['live']);
    t.book.handleDelta(ev(11, 12, [['101', '4']]));
    expect(t.book.state).toBe('resyncing');
    expect(t.book.resyncCount).toBe(1);
    expect(t.f.calls).toHaveLength(2);
    // The old content stays visible while resyncing.
    expect(t.book.bids()[0]).toEqual(['101', '1']);
    t.book.handleDelta(ev(13, 14, [], [['102', '8']]));
    t.f.last().resolve(
      snap(
        11,
        [
          ['101', '1'],
          ['90', '1'],
        ],
        [['102', '3']],
      ),
    );
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(14);
    expect(t.book.bids()).toEqual([
      ['101', '4'],
      ['90', '1'],
    ]);
    expect(t.book.asks()).toEqual([['102', '8']]);
    expect(t.states).toEqual(['live', 'resyncing', 'live']);
  });

  it('onReconnect repeats the full initialisation and ignores the older fetch', async () => {
    const t = await liveAt9();
    t.book.handleDelta(ev(10, 10, [['101', '2']]));
    t.book.onReconnect();
    expect(t.book.state).toBe('resyncing');
    expect(t.book.resyncCount).toBe(1);
    expect(t.book.bufferedCount).toBe(0);
    expect(t.f.calls).toHaveLength(2);
    const older = t.f.calls[1];
    t.book.onReconnect();
    expect(t.f.calls).toHaveLength(3);
    older.resolve(snap(99, [['1', '1']]));
    await flush();
    expect(t.book.state).toBe('resyncing');
    t.book.handleDelta(ev(20, 21, [['100', '6']]));
    t.f.last().resolve(snap(20, [['100', '1']], [['102', '1']]));
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.bids()).toEqual([['100', '6']]);
    expect(t.book.lastUpdateId).toBe(21);
  });

  it('retries a snapshot that is older than the buffered deltas, with backoff', async () => {
    const t = setup({ retryBaseMs: 100 });
    t.book.start();
    t.book.handleDelta(ev(20, 22, [['100', '1']]));
    t.f.last().resolve(snap(5, [['90', '1']]));
    await flush();
    expect(t.book.state).toBe('syncing');
    expect(t.book.bids()).toEqual([]); // the unusable snapshot is not shown
    expect(t.book.bufferedCount).toBe(1);
    expect(t.sched.delays()).toEqual([100]);
    t.sched.advance(100);
    expect(t.f.calls).toHaveLength(2);
    t.f.last().resolve(snap(21, [['90', '1']]));
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.bids()).toEqual([
      ['100', '1'],
      ['90', '1'],
    ]);
  });

  it('falls back to simple mode after N failed fetches, then returns to accurate mode', async () => {
    const t = setup({ snapshotRetries: 2, retryBaseMs: 100, recoverAfterMs: 1000 });
    t.book.start();
    t.f.last().reject(new Error('down'));
    await flush();
    expect(t.sched.delays()).toEqual([100]);
    t.sched.advance(100);
    t.f.last().reject(new Error('down'));
    await flush();
    expect(t.sched.delays()).toEqual([200]);
    t.sched.advance(200);
    expect(t.book.state).toBe('syncing');
    t.f.last().reject(new Error('down'));
    await flush();
    expect(t.f.calls).toHaveLength(3);
    expect(t.book.state).toBe('simple');
    expect(t.errors).toHaveLength(3);

    // Simple mode: each push replaces the whole book.
    t.book.handleSnapshotPush({
      e: 'depth',
      E: 0,
      s: 'BTCUSDT',
      u: 50,
      bids: [
        ['100', '1'],
        ['99', '2'],
      ],
      asks: [['101', '1']],
    });
    expect(t.book.bids()).toEqual([
      ['100', '1'],
      ['99', '2'],
    ]);
    t.book.handleSnapshotPush({ e: 'depth', E: 0, s: 'BTCUSDT', u: 52, bids: [['98', '7']], asks: [['101', '2']] });
    expect(t.book.bids()).toEqual([['98', '7']]);
    expect(t.book.lastUpdateId).toBe(52);
    t.book.handleDelta(ev(51, 52, [['95', '1']]));
    t.book.handleDelta(ev(53, 53, [['96', '1']]));
    expect(t.book.bids()).toEqual([['98', '7']]); // deltas are only buffered

    // A failed recovery attempt stays in simple mode and tries again later.
    expect(t.sched.delays()).toEqual([1000]);
    t.sched.advance(1000);
    expect(t.f.calls).toHaveLength(4);
    t.f.last().reject(new Error('still down'));
    await flush();
    expect(t.book.state).toBe('simple');
    t.sched.advance(1000);
    expect(t.f.calls).toHaveLength(5);
    t.f.last().resolve(snap(52, [['98', '7']], [['101', '2']]));
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(53);
    expect(t.book.bids()).toEqual([
      ['98', '7'],
      ['96', '1'],
    ]);
    expect(t.states).toEqual(['simple', 'live']);
    expect(t.sched.timers.size).toBe(0);
  });

  it('verifies against a REST snapshot only after the configured idle time, and catches a divergence', async () => {
    const t = await liveAt9({ verifyIdleMs: 5000 });
    t.sched.advance(3000);
    t.book.handleDelta(ev(10, 10, [['101', '2']]));
    t.sched.advance(2000); // 5 s since start but only 2 s since the last delta
    expect(t.f.calls).toHaveLength(1);
    t.sched.advance(3000);
    expect(t.f.calls).toHaveLength(2);

    // Same id, same book: nothing happens.
    t.f.last().resolve(
      snap(
        10,
        [
          ['101', '2'],
          ['100', '2'],
          ['99', '5'],
          ['98', '1'],
        ],
        [
          ['102', '3'],
          ['103', '1'],
        ],
      ),
    );
    await flush();
    expect(t.book.resyncCount).toBe(0);

    // Same id, different book: the snapshot wins and it counts as a resync.
    t.sched.advance(5000);
    expect(t.f.calls).toHaveLength(3);
    t.f.last().resolve(
      snap(
        10,
        [
          ['101', '2'],
          ['100', '3'],
        ],
        [['102', '3']],
      ),
    );
    await flush();
    expect(t.book.resyncCount).toBe(1);
    expect(t.book.bids()).toEqual([
      ['101', '2'],
      ['100', '3'],
    ]);
    expect(t.book.state).toBe('live');

    // Older snapshot (deltas moved on during the fetch): proves nothing.
    t.sched.advance(5000);
    t.f.last().resolve(snap(4, [['1', '1']]));
    await flush();
    expect(t.book.resyncCount).toBe(1);
    expect(t.book.lastUpdateId).toBe(10);

    // Newer snapshot while no delta came: deltas were lost; re-initialise from it.
    t.sched.advance(5000);
    t.f.last().resolve(snap(15, [['101', '9']], [['102', '1']]));
    await flush();
    expect(t.book.resyncCount).toBe(2);
    expect(t.book.lastUpdateId).toBe(15);
    expect(t.book.bids()).toEqual([['101', '9']]);
    t.book.handleDelta(ev(13, 16, [['101', '8']]));
    expect(t.book.bids()).toEqual([['101', '8']]);
  });

  it('initialises from the first depth@ push when it has no fetcher', () => {
    const t = setup({ fetchSnapshot: undefined });
    t.book.handleSnapshotPush({ e: 'depth', u: 1, bids: [['1', '1']], asks: [] });
    t.book.start();
    t.book.handleDelta(ev(4, 6, [['100', '2']]));
    t.book.handleDelta(ev(7, 7, [['101', '1']]));
    expect(t.book.state).toBe('syncing');
    t.book.handleSnapshotPush({ e: 'depth', E: 0, s: 'BTCUSDT', u: 5, bids: [['100', '1']], asks: [['102', '1']] });
    expect(t.book.state).toBe('live');
    expect(t.book.bids()).toEqual([
      ['101', '1'],
      ['100', '2'],
    ]);
    // Once live, pushes are not used.
    t.book.handleSnapshotPush({ e: 'depth', id: 8, bids: [], asks: [] });
    expect(t.book.bids()).toHaveLength(2);
  });

  it('takes the shared wire records of src-shared/types.ts as they are', async () => {
    const rest: RestDepth = { id: 5, bids: [['100', '1']], asks: [['101', '1']] };
    const delta: DepthUpdateEvent = {
      e: 'depthUpdate',
      E: 1,
      s: 'BTCUSDT',
      U: 6,
      u: 6,
      pu: 5,
      b: [['100', '2']],
      a: [],
    };
    const push: DepthSnapshotEvent = {
      e: 'depth',
      E: 1,
      s: 'BTCUSDT',
      u: 9,
      bids: [['99', '1']],
      asks: [['101', '1']],
    };
    const rec = new LocalOrderBook({ fetchSnapshot: async () => rest, verifyIdleMs: 0 });
    rec.start();
    await flush();
    rec.handleDelta(delta);
    expect(rec.bids()).toEqual([['100', '2']]);
    const viaPush = new LocalOrderBook();
    viaPush.start();
    viaPush.handleSnapshotPush(push);
    expect(viaPush.lastUpdateId).toBe(9);
  });

  it('ignores events for another symbol', async () => {
    const t = await liveAt9();
    t.book.handleDelta({ ...ev(10, 10, [['101', '7']]), s: 'ETHUSDT' });
    expect(t.book.lastUpdateId).toBe(9);
  });

  it("'pu' continuity (Binance): brackets with U <= id <= u, then requires pu == previous u", async () => {
    const t = setup({ continuity: 'pu' });
    t.book.start();
    t.book.handleDelta(ev(90, 95, [['1', '1']], [], 80));
    t.book.handleDelta(ev(98, 105, [['100', '2']], [], 95));
    t.book.handleDelta(ev(110, 120, [['101', '1']], [], 105));
    t.f.last().resolve(snap(100, [['100', '1']]));
    await flush();
    expect(t.book.state).toBe('live');
    expect(t.book.lastUpdateId).toBe(120);
    expect(t.book.bids()).toEqual([
      ['101', '1'],
      ['100', '2'],
    ]);
    t.book.handleDelta(ev(100, 120, [['101', '9']], [], 95)); // duplicate: stale
    expect(t.book.bids()[0]).toEqual(['101', '1']);
    t.book.handleDelta(ev(130, 140, [['101', '3']], [], 125)); // pu != 120
    expect(t.book.state).toBe('resyncing');
    expect(t.book.resyncCount).toBe(1);
  });

  it("'pu' continuity applies a first event whose u equals the snapshot id", async () => {
    const t = setup({ continuity: 'pu' });
    t.book.start();
    t.book.handleDelta(ev(90, 100, [['100', '2']], [], 80));
    t.f.last().resolve(snap(100, [['100', '2']]));
    await flush();
    expect(t.book.state).toBe('live');
    t.book.handleDelta(ev(104, 108, [['100', '5']], [], 100));
    expect(t.book.bids()).toEqual([['100', '5']]);
  });
});

describe('LocalOrderBook grouped view', () => {
  it('rounds bids down and asks up to the step with exact cumulative sums', () => {
    const book = new LocalOrderBook({ fetchSnapshot: undefined });
    book.start();
    book.handleSnapshotPush({
      u: 1,
      bids: [
        ['100.7', '1'],
        ['100.5', '2'],
        ['100.2', '0.5'],
        ['99.9', '3'],
        ['90.0', '0.1'],
      ],
      asks: [
        ['100.8', '1'],
        ['101.0', '2'],
        ['101.2', '1.25'],
      ],
    });
    const g = book.grouped('0.5', 3);
    expect(g.bids).toEqual([
      { price: '100.5', qty: '3', total: '3' },
      { price: '100.0', qty: '0.5', total: '3.5' },
      { price: '99.5', qty: '3', total: '6.5' },
    ]);
    expect(g.asks).toEqual([
      { price: '101.0', qty: '3', total: '3' },
      { price: '101.5', qty: '1.25', total: '4.25' },
    ]);
    expect(book.grouped('10', 5).bids).toEqual([
      { price: '100', qty: '3.5', total: '3.5' },
      { price: '90', qty: '3.1', total: '6.6' }, // 99.9 rounds down to 90
    ]);
    expect(book.grouped('0.1', 1).asks).toEqual([{ price: '100.8', qty: '1', total: '1' }]);
    expect(() => book.grouped('0')).toThrow(RangeError);
  });

  it('reads sizes by the wire grammar (src-shared/decimal.ts): exact sums at the finest decimals written', () => {
    const book = new LocalOrderBook({ fetchSnapshot: undefined });
    book.start();
    book.handleSnapshotPush({
      u: 1,
      // 0.1 + 0.2 is exact here (not 0.30000000000000004); "1e-1" is not a wire decimal.
      bids: [
        ['100.4', '0.1'],
        ['100.3', '0.20'],
        ['100.2', '1e-1'],
        ['99.7', '123456789012345678.9'],
      ],
      asks: [['100.5', '0.000000000000000001']],
    });
    const g = book.grouped('0.50', 2);
    expect(g.bids).toEqual([
      { price: '100.00', qty: '0.30', total: '0.30' },
      { price: '99.50', qty: '123456789012345678.9', total: '123456789012345679.20' },
    ]);
    expect(g.asks).toEqual([{ price: '100.50', qty: '0.000000000000000001', total: '0.000000000000000001' }]);
    for (const bad of ['-1', '1e1', 'abc', '']) expect(() => book.grouped(bad), bad).toThrow(RangeError);
  });
});

// ---- property: any valid delivery converges to the reference book ----

const BID_PRICES = Array.from({ length: 8 }, (_, i) => (95 + i * 0.5).toFixed(1));
const ASK_PRICES = Array.from({ length: 8 }, (_, i) => (100 + i * 0.5).toFixed(1));

interface Change {
  side: 'b' | 'a';
  level: number;
  qty: number;
}

type RefBook = { b: Map<string, string>; a: Map<string, string> };

function refAfter(changes: Change[], id: number): RefBook {
  const ref: RefBook = { b: new Map(), a: new Map() };
  for (let i = 0; i < id; i++) {
    const c = changes[i];
    const price = (c.side === 'b' ? BID_PRICES : ASK_PRICES)[c.level];
    if (c.qty === 0) ref[c.side].delete(price);
    else ref[c.side].set(price, String(c.qty));
  }
  return ref;
}

function refLevels(m: Map<string, string>, desc: boolean): PriceLevel[] {
  return [...m].sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])));
}

function snapshotAt(changes: Change[], id: number): DepthSnapshot {
  const r = refAfter(changes, id);
  return { id, bids: refLevels(r.b, true), asks: refLevels(r.a, false) };
}

/** Windows of consecutive changes, as the server's 100 ms batching would emit them. */
function windows(changes: Change[], cuts: boolean[]): DepthUpdate[] {
  const out: DepthUpdate[] = [];
  let start = 0;
  for (let i = 0; i < changes.length; i++) {
    if (i < changes.length - 1 && !cuts[i]) continue;
    const b = new Map<string, string>();
    const a = new Map<string, string>();
    for (let j = start; j <= i; j++) {
      const c = changes[j];
      (c.side === 'b' ? b : a).set((c.side === 'b' ? BID_PRICES : ASK_PRICES)[c.level], String(c.qty));
    }
    const U = start + 1;
    const u = i + 1;
    out.push(ev(U, u, [...b], [...a], out.length ? out[out.length - 1].u : 0));
    start = i + 1;
  }
  return out;
}

function expectEqualsRef(book: LocalOrderBook, changes: Change[]): void {
  const ref = refAfter(changes, book.lastUpdateId);
  expect(book.bids()).toEqual(refLevels(ref.b, true));
  expect(book.asks()).toEqual(refLevels(ref.a, false));
}

type Action = { kind: 'deliver' | 'dup' | 'drop' | 'resolve' | 'reject' | 'timer'; pick: number };

describe('LocalOrderBook property', () => {
  it('is the reference book at its id whenever live, and ends live at the last id', async () => {
    const change = fc.record({
      side: fc.constantFrom<'b' | 'a'>('b', 'a'),
      level: fc.integer({ min: 0, max: 7 }),
      qty: fc.integer({ min: 0, max: 4 }),
    });
    const action = fc.record({
      kind: fc.constantFrom<Action['kind']>(
        'deliver',
        'deliver',
        'deliver',
        'deliver',
        'dup',
        'drop',
        'resolve',
        'resolve',
        'reject',
        'timer',
      ),
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        fc.array(action, { minLength: 1, maxLength: 200 }),
        async (changes, cuts, actions) => {
          const maxId = changes.length;
          const events = windows(changes, cuts);
          const sched = new ManualScheduler();
          const f = controlledFetch();
          const book = new LocalOrderBook({
            fetchSnapshot: f.fn,
            scheduler: sched,
            verifyIdleMs: 1000,
            snapshotRetries: 1_000_000,
            retryBaseMs: 10,
            retryMaxMs: 10,
            onError: () => {},
          });
          book.start();
          let next = 0;
          const open = () => f.calls.filter((d) => !d.settled);
          for (let i = 0; next < events.length; i++) {
            // After one pass over the plan, every other step delivers, so the loop ends.
            const { kind, pick } =
              i >= actions.length && i % 2 === 0 ? { kind: 'deliver', pick: 0 } : actions[i % actions.length];
            if (kind === 'deliver') book.handleDelta(events[next++]);
            else if (kind === 'drop') next++;
            else if (kind === 'dup' && next > 0) book.handleDelta(events[pick % next]);
            else if (kind === 'resolve' || kind === 'reject') {
              const pending = open();
              if (pending.length === 0) continue;
              const d = pending[pick % pending.length];
              if (kind === 'reject') d.reject(new Error('x'));
              else d.resolve(snapshotAt(changes, pick % (maxId + 1)));
              await flush();
            } else if (kind === 'timer') sched.fireNext();
            // The strong invariant: whenever the book says live, it is the venue's book at its id.
            if (book.state === 'live') expectEqualsRef(book, changes);
          }
          // The stream is over: the venue's book stays at maxId; recovery must reach it.
          for (let guard = 0; guard < 50 && !(book.state === 'live' && book.lastUpdateId === maxId); guard++) {
            const pending = open();
            if (pending.length > 0) {
              for (const d of pending) d.resolve(snapshotAt(changes, maxId));
              await flush();
            } else if (!sched.fireNext()) break;
          }
          expect(book.state).toBe('live');
          expect(book.lastUpdateId).toBe(maxId);
          expectEqualsRef(book, changes);
          book.dispose();
        },
      ),
      { numRuns: 300 },
    );
  });
});
