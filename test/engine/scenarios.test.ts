// Table-driven scenarios: each runs setup commands, then the commands under test, and asserts
// the exact events those emit and the resulting L2 book (and, where priority matters, queues).
// One table, two implementations (as exchange-core's shared test base): every scenario runs
// against the engine (OrderBook) and against the naive ReferenceBook, so the two agree on each
// rule written down here, not only on the random streams of matches-reference-book.test.ts.

import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src-main/engine/commands.ts';
import type { Command } from '../../src-main/engine/commands.ts';
import { OrderBook } from '../../src-main/engine/order-book.ts';
import { ReferenceBook } from '../../src-main/engine/reference-book.ts';
import { RecordingSink } from '../../src-main/engine/recording-sink.ts';
import type { EngineEvent } from '../../src-main/engine/recording-sink.ts';
import { CancelReason, CommandKind, ExpireReason, RejectReason, StpMode } from '../../src-main/engine/types.ts';
import type { BookConfig, Level, ReduceOnlyGuard } from '../../src-main/engine/types.ts';

const BUY = 1;
const SELL = 2;
const { GTC, IOC, FOK, GTX } = { GTC: 1, IOC: 2, FOK: 3, GTX: 4 };

// ---- command builders
const limit = (
  orderId: number,
  account: number,
  side: number,
  priceTicks: number,
  qtyLots: number,
  tif = GTC,
  more: Partial<Command> = {},
): Command => ({ kind: 'limit', orderId, account, side, priceTicks, qtyLots, tif, ...more }) as Command;
const market = (
  orderId: number,
  account: number,
  side: number,
  qtyLots: number,
  refPriceTicks: number,
  more: Partial<Command> = {},
): Command => ({ kind: 'market', orderId, account, side, qtyLots, refPriceTicks, ...more }) as Command;
const cancel = (orderId: number, account?: number): Command => ({ kind: 'cancel', orderId, account });
const cancelAll = (account: number): Command => ({ kind: 'cancelAll', account });
const amend = (
  orderId: number,
  priceTicks: number,
  qtyLots: number,
  more: { account?: number; maxFillLots?: number; requeue?: boolean } = {},
): Command => ({
  kind: 'amend',
  orderId,
  priceTicks,
  qtyLots,
  ...more,
});
const trim = (orderId: number, capLots: number): Command => ({ kind: 'trim', orderId, capLots });

// ---- expected-event builders (level events get their update ids filled in by the runner)
const accepted = (
  orderId: number,
  account: number,
  side: number,
  priceTicks: number,
  qtyLots: number,
  tif = GTC,
  orderType = 1,
  flags = 0,
): EngineEvent => ({
  type: 'accepted',
  orderId,
  account,
  side,
  orderType,
  tif,
  priceTicks,
  qtyLots,
  flags,
});
const acceptedMarket = (
  orderId: number,
  account: number,
  side: number,
  qtyLots: number,
  flags = 0,
  tif = IOC,
): EngineEvent => accepted(orderId, account, side, 0, qtyLots, tif, 2, flags);
const rejected = (command: number, orderId: number, account: number, reason: number): EngineEvent => ({
  type: 'rejected',
  command,
  orderId,
  account,
  reason,
});
const trade = (
  makerId: number,
  makerAccount: number,
  takerId: number,
  takerAccount: number,
  priceTicks: number,
  qtyLots: number,
  takerSide: number,
): EngineEvent => ({
  type: 'trade',
  makerId,
  makerAccount,
  takerId,
  takerAccount,
  priceTicks,
  qtyLots,
  takerSide,
});
const partial = (orderId: number, account: number, filledLots: number, remainingLots: number): EngineEvent => ({
  type: 'partiallyFilled',
  orderId,
  account,
  filledLots,
  remainingLots,
});
const filled = (orderId: number, account: number, filledLots: number): EngineEvent => ({
  type: 'filled',
  orderId,
  account,
  filledLots,
});
const amended = (
  orderId: number,
  account: number,
  priceTicks: number,
  qtyLots: number,
  remainingLots: number,
  priorityKept: boolean,
): EngineEvent => ({
  type: 'amended',
  orderId,
  account,
  priceTicks,
  qtyLots,
  remainingLots,
  priorityKept,
});
const cancelled = (orderId: number, account: number, remainingLots: number, reason: number): EngineEvent => ({
  type: 'cancelled',
  orderId,
  account,
  remainingLots,
  reason,
});
const expired = (orderId: number, account: number, remainingLots: number, reason: number): EngineEvent => ({
  type: 'expired',
  orderId,
  account,
  remainingLots,
  reason,
});
const level = (side: number, priceTicks: number, totalLots: number): EngineEvent => ({
  type: 'level',
  updateId: 0,
  side,
  priceTicks,
  totalLots,
});

/**
 * The common starting book:
 *   asks 102: #3 (acct 12) 4
 *        101: #1 (acct 10) 5, #2 (acct 11) 3
 *   bids  99: #4 (acct 20) 5
 *         98: #5 (acct 21) 2
 */
const BASE: Command[] = [
  limit(1, 10, SELL, 101, 5),
  limit(2, 11, SELL, 101, 3),
  limit(3, 12, SELL, 102, 4),
  limit(4, 20, BUY, 99, 5),
  limit(5, 21, BUY, 98, 2),
];
const BASE_BIDS: Level[] = [
  [99, 5],
  [98, 2],
];
const BASE_ASKS: Level[] = [
  [101, 8],
  [102, 4],
];

/**
 * A reduce-only guard over fixed positions, answering as the risk layer's does: account 40 holds 6
 * lots in one-way mode (its other orders on the side taken from reduce them too), account 41
 * holds 4 in hedge mode (its other orders open the other side), other accounts have no cap.
 */
const GUARD: ReduceOnlyGuard = {
  makerCap(_orderId, account, reducedLots, otherLots) {
    if (account === 40) return Math.max(0, 6 - reducedLots - otherLots);
    if (account === 41) return Math.max(0, 4 - reducedLots);
    return -1;
  },
};
const RO = { flags: 1 };

interface Scenario {
  name: string;
  config?: Partial<BookConfig>;
  setup?: Command[];
  act: Command[];
  events: EngineEvent[];
  bids: Level[];
  asks: Level[];
  /** Expected FIFO queues: [side, price, ids]. */
  queues?: [number, number, number[]][];
}

const scenarios: Scenario[] = [
  // ---------------------------------------------------------------- resting and taking
  {
    name: 'GTC limit that does not cross rests and creates a level',
    act: [limit(10, 30, BUY, 100, 7)],
    events: [accepted(10, 30, BUY, 100, 7), level(BUY, 100, 7)],
    bids: [[100, 7], ...BASE_BIDS],
    asks: BASE_ASKS,
  },
  {
    name: 'GTC limit joins the back of an existing level',
    act: [limit(10, 30, SELL, 101, 2)],
    events: [accepted(10, 30, SELL, 101, 2), level(SELL, 101, 10)],
    bids: BASE_BIDS,
    asks: [
      [101, 10],
      [102, 4],
    ],
    queues: [[SELL, 101, [1, 2, 10]]],
  },
  {
    name: 'partial fill of the first maker keeps it at the front',
    act: [limit(10, 30, BUY, 101, 2)],
    events: [
      accepted(10, 30, BUY, 101, 2),
      trade(1, 10, 10, 30, 101, 2, BUY),
      partial(1, 10, 2, 3),
      filled(10, 30, 2),
      level(SELL, 101, 6),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 6],
      [102, 4],
    ],
    queues: [[SELL, 101, [1, 2]]],
  },
  {
    name: 'sweep across levels at the makers prices, remainder rests (bid level reported first)',
    act: [limit(10, 30, BUY, 102, 15)],
    events: [
      accepted(10, 30, BUY, 102, 15),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 10),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      partial(10, 30, 8, 7),
      trade(3, 12, 10, 30, 102, 4, BUY),
      filled(3, 12, 4),
      partial(10, 30, 12, 3),
      level(BUY, 102, 3),
      level(SELL, 101, 0),
      level(SELL, 102, 0),
    ],
    bids: [[102, 3], ...BASE_BIDS],
    asks: [],
  },
  {
    name: 'sell sweep walks bids from the best down and stops at its limit',
    act: [limit(10, 30, SELL, 99, 9)],
    events: [
      accepted(10, 30, SELL, 99, 9),
      trade(4, 20, 10, 30, 99, 5, SELL),
      filled(4, 20, 5),
      partial(10, 30, 5, 4),
      level(BUY, 99, 0),
      level(SELL, 99, 4),
    ],
    bids: [[98, 2]],
    asks: [[99, 4], ...BASE_ASKS],
  },
  {
    name: 'sweep of many levels and many orders',
    setup: Array.from({ length: 20 }, (_, i) => limit(100 + i, 40 + (i % 3), SELL, 110 + Math.floor(i / 2), 1)),
    act: [limit(10, 30, BUY, 119, 20, IOC)],
    events: [
      accepted(10, 30, BUY, 119, 20, IOC),
      ...[
        [1, 10, 101, 5],
        [2, 11, 101, 3],
        [3, 12, 102, 4],
      ].flatMap(([id, acct, price, q], k) => {
        const done = [5, 8, 12][k];
        return [trade(id, acct, 10, 30, price, q, BUY), filled(id, acct, q), partial(10, 30, done, 20 - done)];
      }),
      ...Array.from({ length: 8 }, (_, i) => {
        const done = 13 + i;
        return [
          trade(100 + i, 40 + (i % 3), 10, 30, 110 + Math.floor(i / 2), 1, BUY),
          filled(100 + i, 40 + (i % 3), 1),
          done === 20 ? filled(10, 30, 20) : partial(10, 30, done, 20 - done),
        ];
      }).flat(),
      level(SELL, 101, 0),
      level(SELL, 102, 0),
      level(SELL, 110, 0),
      level(SELL, 111, 0),
      level(SELL, 112, 0),
      level(SELL, 113, 0),
    ],
    bids: BASE_BIDS,
    asks: Array.from({ length: 6 }, (_, i) => [114 + i, 2] as Level),
  },

  // ---------------------------------------------------------------- time in force
  {
    name: 'IOC fills what it can and expires the rest',
    act: [limit(10, 30, BUY, 101, 10, IOC)],
    events: [
      accepted(10, 30, BUY, 101, 10, IOC),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 5),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      partial(10, 30, 8, 2),
      expired(10, 30, 2, ExpireReason.ImmediateOrCancel),
      level(SELL, 101, 0),
    ],
    bids: BASE_BIDS,
    asks: [[102, 4]],
  },
  {
    name: 'IOC that cannot cross expires whole and leaves the book alone',
    act: [limit(10, 30, BUY, 100, 3, IOC)],
    events: [accepted(10, 30, BUY, 100, 3, IOC), expired(10, 30, 3, ExpireReason.ImmediateOrCancel)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'FOK that cannot fill whole expires with the book untouched',
    act: [limit(10, 30, BUY, 102, 13, FOK)],
    events: [accepted(10, 30, BUY, 102, 13, FOK), expired(10, 30, 13, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
    queues: [[SELL, 101, [1, 2]]],
  },
  {
    name: 'FOK limited by its price expires even though deeper liquidity exists',
    act: [limit(10, 30, BUY, 101, 9, FOK)],
    events: [accepted(10, 30, BUY, 101, 9, FOK), expired(10, 30, 9, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'FOK that can fill whole fills across levels',
    act: [limit(10, 30, BUY, 102, 12, FOK)],
    events: [
      accepted(10, 30, BUY, 102, 12, FOK),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 7),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      partial(10, 30, 8, 4),
      trade(3, 12, 10, 30, 102, 4, BUY),
      filled(3, 12, 4),
      filled(10, 30, 12),
      level(SELL, 101, 0),
      level(SELL, 102, 0),
    ],
    bids: BASE_BIDS,
    asks: [],
  },
  {
    name: 'GTX that would take expires whole',
    act: [limit(10, 30, SELL, 99, 1, GTX)],
    events: [accepted(10, 30, SELL, 99, 1, GTX), expired(10, 30, 1, ExpireReason.PostOnly)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'GTX that would not take rests',
    act: [limit(10, 30, SELL, 100, 1, GTX)],
    events: [accepted(10, 30, SELL, 100, 1, GTX), level(SELL, 100, 1)],
    bids: BASE_BIDS,
    asks: [[100, 1], ...BASE_ASKS],
  },

  // ---------------------------------------------------------------- market orders and the band
  {
    name: 'market buy sweeps only inside the band (ref 100, 1% -> up to 101), the rest expires',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, BUY, 10, 100)],
    events: [
      acceptedMarket(10, 30, BUY, 10),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 5),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      partial(10, 30, 8, 2),
      expired(10, 30, 2, ExpireReason.MarketBand),
      level(SELL, 101, 0),
    ],
    bids: BASE_BIDS,
    asks: [[102, 4]],
  },
  {
    name: 'market buy with a wider band (ref 100, 2%) reaches 102',
    config: { bandPpm: 20_000 },
    act: [market(10, 30, BUY, 10, 100)],
    events: [
      acceptedMarket(10, 30, BUY, 10),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 5),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      partial(10, 30, 8, 2),
      trade(3, 12, 10, 30, 102, 2, BUY),
      partial(3, 12, 2, 2),
      filled(10, 30, 10),
      level(SELL, 101, 0),
      level(SELL, 102, 2),
    ],
    bids: BASE_BIDS,
    asks: [[102, 2]],
  },
  {
    name: 'market sell whose band excludes every bid expires whole (ref 101, 1% -> down to 100)',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, SELL, 3, 101)],
    events: [acceptedMarket(10, 30, SELL, 3), expired(10, 30, 3, ExpireReason.MarketBand)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'market sell that empties the bids expires the rest for lack of liquidity',
    config: { bandPpm: 1_000_000 },
    act: [market(10, 30, SELL, 9, 99)],
    events: [
      acceptedMarket(10, 30, SELL, 9),
      trade(4, 20, 10, 30, 99, 5, SELL),
      filled(4, 20, 5),
      partial(10, 30, 5, 4),
      trade(5, 21, 10, 30, 98, 2, SELL),
      filled(5, 21, 2),
      partial(10, 30, 7, 2),
      expired(10, 30, 2, ExpireReason.MarketNoLiquidity),
      level(BUY, 99, 0),
      level(BUY, 98, 0),
    ],
    bids: [],
    asks: BASE_ASKS,
  },

  // ---------------------------------------------------------------- market FOK and GTX (inside the band)
  {
    name: 'market FOK buy that the band holds too little for expires whole, the book untouched (8 at 101, wants 9)',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, BUY, 9, 100, { tif: FOK })],
    events: [acceptedMarket(10, 30, BUY, 9, 0, FOK), expired(10, 30, 9, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'market FOK buy that fits inside the band fills whole',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, BUY, 8, 100, { tif: FOK })],
    events: [
      acceptedMarket(10, 30, BUY, 8, 0, FOK),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 3),
      trade(2, 11, 10, 30, 101, 3, BUY),
      filled(2, 11, 3),
      filled(10, 30, 8),
      level(SELL, 101, 0),
    ],
    bids: BASE_BIDS,
    asks: [[102, 4]],
  },
  {
    name: 'market FOK sell whose band excludes every bid expires whole as FOK',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, SELL, 3, 101, { tif: FOK })],
    events: [acceptedMarket(10, 30, SELL, 3, 0, FOK), expired(10, 30, 3, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'market FOK counts only what self-trade prevention lets it fill (own order at the front of 101)',
    config: { bandPpm: 10_000 },
    act: [market(10, 10, BUY, 3, 100, { tif: FOK })],
    events: [acceptedMarket(10, 10, BUY, 3, 0, FOK), expired(10, 10, 3, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'market GTX buy with asks inside the band would take: expires whole as post-only',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, BUY, 2, 100, { tif: GTX })],
    events: [acceptedMarket(10, 30, BUY, 2, 0, GTX), expired(10, 30, 2, ExpireReason.PostOnly)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'market GTX sell whose band excludes every bid takes nothing: expires as any market order there',
    config: { bandPpm: 10_000 },
    act: [market(10, 30, SELL, 3, 101, { tif: GTX })],
    events: [acceptedMarket(10, 30, SELL, 3, 0, GTX), expired(10, 30, 3, ExpireReason.MarketBand)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'a market order is IOC, FOK or GTX: GTC or another number is refused',
    act: [market(10, 30, BUY, 1, 100, { tif: GTC }), market(10, 30, BUY, 1, 100, { tif: 5 })],
    events: [
      rejected(CommandKind.Market, 10, 30, RejectReason.InvalidTimeInForce),
      rejected(CommandKind.Market, 10, 30, RejectReason.InvalidTimeInForce),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },

  // ---------------------------------------------------------------- self-trade prevention
  {
    name: 'STP expire taker (default): own order at the front stops the taker, nothing trades',
    act: [limit(10, 10, BUY, 101, 6)],
    events: [accepted(10, 10, BUY, 101, 6), expired(10, 10, 6, ExpireReason.SelfTrade)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'STP expire taker after a partial fill against another account',
    act: [limit(10, 11, BUY, 102, 10)],
    events: [
      accepted(10, 11, BUY, 102, 10),
      trade(1, 10, 10, 11, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 11, 5, 5),
      expired(10, 11, 5, ExpireReason.SelfTrade),
      level(SELL, 101, 3),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 3],
      [102, 4],
    ],
    queues: [[SELL, 101, [2]]],
  },
  {
    name: 'STP expire maker: own resting order expires, the taker keeps matching and rests',
    act: [limit(10, 11, BUY, 102, 10, GTC, { stp: StpMode.ExpireMaker })],
    events: [
      accepted(10, 11, BUY, 102, 10),
      trade(1, 10, 10, 11, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 11, 5, 5),
      expired(2, 11, 3, ExpireReason.SelfTrade),
      trade(3, 12, 10, 11, 102, 4, BUY),
      filled(3, 12, 4),
      partial(10, 11, 9, 1),
      level(BUY, 102, 1),
      level(SELL, 101, 0),
      level(SELL, 102, 0),
    ],
    bids: [[102, 1], ...BASE_BIDS],
    asks: [],
  },
  {
    name: 'STP expire both: maker and taker expire',
    act: [limit(10, 11, BUY, 102, 10, GTC, { stp: StpMode.ExpireBoth })],
    events: [
      accepted(10, 11, BUY, 102, 10),
      trade(1, 10, 10, 11, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 11, 5, 5),
      expired(2, 11, 3, ExpireReason.SelfTrade),
      expired(10, 11, 5, ExpireReason.SelfTrade),
      level(SELL, 101, 0),
    ],
    bids: BASE_BIDS,
    asks: [[102, 4]],
  },
  {
    name: "the book's configured default STP applies to commands that pass 0",
    config: { defaultStp: StpMode.ExpireMaker },
    act: [limit(10, 10, BUY, 101, 3)],
    events: [
      accepted(10, 10, BUY, 101, 3),
      expired(1, 10, 5, ExpireReason.SelfTrade),
      trade(2, 11, 10, 10, 101, 3, BUY),
      filled(2, 11, 3),
      filled(10, 10, 3),
      level(SELL, 101, 0),
    ],
    bids: BASE_BIDS,
    asks: [[102, 4]],
  },
  {
    name: 'FOK under expire-taker counts only what lies before the own order, so it expires untouched',
    act: [limit(10, 11, BUY, 102, 6, FOK)],
    events: [accepted(10, 11, BUY, 102, 6, FOK), expired(10, 11, 6, ExpireReason.FillOrKill)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
    queues: [[SELL, 101, [1, 2]]],
  },
  {
    name: 'FOK under expire-maker skips the own order and fills',
    act: [limit(10, 11, BUY, 102, 6, FOK, { stp: StpMode.ExpireMaker })],
    events: [
      accepted(10, 11, BUY, 102, 6, FOK),
      trade(1, 10, 10, 11, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 11, 5, 1),
      expired(2, 11, 3, ExpireReason.SelfTrade),
      trade(3, 12, 10, 11, 102, 1, BUY),
      partial(3, 12, 1, 3),
      filled(10, 11, 6),
      level(SELL, 101, 0),
      level(SELL, 102, 3),
    ],
    bids: BASE_BIDS,
    asks: [[102, 3]],
  },

  // ---------------------------------------------------------------- reduce-only cap and trimming
  {
    name: 'reduce-only cap trims the order at entry and it never fills beyond the cap',
    act: [limit(10, 30, SELL, 98, 10, GTC, { flags: 1, maxFillLots: 4 })],
    events: [
      accepted(10, 30, SELL, 98, 4, GTC, 1, 1),
      trade(4, 20, 10, 30, 99, 4, SELL),
      partial(4, 20, 4, 1),
      filled(10, 30, 4),
      level(BUY, 99, 1),
    ],
    bids: [
      [99, 1],
      [98, 2],
    ],
    asks: BASE_ASKS,
  },
  {
    name: 'reduce-only cap on a market order',
    config: { bandPpm: 50_000 },
    act: [market(10, 30, BUY, 20, 100, { flags: 1, maxFillLots: 6 })],
    events: [
      acceptedMarket(10, 30, BUY, 6, 1),
      trade(1, 10, 10, 30, 101, 5, BUY),
      filled(1, 10, 5),
      partial(10, 30, 5, 1),
      trade(2, 11, 10, 30, 101, 1, BUY),
      partial(2, 11, 1, 2),
      filled(10, 30, 6),
      level(SELL, 101, 2),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 2],
      [102, 4],
    ],
  },
  {
    name: 'a cap of 0 is rejected (nothing to reduce)',
    act: [limit(10, 30, SELL, 120, 3, GTC, { flags: 1, maxFillLots: 0 })],
    events: [rejected(CommandKind.Limit, 10, 30, RejectReason.NothingToReduce)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'trim lowers a resting order and keeps its priority',
    act: [trim(1, 2)],
    events: [amended(1, 10, 101, 2, 2, true), level(SELL, 101, 5)],
    bids: BASE_BIDS,
    asks: [
      [101, 5],
      [102, 4],
    ],
    queues: [[SELL, 101, [1, 2]]],
  },
  {
    name: 'trim of a partially filled order keeps its filled part in the total',
    setup: [limit(10, 30, BUY, 101, 2)],
    act: [trim(1, 1)],
    events: [amended(1, 10, 101, 3, 1, true), level(SELL, 101, 4)],
    bids: BASE_BIDS,
    asks: [
      [101, 4],
      [102, 4],
    ],
  },
  {
    name: 'trim to 0 cancels; trim at or above the remaining changes nothing',
    act: [trim(2, 0), trim(1, 5), trim(3, 99)],
    events: [cancelled(2, 11, 3, CancelReason.ReduceOnly), level(SELL, 101, 5)],
    bids: BASE_BIDS,
    asks: [
      [101, 5],
      [102, 4],
    ],
  },
  {
    name: 'guard: a taker meets reduce-only orders of one account beyond its position: the one left with part is trimmed to it first',
    config: { reduceOnlyGuard: GUARD },
    setup: [limit(50, 40, SELL, 100, 4, GTC, RO), limit(51, 40, SELL, 100, 3, GTC, RO)],
    act: [limit(60, 30, BUY, 101, 8, IOC)],
    events: [
      accepted(60, 30, BUY, 101, 8, IOC),
      trade(50, 40, 60, 30, 100, 4, BUY),
      filled(50, 40, 4),
      partial(60, 30, 4, 4),
      amended(51, 40, 100, 2, 2, true),
      trade(51, 40, 60, 30, 100, 2, BUY),
      filled(51, 40, 2),
      partial(60, 30, 6, 2),
      trade(1, 10, 60, 30, 101, 2, BUY),
      partial(1, 10, 2, 3),
      filled(60, 30, 8),
      level(SELL, 100, 0),
      level(SELL, 101, 6),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 6],
      [102, 4],
    ],
  },
  {
    name: 'guard: a reduce-only order whose position the sweep already closed is cancelled, and the taker goes on',
    config: { reduceOnlyGuard: GUARD },
    setup: [limit(50, 40, SELL, 100, 6, GTC, RO), limit(51, 40, SELL, 100, 2, GTC, RO), limit(52, 12, SELL, 100, 1)],
    act: [market(60, 30, BUY, 8, 100)],
    events: [
      acceptedMarket(60, 30, BUY, 8),
      trade(50, 40, 60, 30, 100, 6, BUY),
      filled(50, 40, 6),
      partial(60, 30, 6, 2),
      cancelled(51, 40, 2, CancelReason.ReduceOnly),
      trade(52, 12, 60, 30, 100, 1, BUY),
      filled(52, 12, 1),
      partial(60, 30, 7, 1),
      trade(1, 10, 60, 30, 101, 1, BUY),
      partial(1, 10, 1, 4),
      filled(60, 30, 8),
      level(SELL, 100, 0),
      level(SELL, 101, 7),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 7],
      [102, 4],
    ],
  },
  {
    name: "guard: an account's other orders count as the guard says (one-way: they reduce too; hedge: they do not)",
    config: { reduceOnlyGuard: GUARD },
    setup: [
      limit(50, 40, SELL, 100, 4),
      limit(51, 40, SELL, 100, 4, GTC, RO),
      limit(52, 41, SELL, 100, 3),
      limit(53, 41, SELL, 100, 4, GTC, RO),
    ],
    act: [limit(60, 30, BUY, 100, 20, IOC)],
    events: [
      accepted(60, 30, BUY, 100, 20, IOC),
      trade(50, 40, 60, 30, 100, 4, BUY),
      filled(50, 40, 4),
      partial(60, 30, 4, 16),
      amended(51, 40, 100, 2, 2, true),
      trade(51, 40, 60, 30, 100, 2, BUY),
      filled(51, 40, 2),
      partial(60, 30, 6, 14),
      trade(52, 41, 60, 30, 100, 3, BUY),
      filled(52, 41, 3),
      partial(60, 30, 9, 11),
      trade(53, 41, 60, 30, 100, 4, BUY),
      filled(53, 41, 4),
      partial(60, 30, 13, 7),
      expired(60, 30, 7, ExpireReason.ImmediateOrCancel),
      level(SELL, 100, 0),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'guard: a FOK counts what the reduce-only orders may fill, then fills through them',
    config: { reduceOnlyGuard: GUARD },
    setup: [limit(50, 40, SELL, 100, 6, GTC, RO), limit(51, 40, SELL, 100, 6, GTC, RO)],
    act: [limit(60, 30, BUY, 100, 8, FOK), limit(61, 30, BUY, 101, 8, FOK)],
    events: [
      accepted(60, 30, BUY, 100, 8, FOK),
      expired(60, 30, 8, ExpireReason.FillOrKill),
      accepted(61, 30, BUY, 101, 8, FOK),
      trade(50, 40, 61, 30, 100, 6, BUY),
      filled(50, 40, 6),
      partial(61, 30, 6, 2),
      cancelled(51, 40, 6, CancelReason.ReduceOnly),
      trade(1, 10, 61, 30, 101, 2, BUY),
      partial(1, 10, 2, 3),
      filled(61, 30, 8),
      level(SELL, 100, 0),
      level(SELL, 101, 6),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 6],
      [102, 4],
    ],
  },
  {
    name: 'guard: the taker is capped by its maxFillLots only (the guard is asked about resting orders); one within its cap is untouched',
    config: { reduceOnlyGuard: GUARD },
    setup: [limit(50, 40, BUY, 99, 3, GTC, RO)],
    act: [limit(60, 41, SELL, 98, 9, IOC, { flags: 1, maxFillLots: 7 })],
    events: [
      accepted(60, 41, SELL, 98, 7, IOC, 1, 1),
      trade(4, 20, 60, 41, 99, 5, SELL),
      filled(4, 20, 5),
      partial(60, 41, 5, 2),
      trade(50, 40, 60, 41, 99, 2, SELL),
      partial(50, 40, 2, 1),
      filled(60, 41, 7),
      level(BUY, 99, 1),
    ],
    bids: [
      [99, 1],
      [98, 2],
    ],
    asks: BASE_ASKS,
  },
  {
    name: 'no guard: resting reduce-only orders fill whole (their cap is what trimOrder sets)',
    setup: [limit(50, 40, SELL, 100, 6, GTC, RO), limit(51, 40, SELL, 100, 2, GTC, RO)],
    act: [limit(60, 30, BUY, 100, 8, IOC)],
    events: [
      accepted(60, 30, BUY, 100, 8, IOC),
      trade(50, 40, 60, 30, 100, 6, BUY),
      filled(50, 40, 6),
      partial(60, 30, 6, 2),
      trade(51, 40, 60, 30, 100, 2, BUY),
      filled(51, 40, 2),
      filled(60, 30, 8),
      level(SELL, 100, 0),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'trim of an unknown order or with a bad cap is rejected',
    act: [trim(77, 1), trim(1, -1), trim(1, 1.5)],
    events: [
      rejected(CommandKind.Trim, 77, -1, RejectReason.UnknownOrder),
      rejected(CommandKind.Trim, 1, -1, RejectReason.InvalidCap),
      rejected(CommandKind.Trim, 1, -1, RejectReason.InvalidCap),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },

  // ---------------------------------------------------------------- cancel
  {
    name: 'cancel removes an order from the middle of nothing but its level total',
    act: [cancel(1)],
    events: [cancelled(1, 10, 5, CancelReason.User), level(SELL, 101, 3)],
    bids: BASE_BIDS,
    asks: [
      [101, 3],
      [102, 4],
    ],
    queues: [[SELL, 101, [2]]],
  },
  {
    name: 'cancel of the last order at the best level removes the level',
    act: [cancel(4, 20)],
    events: [cancelled(4, 20, 5, CancelReason.User), level(BUY, 99, 0)],
    bids: [[98, 2]],
    asks: BASE_ASKS,
  },
  {
    name: 'cancel of an unknown id, of another account, or twice is rejected',
    act: [cancel(77), cancel(1, 99), cancel(5), cancel(5)],
    events: [
      rejected(CommandKind.Cancel, 77, -1, RejectReason.UnknownOrder),
      rejected(CommandKind.Cancel, 1, 99, RejectReason.UnknownOrder),
      cancelled(5, 21, 2, CancelReason.User),
      level(BUY, 98, 0),
      rejected(CommandKind.Cancel, 5, -1, RejectReason.UnknownOrder),
    ],
    bids: [[99, 5]],
    asks: BASE_ASKS,
  },
  {
    name: 'cancel all of an account, in entry order, one level change per level',
    setup: [limit(10, 10, BUY, 97, 1), limit(11, 10, SELL, 101, 2), limit(12, 10, SELL, 105, 1)],
    act: [cancelAll(10), cancelAll(999)],
    events: [
      cancelled(1, 10, 5, CancelReason.CancelAll),
      cancelled(10, 10, 1, CancelReason.CancelAll),
      cancelled(11, 10, 2, CancelReason.CancelAll),
      cancelled(12, 10, 1, CancelReason.CancelAll),
      level(BUY, 97, 0),
      level(SELL, 101, 3),
      level(SELL, 105, 0),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 3],
      [102, 4],
    ],
    queues: [[SELL, 101, [2]]],
  },

  // ---------------------------------------------------------------- amend
  {
    name: 'amend down in quantity keeps priority',
    act: [amend(1, 101, 2)],
    events: [amended(1, 10, 101, 2, 2, true), level(SELL, 101, 5)],
    bids: BASE_BIDS,
    asks: [
      [101, 5],
      [102, 4],
    ],
    queues: [[SELL, 101, [1, 2]]],
  },
  {
    name: 'amend down in quantity with requeue moves to the back of its level (Binance modify)',
    act: [amend(1, 101, 2, { requeue: true })],
    events: [amended(1, 10, 101, 2, 2, false), level(SELL, 101, 5)],
    bids: BASE_BIDS,
    asks: [
      [101, 5],
      [102, 4],
    ],
    queues: [[SELL, 101, [2, 1]]],
  },
  {
    name: 'amend up in quantity loses priority (moves to the back of its level)',
    act: [amend(1, 101, 7)],
    events: [amended(1, 10, 101, 7, 7, false), level(SELL, 101, 10)],
    bids: BASE_BIDS,
    asks: [
      [101, 10],
      [102, 4],
    ],
    queues: [[SELL, 101, [2, 1]]],
  },
  {
    name: 'amend of price loses priority even when the price returns',
    act: [amend(1, 102, 5), amend(1, 101, 5)],
    events: [
      amended(1, 10, 102, 5, 5, false),
      level(SELL, 101, 3),
      level(SELL, 102, 9),
      amended(1, 10, 101, 5, 5, false),
      level(SELL, 101, 8),
      level(SELL, 102, 4),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
    queues: [
      [SELL, 101, [2, 1]],
      [SELL, 102, [3]],
    ],
  },
  {
    name: 'amend of price across the spread trades as a taker',
    act: [amend(4, 101, 6)],
    events: [
      amended(4, 20, 101, 6, 6, false),
      trade(1, 10, 4, 20, 101, 5, BUY),
      filled(1, 10, 5),
      partial(4, 20, 5, 1),
      trade(2, 11, 4, 20, 101, 1, BUY),
      partial(2, 11, 1, 2),
      filled(4, 20, 6),
      level(BUY, 99, 0),
      level(SELL, 101, 2),
    ],
    bids: [[98, 2]],
    asks: [
      [101, 2],
      [102, 4],
    ],
  },
  {
    name: 'amend takes the new total quantity: the filled part counts',
    setup: [limit(10, 30, BUY, 101, 2)],
    act: [amend(1, 101, 4), amend(1, 101, 2), amend(1, 101, 1)],
    events: [
      amended(1, 10, 101, 4, 2, true),
      level(SELL, 101, 5),
      rejected(CommandKind.Amend, 1, -1, RejectReason.AmendQtyNotAboveFilled),
      rejected(CommandKind.Amend, 1, -1, RejectReason.AmendQtyNotAboveFilled),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 5],
      [102, 4],
    ],
  },
  {
    name: 'amend of a GTX order to a crossing price expires it',
    setup: [limit(10, 30, BUY, 100, 2, GTX)],
    act: [amend(10, 101, 2)],
    events: [amended(10, 30, 101, 2, 2, false), expired(10, 30, 2, ExpireReason.PostOnly), level(BUY, 100, 0)],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
  {
    name: 'amend with a reduce-only cap trims the new quantity',
    act: [amend(1, 101, 9, { maxFillLots: 6 }), amend(2, 101, 5, { maxFillLots: 0 })],
    events: [
      amended(1, 10, 101, 6, 6, false),
      level(SELL, 101, 9),
      rejected(CommandKind.Amend, 2, -1, RejectReason.NothingToReduce),
    ],
    bids: BASE_BIDS,
    asks: [
      [101, 9],
      [102, 4],
    ],
    queues: [[SELL, 101, [2, 1]]],
  },
  {
    name: 'amend rejections: no change, unknown id, wrong account, bad price',
    act: [amend(1, 101, 5), amend(77, 101, 5), amend(1, 101, 4, { account: 12 }), amend(1, 0, 4)],
    events: [
      rejected(CommandKind.Amend, 1, -1, RejectReason.AmendNoChange),
      rejected(CommandKind.Amend, 77, -1, RejectReason.UnknownOrder),
      rejected(CommandKind.Amend, 1, 12, RejectReason.UnknownOrder),
      rejected(CommandKind.Amend, 1, -1, RejectReason.InvalidPrice),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },

  // ---------------------------------------------------------------- input validation
  {
    name: 'bad input is rejected with a reason, never thrown, and changes nothing',
    act: [
      limit(1, 30, BUY, 100, 1),
      limit(10, 30, BUY, 100, 0),
      limit(10, 30, BUY, 0, 1),
      limit(10, 30, BUY, -5, 1),
      limit(10, 30, BUY, 100.5, 1),
      limit(10, 30, 3, 100, 1),
      limit(10, 30, BUY, 100, 1, 9),
      limit(-1, 30, BUY, 100, 1),
      limit(Number.NaN, 30, BUY, 100, 1),
      limit(10, -2, BUY, 100, 1),
      limit(10, 30, BUY, 100, 1, GTC, { flags: 2 }),
      limit(10, 30, BUY, 100, 1, GTC, { stp: 7 }),
      limit(10, 30, BUY, 100, 1, GTC, { maxFillLots: -3 }),
      market(10, 30, BUY, 1, 0),
      market(1, 30, BUY, 1, 100),
      cancelAll(-4),
    ],
    events: [
      rejected(CommandKind.Limit, 1, 30, RejectReason.DuplicateOrderId),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidQuantity),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidPrice),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidPrice),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidPrice),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidSide),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidTimeInForce),
      rejected(CommandKind.Limit, -1, 30, RejectReason.InvalidOrderId),
      rejected(CommandKind.Limit, Number.NaN, 30, RejectReason.InvalidOrderId),
      rejected(CommandKind.Limit, 10, -2, RejectReason.InvalidAccount),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidFlags),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidStpMode),
      rejected(CommandKind.Limit, 10, 30, RejectReason.InvalidCap),
      rejected(CommandKind.Market, 10, 30, RejectReason.InvalidReferencePrice),
      rejected(CommandKind.Market, 1, 30, RejectReason.DuplicateOrderId),
      rejected(CommandKind.CancelAll, -1, -4, RejectReason.InvalidAccount),
    ],
    bids: BASE_BIDS,
    asks: BASE_ASKS,
  },
];

/**
 * The books the table runs against (one table, two implementations): the engine, and the naive
 * reference book that is the property tests' oracle. Both take the same commands and must emit
 * the same events and leave the same book; only the engine has an internal audit.
 */
interface Implementation {
  name: string;
  make(config: BookConfig, sink: RecordingSink): Pick<OrderBook, 'updateId' | 'snapshot' | 'levelOrderIds'>;
  apply(book: unknown, c: Command): void;
  audit(book: unknown): string[];
}
const implementations: Implementation[] = [
  {
    name: 'OrderBook',
    make: (config, sink) => new OrderBook(config, sink),
    apply: (book, c) => applyCommand(book as OrderBook, c),
    audit: (book) => (book as OrderBook).audit(),
  },
  {
    name: 'ReferenceBook',
    make: (config, sink) => new ReferenceBook(config, sink),
    apply: (book, c) => (book as ReferenceBook).execute(c),
    audit: () => [],
  },
];

function run(impl: Implementation, s: Scenario) {
  const sink = new RecordingSink();
  const book = impl.make({ bandPpm: 50_000, ...s.config }, sink);
  for (const c of [...BASE, ...(s.setup ?? [])]) impl.apply(book, c);
  sink.take();
  const baseUpdateId = book.updateId;
  for (const c of s.act) impl.apply(book, c);
  return { book, events: sink.take(), baseUpdateId };
}

describe.each(implementations.map((impl) => [impl.name, impl] as const))('engine scenarios: %s', (_impl, impl) => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const { book, events, baseUpdateId } = run(impl, s);
    let id = baseUpdateId;
    const expected = s.events.map((e) => (e.type === 'level' ? { ...e, updateId: ++id } : e));
    expect(events).toEqual(expected);
    expect(book.updateId).toBe(id);
    expect(book.snapshot()).toEqual({ updateId: id, bids: s.bids, asks: s.asks });
    for (const [side, price, ids] of s.queues ?? []) expect(book.levelOrderIds(side as 1 | 2, price)).toEqual(ids);
    expect(impl.audit(book)).toEqual([]);
  });
});
