// A local book following its feed's connection: when the connection starts reconnecting or
// closes, the book is told at once (it leaves 'live'); once the connection is ready again,
// with its channels re-subscribed, the book re-initialises. One wait per outage, however many
// state changes it brings, and nothing after the remover is called.
import type { ConnectionEvents } from './depth-types.ts';

/** What of the book the follower drives (LocalOrderBook fits). */
export interface ConnectionFollower {
  onDisconnect(): void;
  onReconnect(): void;
}

/** Wires `book` to `conn`; returns the remover. */
export function followConnection(book: ConnectionFollower, conn: ConnectionEvents): () => void {
  let active = true;
  let waiting = false;
  const lost = (): void => {
    if (!active) return;
    book.onDisconnect();
    if (waiting) return;
    waiting = true;
    conn.whenReady().then(
      () => {
        waiting = false;
        if (active) book.onReconnect();
      },
      () => {
        waiting = false; // closed for good: the book stays out of 'live'
      },
    );
  };
  const off = conn.onStateChange((state) => {
    if (state === 'reconnecting' || state === 'closed') lost();
  });
  if (conn.state === 'reconnecting' || conn.state === 'closed') lost();
  return () => {
    active = false;
    off();
  };
}
