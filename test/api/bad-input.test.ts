import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t.close();
});

// Every bad request gets the envelope with a documented non-zero code and a 4xx status.
const CASES: Array<[string, string, number, number]> = [
  ['GET', '/api/v1/symbols?status=9', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/api/v1/symbols?status=abc', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/api/v1/symbols?status=1.5', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/api/v1/symbols?tag=foo', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/api/v1/symbols?foo=1', 400, Errors.UNKNOWN_PARAMETER.code],
  ['GET', '/api/v1/symbols/BTC-USDT', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/api/v1/symbols/' + 'X'.repeat(40), 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/fapi/v1/symbols?symbols=BTCUSDT,,ETHUSDT', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/fapi/v1/symbols?symbols=BTC%20USDT', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/fapi/v1/symbols?tag=', 400, Errors.INVALID_PARAMETER.code],
  ['GET', '/fapi/v1/time?x=1', 400, Errors.UNKNOWN_PARAMETER.code],
  ['GET', '/no/such/route', 404, Errors.ROUTE_NOT_FOUND.code],
  // the path exists for GET only: 405 (method-not-allowed.test.ts checks the details)
  ['POST', '/api/v1/symbols', 405, Errors.METHOD_NOT_ALLOWED.code],
  ['DELETE', '/fapi/v1/time', 405, Errors.METHOD_NOT_ALLOWED.code],
  ['GET', '/api/v1/symbols/%E0%A4%A', 400, Errors.BAD_REQUEST.code],
];

describe('bad input', () => {
  it.each(CASES)('%s %s -> %i / %i', async (method, url, status, code) => {
    const r = await t.app.inject({ method: method as 'GET', url });
    expect(r.statusCode).toBe(status);
    expect(String(r.headers['content-type'])).toContain('application/json');
    const body = JSON.parse(r.body);
    expect(Object.keys(body)).toEqual(['code', 'message', 'data']);
    expect(body.code).toBe(code);
    expect(body.data).toBeNull();
    expect(body.message.length).toBeGreaterThan(0);
    expect(r.body).not.toMatch(/at .*\.ts:\d+|<html/i);
  });

  it('names the offending parameter in the message', async () => {
    const r = await getJson(t.app, '/api/v1/symbols?status=9');
    expect(r.body.message).toContain("'status'");
    const u = await getJson(t.app, '/api/v1/symbols?limit=3');
    expect(u.body.message).toContain("'limit'");
    // sent twice: said so, not "must be integer" for the list it arrives as
    const twice = await getJson(t.app, '/api/v1/symbols?status=1&status=1');
    expect([twice.status, twice.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(twice.body.message).toBe("Duplicate query parameter 'status': send it once");
    // a boolean says which words it takes (it was Ajv's bare "must be boolean")
    for (const v of ['1', 'True', 'yes']) {
      const b = await getJson(t.app, `/fapi/v1/depth?symbol=BTCUSDT&with_id=${v}`);
      expect([b.status, b.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
      expect(b.body.message).toBe("Invalid query parameter 'with_id': must be true or false (the word)");
    }
  });

  it('every registry code is unique within its error style', () => {
    const envelope = Object.values(Errors).filter((d) => d.cls !== 'klines' && d.cls !== 'price');
    expect(new Set(envelope.map((d) => d.code)).size).toBe(envelope.length);
    const klines = Object.values(Errors).filter((d) => d.cls === 'klines');
    expect(new Set(klines.map((d) => d.code)).size).toBe(klines.length);
    for (const d of klines) expect(d.code >= 6000 && d.code <= 7999).toBe(true);
    for (const d of envelope) expect([400, 401, 403, 404, 405, 408, 414, 429, 431, 500, 503]).toContain(d.http);
  });
});

describe('OpenAPI', () => {
  it('documents every route with its response schema', async () => {
    const r = await getJson(t.app, '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    for (const path of ['/api/v1/symbols', '/api/v1/symbols/{symbol}', '/fapi/v1/symbols', '/fapi/v1/time']) {
      const op = r.body.paths[path]?.get;
      expect(op, path).toBeDefined();
      expect(op.responses['200'], path).toBeDefined();
      expect(op.responses['400'], path).toBeDefined();
    }
    const gs = r.body.components.schemas.GeneralSymbol;
    expect(Object.keys(gs.properties)).toHaveLength(24);
    const fs = r.body.components.schemas.FuturesSymbol;
    expect(Object.keys(fs.properties)).toHaveLength(20);
  });

  it('serves a browsable page', async () => {
    const r = await t.app.inject({ url: '/docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/html');
    expect(r.body).toContain('swagger');
  });
});
