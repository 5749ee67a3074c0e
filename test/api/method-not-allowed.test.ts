// A path that exists for other methods answers HTTP 405 / 1105 with an Allow header and the
// methods to use; a path no route has stays 404 / 1100. Parametric routes count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string) {
  const r = await t.app.inject({ method, url });
  return {
    status: r.statusCode,
    allow: r.headers.allow,
    body: JSON.parse(r.body) as { code: number; message: string; data: unknown },
  };
}

describe('405 method not allowed', () => {
  it('GET on the POST-only /fapi/v1/orders', async () => {
    const r = await call('GET', '/fapi/v1/orders');
    expect(r.status).toBe(405);
    expect(r.allow).toBe('POST');
    expect(r.body).toEqual({
      code: Errors.METHOD_NOT_ALLOWED.code,
      message: 'GET is not allowed on /fapi/v1/orders; use POST',
      data: null,
    });
  });

  it('POST on the parametric GET route /api/v1/symbols/:symbol', async () => {
    const r = await call('POST', '/api/v1/symbols/BTCUSDT');
    expect(r.status).toBe(405);
    expect(r.body.code).toBe(1105);
    // HEAD comes with every GET route: named in Allow, left out of the advice
    expect(r.allow).toBe('GET, HEAD');
    expect(r.body.message).toBe('POST is not allowed on /api/v1/symbols/BTCUSDT; use GET');
  });

  it('names every method of a path with several, and ignores the query and a trailing slash', async () => {
    const r = await call('DELETE', '/fapi/v1/leverage/?symbol=BTCUSDT');
    expect(r.status).toBe(405);
    expect(r.allow).toBe('GET, HEAD, POST');
    expect(r.body.message).toBe('DELETE is not allowed on /fapi/v1/leverage/; use GET or POST');
  });

  it.each([
    ['GET', '/fapi/v1/nothing'],
    ['POST', '/api/v1/symbols/BTCUSDT/extra'],
    ['PUT', '/no/such/route'],
  ] as const)('an unknown path stays 404 / 1100: %s %s', async (method, url) => {
    const r = await call(method, url);
    expect(r.status).toBe(404);
    expect(r.allow).toBeUndefined();
    expect(r.body).toEqual({ code: Errors.ROUTE_NOT_FOUND.code, message: `No route ${method} ${url}`, data: null });
  });
});
