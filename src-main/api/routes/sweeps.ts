// Sweep results (docs/sweeps.md): the sweeps recorded in this service's data folder, each with
// its jobs' status and metrics and its per-parameter-set view, as JSON or a CSV download, and one
// job's result with its equity curve. Read-only and public like the dataset catalogue: the
// sweeps are run by `npm run sweep`, which writes them; the service reads them through the
// SweepResults it is handed (service.ts), so this transport knows no sweep code.
import { Type, type Static } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import type { SweepExampleWire, SweepJobWire, SweepSummaryWire, SweepWire } from '../../../src-shared/types/sweeps.ts';
import { agree, noQuery, strEnum, tuple, type ApiInstance } from '../schemas.ts';

const num = (description?: string) => Type.Number(description === undefined ? {} : { description });
const numOrNull = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });
const paramsSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
  description: 'The parameter set, as the grid file gave it, completed with its defaults',
});
const statusSchema = strEnum(['pending', 'ok', 'failed', 'timeout', 'error'] as const, 'The job status');

const summarySchema = Type.Object({
  id: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
  state: strEnum(
    ['running', 'done', 'stopped', 'interrupted'] as const,
    'running: its coordinator is alive; stopped: some jobs have no result (npm run sweep -- --resume ID); ' +
      'interrupted: its coordinator is gone without stopping it (killed, or its machine stopped): ' +
      'npm run sweep -- --resume ID, or --remove ID',
  ),
  bot: Type.String(),
  replay: Type.String(),
  split: Type.String(),
  jobs: Type.Integer(),
  done: Type.Integer(),
  ok: Type.Integer(),
  failed: Type.Integer({
    description: 'Done but not ok: failed, timeout or error (the bot failed: failed - timeouts - errors)',
  }),
  timeouts: Type.Integer({ description: 'Of failed: the jobs whose bot ran past the time bound (status timeout)' }),
  errors: Type.Integer({
    description:
      'Of failed: the jobs that could not run (status error: infrastructure, not the bot); npm run sweep -- --resume ID reruns them',
  }),
  commands: Type.Object(
    {
      resume: Type.Union([Type.String(), Type.Null()], {
        description:
          'The command that finishes it (its jobs without a result) or runs its error jobs again, with --data-dir and ' +
          '--queue as it needs them; null while it runs, when neither is left, or for a sweep another build ' +
          'started (see rerun)',
      }),
      rerun: Type.Union([Type.String(), Type.Null()], {
        description:
          'For a sweep with jobs left that another build than the running one started (the CLI refuses its ' +
          '--resume: two builds would compute its figures): the command that runs it again as a new sweep ' +
          '(--like ID on its own span), or resume it from a checkout of its build; null otherwise',
      }),
      remove: Type.Union([Type.String(), Type.Null()], {
        description: 'The command that deletes it, its results and its dataset pack; null while it runs',
      }),
      like: Type.String({
        description:
          'The command that runs a new sweep of its bot, parameter sets and options (--like ID), here on its own ' +
          'span: put other data in its --replay (out of sample)',
      }),
    },
    { description: 'Its commands as the sweep CLI prints them, to run from the repository as given' },
  ),
  heartbeat_at: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'ms UTC of the last heartbeat of the coordinator that ran it (every 5 s while it runs; a running sweep silent for 30 s reads interrupted)',
  }),
});

const metricsSchema = Type.Object({
  starting_equity: num(),
  net_pnl: num('USDT'),
  return: num('net_pnl / starting_equity'),
  max_drawdown: num('USDT'),
  max_drawdown_ratio: num(),
  sharpe: numOrNull('Of the daily returns, x sqrt(365); null under 2 days'),
  sortino: numOrNull('Of the daily returns, x sqrt(365); null under 2 days or without a losing day'),
  daily_returns: Type.Array(Type.Number()),
  fees: num(),
  funding: num('Received; negative: paid'),
  trades: Type.Integer({ description: 'Fills' }),
  win_rate: numOrNull('Closed positions with a positive realized PnL over all closed'),
  closed_positions: Type.Integer(),
  time_in_market: num('Share of market time with a position open'),
  time_in_market_ms: Type.Optional(
    Type.Integer({
      description:
        "Market ms of the span with a position open (the share's numerator); absent from results stored before 2026-12-06",
    }),
  ),
  turnover: num('Volume over starting equity'),
  volume: Type.Optional(
    num("Traded volume, USDT (the turnover's numerator); absent from results stored before 2026-12-07"),
  ),
  liquidations: Type.Integer(),
});

const jobSchema = Type.Object({
  index: Type.Integer(),
  start: Type.Integer(),
  until: Type.Integer(),
  params: paramsSchema,
  status: statusSchema,
  reason: Type.Union([Type.String(), Type.Null()]),
  exit_code: Type.Union([Type.Integer(), Type.Null()]),
  digest: Type.Union([Type.String(), Type.Null()]),
  wall_ms: Type.Union([Type.Integer(), Type.Null()]),
  metrics: Type.Union([metricsSchema, Type.Null()]),
});

const NO_OK = 'null when the set has no ok job';
const setSchema = Type.Object(
  {
    params: paramsSchema,
    jobs: Type.Integer(),
    ok: Type.Integer(),
    failed: Type.Integer({
      description:
        'Done but not ok (failed, timeout or error): their days are left out of the figures; the bot failed: failed - timeouts - errors',
    }),
    timeouts: Type.Integer({ description: 'Of failed: status timeout' }),
    errors: Type.Integer({
      description: 'Of failed: status error (could not run; npm run sweep -- --resume ID reruns them)',
    }),
    net_pnl: numOrNull(`Over the ok jobs; ${NO_OK}`),
    return: numOrNull(`The ok pieces returns compounded; ${NO_OK}`),
    max_drawdown_ratio: numOrNull(
      'The largest drawdown of the set equity: its ok pieces net equity curves chained in time, each scaled by the ' +
        `compounded return of the pieces before it, as a ratio of the peak before it (at least each piece own); ${NO_OK}`,
    ),
    sharpe: numOrNull('Of all the ok pieces daily returns'),
    sortino: numOrNull('Of all the ok pieces daily returns'),
    fees: numOrNull(NO_OK),
    funding: numOrNull(NO_OK),
    trades: Type.Union([Type.Integer(), Type.Null()], { description: NO_OK }),
    win_rate: numOrNull('Over all the ok pieces closed positions'),
    time_in_market: numOrNull(`Mean over the ok jobs; ${NO_OK}`),
    turnover: numOrNull(NO_OK),
  },
  { description: 'A parameter set over the span pieces: its figures are of its ok jobs only' },
);

const sweepSchema = Type.Object({
  ...summarySchema.properties,
  symbols: Type.Array(Type.String()),
  start: Type.Integer(),
  until: Type.Integer(),
  params: Type.Array(Type.String(), { description: 'Every parameter name of the sets' }),
  defaults: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
    description: "The grid file's defaults: the value a set runs with for a parameter it does not name ({} for none)",
  }),
  datasets: Type.Array(Type.Integer(), {
    description:
      'The datasets the sweep pinned (npm run sweep -- --replay-datasets), by id as GET /api/v1/datasets lists them; ' +
      '[] when each replay took its own pick of the imported datasets',
  }),
  pack_sha256: Type.Union([Type.String(), Type.Null()], {
    description:
      "SHA-256 of the sweep's dataset pack, the imported datasets of its symbols copied when it started: the data every job " +
      'replays, a resumed job included (null in a sweep recorded without one)',
  }),
  jobs_detail: Type.Array(jobSchema),
  sets: Type.Array(setSchema),
});

const jobDetailSchema = Type.Object({
  ...jobSchema.properties,
  output_tail: Type.Array(Type.String()),
  equity: Type.Array(tuple([Type.Integer(), Type.Number()]), {
    description:
      "[market ms, net equity], at most 500 points: the bot account's equity less what it deposited, withdrew or set by a reset, on the job's balance (the basis of return and drawdown)",
  }),
});

// The records answered are src-shared's sweep wire types (the SDK's), field for field.
agree<typeof summarySchema, SweepSummaryWire>(true);
agree<typeof sweepSchema, SweepWire>(true);
agree<typeof jobDetailSchema, SweepJobWire>(true);
export type { SweepJobWire };

const exampleSchema = Type.Object({
  data_dir: Type.Union([Type.String(), Type.Null()], {
    description: "This service's data folder, the one the commands fill and read (null: a folder in memory)",
  }),
  import: Type.String({
    description:
      "The import of the example's data (the repository's BTCUSDT 15m candles of 2025-01-06..12) into it: " +
      'npm run data -- import ..., with --data-dir unless it is the default folder',
  }),
  sweep: Type.String({
    description: 'The example bot swept over that week (a job a day, the example grid) on it: npm run sweep -- ...',
  }),
});
agree<typeof exampleSchema, SweepExampleWire>(true);

/** Where the routes read the sweeps from (the data folder's sweep store). */
export interface SweepResults {
  /** The first sweep to run on this data folder: its commands as given in docs/sweeps.md, with its --data-dir. */
  example(): SweepExampleWire;
  list(): SweepSummaryWire[];
  get(id: string): SweepWire | undefined;
  csv(id: string): string | undefined;
  job(id: string, index: number): SweepJobWire | undefined;
}

const idParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
const jobParams = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
  index: Type.Integer({ minimum: 0 }),
});
const formatQuery = Type.Object(
  { format: Type.Optional(strEnum(['json', 'csv'] as const, 'json (default) or csv: one row per job')) },
  { additionalProperties: false },
);

function notFound(id: string): ApiError {
  return new ApiError(Errors.SWEEP_NOT_FOUND, `No sweep ${id} in this data folder`);
}

export default async function sweepRoutes(app: ApiInstance, opts: { sweeps: SweepResults }): Promise<void> {
  const { sweeps } = opts;
  app.get(
    '/api/v1/sweeps',
    {
      schema: {
        tags: ['sweeps'],
        summary: 'Sweeps',
        description: 'The sweeps run on this data folder (npm run sweep), newest first, with their progress.',
        querystring: noQuery,
        response: { 200: envelopeSchema(Type.Array(summarySchema)), ...standardErrors() },
      },
    },
    async () => ok(sweeps.list()),
  );

  app.get(
    '/api/v1/sweep-example',
    {
      schema: {
        tags: ['sweeps'],
        summary: 'The first sweep to run on this data folder',
        description:
          "docs/sweeps.md's example as commands to run from the repository: the import of its data, then the sweep, " +
          "each on this service's data folder (--data-dir unless it is the default one), so the sweep shows here.",
        querystring: noQuery,
        response: { 200: envelopeSchema(exampleSchema), ...standardErrors() },
      },
    },
    async () => ok(sweeps.example()),
  );

  app.get(
    '/api/v1/sweeps/:id',
    {
      schema: {
        tags: ['sweeps'],
        summary: 'One sweep: its jobs and parameter sets with their metrics (JSON or CSV)',
        params: idParams,
        querystring: formatQuery,
        response: { 200: envelopeSchema(sweepSchema), ...standardErrors() },
      },
    },
    async (req, reply) => {
      const { id } = req.params as Static<typeof idParams>;
      const { format = 'json' } = req.query as Static<typeof formatQuery>;
      if (format === 'csv') {
        const csv = sweeps.csv(id);
        if (csv === undefined) throw notFound(id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="sweep-${id}.csv"`)
          .send(csv as never);
      }
      const v = sweeps.get(id);
      if (v === undefined) throw notFound(id);
      return ok(v);
    },
  );

  app.get(
    '/api/v1/sweeps/:id/jobs/:index',
    {
      schema: {
        tags: ['sweeps'],
        summary: "One job's result: metrics, equity curve, the bot's last output lines",
        params: jobParams,
        querystring: noQuery,
        response: { 200: envelopeSchema(jobDetailSchema), ...standardErrors() },
      },
    },
    async (req) => {
      const { id, index } = req.params as Static<typeof jobParams>;
      const j = sweeps.job(id, index);
      if (j === undefined) throw new ApiError(Errors.SWEEP_NOT_FOUND, `No job ${index} in sweep ${id}`);
      return ok(j);
    },
  );
}
