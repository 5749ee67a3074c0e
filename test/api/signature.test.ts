// The one verifier of signed requests (src-main/api/signature.ts), shared by REST and the
// WebSocket LOGIN: its checks in order (a request failing several hears of the first), and a
// signature made by the client-side signer (src-shared/sign.ts) accepted, body included.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySignature, type SignedParts } from '../../src-main/api/signature.ts';
import { hmacSha256Hex, loginPayload } from '../../src-shared/sign.ts';

const NOW = 1_700_000_000_000;
const secret = 's3cret';
const signed = `symbol=BTCUSDT&timestamp=${NOW}`;
const body = '{"qty":"1"}';
const good: SignedParts = {
  secret,
  timestamp: String(NOW),
  recvWindow: undefined,
  signed,
  body,
  signature: hmacSha256Hex(secret, signed + body),
  now: NOW,
};

describe('verifySignature', () => {
  it('accepts what sign.ts signs: the signed text followed by the raw body', () => {
    expect(verifySignature(good)).toBeNull();
    expect(verifySignature({ ...good, body: undefined })?.check).toBe('signature');
  });

  it('accepts a LOGIN signed over loginPayload, recv_window included when sent', () => {
    const text = loginPayload('key1', NOW, 60_000);
    expect(text).toBe(`api_key=key1&timestamp=${NOW}&recv_window=60000`);
    expect(
      verifySignature({
        secret,
        timestamp: String(NOW),
        recvWindow: '60000',
        signed: text,
        signature: hmacSha256Hex(secret, text),
        now: NOW,
      }),
    ).toBeNull();
  });

  it('checks timestamp (2005), recv_window (2008), freshness (2006 / 2007), then the HMAC (2004), in that order', () => {
    const bad = { ...good, signature: 'f'.repeat(64) };
    expect(verifySignature({ ...bad, timestamp: undefined })).toMatchObject({
      check: 'timestamp-missing',
      def: { code: 2005 },
    });
    expect(verifySignature({ ...bad, timestamp: '1.5e12', recvWindow: '0' })).toMatchObject({
      check: 'timestamp-malformed',
      def: { code: 2005 },
    });
    expect(verifySignature({ ...bad, timestamp: ['1', '2'] })).toMatchObject({ check: 'timestamp-malformed' });
    expect(verifySignature({ ...bad, recvWindow: '60001', timestamp: String(NOW - 600_000) })).toMatchObject({
      check: 'recv-window',
      def: { code: 2008 },
    });
    expect(verifySignature({ ...bad, timestamp: String(NOW - 5001) })).toMatchObject({
      check: 'time',
      def: { code: 2006 },
    });
    expect(verifySignature({ ...bad, timestamp: String(NOW + 1000) })).toMatchObject({
      check: 'time',
      def: { code: 2007 },
    });
    expect(verifySignature(bad)).toMatchObject({ check: 'signature', def: { code: 2004 } });
  });

  it('keeps the time window edges: 5000 ms old is fresh by default, 999 ms ahead is accepted', () => {
    const at = (ts: number, recvWindow?: string) => {
      const text = `timestamp=${ts}`;
      return verifySignature({
        secret,
        timestamp: String(ts),
        recvWindow,
        signed: text,
        signature: hmacSha256Hex(secret, text),
        now: NOW,
      });
    };
    expect(at(NOW - 5000)).toBeNull();
    expect(at(NOW + 999)).toBeNull();
    expect(at(NOW - 20_000, '20000')).toBeNull();
    expect(at(NOW - 20_001, '20000')?.def.code).toBe(2006);
  });

  it('an upper-case copy of the right signature does not match', () => {
    expect(verifySignature({ ...good, signature: good.signature.toUpperCase() })?.check).toBe('signature');
  });

  it("agrees with node:crypto's HMAC-SHA256 (what other clients sign with), for any text and secret", () => {
    // UTF-8 text, a lone surrogate (U+FFFD in both), a body longer than a block, a secret over 64 bytes
    const cases = [
      { key: secret, text: signed, tail: '{"note":"caf\u00e9 \u20ac \ud83d\ude00 \ud800"}' },
      { key: 'k'.repeat(100), text: 'a=1', tail: 'x'.repeat(200) },
      { key: 'x', text: '', tail: undefined },
    ];
    for (const c of cases) {
      const signature = createHmac('sha256', c.key)
        .update(c.text + (c.tail ?? ''))
        .digest('hex');
      expect(verifySignature({ ...good, secret: c.key, signed: c.text, body: c.tail, signature })).toBeNull();
      const wrong = signature.slice(0, 63) + (signature.endsWith('0') ? '1' : '0');
      expect(verifySignature({ ...good, secret: c.key, signed: c.text, body: c.tail, signature: wrong })?.check).toBe(
        'signature',
      );
    }
  });
});
