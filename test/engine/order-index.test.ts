// OrderIndex against a Map, over id patterns that exercise every path: sequential ids sliding
// the window, old ids, far jumps (with the ring empty and not), huge safe integers.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderIndex } from '../../src-main/engine/order-index.ts';

type Op = { kind: 'set' | 'delete' | 'get'; id: number };

function check(ops: Op[], window: number): void {
  run(ops, window, window);
}

/** Replays ops on an index and a Map side by side; returns the index for inspection. */
function run(ops: Op[], window: number, maxWindow: number): OrderIndex {
  const index = new OrderIndex(window, 4, maxWindow);
  const model = new Map<number, number>();
  let slot = 0;
  for (const op of ops) {
    if (op.kind === 'set') {
      if (model.has(op.id)) continue; // the book never inserts a live id
      index.set(op.id, slot);
      model.set(op.id, slot++);
    } else if (op.kind === 'delete') {
      expect(index.delete(op.id)).toBe(model.delete(op.id));
    }
    expect(index.get(op.id)).toBe(model.get(op.id) ?? -1);
    expect(index.size).toBe(model.size);
  }
  for (const [id, s] of model) expect(index.get(id)).toBe(s);
  return index;
}

describe('OrderIndex', () => {
  it('matches a Map on mixed id patterns', () => {
    const id = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 200 }), weight: 6 },
      { arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 2 },
      {
        arbitrary: fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER),
        weight: 1,
      },
    );
    const op = fc.record({
      kind: fc.constantFrom('set' as const, 'set' as const, 'delete' as const, 'get' as const),
      id,
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 300, size: 'max' }), fc.constantFrom(16, 64), (ops, w) =>
        check(ops, w),
      ),
      { numRuns: 150 },
    );
  });

  it('keeps sequential ids that outlive the window reachable (they move to the hash)', () => {
    const ops: Op[] = [];
    for (let i = 1; i <= 2000; i++) {
      ops.push({ kind: 'set', id: i });
      if (i % 3 !== 0) ops.push({ kind: 'delete', id: i - (i % 7) });
    }
    for (let i = 1; i <= 2000; i += 97) ops.push({ kind: 'get', id: i });
    ops.push({ kind: 'set', id: 1_000_000 }); // far jump while the ring is not empty
    ops.push({ kind: 'set', id: 1_000_001 });
    check(ops, 16);
  });

  it('rejects a window that is not a power of two', () => {
    expect(() => new OrderIndex(100, 4)).toThrow(RangeError);
    expect(() => new OrderIndex(8, 4)).toThrow(RangeError);
    expect(() => new OrderIndex(64, 4, 32)).toThrow(RangeError);
    expect(() => new OrderIndex(64, 4, 100)).toThrow(RangeError);
  });

  it('grows the window when many ids outlive it, keeping every entry (ring and hash) reachable', () => {
    // Every 5th id stays live for good: far more than W/64 of the ids the window passes.
    const ops: Op[] = [];
    for (let i = 1; i <= 3000; i++) {
      ops.push({ kind: 'set', id: i });
      if (i % 5 !== 0 && i > 3) ops.push({ kind: 'delete', id: i - 3 });
      if (i % 11 === 0) ops.push({ kind: 'get', id: i - 200 > 0 ? i - 200 : 1 });
    }
    for (let i = 5; i <= 3000; i += 95) ops.push({ kind: 'delete', id: i });
    expect(run(ops, 16, 256).window).toBe(256);
    expect(run(ops, 16, 16).window).toBe(16);
  });

  it('matches a Map on mixed id patterns while growing', () => {
    const id = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 300 }), weight: 6 },
      { arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 2 },
      { arbitrary: fc.constantFrom(2 ** 32 - 3, 2 ** 32 + 5, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER - 1), weight: 1 },
    );
    const op = fc.record({
      kind: fc.constantFrom('set' as const, 'set' as const, 'set' as const, 'delete' as const, 'get' as const),
      id,
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 400, size: 'max' }), (ops) => {
        run(ops, 16, 128);
      }),
      { numRuns: 150 },
    );
  });
});
