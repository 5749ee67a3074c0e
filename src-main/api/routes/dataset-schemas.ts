// The schemas of the dataset routes (datasets.ts): the records they answer, typed by the wire
// types of src-shared (a schema that drifts from its wire type fails to compile), and the
// parameters, bodies and limits they accept.
import type { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import type { KlinesError } from '../../../src-shared/types.ts';
import type { ImportResult } from '../../data/dataset-service.ts';
import type { SpecsSource } from '../../data/ports.ts';
import { KINDS, MARKETS, type Kind } from '../../../src-shared/dataset-kinds.ts';
import type {
  DatasetDeleted,
  DatasetImportResults,
  DatasetTradeWire,
  DatasetWire,
  ImportResultWire,
} from '../../../src-shared/types/datasets.ts';
import { agree, strEnum } from '../schemas.ts';
import { klinesErrorSchema } from './klines.ts';

export const DATASET_KLINES_DEFAULT_LIMIT = 500;
export const DATASET_KLINES_MAX_LIMIT = 1500;
export const DATASET_TRADES_DEFAULT_LIMIT = 500;
const DATASET_TRADES_MAX_LIMIT = 5000;
/** Largest uploaded file: a month of aggTrades of a busy pair zips to a few hundred MB. */
export const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;
/** An uploaded file's name, in UTF-8 bytes: a file name's 255 less its `.CHECKSUM` copy's suffix. */
export const MAX_UPLOAD_NAME_BYTES = 255 - '.CHECKSUM'.length;
const MAX_TIME = 8_640_000_000_000_000;
export const UPLOAD_TYPES = [
  'application/zip',
  'application/x-zip-compressed',
  'application/octet-stream',
  'text/csv',
  'application/gzip',
];

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

export const datasetSchema = Type.Object({
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
  first_snapshot_time: nullable<number>(
    'integer',
    'depth: ms of its first order book snapshot, null when it holds none (a replay refuses it as the source: its diffs alone cannot build the book); null for the other kinds',
  ),
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
  warnings: Type.Array(Type.String(), {
    description: "What the request's symbol, market, kind or interval set against what the file's path says (they win)",
  }),
  skipped: Type.Array(
    Type.Object({
      stream: Type.String({ description: 'The stream, as the recording names it (ctkusdt@aggTrade)' }),
      lines: Type.Integer({ description: 'Its lines in the file, none imported' }),
      kind: Type.Unsafe<Kind | null>({
        type: ['string', 'null'],
        enum: [...KINDS, null],
        description: "The kind that reads them (the pair's own depth or aggTrade stream), else null",
      }),
    }),
    {
      description:
        "Lines of other streams (or pairs) a recorder's JSON-lines file holds, skipped: one count per stream",
    },
  ),
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

/** Answer of DELETE /api/v1/datasets/{id}. */
export const deletedSchema = Type.Object({ id: Type.Integer({ description: 'The deleted dataset' }) });
/** Answer of POST /api/v1/datasets/import: one result per file. */
export const importAnswerSchema = Type.Object({ results: Type.Array(importResultSchema) });

agree<typeof deletedSchema, DatasetDeleted>(true);
agree<typeof importAnswerSchema, DatasetImportResults>(true);

export const tradeSchema = Type.Object({
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

// the service's trade rows are the wire records as they are, src-shared's DatasetTradeWire
agree<typeof tradeSchema, DatasetTradeWire>(true);

export const idParams = Type.Object(
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

export const specsBody = Type.Object(
  { tick_size: stepField('Price step, e.g. "0.01"'), step_size: stepField('Quantity step, e.g. "0.001"') },
  { additionalProperties: false },
);

export const klinesQuery = Type.Object(
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

export const klinesAnswer = Type.Unsafe<KlineWire[] | KlinesError>({
  description: 'Candlesticks (12 elements each, as /fapi/v1/klines), or an error object',
  anyOf: [{ type: 'array', items: { type: 'array', minItems: 12, maxItems: 12 } }, klinesErrorSchema],
});

export const tradesQuery = Type.Object(
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

export const importQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "Uploaded file's archive name (upload only; required there); at most 246 bytes in UTF-8, what a file name holds with its .CHECKSUM suffix",
      }),
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

export const importJsonBody = Type.Object(
  {
    paths: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), {
      minItems: 1,
      maxItems: 10_000,
      description: 'Files (.zip, .csv, .jsonl; .csv.gz, .jsonl.gz) or folders of them',
    }),
    ...keyProps,
  },
  { additionalProperties: false },
);

/**
 * The import body, one schema per content type: the JSON one is validated (and checked for
 * JSON types by app.ts's strict body rule); an upload reaches the handler as the raw stream.
 */
export const importBody = Type.Unsafe<Static<typeof importJsonBody> | Readable>({
  content: {
    'application/json': { schema: importJsonBody },
    'application/zip': { schema: { description: 'One archive zip' } },
    'application/octet-stream': {
      schema: { description: "One archive zip or CSV, or JSON lines, or one of those gzip'd" },
    },
    'text/csv': { schema: { description: 'One archive CSV' } },
    'application/gzip': { schema: { description: "One gzip'd CSV or JSON lines (.csv.gz, .jsonl.gz)" } },
  },
});
