// Candlestick routes: GET /fapi/v1/klines and GET /fapi/v1/klines/batch (spec: Candlestick,
// Errors, Limits). The spec's exception to the envelope: success is a bare array (or object),
// every error is HTTP 200 with {code, message}: 6000 invalid parameter, 6001 invalid interval,
// 6002 unknown symbol, 6003 start_time/end_time not together or with limit, 6004 limit outside
// 1..1500, 6005 more than 20 symbols, 6006 missing parameter, 6007 URL over 8192 characters
// (error-handler.ts's URL check, in these codes here), 7000 internal; the Host guard (2103) and the
// per-IP rate limit (4290) answer in this style too. The OpenAPI document shows the error object
// as a branch of the 200 answer: these routes document no 4xx because they send none.
// Bodies come from KlineService.klinesBody as ready UTF-8 JSON bytes (closed candles are
// serialised once and cached), so the response schemas below document the shape but never
// serialise a success; they serialise only the error object.
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { INTERVALS } from '../../../src-shared/intervals.ts';
import { KLINES_DEFAULT_LIMIT, KLINES_MAX_LIMIT, type KlineService } from '../../market/kline-service.ts';
import type { Venue } from '../../services/venue.ts';
import type { Candle, KlinesBatch, KlinesBatchQuery, KlinesError, KlinesQuery } from '../../../src-shared/types.ts';
import { agreeSent, strEnum, type ApiInstance } from '../schemas.ts';
import { attachedValidationError, undeclared } from '../strict-input.ts';

const KLINES_MAX_SYMBOLS = 20;
const MAX_TIME = 8_640_000_000_000_000;
const JSON_TYPE = 'application/json; charset=utf-8';

const candleSchema = {
  type: 'array',
  description:
    'Candlestick, 12 elements in this order: [openTime, closeTime, open, high, low, close, volume, quoteVolume, trades, ' +
    "takerBuyBaseVolume, takerBuyQuoteVolume, isClosed]. Prices at the pair's price precision, volumes at its quantity " +
    'precision, turnovers at its quote precision. UTC intervals; closeTime = next openTime - 1; 1w opens Monday 00:00, ' +
    '1M on the 1st of the month. A period without trades has a candle whose open = high = low = close = previous close.',
  minItems: 12,
  maxItems: 12,
  prefixItems: [
    { type: 'integer', description: '0 openTime: open timestamp, ms' },
    { type: 'integer', description: '1 closeTime: close timestamp, ms (next open time - 1)' },
    { type: 'string', description: '2 open: first trade price (previous close when no trade)' },
    { type: 'string', description: '3 high: highest trade price' },
    { type: 'string', description: '4 low: lowest trade price' },
    { type: 'string', description: '5 close: last trade price' },
    { type: 'string', description: '6 volume: base-asset quantity traded' },
    { type: 'string', description: '7 quoteVolume: turnover, sum of price x quantity' },
    { type: 'integer', description: '8 trades: number of trades' },
    { type: 'string', description: '9 takerBuyBaseVolume: quantity bought by takers' },
    { type: 'string', description: '10 takerBuyQuoteVolume: turnover bought by takers' },
    { type: 'boolean', description: '11 isClosed: false only on the current (newest) candle' },
  ],
  items: false,
} as const;

const candlesSchema = {
  type: 'array',
  description:
    'Candlesticks, newest first; the first one is the current unclosed candle (isClosed false) when the pair has traded.',
  items: candleSchema,
} as const;

/**
 * The error object these routes (and /api/v1/datasets/{id}/klines) answer with HTTP 200, as the
 * spec has it; the service-wide guards answer in the same style here (2103, 4290).
 */
export const klinesErrorSchema = {
  type: 'object',
  description:
    'Error, with HTTP 200 as the spec has it (never a 4xx): 6000 invalid parameter, 6001 invalid interval, 6002 ' +
    'unknown symbol (or dataset), 6003 start_time/end_time not together or combined with limit, 6004 limit outside ' +
    '1..1500, 6005 more than 20 symbols, 6006 missing parameter, 6007 URL longer than 8192 characters, 7000 internal ' +
    'error; and the service-wide refusals in the same style: 2103 a Host header naming another site (DNS rebinding ' +
    'guard), 4290 over the per-IP request-rate limit (with Retry-After).',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: {
      type: 'integer',
      description: '6000-6007 and 2103, 4290: the request is refused; 7000: a server error (try again)',
    },
    message: { type: 'string' },
  },
} as const;

/**
 * A success body is ready JSON bytes from KlineService (typed by the shared record it holds),
 * so the schema documents it and serialises only the error object.
 */
const readyBytes = <T>(schema: object) => Type.Unsafe<Buffer | T | KlinesError>(schema);

const intervalParam = strEnum(INTERVALS, 'Candle interval (6001 when it is not one of these)');

const limitParam = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: KLINES_MAX_LIMIT,
    description: `Latest N candles, the current one included; default ${KLINES_DEFAULT_LIMIT}, 1..${KLINES_MAX_LIMIT} (6004 otherwise)`,
  }),
);

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function shown(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}

/** Longest value a limit error quotes whole; a longer one is cut there, its length stated. */
const QUOTED_MAX = 64;

/** A value as the client sent it, for a message: whole up to QUOTED_MAX characters. */
function quoted(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > QUOTED_MAX ? `'${s.slice(0, QUOTED_MAX)}...' (${s.length} characters)` : `'${s}'`;
}

/**
 * The query parameters as the client sent them (decoded text; a repeated name gives an array),
 * read from the request URL: the validator coerces `req.query` in place, so by the time a
 * validation error is worded '99999999999999999999' reads 100000000000000000000 there, '0x10'
 * 16 and ' ' 0, and an error quoting it would name a value the client never sent.
 */
export function sentQuery(url: string): Record<string, string | string[]> {
  const at = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (at < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(at + 1))) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

/**
 * Schema failures in the klines codes: the spec's 6001 and 6004 are about one parameter each.
 * Also the answer of every route that serves candles the klines way (datasets' klines).
 * `query` is what the client sent (sentQuery), so the messages quote its values verbatim.
 */
export function klinesValidationError(
  err: FastifyError,
  query: Record<string, unknown>,
  maxLimit = KLINES_MAX_LIMIT,
  unknown: string | undefined = undefined,
): ApiError {
  const first = (err.validation ?? [])[0] as AjvError | undefined;
  if (!first) return new ApiError(Errors.KLINES_INVALID_PARAMETER, err.message);
  // an unknown parameter (undeclared) is named before a missing or invalid one, as on every route
  if (unknown !== undefined && first.keyword !== 'additionalProperties')
    return new ApiError(Errors.KLINES_INVALID_PARAMETER, `Unknown parameter '${shown(unknown)}'`);
  if (first.keyword === 'required') {
    return new ApiError(
      Errors.KLINES_MISSING_PARAMETER,
      `Missing required parameter '${String(first.params.missingProperty)}'`,
    );
  }
  if (first.keyword === 'additionalProperties') {
    return new ApiError(
      Errors.KLINES_INVALID_PARAMETER,
      `Unknown parameter '${shown(first.params.additionalProperty)}'`,
    );
  }
  const field = first.instancePath.replace(/^\//, '');
  // a parameter sent twice arrives as a list: say so (6000), as the other routes do (1001)
  if (field !== '' && Array.isArray(query[field]))
    return new ApiError(Errors.KLINES_INVALID_PARAMETER, `Duplicate query parameter '${field}': send it once`);
  if (field === 'interval') {
    return new ApiError(
      Errors.KLINES_INVALID_INTERVAL,
      `Invalid interval '${shown(query.interval)}': must be one of ${INTERVALS.join(', ')}`,
    );
  }
  if (field === 'limit') {
    return new ApiError(
      Errors.KLINES_LIMIT_OUT_OF_RANGE,
      `limit must be an integer from 1 to ${maxLimit} (got ${quoted(query.limit)})`,
    );
  }
  const got = query[field] === undefined ? '' : ` (got ${quoted(query[field])})`;
  return new ApiError(
    Errors.KLINES_INVALID_PARAMETER,
    `Invalid parameter '${field}': ${first.message ?? 'invalid value'}${got}`,
  );
}

/**
 * A 6000 when query parameter `name` is sent as text that is not valid percent-encoding (a % without
 * two hex digits, bytes that are no UTF-8: `%E0%A4%A`): the query parser keeps such a value as it
 * came, which would be looked up as a pair's name (6002 "Unknown symbol", until 2026-12-07).
 */
function undecodable(url: string, name: string): ApiError | undefined {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  for (const pair of url.slice(at + 1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || decoded(pair.slice(0, eq)) !== name) continue;
    const raw = pair.slice(eq + 1);
    if (decoded(raw) === undefined)
      return new ApiError(
        Errors.KLINES_INVALID_PARAMETER,
        `Invalid parameter '${name}': ${quoted(raw)} is not valid percent-encoding (each % is followed by two ` +
          'hex digits, the bytes UTF-8 text)',
      );
  }
  return undefined;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * A pair's name as sent, upper-cased when it is letters and digits of ASCII alone; else as sent,
 * which names no pair (so 6002): 'wıfusdt' (a dotless ı) upper-cases to WIFUSDT in JavaScript.
 */
function pairName(sent: string): string {
  return /^[A-Za-z0-9]+$/.test(sent) ? sent.toUpperCase() : sent;
}

const klinesQuery = Type.Object(
  {
    symbol: Type.String({
      maxLength: 40,
      description: 'Trading pair, e.g. BTCUSDT (case-insensitive; 6002 when unknown)',
    }),
    interval: intervalParam,
    start_time: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TIME,
        description: 'ms, inclusive: candles opening at or after it; together with end_time, never with limit (6003)',
      }),
    ),
    end_time: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TIME,
        description:
          'ms, inclusive: candles opening at or before it; together with start_time, never with limit (6003)',
      }),
    ),
    limit: limitParam,
  },
  { additionalProperties: false },
);

const klinesBatchQuery = Type.Object(
  {
    symbols: Type.String({
      maxLength: 1000,
      description: `Comma-separated trading pairs, at most ${KLINES_MAX_SYMBOLS} (6005); any unknown pair is 6002`,
    }),
    interval: intervalParam,
    limit: limitParam,
  },
  { additionalProperties: false },
);

agreeSent<typeof klinesQuery, KlinesQuery>(true);
agreeSent<typeof klinesBatchQuery, KlinesBatchQuery>(true);

export default async function klinesRoutes(
  app: ApiInstance,
  opts: { venue: Venue; klines?: KlineService },
): Promise<void> {
  const { venue } = opts;
  // Looked up per request so the venue may attach its service after the routes are registered.
  const service = (): KlineService => {
    const s = opts.klines ?? venue.klines;
    if (!s) throw new ApiError(Errors.KLINES_INTERNAL, 'Candles are not available on this venue');
    return s;
  };

  app.get(
    '/fapi/v1/klines',
    {
      config: { errorStyle: 'klines' },
      attachValidation: true,
      schema: {
        tags: ['market data'],
        summary: 'Candlesticks of one pair',
        description:
          'Two modes: symbol + interval [+ limit] returns the latest `limit` candles (default 500, max 1500); symbol + ' +
          'interval + start_time + end_time returns every candle opening in [start_time, end_time], both included (windows ' +
          '[a, b] and [b + 1, c] never share a candle). The time-range mode ' +
          'answers at most 1500 candles: a range whose span of existing candles is wider is refused with 6000 (never ' +
          'truncated). Newest first, the current unclosed candle included. Errors are HTTP 200 with {code, message}. ' +
          '1s candles are kept for 24 hours of market time; other intervals are kept.',
        querystring: klinesQuery,
        response: {
          200: readyBytes<Candle[]>({
            description: 'Candlesticks, or an error object',
            anyOf: [candlesSchema, klinesErrorSchema],
          }),
        },
      },
    },
    async (req, reply) => {
      const invalid = attachedValidationError(req);
      if (invalid) throw klinesValidationError(invalid, sentQuery(req.url), KLINES_MAX_LIMIT, undeclared(invalid, req));
      // (a value that is not valid percent-encoding keeps its '%': only then is the URL read again)
      const malformed = req.query.symbol.includes('%') ? undecodable(req.url, 'symbol') : undefined;
      if (malformed) throw malformed;
      const q = req.query;
      const hasStart = q.start_time !== undefined;
      if (hasStart !== (q.end_time !== undefined)) {
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'start_time and end_time must be given together');
      }
      if (hasStart && q.limit !== undefined) {
        throw new ApiError(Errors.KLINES_TIME_RANGE_RULE, 'limit cannot be combined with start_time and end_time');
      }
      const symbol = pairName(q.symbol);
      if (!venue.symbols.get(symbol))
        throw new ApiError(Errors.KLINES_SYMBOL_NOT_FOUND, `Unknown symbol '${shown(q.symbol)}'`);
      const body = service().klinesBody(
        symbol,
        q.interval,
        hasStart ? { startTime: q.start_time!, endTime: q.end_time! } : { limit: q.limit ?? KLINES_DEFAULT_LIMIT },
      );
      return reply.type(JSON_TYPE).send(body);
    },
  );

  app.get(
    '/fapi/v1/klines/batch',
    {
      config: { errorStyle: 'klines' },
      attachValidation: true,
      schema: {
        tags: ['market data'],
        summary: 'Candlesticks of up to 20 pairs',
        description:
          'The latest `limit` candles (default 500, max 1500) of each pair, as an object keyed by pair name in the order ' +
          'asked (a repeated name appears once, but counts against the 20 each time it is sent). Each value is the same ' +
          'newest-first array as /fapi/v1/klines, current unclosed candle included. Errors are HTTP 200 with ' +
          '{code, message}.',
        querystring: klinesBatchQuery,
        response: {
          200: readyBytes<KlinesBatch>({
            description: 'Candlesticks per pair, or an error object',
            anyOf: [
              {
                type: 'object',
                description: 'Pair name -> candlesticks, newest first',
                additionalProperties: candlesSchema,
              },
              klinesErrorSchema,
            ],
          }),
        },
      },
    },
    async (req, reply) => {
      const invalid = attachedValidationError(req);
      if (invalid) throw klinesValidationError(invalid, sentQuery(req.url), KLINES_MAX_LIMIT, undeclared(invalid, req));
      const malformed = req.query.symbols.includes('%') ? undecodable(req.url, 'symbols') : undefined;
      if (malformed) throw malformed;
      const q = req.query;
      const parts = q.symbols.split(',');
      const names: string[] = [];
      const seen = new Set<string>();
      for (const part of parts) {
        if (part === '')
          throw new ApiError(Errors.KLINES_INVALID_PARAMETER, "symbols holds an empty name (use 'A,B,C')");
        const name = pairName(part);
        if (!seen.has(name)) {
          seen.add(name);
          names.push(name);
        }
      }
      // the spec's "max 20" is of the list sent: a repeated name counts each time (answered once)
      if (parts.length > KLINES_MAX_SYMBOLS) {
        throw new ApiError(
          Errors.KLINES_TOO_MANY_SYMBOLS,
          `At most ${KLINES_MAX_SYMBOLS} symbols per batch, got ${parts.length}`,
        );
      }
      const unknown = names.filter((s) => !venue.symbols.get(s));
      if (unknown.length > 0) {
        throw new ApiError(Errors.KLINES_SYMBOL_NOT_FOUND, `Unknown symbol(s): ${unknown.map(shown).join(', ')}`);
      }
      return reply.type(JSON_TYPE).send(service().klinesBatchBody(names, q.interval, q.limit ?? KLINES_DEFAULT_LIMIT));
    },
  );
}
