// The prose part of the OpenAPI document: conventions every route shares.
export const API_DESCRIPTION = `
perpdesk is a local perpetual-futures venue. All paths are relative to the service's base URL
(\`http://127.0.0.1:PORT\`).

**Envelope.** Most routes answer \`{code, message, data}\`; \`code\` 0 is success. The
candlestick routes answer a bare array/object on success and \`{code, message}\` with HTTP 200
on error (6000-6999 client errors, 6001 invalid interval; 7000-7999 server errors).
\`/fapi/v1/complete_price\` uses 7000 invalid parameter, 7001 pair not found, 7002 internal.

**Error registry** (every other route; HTTP status by class):
1000-1006 malformed request (400) · 1100-1105 not found (404) · 2001-2010 authentication (401) ·
2101-2102 forbidden (403) · 3001-3021 order rejected (400) · 4290 rate limited (429) ·
5000-5001 internal (500). The full table is in the README.

**Numbers.** Prices and quantities are decimal strings, except in the position routes, which
use JSON numbers. Timestamps are integers in ms.
`;
