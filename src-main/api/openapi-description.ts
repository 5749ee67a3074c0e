// The prose part of the OpenAPI document: conventions every route shares.
export const API_DESCRIPTION = `
perpdesk is a local perpetual-futures venue. All paths are relative to the service's base URL
(\`http://127.0.0.1:PORT\`).

**Envelope.** Most routes answer \`{code, message, data}\`; \`code\` 0 is success. The
candlestick routes answer a bare array/object on success and \`{code, message}\` with HTTP 200
on error (6000-6999 client errors, 6001 invalid interval, 6007 URL too long; 7000-7999 server
errors). \`/fapi/v1/complete_price\` uses 7000 invalid parameter (also a URL too long, HTTP 414),
7001 pair not found, 7002 internal.

**Error registry** (every other route; HTTP status by class):
1000-1006 malformed request (400) · 1007 URL too long (414) · 1008 headers too large (431) ·
1009 request timeout (408) · 1100-1104 not found (404) · 1105 method not allowed on an
existing path (405, with an \`Allow\` header) · 2001-2010 authentication (401) ·
2101-2103 forbidden (403; 2103 a Host header naming another site while the service listens on loopback) ·
3001-3021 order rejected (400) · 4290 rate limited (429) ·
5000-5001 internal (500) · 5002 the data folder's disk is nearly full, changes refused (503). The full table is in docs/api.md (Errors).

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
