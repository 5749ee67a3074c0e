// A value that fails a schema's pattern is refused in words (api/pattern-words.ts), not with the
// regular expression: every pattern the OpenAPI document declares has its words, and the answer
// says them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { patternWords } from '../../src-main/api/pattern-words.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t.close();
});

/** Every `pattern` below `node`, with where it was found. */
function patterns(node: unknown, at: string, out: Array<[string, string]>): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((x, i) => patterns(x, `${at}[${i}]`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') out.push([at, v]);
      else patterns(v, `${at}.${k}`, out);
    }
  }
  return out;
}

describe('patterns in words', () => {
  it('every pattern of the native routes in the OpenAPI document has its words', async () => {
    const doc = (await getJson(t.app, '/openapi.json')).body as { paths: Record<string, unknown> };
    const found: Array<[string, string]> = [];
    for (const [path, ops] of Object.entries(doc.paths)) if (!path.startsWith('/binance')) patterns(ops, path, found);
    // the document does declare patterns (a walk that found none would pass on nothing)
    expect(found.length).toBeGreaterThan(20);
    const missing = found.filter(([, p]) => patternWords(p) === undefined).map(([at, p]) => `${at}: ${p}`);
    expect(missing).toEqual([]);
  });

  it('a value that fails a pattern is 1001 naming the parameter and what it must be', async () => {
    const sym = await getJson(t.app, '/api/v1/symbols/BTC-USDT');
    expect([sym.status, sym.body.code]).toEqual([400, Errors.INVALID_PARAMETER.code]);
    expect(sym.body.message).toBe(
      `Invalid path parameter 'symbol': must be 2 to 30 letters and digits, such as "BTCUSDT"`,
    );
    const list = await getJson(t.app, '/fapi/v1/symbols?symbols=BTCUSDT,,ETHUSDT');
    expect(list.body.message).toBe(
      `Invalid query parameter 'symbols': must be pairs separated by commas, such as "BTCUSDT,ETHUSDT"`,
    );
    expect(list.body.message).not.toContain('^');
  });
});
