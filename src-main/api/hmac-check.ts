// The service's check of a request signature: HMAC-SHA256(secret, signed + body) against the 64
// lowercase hex characters sent, on every signed request. The signer (src-shared/sign.ts) builds
// the digest as bytes, then a hex string; here, for the usual request, nothing is allocated: the
// text's characters go straight into the message words (ASCII is its own UTF-8), the two states
// live in scratch arrays, and the sent hex is compared with the digest's words.
//
// Invariants
// - The same answer as the signer's `createHmacSha256(secret).hex(signed + body) === signature`
//   for every input (test/api/hmac-check.test.ts holds both against node:crypto): a text with a
//   character above U+007F, whose UTF-8 bytes differ from its char codes, is handed to the
//   signer's own code.
// - Constant time in the signature: all 64 characters are read and every word is compared,
//   whatever matched before; a character that is not lowercase hex never matches.
import { constantTimeEqual, createHmacSha256, sha256, sha256Block, type HmacSha256 } from '../../src-shared/sign.ts';

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const BLOCK = 64;

// Scratch space (JS runs one check at a time): the message schedule and the two running states.
const W = new Int32Array(64);
const inner = new Int32Array(8);
const outer = new Int32Array(8);

/** The value of a lowercase hex character's code, -1 for any other code below 128. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) HEX_VALUE[97 + i] = 10 + i;

/** The compression function over the block already in W[0..15], updating `state`. */
function compress(state: Int32Array): void {
  sha256Block(state, W);
}

/** The code of character i of a + b. */
function codeAt(a: string, b: string, i: number): number {
  return i < a.length ? a.charCodeAt(i) : b.charCodeAt(i - a.length);
}

/** Reads the 64 characters of s from `at` into W[0..15] as bytes; returns the OR of their codes. */
function wordsOf(s: string, at: number): number {
  let seen = 0;
  for (let t = 0, i = at; t < 16; t++, i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    seen |= c0 | c1 | c2 | c3;
    W[t] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
  }
  return seen;
}

/**
 * Absorbs the text a + b (its char codes as bytes) and the padding into `inner`, after the key
 * block already there. Returns the OR of every char code: 0x80 or more means a character whose
 * UTF-8 is not its code, and the digest is then meaningless.
 */
function absorbAscii(a: string, b: string): number {
  const len = a.length + b.length;
  const full = len - (len % BLOCK);
  let seen = 0;
  for (let o = 0; o < full; o += BLOCK) {
    // a block within one of the two texts is read from it straight (no test of which a character is in)
    if (o + BLOCK <= a.length) seen |= wordsOf(a, o);
    else if (o >= a.length) seen |= wordsOf(b, o - a.length);
    else {
      for (let t = 0; t < 16; t++) {
        const i = o + t * 4;
        const c0 = codeAt(a, b, i);
        const c1 = codeAt(a, b, i + 1);
        const c2 = codeAt(a, b, i + 2);
        const c3 = codeAt(a, b, i + 3);
        seen |= c0 | c1 | c2 | c3;
        W[t] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
      }
    }
    compress(inner);
  }
  // the rest, the 0x80 byte and the length in bits (after the 64-byte key block), in one or two blocks
  const rest = len - full;
  const blocks = rest < 56 ? 1 : 2;
  const bits = (BLOCK + len) * 8;
  for (let k = 0; k < blocks; k++) {
    for (let t = 0; t < 16; t++) {
      let w = 0;
      for (let j = 0; j < 4; j++) {
        const p = k * BLOCK + t * 4 + j;
        let byte = 0;
        if (p < rest) {
          byte = codeAt(a, b, full + p);
          seen |= byte;
        } else if (p === rest) byte = 0x80;
        w = (w << 8) | (byte & 0xff);
      }
      W[t] = w;
    }
    if (k === blocks - 1) {
      W[14] = Math.floor(bits / 0x100000000) | 0;
      W[15] = bits | 0;
    }
    compress(inner);
  }
  return seen;
}

/** Whether `hex` is the lowercase hex of the 8 words of `state`, read and compared in full. */
function sameHex(state: Int32Array, hex: string): boolean {
  if (hex.length !== 64) return false; // the length of a valid signature is public
  let diff = 0;
  for (let t = 0; t < 8; t++) {
    let w = 0;
    for (let j = 0; j < 8; j++) {
      const c = hex.charCodeAt(t * 8 + j);
      const v = c < 128 ? HEX_VALUE[c] : -1;
      diff |= v & 0x10; // -1 has that bit; a hex digit's value does not
      w = (w << 4) | (v & 15);
    }
    diff |= w ^ state[t];
  }
  return diff === 0;
}

/** A secret's HMAC-SHA256 check, its two key blocks absorbed once. */
export interface HmacCheck {
  /** Whether `signature` is the lowercase hex HMAC-SHA256(secret, signed + body). */
  matches(signed: string, body: string, signature: string): boolean;
}

/** Prepares the check for `secret` (UTF-8; over 64 bytes it is hashed first, per RFC 2104, as the signer does). */
export function createHmacCheck(secret: string): HmacCheck {
  let key: Uint8Array = new TextEncoder().encode(secret);
  if (key.length > BLOCK) key = sha256(key);
  const keyed = (pad: number): Int32Array => {
    const state = Int32Array.from(IV);
    for (let t = 0; t < 16; t++) {
      let w = 0;
      for (let j = 0; j < 4; j++) w = (w << 8) | ((key[t * 4 + j] ?? 0) ^ pad);
      W[t] = w;
    }
    compress(state);
    return state;
  };
  const innerKey = keyed(0x36);
  const outerKey = keyed(0x5c);
  let signer: HmacSha256 | null = null;
  return {
    matches(signed, body, signature) {
      inner.set(innerKey);
      if (absorbAscii(signed, body) >= 0x80) {
        signer ??= createHmacSha256(secret);
        const expected = signer.hex(signed + body);
        return signature.length === expected.length && constantTimeEqual(signature, expected);
      }
      // the outer hash: the inner digest (32 bytes) after the outer key block, padded, in one block
      outer.set(outerKey);
      for (let t = 0; t < 8; t++) W[t] = inner[t];
      W[8] = 0x80000000 | 0;
      for (let t = 9; t < 15; t++) W[t] = 0;
      W[15] = (BLOCK + 32) * 8;
      compress(outer);
      return sameHex(outer, signature);
    },
  };
}
