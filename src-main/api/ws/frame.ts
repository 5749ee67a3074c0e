// Pushes framed once: a server-to-client WebSocket text frame (RFC 6455 section 5.2) built a
// single time per message, so the fan-out writes the same Buffer to every subscriber's TCP
// socket instead of `ws` framing it again per socket (a header Buffer and a corked pair of
// writes for each of them).
//
// Invariants and limits:
// - A frame is FIN + opcode 1 (text), unmasked (server frames are never masked), no RSV bits:
//   only valid on a connection without extensions (no permessage-deflate; the /ws server
//   disables it, and rawSocket() refuses a connection that negotiated any).
// - The bytes are exactly what `ws`'s `send(payload, { binary: false })` writes, so a raw
//   write and a `ws` send can interleave on one connection without the client seeing a
//   difference; order is kept because both write synchronously to the same socket (the `ws`
//   sender only queues while compressing or reading a Blob, which the hub never does).
import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

export interface TextFrame {
  /** Header and payload: the bytes written to the socket. */
  readonly bytes: Buffer;
  /** The UTF-8 payload (a view into `bytes`), for a send through `ws`. */
  readonly payload: Buffer;
}

/** Frames `text` (UTF-8) as one unmasked, final text frame. */
export function textFrame(text: string): TextFrame {
  const len = Buffer.byteLength(text, 'utf8');
  const hdr = len < 126 ? 2 : len < 0x10000 ? 4 : 10;
  const bytes = Buffer.allocUnsafe(hdr + len);
  bytes[0] = 0x81; // FIN, opcode 1
  if (hdr === 2) bytes[1] = len;
  else if (hdr === 4) {
    bytes[1] = 126;
    bytes.writeUInt16BE(len, 2);
  } else {
    bytes[1] = 127;
    bytes.writeUInt32BE(Math.floor(len / 0x1_0000_0000), 2);
    bytes.writeUInt32BE(len >>> 0, 6);
  }
  bytes.write(text, hdr, 'utf8');
  return { bytes, payload: bytes.subarray(hdr) };
}

/**
 * The stream under an open `ws` connection, when pre-framed bytes may be written to it: the
 * upgraded request's socket (the stream `ws` itself writes to: an HTTP upgrade hands `ws` the
 * request's own socket), when it is a Duplex and no extension was negotiated. Null otherwise; the
 * caller then sends through `ws`.
 */
export function rawSocket(socket: WebSocket, upgraded: unknown): Duplex | null {
  if (!(upgraded instanceof Duplex) || socket.extensions !== '') return null;
  return upgraded;
}
