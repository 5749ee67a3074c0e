// Signed Binance-style requests over real HTTP for the facade's tests: every parameter in the
// query (GET / DELETE) or in a form body (POST / PUT), signed as Binance clients sign them.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Creds } from '../../helpers/signed.ts';

export async function signedCall(
  base: string,
  who: Creds,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  params: Record<string, string | number> = {},
): Promise<{ status: number; body: any }> {
  const all = new URLSearchParams({ timestamp: String(Date.now()) });
  for (const [k, v] of Object.entries(params)) all.set(k, String(v));
  const text = all.toString();
  const signed = `${text}&signature=${createHmac('sha256', who.apiSecret).update(text).digest('hex')}`;
  const inBody = method === 'POST' || method === 'PUT';
  const r = await fetch(`${base}/binance${path}${inBody ? '' : `?${signed}`}`, {
    method,
    headers: {
      'x-mbx-apikey': who.apiKey,
      ...(inBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(inBody ? { body: signed } : {}),
  });
  return { status: r.status, body: await r.json() };
}

/** The same request through `inject` (no socket): parameters in the query, or a form body for POST / PUT. */
export async function signedInject(
  app: FastifyInstance,
  who: Creds,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  params: Record<string, string | number> = {},
): Promise<{ status: number; body: any }> {
  const all = new URLSearchParams({ timestamp: String(Date.now()) });
  for (const [k, v] of Object.entries(params)) all.set(k, String(v));
  const text = all.toString();
  const signed = `${text}&signature=${createHmac('sha256', who.apiSecret).update(text).digest('hex')}`;
  const inBody = method === 'POST' || method === 'PUT';
  const r = await app.inject({
    method,
    url: `/binance${path}${inBody ? '' : `?${signed}`}`,
    headers: {
      'x-mbx-apikey': who.apiKey,
      ...(inBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(inBody ? { payload: signed } : {}),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}
