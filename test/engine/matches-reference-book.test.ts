// Random command sequences run against the engine and the naive reference book, compared after
// every step: identical events, identical book and order views, internal consistency (never
// crossed, level totals = sum of their orders, FIFO), quantity conservation and gap-free update
// ids from the event stream.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src-main/engine/commands.ts';
import type { Command } from '../../src-main/engine/commands.ts';
import { OrderBook } from '../../src-main/engine/order-book.ts';
import { RecordingSink } from '../../src-main/engine/recording-sink.ts';
import { ReferenceBook } from '../../src-main/engine/reference-book.ts';
import type { EngineEvent } from '../../src-main/engine/recording-sink.ts';
import type { ReduceOnlyGuard } from '../../src-main/engine/types.ts';
import { Ledger, expectSameState } from './harness.ts';

const ACCOUNTS = [1, 2, 3];

interface Domain {
  ids: number;
  /** Accounts drawn from (default ACCOUNTS). */
  accounts?: number[];
  /** Commands run (and checked) before each random sequence. */
  setup?: Command[];
  minPrice: number;
  maxPrice: number;
  maxQty: number;
  /** When given, prices are drawn from this list instead of [minPrice, maxPrice]. */
  prices?: number[];
}

function commandArb(d: Domain): fc.Arbitrary<Command> {
  const id = fc.integer({ min: 1, max: d.ids });
  const accounts = d.accounts ?? ACCOUNTS;
  const account = fc.constantFrom(...accounts);
  const side = fc.constantFrom(1, 2);
  const price = d.prices ? fc.constantFrom(...d.prices) : fc.integer({ min: d.minPrice, max: d.maxPrice });
  const qty = fc.integer({ min: 1, max: d.maxQty });
  const cap = fc.oneof(
    { arbitrary: fc.constant(-1), weight: 4 },
    { arbitrary: fc.integer({ min: 0, max: d.maxQty }), weight: 1 },
  );
  const stp = fc.integer({ min: 0, max: 3 });
  const optAccount = fc.oneof(fc.constant(-1), account);
  // Malformed values the service might let through; each must be rejected, never thrown.
  const bad = fc.constantFrom(0, -1, 1.5, Number.NaN, 2 ** 60);
  const limit = fc.record({
    kind: fc.constant('limit' as const),
    orderId: id,
    account,
    side,
    priceTicks: price,
    qtyLots: qty,
    tif: fc.constantFrom(1, 1, 1, 2, 3, 4),
    flags: fc.constantFrom(0, 0, 1),
    maxFillLots: cap,
    stp,
  });
  return fc.oneof(
    { arbitrary: limit, weight: 12 },
    {
      arbitrary: fc.record({
        kind: fc.constant('market' as const),
        orderId: id,
        account,
        side,
        qtyLots: qty,
        refPriceTicks: price,
        flags: fc.constantFrom(0, 1),
        maxFillLots: cap,
        stp,
      }),
      weight: 2,
    },
    { arbitrary: fc.record({ kind: fc.constant('cancel' as const), orderId: id, account: optAccount }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), account }), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('amend' as const),
        orderId: id,
        priceTicks: price,
        qtyLots: fc.integer({ min: 1, max: d.maxQty + 5 }),
        account: optAccount,
        maxFillLots: cap,
        requeue: fc.boolean(),
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('trim' as const),
        orderId: id,
        capLots: fc.integer({ min: 0, max: d.maxQty }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.oneof(
        fc.record({ kind: fc.constant('limit' as const), orderId: id, account, side, priceTicks: bad, qtyLots: qty }),
        fc.record({ kind: fc.constant('limit' as const), orderId: id, account, side, priceTicks: price, qtyLots: bad }),
        fc.record({
          kind: fc.constant('limit' as const),
          orderId: bad,
          account,
          side: fc.constantFrom(0, 3),
          priceTicks: price,
          qtyLots: qty,
        }),
        fc.record({
          kind: fc.constant('market' as const),
          orderId: id,
          account,
          side,
          qtyLots: qty,
          refPriceTicks: bad,
        }),
        fc.record({ kind: fc.constant('amend' as const), orderId: id, priceTicks: price, qtyLots: bad }),
        fc.record({ kind: fc.constant('trim' as const), orderId: id, capLots: bad }),
        fc.record({ kind: fc.constant('cancelAll' as const), account: bad }),
      ),
      weight: 1,
    },
  );
}

const configArb = fc.record({
  bandPpm: fc.constantFrom(0, 20_000, 50_000, 1_000_000),
  defaultStp: fc.constantFrom(1 as const, 2 as const, 3 as const),
  initialOrderCapacity: fc.constantFrom(1, 1024),
  initialLevelCapacity: fc.constantFrom(1, 256),
  // A tiny id window makes ids slide out of the direct ring into the hash all the time.
  idWindow: fc.constantFrom(16, 65_536),
});

/** A command plus, for cancel/amend/trim, an optional pick that retargets it at a live order. */
interface Step {
  command: Command;
  pick: number | null;
}

function stepArb(d: Domain): fc.Arbitrary<Step> {
  return fc.record({ command: commandArb(d), pick: fc.option(fc.nat(), { freq: 2 }) });
}

/** The command to run: when picked, its order id becomes one of the live orders (same for both books). */
function resolve(step: Step, book: OrderBook, accounts: number[]): Command {
  const c = step.command;
  if (step.pick === null || (c.kind !== 'cancel' && c.kind !== 'amend' && c.kind !== 'trim')) return c;
  const live = accounts.flatMap((a) => book.openOrderIds(a));
  if (live.length === 0) return c;
  return { ...c, orderId: live[step.pick % live.length] };
}

/**
 * A reduce-only guard over fixed positions (the risk layer's answers, without the risk layer):
 * account 1 holds 4 lots in one-way mode (its other orders reduce them too), account 2 holds 3
 * in hedge mode (its other orders do not), account 3 has no cap. Below the orders' sizes (up to
 * 10), so matches trim and cancel reduce-only orders often.
 */
const POSITIONS: Record<number, { lots: number; oneWay: boolean }> = {
  1: { lots: 4, oneWay: true },
  2: { lots: 3, oneWay: false },
};
const GUARD: ReduceOnlyGuard = {
  makerCap(_orderId, account, reducedLots, otherLots) {
    const p = POSITIONS[account];
    if (!p) return -1;
    return Math.max(0, p.lots - reducedLots - (p.oneWay ? otherLots : 0));
  },
};

/**
 * What the guard promises, read from one command's events alone: no resting reduce-only order
 * trades beyond its account's position, counting what the account's orders traded before it in
 * the same command. `flags` follows the orders' flags from their 'accepted' events.
 */
function checkGuarded(events: EngineEvent[], flags: Map<number, number>): void {
  const taken = new Map<number, { reduced: number; other: number }>();
  for (const e of events) {
    if (e.type === 'accepted') flags.set(e.orderId, e.flags);
    if (e.type !== 'trade') continue;
    const t = taken.get(e.makerAccount) ?? { reduced: 0, other: 0 };
    taken.set(e.makerAccount, t);
    const ro = ((flags.get(e.makerId) ?? 0) & 1) !== 0;
    if (ro) t.reduced += e.qtyLots;
    else t.other += e.qtyLots;
    const p = POSITIONS[e.makerAccount];
    if (ro && p)
      expect(t.reduced + (p.oneWay ? t.other : 0), `order ${e.makerId} beyond its position`).toBeLessThanOrEqual(
        p.lots,
      );
  }
}

/** endOnFailure: report the first failing run as it is (no shrinking: a corrupted book can loop while shrinking). */
function runAgainstReference(
  config: fc.Arbitrary<ConstructorParameters<typeof OrderBook>[0]>,
  d: Domain,
  maxLength: number,
  numRuns: number,
  endOnFailure = false,
): void {
  fc.assert(
    fc.property(
      config,
      fc.array(stepArb(d), { minLength: Math.floor(maxLength / 2), maxLength, size: 'max' }),
      (cfg, steps) => {
        const s1 = new RecordingSink();
        const s2 = new RecordingSink();
        const book = new OrderBook(cfg, s1);
        const ref = new ReferenceBook(cfg, s2);
        const ledger = new Ledger();
        const flags = new Map<number, number>();
        const accounts = d.accounts ?? ACCOUNTS;
        const setup: Step[] = (d.setup ?? []).map((command) => ({ command, pick: null }));
        for (const step of [...setup, ...steps]) {
          const c = resolve(step, book, accounts);
          applyCommand(book, c);
          ref.execute(c);
          const events = s1.take();
          expect(events).toEqual(s2.take());
          ledger.apply(events);
          if (cfg.reduceOnlyGuard) checkGuarded(events, flags);
          expectSameState(book, ref, accounts);
          ledger.checkAgainst(book);
        }
      },
    ),
    { numRuns, endOnFailure },
  );
}

describe('engine vs reference book (fast-check)', () => {
  it('agrees on a narrow price range with heavy interaction', () => {
    runAgainstReference(configArb, { ids: 30, minPrice: 95, maxPrice: 105, maxQty: 10 }, 60, 150);
  });

  it('agrees with a reduce-only guard: resting reduce-only orders never trade beyond their position in a command', () => {
    runAgainstReference(
      configArb.map((c) => ({ ...c, reduceOnlyGuard: GUARD })),
      { ids: 30, minPrice: 95, maxPrice: 105, maxQty: 10 },
      60,
      150,
    );
  });

  it('agrees on a wide price range (lazy level removal and compaction)', () => {
    runAgainstReference(configArb, { ids: 400, minPrice: 1, maxPrice: 300, maxQty: 6 }, 300, 12);
  });

  it('agrees on a busy book of many accounts (order, level and account tables grow mid-run)', () => {
    // 100 accounts, half of them above 2^20 (the account table's hash path), on 400 prices: a run
    // rests well over 16 orders on over 16 levels (the pools' smallest size) for over 64
    // accounts (the account table's first size).
    const accounts = [
      ...Array.from({ length: 50 }, (_, i) => i + 1),
      ...Array.from({ length: 50 }, (_, i) => 2 ** 20 + 7 * i),
    ];
    const small = fc.record({
      bandPpm: fc.constantFrom(50_000, 1_000_000),
      defaultStp: fc.constantFrom(1 as const, 2 as const, 3 as const),
      initialOrderCapacity: fc.constant(1),
      initialLevelCapacity: fc.constant(1),
      idWindow: fc.constantFrom(16, 65_536),
    });
    // Every account first rests one order (buys below 60, sells above 340, ids above the random
    // ones), so that the tables have grown before the random commands start.
    const setup: Command[] = accounts.map((account, i) => ({
      kind: 'limit',
      orderId: 10_000 + i,
      account,
      side: i % 2 === 0 ? 1 : 2,
      priceTicks: i % 2 === 0 ? 1 + (i % 59) : 341 + (i % 59),
      qtyLots: 1 + (i % 5),
    }));
    runAgainstReference(small, { ids: 800, accounts, minPrice: 1, maxPrice: 400, maxQty: 6, setup }, 300, 5, true);
  }, 120_000); // 18 s in a CI run on a loaded host (the default is 30 s)

  it('agrees when prices collide in the price -> level cache (equal modulo 1024)', () => {
    const prices = [1000, 1001, 2024, 2025, 3048, 4072, 5096, 6120];
    runAgainstReference(configArb, { ids: 40, minPrice: 1000, maxPrice: 6120, maxQty: 8, prices }, 80, 40);
  });

  it('is deterministic: the same commands give byte-identical events on two fresh books', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(commandArb({ ids: 30, minPrice: 95, maxPrice: 105, maxQty: 10 }), {
          minLength: 40,
          maxLength: 80,
          size: 'max',
        }),
        (cfg, commands) => {
          const runOnce = (): string => {
            const sink = new RecordingSink();
            const book = new OrderBook(cfg, sink);
            for (const c of commands) applyCommand(book, c);
            return JSON.stringify({ events: sink.events, snapshot: book.snapshot() });
          };
          expect(runOnce()).toBe(runOnce());
        },
      ),
      { numRuns: 50 },
    );
  });
});
