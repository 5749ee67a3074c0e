// A local book following its feed's connection: when the connection starts reconnecting or
// closes, the book is told at once (it leaves 'live'); once the connection is ready again,
// with its channels re-subscribed, the book re-initialises. One wait per outage, however many
// state changes it brings (an attempt that fails is waited past), and nothing after the remover
// is called. When the connection lists its subscriptions and the book names its delta stream,
// the book is connected only while that stream is subscribed: a stream the server refused when
// the connection was restored (or one unsubscribed) keeps the book out of 'live' until it is
// subscribed again.
import type { ConnectionEvents } from './depth-types.ts';

/** What of the book the follower drives (LocalOrderBook fits). */
export interface ConnectionFollower {
  onDisconnect(): void;
  onReconnect(): void;
}

/** Wires `book` to `conn`, its deltas coming on `stream` (when known); returns the remover. */
export function followConnection(book: ConnectionFollower, conn: ConnectionEvents, stream?: string): () => void {
  let active = true;
  let waiting = false;
  /** The connection is ready but the book's stream is not subscribed on it. */
  let held = false;
  const subscribed = (): boolean =>
    stream === undefined || conn.subscriptions === undefined || conn.subscriptions.includes(stream);
  const ready = (): void => {
    if (!active) return;
    if (subscribed()) book.onReconnect();
    else held = true;
  };
  const wait = (): void => {
    waiting = true;
    conn.whenReady().then(
      () => {
        waiting = false;
        ready();
      },
      () => {
        waiting = false;
        // a failed attempt: wait for the next one; closed for good: the book stays out of 'live'
        if (active && conn.state !== 'closed') wait();
      },
    );
  };
  const lost = (): void => {
    if (!active) return;
    held = false;
    book.onDisconnect();
    if (!waiting) wait();
  };
  const off = conn.onStateChange((state) => {
    if (state === 'reconnecting' || state === 'closed') lost();
  });
  const offSubs = conn.onSubscriptionsChange?.(() => {
    if (!active || waiting) return;
    if (held && subscribed()) {
      held = false;
      book.onReconnect();
    } else if (!held && !subscribed() && conn.state === 'open') {
      // the stream went away on a live connection (refused when restored, or unsubscribed)
      book.onDisconnect();
      held = true;
    }
  });
  if (conn.state === 'reconnecting' || conn.state === 'closed') lost();
  return () => {
    active = false;
    off();
    offSubs?.();
  };
}
