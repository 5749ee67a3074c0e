// What the stream hubs (hub.ts of /ws, the Binance streams of api/binance/streams/hub.ts) do when
// their own work fails, so that nothing they run from a timer or an event listener escapes:
// uncaught, a throw ends the process (the headless service closes and exits, process-errors.ts),
// and inside a loop over the subscribers it stops the delivery to every one after the failing one.
// - A send to one connection that throws: that connection alone is closed with 1011 (RFC 6455
//   "Internal Error"; it has missed a message, so it must not go on as if it had not), the
//   failure is logged, and the loop goes on with the others.
// - A round of timed work (a tick) that throws: logged; the next round runs as usual.
// - A client's request that throws: on /ws (hub.ts) it is answered 5000 with its id once the
//   connection's streams and login are back as before it (the client's view holds), else, and
//   when the answer cannot be written, the connection is closed with 1011; the Binance hub
//   closes it with 1011 at once (Binance's protocol has no internal-error answer).
// Neither ws 8 nor a Node socket throws on a send to a closed or destroyed socket (they report it
// as an event), so what these catch is a fault of the hub's own: a message that cannot be
// serialised, a builder that throws.
import type { WebSocket } from 'ws';

/** The close code of a connection the hub failed to serve (RFC 6455 "Internal Error"). */
export const INTERNAL_ERROR = 1011;

/** Closes `socket` with 1011 and `reason` (at most 123 bytes); when even that throws, drops it. */
export function closeInternal(socket: WebSocket, reason: string): void {
  try {
    socket.close(INTERNAL_ERROR, reason);
  } catch {
    socket.terminate();
  }
}

/** `fn` made safe for a timer: what it throws goes to `report` instead of the process. */
export function guarded(fn: () => void, report: (err: unknown) => void): () => void {
  return () => {
    try {
      fn();
    } catch (err) {
      report(err);
    }
  };
}
