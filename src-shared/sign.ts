// Request signing (DESIGN section 4): signature = lowercase hex HMAC-SHA256(secret, P), where
// P is the query string without `signature`, followed directly by the raw request body.
//
// SHA-256 and HMAC are written out here because signing must be synchronous in the browser
// as well as in Node (WebCrypto's subtle.sign is async only, and node:crypto is not in the
// renderer). Text is UTF-8 encoded with TextEncoder, as node:crypto does for strings
// (lone surrogates become U+FFFD in both).

const encoder = new TextEncoder();

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const BLOCK = 64;

// Scratch space reused by every call (JS runs one call at a time).
const W = new Int32Array(64);
const tail = new Uint8Array(BLOCK * 2);

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));

/** Runs the compression function over the 64-byte block at `bytes[offset]`, updating `state`. */
function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++) {
    const o = offset + t * 4;
    W[t] = (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3];
  }
  sha256Block(state, W);
}

/** SHA-256's Σ1 (of e). */
function sigma1(x: number): number {
  return ((x >>> 6) | (x << 26)) ^ ((x >>> 11) | (x << 21)) ^ ((x >>> 25) | (x << 7));
}

/** SHA-256's Σ0 (of a). */
function sigma0(x: number): number {
  return ((x >>> 2) | (x << 30)) ^ ((x >>> 13) | (x << 19)) ^ ((x >>> 22) | (x << 10));
}

/**
 * One SHA-256 block: the message words already in w[0..15] (w is 64 long; its 16..63 are
 * overwritten), `state` updated in place. Shared with the service's allocation-free HMAC check.
 */
export function sha256Block(state: Int32Array, w: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const w15 = w[t - 15];
    const w2 = w[t - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  // Eight rounds an iteration, each variable's role moving one place a round (the round's new
  // `a` is written over the old `h`, its new `e` over the old `d`): the same rounds as the
  // textbook loop that shifts the eight values down each round, without the moves of the shift
  // (a signed request hashes 5 blocks or so; about 12 % less time a block in a loop).
  for (let t = 0; t < 64; t += 8) {
    h = (h + sigma1(e) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
    d = (d + h) | 0;
    h = (h + sigma0(a) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    g = (g + sigma1(d) + ((d & e) ^ (~d & f)) + K[t + 1] + w[t + 1]) | 0;
    c = (c + g) | 0;
    g = (g + sigma0(h) + ((h & a) ^ (h & b) ^ (a & b))) | 0;
    f = (f + sigma1(c) + ((c & d) ^ (~c & e)) + K[t + 2] + w[t + 2]) | 0;
    b = (b + f) | 0;
    f = (f + sigma0(g) + ((g & h) ^ (g & a) ^ (h & a))) | 0;
    e = (e + sigma1(b) + ((b & c) ^ (~b & d)) + K[t + 3] + w[t + 3]) | 0;
    a = (a + e) | 0;
    e = (e + sigma0(f) + ((f & g) ^ (f & h) ^ (g & h))) | 0;
    d = (d + sigma1(a) + ((a & b) ^ (~a & c)) + K[t + 4] + w[t + 4]) | 0;
    h = (h + d) | 0;
    d = (d + sigma0(e) + ((e & f) ^ (e & g) ^ (f & g))) | 0;
    c = (c + sigma1(h) + ((h & a) ^ (~h & b)) + K[t + 5] + w[t + 5]) | 0;
    g = (g + c) | 0;
    c = (c + sigma0(d) + ((d & e) ^ (d & f) ^ (e & f))) | 0;
    b = (b + sigma1(g) + ((g & h) ^ (~g & a)) + K[t + 6] + w[t + 6]) | 0;
    f = (f + b) | 0;
    b = (b + sigma0(c) + ((c & d) ^ (c & e) ^ (d & e))) | 0;
    a = (a + sigma1(f) + ((f & g) ^ (~f & h)) + K[t + 7] + w[t + 7]) | 0;
    e = (e + a) | 0;
    a = (a + sigma0(b) + ((b & c) ^ (b & d) ^ (c & d))) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/**
 * SHA-256 of `prefixBytes` already absorbed into `start` (a multiple of 64, 0 for a plain
 * hash) followed by `data`. Returns the 32-byte digest.
 */
function finish(start: Int32Array, prefixBytes: number, data: Uint8Array): Uint8Array {
  const state = start.slice();
  const len = data.length;
  const full = len - (len % BLOCK);
  for (let o = 0; o < full; o += BLOCK) compress(state, data, o);
  const rest = len - full;
  tail.fill(0);
  tail.set(data.subarray(full), 0);
  tail[rest] = 0x80;
  const tailLen = rest < 56 ? BLOCK : BLOCK * 2;
  // Message length in bits, big-endian in the last 8 bytes; exact up to 2^53 bits.
  const bits = (prefixBytes + len) * 8;
  const hi = Math.floor(bits / 0x100000000);
  const lo = bits >>> 0;
  tail[tailLen - 8] = hi >>> 24;
  tail[tailLen - 7] = hi >>> 16;
  tail[tailLen - 6] = hi >>> 8;
  tail[tailLen - 5] = hi;
  tail[tailLen - 4] = lo >>> 24;
  tail[tailLen - 3] = lo >>> 16;
  tail[tailLen - 2] = lo >>> 8;
  tail[tailLen - 1] = lo;
  compress(state, tail, 0);
  if (tailLen > BLOCK) compress(state, tail, BLOCK);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const w = state[i];
    out[i * 4] = w >>> 24;
    out[i * 4 + 1] = w >>> 16;
    out[i * 4 + 2] = w >>> 8;
    out[i * 4 + 3] = w;
  }
  return out;
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** SHA-256 digest (strings are UTF-8 encoded). */
export function sha256(data: string | Uint8Array): Uint8Array {
  return finish(IV, 0, toBytes(data));
}

/** Lowercase hex SHA-256. */
export function sha256Hex(data: string | Uint8Array): string {
  return toHex(sha256(data));
}

/** A keyed HMAC-SHA256: the padded key's two blocks are absorbed once, so each message costs only its own blocks plus two. */
export interface HmacSha256 {
  digest(message: string | Uint8Array): Uint8Array;
  hex(message: string | Uint8Array): string;
}

/** Prepares HMAC-SHA256 with `key` (strings are UTF-8 encoded; keys over 64 bytes are hashed first, per RFC 2104). */
export function createHmacSha256(key: string | Uint8Array): HmacSha256 {
  let k = toBytes(key);
  if (k.length > BLOCK) k = sha256(k);
  const pad = new Uint8Array(BLOCK);
  const inner = IV.slice();
  const outer = IV.slice();
  for (let i = 0; i < BLOCK; i++) pad[i] = (k[i] ?? 0) ^ 0x36;
  compress(inner, pad, 0);
  for (let i = 0; i < BLOCK; i++) pad[i] = (k[i] ?? 0) ^ 0x5c;
  compress(outer, pad, 0);
  const digest = (message: string | Uint8Array): Uint8Array =>
    finish(outer, BLOCK, finish(inner, BLOCK, toBytes(message)));
  return { digest, hex: (message) => toHex(digest(message)) };
}

/** Lowercase hex HMAC-SHA256(key, message), both UTF-8 encoded. */
export function hmacSha256Hex(key: string, message: string): string {
  return createHmacSha256(key).hex(message);
}

/**
 * The signed payload P: `query` (a leading '?' ignored) with every `signature` parameter
 * removed, followed directly by the raw `body` if any.
 */
export function signaturePayload(query: string, body?: string): string {
  let q = query.charCodeAt(0) === 63 /* ? */ ? query.slice(1) : query;
  if (q.includes('signature')) {
    q = q
      .split('&')
      .filter((p) => p !== 'signature' && !p.startsWith('signature='))
      .join('&');
  }
  return body === undefined ? q : q + body;
}

export interface SignRequestInput {
  /** The raw query string as sent (percent-encoding kept), with or without `signature`. */
  query: string;
  /** The raw request body, exactly as sent. */
  body?: string;
  secret: string;
}

/** The `signature` value for a request (DESIGN section 4). */
export function signRequest(input: SignRequestInput): string {
  return hmacSha256Hex(input.secret, signaturePayload(input.query, input.body));
}

/**
 * The signed text of a WebSocket LOGIN: `api_key={apiKey}&timestamp={timestamp}`, then
 * `&recv_window={recvWindow}` when one is sent; numbers spelt as JSON spells them.
 */
export function loginPayload(apiKey: string, timestamp: number | string, recvWindow?: number | string): string {
  return `api_key=${apiKey}&timestamp=${timestamp}` + (recvWindow === undefined ? '' : `&recv_window=${recvWindow}`);
}

/** Values `buildSignedQuery` can serialise; undefined entries are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/**
 * A key or value of the query: encodeURIComponent, and `'` as `%27`. encodeURIComponent leaves
 * `'` as it is, but the URL parser of fetch (WHATWG, the query of an http(s) URL) writes it
 * `%27`, so the query the service received was not the one signed: `client_order_id=it's` was
 * refused 2004 (signature does not match) rather than 1001.
 */
function encodeQueryPart(s: string): string {
  return encodeURIComponent(s).replace(/'/g, '%27');
}

/** `params` as `k=v&k=v` in insertion order, keys and values percent-encoded as fetch sends them (encodeQueryPart). */
export function serializeQuery(params: QueryParams): string {
  let q = '';
  for (const key of Object.keys(params)) {
    const v = params[key];
    if (v === undefined) continue;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError(`query parameter ${key} is not finite: ${v}`);
    q += (q === '' ? '' : '&') + encodeQueryPart(key) + '=' + encodeQueryPart(String(v));
  }
  return q;
}

/**
 * The full query string of a signed request: `params` serialised by `serializeQuery`, then
 * `&signature=<hex>` last, signed over that query plus `body`. The caller supplies
 * `timestamp` (and `recv_window` if wanted) among the params.
 */
export function buildSignedQuery(params: QueryParams, secret: string, body?: string): string {
  if (Object.hasOwn(params, 'signature')) throw new TypeError('params must not contain signature');
  const q = serializeQuery(params);
  const sig = hmacSha256Hex(secret, body === undefined ? q : q + body);
  return (q === '' ? '' : q + '&') + 'signature=' + sig;
}

/** String equality whose time depends only on the lengths, for comparing signatures. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}
