// Schemas of the replay routes (replay.ts): a replay's status, its control actions, the start of
// a hosted replay, its listing, its closing and the session report. Each is checked at compile time against
// its wire type of src-shared/types/replay.ts, the one the SDK names (`agree`).
import { Type, type Static } from 'typebox';
import type {
  ReplayAction,
  ReplayClosed,
  ReplayInfo,
  ReplayReport,
  ReplayState,
  StartReplayRequest,
} from '../../../src-shared/types.ts';
import { MAX_PAPER_USDT } from '../../accounts/credentials.ts';
import { MAX_SPEED, MIN_SPEED } from '../../core/clock.ts';
import { MAX_LATENCY_MS } from '../../replay/models/constant-latency.ts';
import { MAX_STEP_MS } from '../../replay/session.ts';
import { REPORT_TABLES } from '../../replay/session-report.ts';
import { agree, agreeSent, strEnum, tuple } from '../schemas.ts';

/** The last ms a JavaScript Date holds (a start or end past it has no calendar time). */
const MAX_TIME = 8_640_000_000_000_000;

export const statusSchema = Type.Object({
  symbols: Type.Array(Type.String(), { description: 'The replayed pairs' }),
  start: Type.Integer({ description: 'Replay start, ms UTC (historical time)' }),
  until: Type.Integer({ description: 'Replay end, ms UTC' }),
  time: Type.Integer({ description: 'Historical time the replay has reached, ms UTC' }),
  speed: Type.Number({
    description: `Clock speed, ${MIN_SPEED} to ${MAX_SPEED} times real time (while playing, not in lockstep)`,
  }),
  paused: Type.Boolean(),
  lockstep: Type.Boolean({
    description: 'The clock moves only by steps (a client steps it, or play runs it as fast as it can)',
  }),
  finished: Type.Boolean({ description: 'The replay reached until' }),
  events: Type.Integer({ description: 'Historical events applied so far' }),
  sources: Type.Record(
    Type.String(),
    Type.Union([Type.Literal('depth'), Type.Literal('trades'), Type.Literal('klines')]),
    {
      description: 'Per symbol, what the market is rebuilt from',
    },
  ),
  datasets: Type.Record(
    Type.String(),
    Type.Array(
      Type.Object({
        role: Type.Union(
          [
            Type.Literal('depth'),
            Type.Literal('trades'),
            Type.Literal('klines'),
            Type.Literal('mark'),
            Type.Literal('index'),
            Type.Literal('funding'),
            Type.Literal('premium'),
          ],
          { description: 'What it gives: the book, the prints, mark, index, funding, or premium (the funding basis)' },
        ),
        id: Type.Integer({ description: 'The dataset (GET /api/v1/datasets/{id})' }),
        market: Type.Union([Type.Literal('spot'), Type.Literal('um'), Type.Literal('cm')]),
        kind: Type.String({ description: 'Its kind: depth, trades, aggTrades, klines, markPriceKlines, ...' }),
        interval: Type.String({ description: "Its candle interval; '' for a kind without one" }),
      }),
    ),
    {
      description:
        "Per symbol, the datasets the replay reads and what each gives: those pinned by the start's datasets field, the " +
        "venue's pick for the other roles",
    },
  ),
  gaps: Type.Record(
    Type.String(),
    Type.Object({
      count: Type.Integer({ description: 'Breaks met in the L2 depth stream so far' }),
      times: Type.Array(Type.Integer(), { description: 'Market ms of the first 100 breaks' }),
    }),
    {
      description:
        'Per symbol, the breaks (gaps) met in its depth stream: the book stays as it was until the next snapshot re-anchors it',
    },
  ),
  id_overruns: Type.Record(Type.String(), Type.Integer(), {
    description:
      "Per symbol, the L2 diffs after which the book's update id stood above the diff's u (the venue's own changes " +
      'between two diffs took more ids than the recording left there); 0 for trades and klines',
  }),
  queue_model: Type.Union([Type.Literal('pessimistic'), Type.Literal('probabilistic')]),
  order_latency: Type.Integer({
    description: 'Order entry latency, ms of history: an order sent at time t reaches the matching engine at t + this',
  }),
  data_latency: Type.Integer({
    description: 'Market-data latency, ms of history: WebSocket market data built at time t reach clients at t + this',
  }),
  response_latency: Type.Integer({
    description:
      "Order response latency, ms of history: an order's answer and its owner's account events arrive this long after the engine applied it",
  }),
  held: Type.Boolean({ description: 'A WebSocket client holds the clock (lockstep stepping); others may not move it' }),
  live_url: Type.Union([Type.String(), Type.Null()], {
    description: 'The live venue to go back to; null for a replay started with --replay',
  }),
  fault: Type.Union(
    [
      Type.Object({
        time: Type.Integer({ description: 'Market ms history had reached when applying it failed' }),
        message: Type.String({ description: 'The failure' }),
      }),
      Type.Null(),
    ],
    {
      description:
        'Applying history failed (datasets unreadable, a commit failed): the replay is stopped for good, every play, ' +
        'step, seek and new order is refused 5001; close it and open it again. null while the replay is sound',
    },
  ),
});

export const actionBody = Type.Object(
  {
    action: strEnum(
      ['play', 'pause', 'speed', 'step', 'seek'] as const,
      'What to do; speed, step and seek take their field',
    ),
    speed: Type.Optional(Type.Number({ minimum: MIN_SPEED, maximum: MAX_SPEED, description: "With action 'speed'" })),
    ms: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_STEP_MS, description: "With action 'step': market ms to advance" }),
    ),
    time: Type.Optional(
      Type.Integer({ minimum: 0, description: "With action 'seek': the historical ms UTC to go to (forward only)" }),
    ),
  },
  { additionalProperties: false },
);

export const startBody = Type.Object(
  {
    symbols: Type.Array(Type.String({ pattern: '^[A-Z0-9]{2,30}$' }), {
      minItems: 1,
      maxItems: 10,
      description: 'Pairs to replay together (their datasets must overlap)',
    }),
    start: Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'Historical start, ms UTC' }),
    until: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TIME,
        description: 'Historical end, ms UTC (default: the end of the data)',
      }),
    ),
    datasets: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, description: 'A dataset id (GET /api/v1/datasets)' }), {
        maxItems: 70,
        description:
          'Datasets to read, by id (default: none, every role chosen by the venue). Each must be a dataset of one of the ' +
          "symbols; it fixes that symbol's dataset for the role its kind gives: the main source (depth; trades or aggTrades; " +
          'klines), mark (markPriceKlines), index (indexPriceKlines), premium (premiumIndexKlines) or funding (fundingRate). ' +
          'A pinned main dataset makes the pair replay its kind (the richest pinned: depth, then trades, then klines; a ' +
          'pinned klines dataset replays klines even where trades exist), and the start and span are checked against it ' +
          'alone; a pinned dataset of another role must have data between start and until. Roles not pinned are chosen ' +
          "as without this field, preferring a pinned main dataset's market. The status' datasets show what is read",
      }),
    ),
    speed: Type.Optional(
      Type.Number({ minimum: MIN_SPEED, maximum: MAX_SPEED, description: 'Clock speed (default 1)' }),
    ),
    balance: Type.Optional(
      Type.String({
        maxLength: 40,
        description: `Starting USDT balance of the replay's local account: decimal string, > 0, at most 8 decimals and ${MAX_PAPER_USDT} (default "10000"; more is 1001)`,
      }),
    ),
    queue_model: Type.Optional(strEnum(['pessimistic', 'probabilistic'] as const, 'Default probabilistic')),
    lockstep: Type.Optional(Type.Boolean({ description: 'Open in lockstep (default false)' })),
    order_latency: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LATENCY_MS,
        description: `Order entry latency, ms of history, 0 to ${MAX_LATENCY_MS} (default 0)`,
      }),
    ),
    data_latency: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LATENCY_MS,
        description: `Market-data latency of the WebSocket streams, ms of history, 0 to ${MAX_LATENCY_MS} (default 0)`,
      }),
    ),
    response_latency: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LATENCY_MS,
        description: `Order response latency, ms of history, 0 to ${MAX_LATENCY_MS} (default 0)`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const infoSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'Where the replay venue listens (its API and the trading screen)' }),
  login_url: Type.String({ description: "One-time browser login link of the replay's local account" }),
  status: statusSchema,
});

export const closedSchema = Type.Object({ id: Type.String(), closed: Type.Boolean() });

export const reportQuery = Type.Object(
  {
    format: Type.Optional(strEnum(['json', 'csv'] as const, 'Default json')),
    table: Type.Optional(strEnum(REPORT_TABLES, 'With format=csv: summary (default), equity or fills')),
  },
  { additionalProperties: false },
);

export const reportSchema = Type.Object({
  start: Type.Integer({ description: 'Market ms of the session start' }),
  time: Type.Integer({ description: 'Market ms of this report' }),
  complete: Type.Boolean({
    description: 'False when applying history failed: the session was cut short at stopped_at (status fault)',
  }),
  stopped_at: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Market ms history stopped at when it failed; null for a sound replay',
  }),
  accounts: Type.Array(
    Type.Object({
      user_id: Type.Integer(),
      starting_equity: Type.String(),
      wallet_balance: Type.String(),
      equity: Type.String({ description: 'Wallet balance + unrealized PnL' }),
      fills: Type.Integer(),
      volume: Type.String({ description: "Sum of the fills' quote quantities, USDT" }),
      realized_pnl: Type.String(),
      unrealized_pnl: Type.String(),
      fees: Type.String({ description: 'Fees paid (negative: rebates)' }),
      funding: Type.String({ description: 'Funding received (negative: paid)' }),
      net_pnl: Type.String({
        description:
          'equity - starting_equity - USDT deposited (withdrawn, set by a reset) since the account entered the report',
      }),
      max_drawdown: Type.String({
        description:
          'Largest fall of the net equity (equity net of deposits, withdrawals and resets) from a running peak, USDT',
      }),
      max_drawdown_ratio: Type.Number({
        description:
          'The steepest fall of the net equity: the largest share of its running peak it fell by (0 to 1), maybe another fall than max_drawdown',
      }),
      liquidations: Type.Integer(),
      time_in_market_ms: Type.Integer({ description: 'Market ms with any position open' }),
      time_in_market_ratio: Type.Number(),
      equity_curve: Type.Array(tuple([Type.Integer(), Type.String()]), {
        description: '[market ms, equity] samples, oldest first',
      }),
      net_equity_curve: Type.Array(tuple([Type.Integer(), Type.String()]), {
        description: '[market ms, net equity] at the times of equity_curve: starting_equity + the net_pnl then',
      }),
    }),
  ),
});

agree<typeof statusSchema, ReplayState>(true);
agreeSent<typeof startBody, StartReplayRequest>(true);
agree<typeof infoSchema, ReplayInfo>(true);
agree<typeof closedSchema, ReplayClosed>(true);
agree<typeof reportSchema, ReplayReport>(true);
// One body takes every action (readAction in replay.ts picks its field): the action names agree,
// and each ReplayAction is a body the schema takes.
agree<typeof actionBody.properties.action, ReplayAction['action']>(true);
const everyActionFits: [ReplayAction] extends [Static<typeof actionBody>] ? true : false = true;
void everyActionFits;
