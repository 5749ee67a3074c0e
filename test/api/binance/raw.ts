// Signed Binance-style requests over real HTTP for the facade's tests: every parameter in the
// query (GET / DELETE) or in a form body (POST / PUT), signed as Binance clients sign them.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Creds } from '../../helpers/signed.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The parameters with a fresh timestamp, signed as Binance clients sign them: `...&signature=<hex>`. */
function signedText(who: Creds, params: Record<string, string | number>): string {
  const all = new URLSearchParams({ timestamp: String(Date.now()) });
  for (const [k, v] of Object.entries(params)) all.set(k, String(v));
  const text = all.toString();
  return `${text}&signature=${createHmac('sha256', who.apiSecret).update(text).digest('hex')}`;
}

/** A signed request as sent: the URL under /binance, its headers, and a form body for POST / PUT (else the query holds it all). */
function signedRequest(
  who: Creds,
  method: Method,
  path: string,
  params: Record<string, string | number>,
): { url: string; headers: Record<string, string>; body: string | undefined } {
  const signed = signedText(who, params);
  const inBody = method === 'POST' || method === 'PUT';
  return {
    url: `/binance${path}${inBody ? '' : `?${signed}`}`,
    headers: {
      'x-mbx-apikey': who.apiKey,
      ...(inBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: inBody ? signed : undefined,
  };
}

/** A signed request over HTTP to a listening service at `base`. */
export async function signedCall(
  base: string,
  who: Creds,
  method: Method,
  path: string,
  params: Record<string, string | number> = {},
): Promise<{ status: number; body: any }> {
  const q = signedRequest(who, method, path, params);
  const r = await fetch(`${base}${q.url}`, { method, headers: q.headers, body: q.body });
  return { status: r.status, body: await r.json() };
}

/** The same request through `inject` (no socket), the answer's text as sent. */
export async function signedInjectText(
  app: FastifyInstance,
  who: Creds,
  method: Method,
  path: string,
  params: Record<string, string | number> = {},
): Promise<{ status: number; text: string }> {
  const q = signedRequest(who, method, path, params);
  const r = await app.inject({ method, url: q.url, headers: q.headers, payload: q.body });
  return { status: r.statusCode, text: r.body };
}

/** The same request through `inject` (no socket). */
export async function signedInject(
  app: FastifyInstance,
  who: Creds,
  method: Method,
  path: string,
  params: Record<string, string | number> = {},
): Promise<{ status: number; body: any }> {
  const r = await signedInjectText(app, who, method, path, params);
  return { status: r.status, body: JSON.parse(r.text) };
}
