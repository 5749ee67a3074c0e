// Imported market data (issue 15): the catalogue of datasets, their candles and trades, import
// and delete. Listing and reading are public market data; import, delete and editing specs
// change the venue's files and answer loopback callers only (like the admin routes).
// Candles answer exactly like /fapi/v1/klines (bare array, newest first, errors HTTP 200 with
// {code, message}); everything else is an envelope route.
// Schemas are TypeBox values (schemas.ts): the handlers' request types are Static<> of them and
// the records they answer are typed by them (DatasetWire, ImportResultWire; trade rows are the
// service's TradeView, checked at compile time), so no hand-kept type sits beside a schema.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyError } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import type { KlinesError } from '../../../src-shared/types.ts';
import { DatasetError, type DatasetService, type ImportResult, type TradeView } from '../../data/dataset-service.ts';
import type { DatasetRecord, SpecsSource } from '../../data/ports.ts';
import { expandPaths } from '../../data/expand-paths.ts';
import { KINDS, MARKETS } from '../../data/kinds.ts';
import type { DatasetWire, ImportResultWire } from '../../../src-shared/types/datasets.ts';
import type { Venue } from '../../venue.ts';
import { envelopeSchema, ok, standardErrors } from '../envelope.ts';
import { agree, noQuery, strEnum, type ApiInstance } from '../schemas.ts';
import { klinesValidationError } from './klines.ts';

const DATASET_KLINES_DEFAULT_LIMIT = 500;
const DATASET_KLINES_MAX_LIMIT = 1500;
const DATASET_TRADES_DEFAULT_LIMIT = 500;
const DATASET_TRADES_MAX_LIMIT = 5000;
/** Largest uploaded file: a month of aggTrades of a busy pair zips to a few hundred MB. */
const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;
const MAX_TIME = 8_640_000_000_000_000;
const UPLOAD_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream', 'text/csv'];

const nullable = <T>(type: 'integer' | 'number' | 'string', description?: string) =>
  Type.Unsafe<T | null>({ type: [type, 'null'], ...(description === undefined ? {} : { description }) });

const gapSchema = Type.Object({
  start_time: Type.Integer({ description: 'First missing ms (for candles, the first missing open time)' }),
  end_time: Type.Integer({ description: 'The next ms that has data' }),
  detail: Type.String({
    description: 'What is missing, e.g. "1 1h candle missing" or "aggTrades ids 1040..1041 missing"',
  }),
});

const specsSchema = Type.Object({
  tick_size: Type.String({ description: 'Price step' }),
  step_size: Type.String({ description: 'Quantity step' }),
  tiers: Type.Array(
    Type.Object({
      cap: nullable<number>('number', 'Upper notional bound, USDT (null: none)'),
      max_leverage: Type.Integer(),
      mmr: Type.Number({ description: 'Maintenance margin rate (0.004 = 0.4%)' }),
    }),
    { description: 'Maintenance-margin tiers' },
  ),
  source: strEnum(
    ['catalogue', 'inferred', 'edited'] as const satisfies readonly SpecsSource[],
    "catalogue: the built-in catalogue's (USD-M pairs it lists); inferred: one tick and one lot at the data's decimals; edited: set through PUT .../specs",
  ),
});

const datasetSchema = Type.Object({
  id: Type.Integer(),
  market: strEnum(MARKETS, 'spot, um (USD-M futures) or cm (COIN-M futures)'),
  symbol: Type.String(),
  kind: strEnum(KINDS, 'The archive folder the files came from'),
  interval: Type.String({ description: "Candle interval of the candle kinds, '' for the others" }),
  first_time: nullable<number>('integer', 'ms of the first row (candles: open time); null while empty'),
  last_time: nullable<number>('integer', 'ms of the last row'),
  rows: Type.Integer({ description: 'Rows stored (candles, trades or events)' }),
  files: Type.Integer({ description: 'Files imported' }),
  gaps: Type.Array(gapSchema, { description: 'Missing data, ascending; never filled' }),
  specs: specsSchema,
});

// A dataset on the wire (GET /api/v1/datasets and the routes that answer one) is
// src-shared's DatasetWire: what this schema answers must fit it, field for field.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const datasetWireFits: Static<typeof datasetSchema> extends DatasetWire
  ? SameKeys<Static<typeof datasetSchema>, DatasetWire>
  : false = true;

const importResultSchema = Type.Object({
  file: Type.String(),
  ok: Type.Boolean(),
  status: strEnum(
    ['imported', 'unchanged', 'refused'] as const satisfies readonly ImportResult['status'][],
    'unchanged: this very file (same SHA-256) was already imported',
  ),
  dataset_id: nullable<number>('integer'),
  rows: Type.Integer({ description: 'Rows read from the file' }),
  added: Type.Integer({ description: 'Rows that were new to the dataset' }),
  gaps: Type.Integer({ description: 'Gaps found in the file' }),
  checksum: strEnum(
    ['verified', 'none'] as const satisfies readonly ImportResult['checksum'][],
    'verified: matched its .CHECKSUM (or the checksum parameter)',
  ),
  error: nullable<string>(
    'string',
    'Why the file was refused (row number and reason for a bad row); nothing of it was imported',
  ),
  error_row: nullable<number>('integer'),
});

// One file's import result on the wire: src-shared's ImportResultWire, the same fields both ways.
const importWireFits: [Static<typeof importResultSchema>, ImportResultWire] extends [
  ImportResultWire,
  Static<typeof importResultSchema>,
]
  ? SameKeys<Static<typeof importResultSchema>, ImportResultWire>
  : false = true;
void datasetWireFits;
void importWireFits;

const tradeSchema = Type.Object({
  id: Type.Integer({ description: 'Trade id (aggregate trade id for aggTrades)' }),
  price: Type.String(),
  qty: Type.String(),
  quote_qty: Type.Optional(Type.String({ description: 'trades only: quote quantity (base quantity for cm)' })),
  first_trade_id: Type.Optional(Type.Integer({ description: 'aggTrades only' })),
  last_trade_id: Type.Optional(Type.Integer({ description: 'aggTrades only' })),
  time: Type.Integer({ description: 'ms' }),
  time_us: Type.Integer({ description: 'µs (ms x 1000 where the file had ms)' }),
  is_buyer_maker: Type.Boolean(),
  is_best_match: Type.Optional(Type.Boolean({ description: 'spot files only' })),
});

// the service's trade rows are the wire records as they are
agree<typeof tradeSchema, TradeView>(true);

const idParams = Type.Object(
  { id: Type.Integer({ minimum: 1, description: 'Dataset id' }) },
  { additionalProperties: false },
);

const keyProps = {
  symbol: Type.Optional(Type.String({ maxLength: 40, description: 'Symbol, when the file name does not say it' })),
  market: Type.Optional(strEnum(MARKETS, 'Market, when the folders do not say it')),
  kind: Type.Optional(strEnum(KINDS, 'Kind, when the name does not say it')),
  interval: Type.Optional(strEnum(INTERVALS, 'Candle interval, when the name does not say it')),
};

/** A positive decimal step, e.g. "0.01" (the handler refuses an all-zero one). */
const stepField = (description: string) =>
  Type.String({ maxLength: 30, pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$', description });

const specsBody = Type.Object(
  { tick_size: stepField('Price step, e.g. "0.01"'), step_size: stepField('Quantity step, e.g. "0.001"') },
  { additionalProperties: false },
);

const klinesQuery = Type.Object(
  {
    interval: strEnum(INTERVALS, 'Candle interval (6001 otherwise)'),
    start_time: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TIME,
        description: 'ms; together with end_time, never with limit (6003)',
      }),
    ),
    end_time: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'ms, inclusive; together with start_time (6003)' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DATASET_KLINES_MAX_LIMIT,
        description: `Newest N candles; default ${DATASET_KLINES_DEFAULT_LIMIT}, 1..${DATASET_KLINES_MAX_LIMIT} (6004)`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** A candle as /fapi/v1/klines answers it (12 elements, element 11 true: every stored candle is closed). */
type KlineWire = [number, number, string, string, string, string, string, string, number, string, string, boolean];

const klinesAnswer = Type.Unsafe<KlineWire[] | KlinesError>({
  description: 'Candlesticks (12 elements each, as /fapi/v1/klines), or an error object',
  anyOf: [
    { type: 'array', items: { type: 'array', minItems: 12, maxItems: 12 } },
    {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  ],
});

const tradesQuery = Type.Object(
  {
    start_time: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'ms' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DATASET_TRADES_MAX_LIMIT,
        description: `default ${DATASET_TRADES_DEFAULT_LIMIT}, at most ${DATASET_TRADES_MAX_LIMIT}`,
      }),
    ),
  },
  { additionalProperties: false },
);

const importQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({ maxLength: 200, description: "Uploaded file's archive name (upload only; required there)" }),
    ),
    checksum: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{64}$',
        description: "Uploaded file's SHA-256 (its .CHECKSUM), verified when given",
      }),
    ),
    ...keyProps,
  },
  { additionalProperties: false },
);

const importJsonBody = Type.Object(
  {
    paths: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), {
      minItems: 1,
      maxItems: 10_000,
      description: 'Files (.zip, .csv) or folders of them',
    }),
    ...keyProps,
  },
  { additionalProperties: false },
);

/**
 * The import body, one schema per content type: the JSON one is validated (and checked for
 * JSON types by app.ts's strict body rule); an upload reaches the handler as the raw stream.
 */
const importBody = Type.Unsafe<Static<typeof importJsonBody> | Readable>({
  content: {
    'application/json': { schema: importJsonBody },
    'application/zip': { schema: { description: 'One archive zip' } },
    'application/octet-stream': { schema: { description: 'One archive zip or CSV' } },
    'text/csv': { schema: { description: 'One archive CSV' } },
  },
});

function view(d: DatasetRecord, service: DatasetService): Static<typeof datasetSchema> {
  return {
    id: d.id,
    market: d.market,
    symbol: d.symbol,
    kind: d.kind,
    interval: d.interval,
    first_time: d.firstTime,
    last_time: d.lastTime,
    rows: d.rows,
    files: d.files,
    gaps: service.gaps(d.id).map((g) => ({ start_time: g.start, end_time: g.end, detail: g.detail })),
    specs: {
      tick_size: d.specs.tickSize,
      step_size: d.specs.stepSize,
      tiers: d.specs.tiers.map((t) => ({ cap: t.cap, max_leverage: t.maxLeverage, mmr: t.mmr })),
      source: d.specsSource,
    },
  };
}

function resultView(r: ImportResult): ImportResultWire {
  return {
    file: r.file,
    ok: r.ok,
    status: r.status,
    dataset_id: r.datasetId,
    rows: r.rows,
    added: r.added,
    gaps: r.gaps,
    checksum: r.checksum,
    error: r.error,
    error_row: r.errorRow,
  };
}

/** Service errors in the envelope registry. */
function envelopeError(err: unknown): unknown {
  if (!(err instanceof DatasetError)) return err;
  return new ApiError(err.kind === 'not_found' ? Errors.DATASET_NOT_FOUND : Errors.INVALID_PARAMETER, err.message);
}

export default async function datasetRoutes(
  app: ApiInstance,
  opts: { venue: Venue; datasets?: DatasetService },
): Promise<void> {
  const service = (): DatasetService => opts.datasets ?? opts.venue.datasets;

  // Uploaded files arrive as the raw body stream, read by the handler (this plugin's scope only).
  app.addContentTypeParser(UPLOAD_TYPES, { bodyLimit: MAX_UPLOAD_BYTES }, (_req, payload, done) => done(null, payload));

  app.get(
    '/api/v1/datasets',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Stored datasets',
        description:
          'Every imported dataset: one (market, symbol, kind, interval) series with its time span, row count, gaps and contract specs.',
        querystring: noQuery,
        response: { 200: envelopeSchema(Type.Array(datasetSchema)), ...standardErrors() },
      },
    },
    async () => {
      const s = service();
      return ok(s.list().map((d) => view(d, s)));
    },
  );

  app.get(
    '/api/v1/datasets/:id',
    {
      schema: {
        tags: ['datasets'],
        summary: 'One dataset',
        params: idParams,
        querystring: noQuery,
        response: { 200: envelopeSchema(datasetSchema), ...standardErrors() },
      },
    },
    async (req) => {
      const s = service();
      try {
        return ok(view(s.get(req.params.id), s));
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.delete(
    '/api/v1/datasets/:id',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['datasets'],
        summary: 'Delete a dataset (loopback only)',
        description:
          'Removes the dataset with every candle, trade, event, file record and gap of it. 403 / 2102 to callers not on this machine.',
        params: idParams,
        querystring: noQuery,
        response: {
          200: envelopeSchema(Type.Object({ id: Type.Integer({ description: 'The deleted dataset' }) })),
          ...standardErrors(403),
        },
      },
    },
    async (req) => {
      try {
        service().delete(req.params.id);
      } catch (err) {
        throw envelopeError(err);
      }
      return ok({ id: req.params.id });
    },
  );

  app.put(
    '/api/v1/datasets/:id/specs',
    {
      config: { auth: 'loopback' },
      schema: {
        tags: ['datasets'],
        summary: 'Edit the contract specs of a dataset (loopback only)',
        description: "Sets tick and step size (the tiers are kept); the record's specs.source becomes 'edited'.",
        params: idParams,
        querystring: noQuery,
        body: specsBody,
        response: { 200: envelopeSchema(datasetSchema), ...standardErrors(403) },
      },
    },
    async (req) => {
      const s = service();
      if (!/[1-9]/.test(req.body.tick_size) || !/[1-9]/.test(req.body.step_size)) {
        throw new ApiError(Errors.INVALID_PARAMETER, 'tick_size and step_size must be greater than 0');
      }
      try {
        const d = s.get(req.params.id);
        return ok(
          view(s.editSpecs(d.id, { ...d.specs, tickSize: req.body.tick_size, stepSize: req.body.step_size }), s),
        );
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.get(
    '/api/v1/datasets/:id/klines',
    {
      config: { errorStyle: 'klines' },
      attachValidation: true,
      schema: {
        tags: ['datasets'],
        summary: 'Candles of a candle dataset',
        description:
          'The same rows in the same order as /fapi/v1/klines (newest first; every candle closed, so element 11 is true). ' +
          "At the dataset's own interval the stored candles are answered as imported (Binance's strings verbatim); at a " +
          'coarser interval that its candles tile they are aggregated from them, equal to what Binance publishes. A period ' +
          'with no stored candle (an outage, a missing day) is absent: gaps are never filled. Modes and errors as ' +
          "/fapi/v1/klines: limit (default 500, 1..1500) or start_time + end_time (where the range, cut to the dataset's " +
          'span, covers at most 1500 periods of the interval, else 6000); errors ' +
          'are HTTP 200 with {code, message}: 6000 invalid parameter (also a dataset that holds no candles or an interval ' +
          'that cannot be built from it), 6001 invalid interval, 6002 unknown dataset, 6003 time-range rule, 6004 limit.',
        params: idParams,
        querystring: klinesQuery,
        response: { 200: klinesAnswer },
      },
    },
    async (req) => {
      if (req.validationError)
        throw klinesValidationError(
          req.validationError as FastifyError,
          req.query as unknown as Record<string, unknown>,
          DATASET_KLINES_MAX_LIMIT,
        );
      const q = req.query;
      const hasStart = q.start_time !== undefined;
      if (hasStart !== (q.end_time !== undefined))
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'start_time and end_time must be given together');
      if (hasStart && q.limit !== undefined)
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'limit cannot be combined with start_time and end_time');
      let rows;
      try {
        rows = service().klines(
          req.params.id,
          q.interval,
          hasStart
            ? { startTime: q.start_time, endTime: q.end_time, limit: DATASET_KLINES_MAX_LIMIT, refuseWider: true }
            : { limit: q.limit ?? DATASET_KLINES_DEFAULT_LIMIT },
        );
      } catch (err) {
        if (err instanceof DatasetError) {
          throw new ApiError(
            err.kind === 'not_found' ? Errors.KLINES_SYMBOL_NOT_FOUND : Errors.KLINES_INVALID_PARAMETER,
            err.message,
          );
        }
        throw err;
      }
      if (rows.length > DATASET_KLINES_MAX_LIMIT) {
        throw new ApiError(
          Errors.KLINES_INVALID_PARAMETER,
          `The range holds more than ${DATASET_KLINES_MAX_LIMIT} ${q.interval} candles; narrow it`,
        );
      }
      const out = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[rows.length - 1 - i];
        out[i] = [r[0], r[6], r[1], r[2], r[3], r[4], r[5], r[7], r[8], r[9], r[10], true];
      }
      return out;
    },
  );

  app.get(
    '/api/v1/datasets/:id/trades',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Trades of a trade dataset (aggTrades or trades), in time order',
        description:
          'Up to `limit` trades from `start_time` on (ms, default the first), ascending by time and id. Page on by asking ' +
          'again from the last time seen (trades sharing that ms come again: skip ids already seen).',
        params: idParams,
        querystring: tradesQuery,
        response: { 200: envelopeSchema(Type.Array(tradeSchema)), ...standardErrors() },
      },
    },
    async (req) => {
      try {
        return ok(
          service().trades(req.params.id, {
            startTime: req.query.start_time,
            limit: req.query.limit ?? DATASET_TRADES_DEFAULT_LIMIT,
          }),
        );
      } catch (err) {
        throw envelopeError(err);
      }
    },
  );

  app.post(
    '/api/v1/datasets/import',
    {
      config: { auth: 'loopback' },
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        tags: ['datasets'],
        summary: 'Import archive files (loopback only)',
        description:
          'Either a JSON body naming files or folders on this machine ({"paths": [...]}, what `npm run data -- import` ' +
          'sends), or one uploaded file as the raw body (Content-Type application/zip, application/octet-stream or ' +
          'text/csv) with its archive file name in `name` (e.g. BTCUSDT-1m-2025-01-06.zip) and optionally its SHA-256 ' +
          'in `checksum`. Symbol, market, kind and interval come from the names and folders, or from the parameters. ' +
          'Answers when every file is done, one result per file: a refused file (bad checksum, bad row: the row is ' +
          'named) imported nothing. Imports run one at a time. 403 / 2102 to callers not on this machine.',
        querystring: importQuery,
        body: importBody,
        response: {
          200: envelopeSchema(Type.Object({ results: Type.Array(importResultSchema) })),
          ...standardErrors(403),
        },
      },
    },
    async (req) => {
      const s = service();
      const body = req.body;
      if (typeof (body as Readable | undefined)?.pipe === 'function') {
        const q = req.query;
        if (q.name === undefined)
          throw new ApiError(Errors.MISSING_PARAMETER, "An uploaded file needs its archive file name in 'name'");
        const name = basename(q.name.replace(/\\/g, '/'));
        if (!/\.(zip|csv)$/i.test(name))
          throw new ApiError(Errors.INVALID_PARAMETER, "'name' must end in .zip or .csv");
        const dir = await mkdtemp(join(tmpdir(), 'perpdesk-upload-'));
        try {
          const file = join(dir, name);
          await pipeline(body as Readable, createWriteStream(file));
          if (q.checksum !== undefined) {
            await writeFile(`${file}.CHECKSUM`, `${q.checksum.toLowerCase()}  ${name}\n`);
          }
          const results = await s.importFiles([file], {
            symbol: q.symbol,
            market: q.market,
            kind: q.kind,
            interval: q.interval,
          });
          return ok({ results: results.map(resultView) });
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      const b = body as Static<typeof importJsonBody> | undefined;
      if (b === undefined || b === null)
        throw new ApiError(Errors.MISSING_PARAMETER, 'Missing request body: send {"paths": [...]} or an uploaded file');
      let files: string[];
      try {
        files = expandPaths(b.paths);
      } catch (err) {
        // expandPaths words a missing path itself; a system error (EACCES ...) is named by its code only
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === undefined ? (err as Error).message : `a path cannot be read (${code})`;
        throw new ApiError(Errors.INVALID_PARAMETER, `Invalid body parameter 'paths': ${why}`);
      }
      const results = await s.importFiles(files, {
        symbol: b.symbol,
        market: b.market,
        kind: b.kind,
        interval: b.interval,
      });
      return ok({ results: results.map(resultView) });
    },
  );
}
