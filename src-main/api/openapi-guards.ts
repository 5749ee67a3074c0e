// The statuses the service's guards answer on native operations, added to the served OpenAPI
// document (@fastify/swagger's transformObject, app.ts) since no route's schema can name them:
// they answer before any route runs (app.ts's onRequest pass, error-handler.ts's not-found and
// client-error paths). Each is the error envelope, with its registry code in the description.
// - 403 / 2103 on every operation: a Host header naming another site (the DNS rebinding guard). A
//   route that already documents a 403 (loopback-only 2102, bot whitelist 2101) gets 2103 added
//   to its description.
// - 405 / 1105 on the operations of a path that has other methods (Allow header).
// - 414 / 1007 on every operation but the candlestick routes (theirs is 6007, HTTP 200): a URL over
//   8192 characters, refused before any route runs (error-handler.ts urlLimitCheck); the envelope
//   routes list 414 already (envelope.ts standardErrors), /ws and /logos did not.
// - 431 / 1008 on every operation: request line and headers over Node's limit, refused by the
//   HTTP parser before any route is known, so the candlestick routes answer it as the envelope too.
// - 408 / 1009 on every operation: a request whose headers do not arrive within Node's
//   headersTimeout (60 s), refused by the HTTP server as 431 is (error-handler.ts answerClientError).
// - 500 / 5001 on every operation (on the candlestick routes, in their HTTP 200): a request that
//   comes in while the service closes is not run (app.ts closingCheck).
// - 503 / 5002 on every operation that changes something (not GET, HEAD, OPTIONS; not the browser
//   login, which writes nothing): the data folder's disk is nearly full.
// - 429 taken off the operations no rate limit covers (/admin: rate-limit.ts isLimitedPath), which
//   standardErrors gives every envelope route.
// - the headers these answers carry: Retry-After (whole seconds) on every 429, the facade's too
//   (rate-limit.ts sendRateLimited, binance/rate-limit.ts), and Allow on every 405.
// The candlestick routes answer 2103 in their own style (HTTP 200), said in their 200 answer.
// Their `limit` gets its default (500), which the schema cannot hold: validation applies
// defaults (useDefaults), and a present limit is refused beside start_time (6003).
// The Binance facade (/binance) documents its own guards (binance/schemas.ts GUARDS); here it gets
// the 408 (the native envelope, see BINANCE_TIMEOUT) and, on each POST, PUT and DELETE that takes parameters, the form body Binance
// clients send them in (application/x-www-form-urlencoded, the query's parameters, none required
// there since any of them may come in the query instead: binance/index.ts addFormParams).
import { KLINES_DEFAULT_LIMIT } from '../market/kline-service.ts';
import { errorEnvelopeSchema } from './envelope.ts';
import { isLimitedPath } from './rate-limit.ts';

interface Response {
  description?: string;
  content?: unknown;
  headers?: Record<string, unknown>;
}
interface Parameter {
  name?: string;
  in?: string;
  description?: string;
  schema?: Record<string, unknown>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
  responses?: Record<string, Response>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const READS = new Set(['get', 'head', 'options']);
/** The candlestick routes whose `limit` defaults to KLINES_DEFAULT_LIMIT (spec: default 500). */
const KLINES_PATHS = new Set(['/fapi/v1/klines', '/fapi/v1/klines/batch']);

const HOST =
  '2103: the Host header names another site while the service listens on loopback (DNS rebinding guard), ' +
  "or a WebSocket upgrade's Origin is a page of another site (cross-site WebSocket guard)";
const METHOD = '1105: this path does not have the method; the Allow header names the ones it has';
const URL_LONG = '1007: the request URL is over 8192 characters';
const HEADERS = '1008: the request line and headers are over 16 KiB';
const TIMEOUT = "1009: the request line and headers did not arrive within Node's headersTimeout (60 s)";
const BINANCE_TIMEOUT =
  `${TIMEOUT}; in the native envelope ({code, message, data}), not Binance's {code, msg}: ` +
  "Node's parser gives no path of a request whose headers never ended, so it is not known to be the facade's";
const FORM =
  'The parameters may be sent here instead of the query string (or some in each), as Binance clients do; ' +
  "a name in both keeps the query's value, a name twice in the body is -1101. The signature covers the query " +
  'string followed by this body, as sent.';
const CLOSING =
  '5001: the service is shutting down (a request that comes in during its close is not run: retry once it is back), ' +
  'or its store failed (the message says what to do)';
const DISK = "5002: the data folder's disk is nearly full; changes are refused until there is room, reads go on";

function envelope(description: string): Response {
  // a plain copy of the schema: each answer its own object, as the routes' answers are
  const schema = JSON.parse(JSON.stringify(errorEnvelopeSchema)) as unknown;
  return { description, content: { 'application/json': { schema } } };
}

/** The response headers of the guards' answers, by status. */
const HEADERS_OF: Record<string, Record<string, unknown>> = {
  '405': {
    Allow: { description: 'The methods this path has, e.g. POST', schema: { type: 'string' } },
  },
  '429': {
    'Retry-After': {
      description: 'Seconds to wait before the next request (a whole number, at least 1)',
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

/** Names the headers of the 405 and 429 answers of an operation's `responses`. */
function addHeaders(responses: Record<string, Response>): void {
  for (const [status, headers] of Object.entries(HEADERS_OF)) {
    const r = responses[status];
    if (r !== undefined) r.headers = { ...JSON.parse(JSON.stringify(headers)), ...r.headers };
  }
}

/** Adds `status` with `text`, or adds `text` to the description of the answer already there. */
function add(responses: Record<string, Response>, status: string, text: string): void {
  const had = responses[status];
  if (had === undefined) responses[status] = envelope(text);
  else if (!(had.description ?? '').includes(text.slice(0, 4)))
    had.description = had.description ? `${had.description} · ${text}` : text;
}

/** The form body of a facade operation that changes something: its query parameters, all optional (see above). */
function formBody(parameters: Parameter[]): unknown {
  const properties: Record<string, unknown> = {};
  for (const p of parameters)
    if (p.in === 'query' && p.name !== undefined)
      properties[p.name] = { ...JSON.parse(JSON.stringify(p.schema ?? {})), description: p.description };
  const schema = { type: 'object', properties, additionalProperties: false };
  return { required: false, description: FORM, content: { 'application/x-www-form-urlencoded': { schema } } };
}

/** Adds the guards' statuses and the candlestick limit's default (see above); returns the same document. */
export function addGuardAnswers<T extends { paths?: object }>(doc: T): T {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [path, item] of Object.entries(paths)) {
    if (item === undefined) continue;
    const methods = METHODS.filter((m) => item[m] !== undefined);
    if (path.startsWith('/binance')) {
      for (const method of methods) {
        const op = item[method] as Operation;
        const responses = (op.responses ??= {});
        add(responses, '408', BINANCE_TIMEOUT);
        addHeaders(responses);
        const query = (op.parameters ?? []).filter((p) => p.in === 'query');
        if (!READS.has(method) && query.length > 0 && op.requestBody === undefined) op.requestBody = formBody(query);
      }
      continue;
    }
    for (const method of methods) {
      const op = item[method] as Operation;
      const responses = (op.responses ??= {});
      // the candlestick routes: every error of theirs but 431 is an HTTP 200 (their 200 answer says so)
      const errorsIn200 = !Object.keys(responses).some((s) => s.startsWith('4'));
      if (!errorsIn200) add(responses, '403', HOST);
      if (methods.length > 1) add(responses, '405', METHOD);
      if (!errorsIn200) add(responses, '414', URL_LONG);
      add(responses, '431', HEADERS);
      add(responses, '408', TIMEOUT);
      add(responses, errorsIn200 ? '200' : '500', CLOSING);
      if (!READS.has(method) && !path.startsWith('/api/v1/session')) add(responses, '503', DISK);
      if (!isLimitedPath(path)) delete responses['429'];
      addHeaders(responses);
      if (KLINES_PATHS.has(path))
        for (const p of op.parameters ?? [])
          if (p.name === 'limit' && p.in === 'query' && p.schema) p.schema.default = KLINES_DEFAULT_LIMIT;
    }
  }
  return doc;
}
