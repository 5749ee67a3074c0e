// What tests and diagnostics do to a running hub beyond its production surface: look at a
// connection's push stream, publish on a stream directly, lose pushes on purpose. Kept out of
// the Hub class; they work through its parts (fan-out, subscriptions, connections).
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Conn } from './conn.ts';
import type { Hub } from './hub.ts';

/** The stream pushes are written to for this server-side socket (null: they go through `ws`, or no such connection). */
export function rawStreamOf(hub: Hub, socket: WebSocket): Duplex | null {
  for (const c of hub.conns) if (c.socket === socket) return c.raw;
  return null;
}

/**
 * Sends `data` on `stream` to its subscribers now, through the normal fan-out (serialised once,
 * slow-consumer check); nothing when the stream has no subscribers.
 */
export function publish(hub: Hub, stream: string, data: unknown): void {
  const s = hub.subs.stream(stream);
  if (s === undefined) return;
  hub.out.broadcast(s, hub.out.serialise(stream, data));
}

/** Pushes still to skip, per connection and stream, of the hubs with dropNextPushes in force. */
const drops = new WeakMap<Conn, Map<string, number>>();

/**
 * The next `count` pushes of `stream` are silently not sent to its current subscribers
 * (simulates lost messages, e.g. to provoke a depth gap). Returns how many connections are hit.
 */
export function dropNextPushes(hub: Hub, stream: string, count = 1): number {
  const s = stream === 'user' ? undefined : hub.subs.stream(stream);
  const targets = s ? [...s.subs] : [...hub.conns].filter((c) => c.names.has(stream));
  for (const conn of targets) {
    let m = drops.get(conn);
    if (m === undefined) drops.set(conn, (m = new Map()));
    m.set(stream, count);
  }
  hub.out.skip ??= skip;
  return targets.length;
}

function skip(conn: Conn, stream: string): boolean {
  const m = drops.get(conn);
  if (m === undefined) return false;
  const left = m.get(stream);
  if (left === undefined) return false;
  if (left <= 1) m.delete(stream);
  else m.set(stream, left - 1);
  if (m.size === 0) drops.delete(conn);
  return true;
}
