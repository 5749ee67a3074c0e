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
import { constantTimeEqual, createHmacSha256, sha256, type HmacSha256 } from '../../src-shared/sign.ts';

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
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
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15];
    const w2 = W[t - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[t] + W[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}

/** The code of character i of a + b. */
function codeAt(a: string, b: string, i: number): number {
  return i < a.length ? a.charCodeAt(i) : b.charCodeAt(i - a.length);
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
    for (let t = 0; t < 16; t++) {
      const i = o + t * 4;
      const c0 = codeAt(a, b, i);
      const c1 = codeAt(a, b, i + 1);
      const c2 = codeAt(a, b, i + 2);
      const c3 = codeAt(a, b, i + 3);
      seen |= c0 | c1 | c2 | c3;
      W[t] = (c0 << 24) | (c1 << 16) | (c2 << 8) | c3;
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
