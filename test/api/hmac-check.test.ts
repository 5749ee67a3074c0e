// The service's allocation-free signature check (src-main/api/hmac-check.ts) against node:crypto's
// HMAC-SHA256 over the UTF-8 of signed + body: every length around the block edges, the text
// split anywhere between the two parts, non-ASCII text and secrets, long secrets; and that any
// other 64-character text is refused.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHmacCheck } from '../../src-main/api/hmac-check.ts';

const hmacHex = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('hex');

describe('createHmacCheck', () => {
  it("matches node:crypto's HMAC-SHA256 for every length from 0 to 300, split anywhere", () => {
    const check = createHmacCheck('benchSecretA0001');
    const all = 'timestamp=1764439200000&recv_window=60000{"symbol":"BTCUSDT","qty":"0.002"}'.repeat(5);
    for (let len = 0; len <= 300; len++) {
      const text = all.slice(0, len);
      const sig = hmacHex('benchSecretA0001', text);
      for (const at of new Set([0, len >> 1, len])) {
        expect(check.matches(text.slice(0, at), text.slice(at), sig)).toBe(true);
      }
    }
  });

  it('hashes the UTF-8 of non-ASCII text (a lone surrogate as U+FFFD), as the signer and node:crypto do', () => {
    const check = createHmacCheck('s3cret');
    for (const body of ['{"note":"caf\u00e9 \u20ac \ud83d\ude00 \ud800"}', '\u00ff', 'x'.repeat(70) + '\u0080']) {
      const sig = hmacHex('s3cret', 'a=1' + body);
      expect(check.matches('a=1', body, sig)).toBe(true);
      expect(check.matches('a=1', body, hmacHex('s3cret', 'a=1' + body + ' '))).toBe(false);
    }
  });

  it('takes any secret: empty, non-ASCII, exactly one block, longer than a block (hashed first)', () => {
    for (const key of ['', 'cl\u00e9 \u20ac', 'k'.repeat(64), 'k'.repeat(65), 'k'.repeat(200)]) {
      expect(createHmacCheck(key).matches('timestamp=1', '{}', hmacHex(key, 'timestamp=1{}'))).toBe(true);
    }
  });

  it('refuses every other text: one digit changed anywhere, upper case, non-hex, another length', () => {
    const check = createHmacCheck('k');
    const sig = hmacHex('k', 'a=1{}');
    expect(check.matches('a=1', '{}', sig)).toBe(true);
    for (let i = 0; i < 64; i++) {
      const c = sig[i] === '0' ? '1' : '0';
      expect(check.matches('a=1', '{}', sig.slice(0, i) + c + sig.slice(i + 1))).toBe(false);
    }
    expect(check.matches('a=1', '{}', sig.toUpperCase())).toBe(sig === sig.toUpperCase());
    expect(check.matches('a=1', '{}', sig.slice(0, 63) + 'g')).toBe(false);
    // a non-hex character in place of an 'f' (whose value bits a careless decoder would read as 15)
    const at = sig.indexOf('f');
    expect(at).toBeGreaterThanOrEqual(0);
    for (const c of ['F', 'g', '\u007f'])
      expect(check.matches('a=1', '{}', sig.slice(0, at) + c + sig.slice(at + 1))).toBe(false);
    expect(check.matches('a=1', '{}', sig.slice(0, 63) + '\u0100')).toBe(false);
    expect(check.matches('a=1', '{}', sig.slice(0, 62))).toBe(false);
    expect(check.matches('a=1', '{}', sig + '0')).toBe(false);
    expect(check.matches('a=1', '{}', '')).toBe(false);
  });
});
