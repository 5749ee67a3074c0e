// A minimal RFC 6455 frame reader for load clients (bench:ws's LoadClients): it follows a byte
// stream however TCP splits it (inside a header, an extended length or a payload; several frames
// in one read), refuses what a server must not send (masked frames, unknown opcodes), counts text
// and binary messages (fragmented ones when their final fragment completes) and decodes only a
// push's `E`. test/helpers/ws-frame-reader.test.ts holds it to that.
import { randomBytes } from 'node:crypto';

const E_KEY = Buffer.from('"E":');

/** A masked client frame (opcode 1 text, 10 pong). */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  if (len > 0xffff) throw new Error('client frames here are small');
  const ext = len > 125 ? 2 : 0;
  const out = Buffer.allocUnsafe(2 + ext + 4 + len);
  out[0] = 0x80 | opcode;
  out[1] = 0x80 | (ext ? 126 : len);
  if (ext) out.writeUInt16BE(len, 2);
  const mask = randomBytes(4);
  mask.copy(out, 2 + ext);
  for (let i = 0; i < len; i++) out[2 + ext + 4 + i] = payload[i] ^ mask[i & 3];
  return out;
}

/** The integer after the first `"E":` in buf[start, end), or -1. */
export function readE(buf: Buffer, start: number, end: number): number {
  const i = buf.indexOf(E_KEY, start);
  if (i < 0 || i + E_KEY.length >= end) return -1;
  let E = 0;
  let k = i + E_KEY.length;
  for (; k < end; k++) {
    const d = buf[k];
    if (d < 48 || d > 57) break;
    E = E * 10 + (d - 48);
  }
  return k === i + E_KEY.length ? -1 : E;
}

export interface FrameEvents {
  /** A complete message: its E (-1 when none), its payload (valid only during the call), the read's time. */
  message(E: number, payload: Buffer, now: number): void;
  /** A ping's payload (valid only during the call). */
  ping(payload: Buffer): void;
  close(): void;
  error(what: string): void;
}

/** Server-to-client frames of one connection, fed read by read. */
export class FrameReader {
  private readonly on: FrameEvents;
  /** Bytes of an incomplete frame carried to the next read. */
  private rest: Buffer | null = null;
  /** A fragmented message in progress: its E and payload parts. */
  private fragE = -1;
  private fragParts: Buffer[] | null = null;
  private failed = false;

  constructor(on: FrameEvents) {
    this.on = on;
  }

  /** Bytes of one read; `chunk` may be reused by the caller once this returns. */
  read(chunk: Buffer, now: number): void {
    if (this.failed) return;
    let buf = chunk;
    if (this.rest !== null) {
      buf = Buffer.concat([this.rest, chunk]);
      this.rest = null;
    }
    const len = buf.length;
    let off = 0;
    while (len - off >= 2) {
      const b0 = buf[off];
      const b1 = buf[off + 1];
      if (b1 & 0x80) return this.fail('masked server frame');
      if (b0 & 0x70) return this.fail('RSV bits set without an extension');
      let plen = b1 & 0x7f;
      let hdr = 2;
      if (plen === 126) {
        if (len - off < 4) break;
        plen = buf.readUInt16BE(off + 2);
        hdr = 4;
      } else if (plen === 127) {
        if (len - off < 10) break;
        plen = buf.readUInt32BE(off + 2) * 0x1_0000_0000 + buf.readUInt32BE(off + 6);
        hdr = 10;
      }
      if (len - off < hdr + plen) break;
      const start = off + hdr;
      off = start + plen;
      this.frame(b0, buf, start, off, now);
      if (this.failed) return;
    }
    if (off < len) this.rest = Buffer.from(buf.subarray(off)); // a copy: `chunk` is reused
  }

  private fail(what: string): void {
    this.failed = true;
    this.on.error(what);
  }

  private frame(b0: number, buf: Buffer, start: number, end: number, now: number): void {
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if (opcode === 9) return this.on.ping(buf.subarray(start, end));
    if (opcode === 10) return;
    if (opcode === 8) return this.on.close();
    if (opcode > 2) return this.fail(`reserved opcode ${opcode}`);
    if (fin && opcode !== 0) {
      if (this.fragParts !== null) return this.fail('a new message inside a fragmented one');
      // the usual case: a whole message in one frame
      return this.on.message(readE(buf, start, end), buf.subarray(start, end), now);
    }
    if (opcode !== 0) {
      if (this.fragParts !== null) return this.fail('a new message inside a fragmented one');
      this.fragParts = [];
      this.fragE = -1;
    } else if (this.fragParts === null) return this.fail('continuation frame without a message');
    if (this.fragE < 0) this.fragE = readE(buf, start, end);
    this.fragParts.push(Buffer.from(buf.subarray(start, end)));
    if (!fin) return;
    const E = this.fragE;
    const payload = Buffer.concat(this.fragParts);
    this.fragParts = null;
    this.fragE = -1;
    this.on.message(E, payload, now);
  }
}
