// The facade's parameter reading (params.ts): the form body's parameters as URLSearchParams reads
// them (the direct split of a text with nothing to decode must agree with it; a name twice is
// refused, a name the query has keeps the query's value), and the signed text without its
// signature parameter wherever that parameter stands.
import { describe, expect, it } from 'vitest';
import { addFormParams, Params, withoutSignature } from '../../../src-main/api/binance/params.ts';

/** What URLSearchParams reads (each name once here), the prototype keys left out. */
function reference(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text))
    if (k !== '__proto__' && k !== 'constructor' && k !== 'prototype') out[k] = v;
  return out;
}

describe('addFormParams', () => {
  const texts = [
    'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.002&price=96000.1&timestamp=1764417000000&signature=ab12',
    'a=1&&b=2&',
    '&a=1',
    'flag&a=&b==x&c=1=2',
    'newClientOrderId=my.bot:1/a&x=-_.',
    'a=b+c&d=%41%zz&e=%E2%82%AC',
    '__proto__=1&constructor=2&prototype=3&ok=4',
    '=x&y',
  ];
  it.each(texts)('%s: the parameters URLSearchParams reads', (text) => {
    const got: Record<string, unknown> = {};
    addFormParams(text, got);
    expect(got).toEqual(reference(text));
    expect(Object.keys(got)).toEqual(Object.keys(reference(text)));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  });

  it("joins the query's parameters, the query's winning (Binance's rule for a name in both)", () => {
    const q: Record<string, unknown> = { symbol: 'ETHUSDT', limit: '5' };
    addFormParams('symbol=BTCUSDT&side=SELL', q);
    expect(q).toEqual({ symbol: 'ETHUSDT', limit: '5', side: 'SELL' });
  });

  it.each(['a=1&a=2&a=3', '%61=1&a=2', 'a=1&b=2&a=1', 'a&a'])(
    '%s: a name twice in the body is refused, -1101',
    (text) => {
      expect(() => addFormParams(text, {})).toThrow(
        expect.objectContaining({
          code: -1101,
          message: expect.stringContaining("Parameter 'a' was sent more than once"),
        }),
      );
    },
  );
});

describe('withoutSignature', () => {
  /** The split the verifier relies on, done the plain way: every part but signature's, and the last signature's value. */
  function plain(text: string): { rest: string; signature: string | undefined } {
    let signature: string | undefined;
    const kept: string[] = [];
    for (const part of text.split('&')) {
      if (part === 'signature' || part.startsWith('signature=')) signature = part.slice(10);
      else kept.push(part);
    }
    return { rest: kept.join('&'), signature };
  }
  const texts = [
    'a=1&b=2&signature=abc',
    'signature=abc',
    'signature=abc&a=1',
    'a=1&signature=abc&b=2',
    'a=1&signature=x&signature=y',
    'a=1&&signature=abc',
    'a=1&signature',
    'a=1&signature=',
    'newClientOrderId=signature&signature=abc',
    'xsignature=1&a=2',
    'a=1&signatures=2',
    'a=1&signature=ab&c',
  ];
  it.each(texts)('%s', (text) => {
    expect(withoutSignature(text)).toEqual(plain(text));
  });
  it('an empty text has no signature', () => {
    expect(withoutSignature('')).toEqual({ rest: '', signature: undefined });
    expect(withoutSignature('a=1')).toEqual({ rest: 'a=1', signature: undefined });
  });
});

describe('Params over validated values', () => {
  it('reads numbers the validator made as text; empty, null and absent alike', () => {
    const q = Params.of({ timestamp: 1764417000000, recvWindow: 5000, side: 'BUY', none: '', gone: null });
    expect(q.str('timestamp')).toBe('1764417000000');
    expect(q.int('recvWindow', 1, 60000)).toBe(5000);
    expect(q.required('side')).toBe('BUY');
    for (const name of ['none', 'gone', 'missing']) {
      expect(q.has(name)).toBe(false);
      expect(q.str(name)).toBeUndefined();
    }
  });
});
