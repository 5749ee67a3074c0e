// The prose part of the OpenAPI document: conventions every route shares. The error registry in
// it is written from the one error table, src-shared/errors.ts, so a new code shows up here too.
import { Errors, type ErrorClass, type ErrorDef } from '../../src-shared/errors.ts';

/** What each class of the registry is called, in the order the registry lists them. */
const CLASS_TITLES: Record<ErrorClass, string> = {
  validation: 'malformed or refused request',
  not_found: 'not found',
  auth: 'authentication',
  forbidden: 'forbidden',
  order_rejected: 'order rejected',
  rate_limit: 'rate limited',
  internal: 'internal',
  klines: 'candlestick routes, body {code, message}',
  price: '/fapi/v1/complete_price',
};

/**
 * The registry as one line per class: each code with its default message, and its HTTP status
 * where it is not the class's usual one; a code used for several causes lists each.
 */
function errorRegistry(): string {
  const byClass = new Map<ErrorClass, ErrorDef[]>();
  for (const d of Object.values(Errors)) {
    const list = byClass.get(d.cls);
    if (list === undefined) byClass.set(d.cls, [d]);
    else list.push(d);
  }
  const lines: string[] = [];
  for (const [cls, defs] of byClass) {
    const usual = mostCommon(defs.map((d) => d.http));
    const entries = defs.map((d) => `${d.code} ${d.message}${d.http === usual ? '' : ` (HTTP ${d.http})`}`);
    lines.push(`- ${CLASS_TITLES[cls]} (HTTP ${usual}): ${entries.join(' · ')}`);
  }
  return lines.join('\n');
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

export const API_DESCRIPTION = `
perpdesk is a local perpetual-futures venue. All paths are relative to the service's base URL
(\`http://127.0.0.1:PORT\`).

**Envelope.** Most routes answer \`{code, message, data}\`; \`code\` 0 is success. The
candlestick routes answer a bare array/object on success and \`{code, message}\` with HTTP 200
on error (6000-6999 client errors, 6001 invalid interval, 6007 URL too long; 7000-7999 server
errors). \`/fapi/v1/complete_price\` uses 7000 invalid parameter (also a URL too long, HTTP 414),
7001 pair not found, 7002 internal.

**Error registry** (src-shared/errors.ts; envelope routes answer a code with its class's HTTP status; docs/api.md,
Errors, tells each code's causes):
${errorRegistry()}

**Signed requests** (operations marked with the \`apiKey\` security scheme): header
\`X-API-KEY\`; query \`timestamp\` (ms, wall clock), optional \`recv_window\` (ms, default 5000,
max 60000) and \`signature\`, which must be the LAST query parameter: lowercase hex
HMAC-SHA256(secret, P), P = the query string exactly as sent up to (without) \`&signature=...\`,
followed directly by the raw request body if any. Accepted when \`timestamp < now + 1000\` and
\`now - timestamp <= recv_window\`, now = the wall clock (\`server_time\` of \`GET /fapi/v1/time\`).

**Numbers.** Prices and quantities are decimal strings, except in the position routes, which
use JSON numbers. JSON bodies must use the declared JSON types (a decimal field refuses a JSON
number with 1001). Timestamps are integers in ms.

**Input rules.** An integer in the query or the path is written \`^-?(0|[1-9][0-9]*)$\`: no
\`+\`, exponent, hex, blanks, leading zeros, fraction, \`Infinity\` or \`NaN\`; it must be a safe
integer (|n| <= 2^53 - 1) within the parameter's documented range, else 1001 naming it. In a
JSON body an integer is a safe integer and a number is finite (\`1e309\` is 1001). An
undeclared query parameter or body field is 1003 on every route. A route that declares a
body requires a JSON object (none 1002, \`null\` or a non-object 1001; send \`{}\` for defaults).

**Two clocks.** Every time of the trading records (order created_at / updated_at, trade times,
position times, price timestamps, kline open/close times, the \`E\`/\`T\` of pushes) is MARKET
time: the venue's virtual clock, not the wall clock. It runs at the simulator's speed (once it
has run faster than 1x it stays ahead of the wall clock), stands still while paused, and after
a restart continues from where it stopped. Take "now" for start_time / end_time filters from
\`market_time\` of \`GET /fapi/v1/time\`; sign requests with its \`server_time\` (wall clock).
`;
