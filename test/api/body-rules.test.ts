// Body rules shared by every route: a JSON body's values must already have their declared JSON
// types (a decimal string field refuses a JSON number, 1001, on every route, not only the
// trading ones); an empty JSON body and an oversized body answer clear messages.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import type { Venue } from '../../src-main/services/venue.ts';
import { openVenue } from '../../src-main/venue.ts';
import { Errors } from '../../src-shared/errors.ts';
import { buildSignedQuery } from '../../src-shared/sign.ts';

const T0 = 1_700_000_000_000;
const KEY = 'bodyrules_key_1';
const SECRET = 'bodyrules_secret_1';
const U = 100_000_000n;
let app: FastifyInstance;
let venue: Venue;
let accountId: number;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  accountId = venue.accounts.upsert({ apiKey: KEY, apiSecret: SECRET, kind: 'user', balance: 1000n * U }, T0).id;
  app = await buildApp({ venue, now: () => T0, rateLimit: false });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  venue.close();
});

/** A signed POST of `body` (raw text; undefined: no body and no content type). */
async function signedPost(path: string, body: string | undefined) {
  const r = await app.inject({
    method: 'POST',
    url: `${path}?${buildSignedQuery({ timestamp: T0 }, SECRET, body)}`,
    headers: body === undefined ? { 'x-api-key': KEY } : { 'x-api-key': KEY, 'content-type': 'application/json' },
    payload: body,
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as { code: number; message: string; data: unknown } };
}

const wallet = () => venue.accounts.byId(accountId)!.walletBalance;

describe('JSON types of body values', () => {
  it('POST /fapi/v1/account/deposit refuses {"amount":10} (a JSON number) with 1001 and takes "10"', async () => {
    const before = wallet();
    const r = await signedPost('/fapi/v1/account/deposit', '{"amount":10}');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: Errors.INVALID_PARAMETER.code,
      message: 'Invalid body parameter \'amount\': must be a JSON string: send "10", not 10',
      data: null,
    });
    expect(wallet()).toBe(before);
    const good = await signedPost('/fapi/v1/account/deposit', '{"amount":"10"}');
    expect(good.body.code).toBe(0);
    expect(wallet()).toBe(before + 10n * U);
  });

  it('answers exactly as the order route does for a number in a decimal field', async () => {
    const order = await signedPost(
      '/fapi/v1/orders',
      '{"symbol":"BTCUSDT","side":1,"position_side":1,"position_action":1,"type":2,"qty":0.002}',
    );
    expect(order.body).toEqual({
      code: 1001,
      message: 'Invalid body parameter \'qty\': must be a JSON string: send "0.002", not 0.002',
      data: null,
    });
  });

  it('POST /fapi/v1/account/reset refuses a numeric balance', async () => {
    const before = wallet();
    const r = await signedPost('/fapi/v1/account/reset', '{"balance":5000}');
    expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
    expect(r.body.message).toContain("'balance'");
    expect(wallet()).toBe(before);
  });

  // before: "'0' is not a USDT amount with at most 8 decimals" and "balance must be at most
  // 1000000000 USDT", neither naming the body parameter
  it.each([
    ['{"balance":"0"}', 'Invalid body parameter \'balance\': must be greater than 0, got "0"'],
    ['{"balance":"0.00000000"}', 'Invalid body parameter \'balance\': must be greater than 0, got "0.00000000"'],
    ['{"balance":"1000000001"}', 'Invalid body parameter \'balance\': at most 1000000000 USDT, got "1000000001"'],
  ])('POST /fapi/v1/account/reset refuses %s naming the balance', async (body, message) => {
    const before = wallet();
    const r = await signedPost('/fapi/v1/account/reset', body);
    expect(r.body).toEqual({ code: 1001, message, data: null });
    expect(wallet()).toBe(before);
  });

  it('POST /admin/v1/accounts refuses a numeric balance', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      payload: { api_key: 'numeric_bal_1', balance: 25000 },
    });
    expect(r.json()).toMatchObject({
      code: 1001,
      message: 'Invalid body parameter \'balance\': must be a JSON string: send "25000", not 25000',
    });
    expect(venue.accounts.byKey('numeric_bal_1')).toBeUndefined();
  });
});

describe('a number in quotes', () => {
  it('an integer field sent as a numeric string is refused with what to send instead', async () => {
    const r = await signedPost(
      '/fapi/v1/orders',
      '{"symbol":"BTCUSDT","side":"1","position_side":1,"position_action":1,"type":2,"qty":"0.002"}',
    );
    expect(r.body).toEqual({
      code: 1001,
      message: 'Invalid body parameter \'side\': must be a JSON integer: send 1, not "1"',
      data: null,
    });
    // a string that is no number gets no such advice: the field's values instead
    const word = await signedPost(
      '/fapi/v1/orders',
      '{"symbol":"BTCUSDT","side":"buy","position_side":1,"position_action":1,"type":2,"qty":"0.002"}',
    );
    expect(word.body.message).toBe("Invalid body parameter 'side': must be a JSON integer: one of 1, 2");
  });
});

describe('a wrong JSON type in a field with a list of values', () => {
  it('names the values, not the retyped value that is none of them (position_mode 1 is no "1")', async () => {
    const mode = await signedPost('/fapi/v1/positionMode', '{"position_mode":1}');
    expect(mode.body).toEqual({
      code: 1001,
      message: 'Invalid body parameter \'position_mode\': must be a JSON string: one of "hedge", "one_way"',
      data: null,
    });
    const side = await signedPost(
      '/fapi/v1/orders',
      '{"symbol":"BTCUSDT","side":"3","position_side":1,"position_action":1,"type":2,"qty":"0.002"}',
    );
    expect(side.body.message).toBe("Invalid body parameter 'side': must be a JSON integer: one of 1, 2");
    // the same on every route with such a field (the admin route, unsigned)
    const admin = await app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      payload: { api_key: 'enum_mode_01', position_mode: 1 },
    });
    expect(admin.json().message).toBe(
      'Invalid body parameter \'position_mode\': must be a JSON string: one of "hedge", "one_way"',
    );
    expect(venue.accounts.byKey('enum_mode_01')).toBeUndefined();
    // an object is not retyped (its toString may not be a function): the values, never a 5xx
    const obj = await signedPost('/fapi/v1/positionMode', '{"position_mode":{"toString":1}}');
    expect(obj.status).toBe(400);
    expect(obj.body.message).toBe(
      'Invalid body parameter \'position_mode\': must be a JSON string: one of "hedge", "one_way"',
    );
  });
});

describe('a list field sent as one value', () => {
  it('is told in words it must be a JSON array, as every other type (it was Ajv\'s bare "must be array")', async () => {
    const list = async () => (await app.inject({ method: 'GET', url: '/admin/v1/whitelist' })).json().data;
    const before = await list();
    const ips = await app.inject({ method: 'PUT', url: '/admin/v1/whitelist', payload: { ips: '10.0.0.7' } });
    expect([ips.statusCode, ips.json()]).toEqual([
      400,
      { code: 1001, message: "Invalid body parameter 'ips': must be a JSON array", data: null },
    ]);
    expect(await list()).toEqual(before);
    const replays = await app.inject({
      method: 'POST',
      url: '/api/v1/replays',
      payload: { symbols: 'BTCUSDT', start: T0 },
    });
    expect(replays.json()).toMatchObject({
      code: 1001,
      message: "Invalid body parameter 'symbols': must be a JSON array",
    });
    const paths = await app.inject({ method: 'POST', url: '/api/v1/datasets/import', payload: { paths: { a: 1 } } });
    expect(paths.json()).toMatchObject({ code: 1001, message: "Invalid body parameter 'paths': must be a JSON array" });
  });
});

describe('empty and oversized bodies', () => {
  it('an empty body sent as JSON: 1004, worded like the missing body (1002) of the same route', async () => {
    const empty = await signedPost('/fapi/v1/orders', '');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(Errors.INVALID_JSON.code);
    expect(empty.body.message).toMatch(
      /^Missing request body: Content-Type is application\/json but the body is empty/,
    );
    expect(empty.body.message).not.toMatch(/Body cannot be empty/);
    const missing = await signedPost('/fapi/v1/orders', undefined);
    expect(missing.body.code).toBe(Errors.MISSING_PARAMETER.code);
    expect(missing.body.message).toMatch(/^Missing request body: /);
  });

  it('a body over the limit: 1005 stating the limit', async () => {
    const big = JSON.stringify({ amount: '1', pad: 'x'.repeat(70_000) });
    const r = await app.inject({
      method: 'POST',
      url: '/fapi/v1/account/deposit',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: Errors.BODY_TOO_LARGE.code,
      message: 'Request body is too large: the limit is 65536 bytes (64 KiB)',
      data: null,
    });
  });
});

describe('content type', () => {
  it('a text/plain body is 1006 on every route that takes a body, never a schema error', async () => {
    for (const [method, url] of [
      ['POST', '/admin/v1/accounts'],
      ['PUT', '/admin/v1/whitelist'],
      ['POST', '/api/v1/session'],
      ['POST', '/fapi/v1/bot/orders'],
    ] as const) {
      const r = await app.inject({ method, url, headers: { 'content-type': 'text/plain' }, payload: '{"speed": 5}' });
      expect({ url, status: r.statusCode, code: r.json().code }).toEqual({
        url,
        status: Errors.UNSUPPORTED_MEDIA_TYPE.http,
        code: Errors.UNSUPPORTED_MEDIA_TYPE.code,
      });
    }
    const signedText = await app.inject({
      method: 'POST',
      url: `/fapi/v1/account/deposit?${buildSignedQuery({ timestamp: T0 }, SECRET, '{"amount":"10"}')}`,
      headers: { 'x-api-key': KEY, 'content-type': 'text/plain' },
      payload: '{"amount":"10"}',
    });
    expect(signedText.json().code).toBe(Errors.UNSUPPORTED_MEDIA_TYPE.code);
  });
});
