// Signed `inject` requests for route tests: paper accounts with known credentials, requests
// signed with src-shared/sign.ts exactly as a bot would sign them, and the check of a refusal's
// envelope.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { buildSignedQuery, hmacSha256Hex, serializeQuery, type QueryParams } from '../../src-shared/sign.ts';

export interface Creds {
  id: number;
  apiKey: string;
  apiSecret: string;
}

export interface Reply {
  status: number;
  body: any;
  raw: string;
}

const UNIT = 100_000_000n;

/**
 * Creates a user account holding `usdt` USDT. Call it before the account's first request: it
 * writes the row directly, and the exchange keeps a loaded account's wallet in memory.
 */
export function makeAccount(venue: Venue, name: string, usdt = 100_000): Creds {
  const apiKey = `key_${name}_0000`;
  const apiSecret = `secret_${name}_0000`;
  const a = venue.accounts.upsert({ apiKey, apiSecret, kind: 'user', balance: BigInt(usdt) * UNIT }, Date.now());
  return { id: a.id, apiKey, apiSecret };
}

export interface SignedOptions {
  /** Query parameters besides timestamp and signature. */
  query?: QueryParams;
  /** Query text put as is before the parameters (e.g. a repeated key), signed with the rest. */
  rawQuery?: string;
  /** A value to send as JSON (stringified once; the signature covers those exact bytes). */
  json?: unknown;
  /** A raw body sent as is (signed as is), for malformed-body tests. */
  rawBody?: string;
  /** Content-Type header; application/json when a body is given. Pass null to send none. */
  contentType?: string | null;
  remoteAddress?: string;
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** One signed request: query = params, timestamp, then signature last, over query + raw body. */
export async function signed(
  app: FastifyInstance,
  who: Creds,
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  path: string,
  opts: SignedOptions = {},
): Promise<Reply> {
  const body = opts.rawBody ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json));
  const params = { ...opts.query, timestamp: Date.now() };
  let query: string;
  if (opts.rawQuery === undefined) query = buildSignedQuery(params, who.apiSecret, body);
  else {
    const unsigned = `${opts.rawQuery}&${serializeQuery(params)}`;
    query = `${unsigned}&signature=${hmacSha256Hex(who.apiSecret, unsigned + (body ?? ''))}`;
  }
  const headers: Record<string, string> = { 'x-api-key': who.apiKey };
  const ctype =
    opts.contentType === undefined ? (body === undefined ? undefined : 'application/json') : opts.contentType;
  if (ctype !== undefined && ctype !== null) headers['content-type'] = ctype;
  const req: InjectOptions = { method, url: `${path}?${query}`, headers };
  if (body !== undefined) req.payload = body;
  if (opts.remoteAddress !== undefined) req.remoteAddress = opts.remoteAddress;
  const r = await app.inject(req);
  return { status: r.statusCode, body: parse(r.body), raw: r.body };
}

/** An unsigned request (bot routes), JSON body if given. */
export async function plain(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  opts: { json?: unknown; rawBody?: string; contentType?: string | null; remoteAddress?: string } = {},
): Promise<Reply> {
  const body = opts.rawBody ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json));
  const headers: Record<string, string> = {};
  const ctype =
    opts.contentType === undefined ? (body === undefined ? undefined : 'application/json') : opts.contentType;
  if (ctype !== undefined && ctype !== null) headers['content-type'] = ctype;
  const req: InjectOptions = { method, url, headers };
  if (body !== undefined) req.payload = body;
  if (opts.remoteAddress !== undefined) req.remoteAddress = opts.remoteAddress;
  const r = await app.inject(req);
  return { status: r.statusCode, body: parse(r.body), raw: r.body };
}

/** The `data` of a success envelope; throws with the whole answer otherwise. */
export function dataOf(r: Reply): any {
  if (r.status !== 200 || r.body?.code !== 0) throw new Error(`expected success, got ${r.status} ${r.raw}`);
  return r.body.data;
}

/** A refusal: the HTTP status and code of `def`, and `data` null. */
export function expectError(r: { status: number; body: any }, def: { code: number; http: number }): void {
  expect({ status: r.status, code: r.body?.code, data: r.body?.data }).toEqual({
    status: def.http,
    code: def.code,
    data: null,
  });
}

/** A BTCUSDT order body: open long, limit 0.010 @ 95000.0, with `over` applied (undefined drops a field). */
export function orderBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  const b: Record<string, unknown> = {
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price: '95000.0',
    qty: '0.010',
    ...over,
  };
  for (const k of Object.keys(b)) if (b[k] === undefined) delete b[k];
  return b;
}

/** Row count of a SQLite table (bot orders must never add any). */
export function countRows(venue: Venue, table: 'orders' | 'trades' | 'positions' | 'closed_positions'): number {
  return Number((venue.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number | bigint }).n);
}
