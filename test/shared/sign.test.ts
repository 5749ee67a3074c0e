import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSignedQuery,
  constantTimeEqual,
  createHmacSha256,
  hmacSha256Hex,
  serializeQuery,
  sha256Hex,
  signRequest,
  signaturePayload,
} from '../../src-shared/sign.ts';

const nodeHmac = (key: string | Uint8Array, msg: string | Uint8Array): string =>
  createHmac('sha256', key).update(msg).digest('hex');

describe('reference vectors', () => {
  it('reproduces the signing vector of reference/exchange.md', () => {
    expect(
      hmacSha256Hex(
        '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9',
        'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943',
      ),
    ).toBe('3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9');
  });

  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    ['a'.repeat(1_000_000), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
  ])('SHA-256 FIPS 180-2 vector %#', (msg, digest) => {
    expect(sha256Hex(msg)).toBe(digest);
  });

  it('RFC 4231 case 2 (short key) and case 6 (131-byte key, hashed first)', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(
      createHmacSha256(new Uint8Array(131).fill(0xaa)).hex('Test Using Larger Than Block-Size Key - Hash Key First'),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });
});

describe('agreement with node:crypto', () => {
  // Raw UTF-16 code units, so lone surrogates occur too (both sides encode them as U+FFFD).
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const anyText = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 150 }),
    fc.string({ unit: codeUnit, maxLength: 150 }),
  );

  it('HMAC for random keys (including over 64 bytes) and messages', () => {
    fc.assert(
      fc.property(anyText, anyText, (key, msg) => {
        expect(hmacSha256Hex(key, msg)).toBe(nodeHmac(key, msg));
      }),
      { numRuns: 1000 },
    );
  });

  it('SHA-256 and HMAC for byte messages at every length around the block boundaries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 260 }), fc.uint8Array({ maxLength: 140 }), (msg, key) => {
        expect(sha256Hex(msg)).toBe(createHash('sha256').update(msg).digest('hex'));
        expect(createHmacSha256(key).hex(msg)).toBe(nodeHmac(key, msg));
      }),
      { numRuns: 1000 },
    );
    for (let n = 0; n <= 200; n++) {
      const s = 'x'.repeat(n);
      expect([n, sha256Hex(s)]).toEqual([n, createHash('sha256').update(s).digest('hex')]);
    }
  });

  it('a prepared HMAC can be reused: each message is independent of the ones before', () => {
    const h = createHmacSha256('secret');
    const first = h.hex('a'.repeat(100));
    h.hex('b'.repeat(7));
    expect(h.hex('a'.repeat(100))).toBe(first);
    expect(first).toBe(nodeHmac('secret', 'a'.repeat(100)));
  });
});

describe('signRequest', () => {
  const secret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

  it('signs the query followed directly by the raw body', () => {
    const query = 'timestamp=1700000000000&recv_window=5000';
    const body = '{"symbol":"BTCUSDT","side":1,"qty":"0.001"}';
    expect(signRequest({ query, body, secret })).toBe(nodeHmac(secret, query + body));
    expect(signRequest({ query, secret })).toBe(nodeHmac(secret, query));
  });

  it('leaves the signature parameter and a leading "?" out of the payload', () => {
    expect(signaturePayload('?a=1&b=2&signature=abc', 'BODY')).toBe('a=1&b=2BODY');
    expect(signaturePayload('a=1&signature=abc&b=2')).toBe('a=1&b=2');
    expect(signaturePayload('signature=abc')).toBe('');
    expect(signaturePayload('xsignature=1&signature_x=2')).toBe('xsignature=1&signature_x=2');
    expect(signRequest({ query: 'a=1&signature=ff', secret })).toBe(nodeHmac(secret, 'a=1'));
  });
});

describe('buildSignedQuery', () => {
  it('serialises in insertion order, skips undefined, encodes, and signs last', () => {
    const q = buildSignedQuery(
      { symbol: 'BTCUSDT', note: 'a b&c=d/é', skip: undefined, reduce_only: false, timestamp: 1700000000000 },
      'k',
    );
    const unsigned = 'symbol=BTCUSDT&note=a%20b%26c%3Dd%2F%C3%A9&reduce_only=false&timestamp=1700000000000';
    expect(q).toBe(`${unsigned}&signature=${nodeHmac('k', unsigned)}`);
  });

  it('includes the body in the signature but not in the query', () => {
    const body = '{"qty":"1"}';
    const q = buildSignedQuery({ timestamp: 5 }, 'k', body);
    expect(q).toBe(`timestamp=5&signature=${nodeHmac('k', 'timestamp=5' + body)}`);
  });

  it('round-trips through the server-side payload rule', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== 'signature'),
          fc.oneof(fc.string(), fc.integer(), fc.boolean()),
        ),
        fc.string(),
        fc.option(fc.json(), { nil: undefined }),
        (params, secret, body) => {
          const q = buildSignedQuery(params, secret, body);
          const sig = q.slice(q.lastIndexOf('signature=') + 'signature='.length);
          expect(sig).toMatch(/^[0-9a-f]{64}$/);
          expect(signRequest({ query: q, body, secret })).toBe(sig);
          expect(new URLSearchParams(q).get('signature')).toBe(sig);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes a query as fetch sends it, so the signed text is the text received: ' as %27", () => {
    // the URL parser of fetch rewrites ' in an http(s) query to %27 (it signed `a'b`, sent `a%27b`)
    const q = serializeQuery({ client_order_id: "it's", x: '!*()~-_.', y: 'a b&c=d/é' });
    expect(q).toBe('client_order_id=it%27s&x=!*()~-_.&y=a%20b%26c%3Dd%2F%C3%A9');
    expect(new URL(`http://127.0.0.1:1/p?${q}`).search).toBe(`?${q}`);
  });

  it('refuses a signature parameter and non-finite numbers', () => {
    expect(() => buildSignedQuery({ signature: 'x' }, 'k')).toThrow(TypeError);
    expect(() => serializeQuery({ limit: NaN })).toThrow(TypeError);
    expect(buildSignedQuery({}, 'k')).toBe(`signature=${nodeHmac('k', '')}`);
  });
});

describe('constantTimeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['ab', 'abc', false],
    ['a\u0000', 'a', false],
    ['A', 'a', false],
  ])('%j vs %j is %s', (a, b, equal) => {
    expect(constantTimeEqual(a, b)).toBe(equal);
  });
});
