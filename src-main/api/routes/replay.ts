// Replay sessions (docs/replay.md).
// On a replay venue: GET /api/v1/replay (public status), POST /api/v1/replay (loopback: play,
// pause, speed, step, seek), GET /api/v1/replay/report (loopback: the session report as JSON or
// a CSV table). On the live venue these answer 404 / 1108 (not a replay).
// On the live venue: POST/GET /api/v1/replays and DELETE /api/v1/replays/{id} (loopback) start,
// list and close replay venues hosted in the same process, each on its own loopback port
// (replay/host.ts ReplayHost). A replay venue answers them 404 / 1108 too:
// replays are started from the live venue.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { parseFixed } from '../../../src-shared/decimal.ts';
import { MAX_PAPER_USDT, MAX_PAPER_BALANCE } from '../../accounts/credentials.ts';
import { MAX_SPEED, MIN_SPEED } from '../../core/clock.ts';
import { MAX_REPLAYS, type ReplayHost } from '../../replay/host.ts';
import { MAX_LATENCY_MS } from '../../replay/models/constant-latency.ts';
import { MAX_STEP_MS, type ReplaySession } from '../../replay/session.ts';
import type { ReplayAction } from '../../../src-shared/types.ts';
import { reportCsv, type ReportTable } from '../../replay/session-report.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { noQuery, type ApiInstance } from '../schemas.ts';
import {
  actionBody,
  closedSchema,
  infoSchema,
  reportQuery,
  reportSchema,
  startBody,
  statusSchema,
} from './replay-schemas.ts';
import { strictJsonBody } from '../strict-input.ts';

export type { ReplayHost };

const ACTION_FIELD = { speed: 'speed', step: 'ms', seek: 'time' } as const;

/** The action of a POST /api/v1/replay body or a REPLAY WebSocket request; ApiError 1001/1002 otherwise. */
export function readAction(b: { action: string; speed?: number; ms?: number; time?: number }): ReplayAction {
  const wanted = (ACTION_FIELD as Record<string, 'speed' | 'ms' | 'time'>)[b.action];
  for (const f of ['speed', 'ms', 'time'] as const) {
    if (b[f] !== undefined && f !== wanted)
      throw new ApiError(
        Errors.INVALID_PARAMETER,
        `'${f}' goes with action '${f === 'ms' ? 'step' : f === 'time' ? 'seek' : 'speed'}', not '${b.action}'`,
      );
  }
  if (wanted !== undefined && b[wanted] === undefined)
    throw new ApiError(Errors.MISSING_PARAMETER, `action '${b.action}' needs '${wanted}'`);
  switch (b.action) {
    case 'play':
    case 'pause':
      return { action: b.action };
    case 'speed':
      return { action: 'speed', speed: b.speed! };
    case 'step':
      return { action: 'step', ms: b.ms! };
    case 'seek':
      return { action: 'seek', time: b.time! };
    default:
      throw new ApiError(
        Errors.INVALID_PARAMETER,
        `action must be play, pause, speed, step or seek; got '${b.action}'`,
      );
  }
}

function requireReplay(replay: ReplaySession | null): ReplaySession {
  if (replay === null)
    throw new ApiError(
      Errors.NOT_A_REPLAY,
      `${Errors.NOT_A_REPLAY.message}: the replay routes answer on a replay venue (POST /api/v1/replays starts one)`,
    );
  return replay;
}

export interface ReplayRouteOptions {
  /** The venue's replay session; null on the live venue. */
  replay: ReplaySession | null;
  /** The live venue's replay host; undefined on a replay venue. */
  host?: ReplayHost;
}

export default async function replayRoutes(app: ApiInstance, opts: ReplayRouteOptions): Promise<void> {
  const { replay, host } = opts;

  app.get(
    '/api/v1/replay',
    {
      schema: {
        tags: ['replay'],
        summary: 'Replay status: symbols, historical time, speed, lockstep',
        description: 'Public. On the live venue: 404 / 1108 (the screen uses this to know it is on a replay).',
        querystring: noQuery,
        response: { 200: envelopeSchema(statusSchema), ...standardErrors() },
      },
    },
    async () => ok(requireReplay(replay).status()),
  );

  app.post(
    '/api/v1/replay',
    {
      config: { auth: 'loopback' },
      preValidation: strictJsonBody(actionBody),
      schema: {
        tags: ['replay'],
        summary: 'Play, pause, set the speed, step by a duration or seek forward (loopback only)',
        description:
          "action 'play' resumes (in lockstep: runs as fast as it can), 'pause' stops the clock, 'speed' takes speed " +
          `(${MIN_SPEED} to ${MAX_SPEED}), 'step' takes ms (1 to ${MAX_STEP_MS}: applies every historical event up to time + ms at ` +
          "once, pausing first), 'seek' takes time (ms UTC, from the current time to until: forward only). Only the field of the " +
          'action may be sent (1001); a missing one is 1002. While a WebSocket client holds the clock in lockstep, play, step and ' +
          'seek answer 403 / 2104. A refused action changes nothing; a step or seek whose history cannot be applied (a ' +
          'fault) is 500 / 5000 naming why, with play or pause as before. Answers the new status. On the live venue: 404 / 1108.',
        querystring: noQuery,
        body: actionBody,
        response: { 200: envelopeSchema(statusSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const r = requireReplay(replay);
      return ok(r.act(readAction(req.body)));
    },
  );

  app.get(
    '/api/v1/replay/report',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['replay'],
        summary:
          'The session report: per account fills, PnL, fees, funding, drawdown, time in market, equity curve (loopback only)',
        description:
          'format=json (default): the envelope. format=csv: one table as text/csv with a header row (table=summary, one row per ' +
          "account, ending with the session's complete and stopped_at; equity, [user_id, time, equity] samples; fills, the session's fills), sent as a download. On the live venue: 404 / 1108.",
        querystring: reportQuery,
        response: { 200: envelopeSchema(reportSchema), ...standardErrors(403) },
      },
    },
    async (req, reply) => {
      const r = requireReplay(replay);
      const { format = 'json', table } = req.query as { format?: 'json' | 'csv'; table?: ReportTable };
      if (table !== undefined && format !== 'csv')
        throw new ApiError(Errors.INVALID_PARAMETER, 'table goes with format=csv');
      const data = r.report.report();
      if (format === 'json') return ok(data);
      const t = table ?? 'summary';
      const csv = reportCsv(data, r.report.fills(), t);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="replay-${r.status().symbols.join('-')}-${t}.csv"`)
        .serializer((p: unknown) => p as string)
        .send(csv as never);
    },
  );

  const noHost = () =>
    new ApiError(
      Errors.NOT_A_REPLAY,
      "Replays are started, listed and closed on the live venue, not on a replay (see its status' live_url)",
    );

  app.post(
    '/api/v1/replays',
    {
      config: { auth: 'loopback' },
      preValidation: strictJsonBody(startBody),
      schema: {
        tags: ['replay'],
        summary: 'Start a replay venue of imported data (loopback only)',
        description:
          "Starts a replay of the symbols' imported datasets (GET /api/v1/datasets) from start, in this process, on its own " +
          'loopback port, with its own accounts and records (in memory: they end with the replay). Answers its url, a ' +
          'one-time login_url for the trading screen, and its status. order_latency: an order (place, cancel, TP/SL) sent at ' +
          'historical time t reaches the matching engine at t + order_latency, and its answer comes response_latency later ' +
          "(the owner's user stream events too); data_latency: the " +
          'WebSocket market streams reach clients that many ms of history late (REST reads show the venue now). ' +
          'Errors: a symbol without a usable dataset 1106; start ' +
          'outside the data, until not after start, datasets that do not overlap, a bad balance, ' +
          `a latency not an integer from 0 to ${MAX_LATENCY_MS} 1001; in datasets an id listed twice, no dataset of ` +
          'that id, a dataset of another symbol or of a kind a replay does not read (bookTicker, bookDepth, 1M candles), ' +
          'two datasets for one role of one symbol, or a pinned dataset without data at the start (the main one) or in ' +
          'the span (another role) 1001, naming it; more than ' +
          `${MAX_REPLAYS} replays running 1010. Only on the live venue (a replay answers 1108).`,
        querystring: noQuery,
        body: startBody,
        response: { 200: envelopeSchema(infoSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      if (host === undefined) throw noHost();
      const b = req.body;
      if (new Set(b.symbols).size !== b.symbols.length)
        throw new ApiError(Errors.INVALID_PARAMETER, 'symbols names a pair twice');
      if (b.until !== undefined && b.until <= b.start)
        throw new ApiError(Errors.INVALID_PARAMETER, 'until must be after start');
      let balance: bigint | undefined;
      if (b.balance !== undefined) {
        const p = parseFixed(b.balance, 8);
        if (!p.ok)
          throw new ApiError(
            Errors.INVALID_PARAMETER,
            `balance must be a positive USDT amount with at most 8 decimals; got '${b.balance.slice(0, 40)}'`,
          );
        if (p.value > MAX_PAPER_BALANCE)
          throw new ApiError(
            Errors.INVALID_PARAMETER,
            `balance must be at most ${MAX_PAPER_USDT} USDT; got '${b.balance}'`,
          );
        balance = p.value;
      }
      return ok(
        await host.start({
          symbols: b.symbols,
          start: b.start,
          ...(b.until === undefined ? {} : { until: b.until }),
          ...(b.datasets === undefined ? {} : { datasets: b.datasets }),
          ...(b.speed === undefined ? {} : { speed: b.speed }),
          ...(balance === undefined ? {} : { balance }),
          ...(b.queue_model === undefined ? {} : { queueModel: b.queue_model }),
          ...(b.lockstep === undefined ? {} : { lockstep: b.lockstep }),
          ...(b.order_latency === undefined ? {} : { orderLatency: b.order_latency }),
          ...(b.data_latency === undefined ? {} : { dataLatency: b.data_latency }),
          ...(b.response_latency === undefined ? {} : { responseLatency: b.response_latency }),
        }),
      );
    },
  );

  app.get(
    '/api/v1/replays',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['replay'],
        summary: 'The replays this venue runs (loopback only)',
        description:
          'Each with a renewed one-time login_url (the previous link stops working). A replay venue answers 1108.',
        querystring: noQuery,
        response: { 200: envelopeSchema(Type.Array(infoSchema)), ...standardErrors(403) },
      },
    },
    async () => {
      if (host === undefined) throw noHost();
      return ok(host.list());
    },
  );

  app.delete(
    '/api/v1/replays/:id',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['replay'],
        summary: 'Close a replay (loopback only)',
        description:
          'Stops it, closes its port and drops its accounts and records (download its report first). Unknown id: 1107.',
        querystring: noQuery,
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }),
        response: {
          200: envelopeSchema(closedSchema),
          ...standardErrors(403),
        },
      },
    },
    async (req) => {
      if (host === undefined) throw noHost();
      const { id } = req.params as { id: string };
      if (!(await host.close(id)))
        throw new ApiError(Errors.REPLAY_NOT_FOUND, `${Errors.REPLAY_NOT_FOUND.message}: no replay '${id}' is running`);
      return ok({ id, closed: true });
    },
  );
}
