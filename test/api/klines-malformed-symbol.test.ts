// A candlestick route's symbol that is not valid percent-encoding (`%E0%A4%A`: a % without its
// two hex digits, or bytes that are no UTF-8) is no name at all: 6000 invalid parameter naming it,
// as the envelope routes answer 1001 for it. Until 2026-12-07 it was 6002 "Unknown symbol
// '%E0%A4%A'", as if a pair of that name could exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { plain } from '../helpers/signed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
});
afterAll(() => t.close());

const WHY = 'is not valid percent-encoding (each % is followed by two hex digits, the bytes UTF-8 text)';

describe('a symbol that is not valid percent-encoding', () => {
  it.each([
    ['/fapi/v1/klines?symbol=%E0%A4%A&interval=1m', `Invalid parameter 'symbol': '%E0%A4%A' ${WHY}`],
    ['/fapi/v1/klines?interval=1m&symbol=BTC%FFUSDT', `Invalid parameter 'symbol': 'BTC%FFUSDT' ${WHY}`],
    [
      '/fapi/v1/klines/batch?symbols=BTCUSDT,%E0%A4%A&interval=1m',
      `Invalid parameter 'symbols': 'BTCUSDT,%E0%A4%A' ${WHY}`,
    ],
  ])('%s is 6000 naming it', async (url, message) => {
    const r = await plain(t.app, 'GET', url);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: Errors.KLINES_INVALID_PARAMETER.code, message });
  });

  it('one well encoded is read as before: an unknown name is 6002, a known one served', async () => {
    const r = await plain(t.app, 'GET', `/fapi/v1/klines?symbol=${encodeURIComponent('wıfusdt')}&interval=1m`);
    expect(r.body.code).toBe(Errors.KLINES_SYMBOL_NOT_FOUND.code);
    const ok = await plain(t.app, 'GET', '/fapi/v1/klines?symbol=%42TCUSDT&interval=1m&limit=1');
    expect(Array.isArray(ok.body)).toBe(true);
  });

  it('the envelope routes refuse it as an invalid parameter too (1001)', async () => {
    const r = await plain(t.app, 'GET', '/fapi/v1/depth?symbol=%E0%A4%A');
    expect(r.body.code).toBe(Errors.INVALID_PARAMETER.code);
  });
});
