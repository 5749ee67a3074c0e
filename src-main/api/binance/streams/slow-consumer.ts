// The bound on what a /binance stream connection may leave unsent (docs/binance.md): a client that
// stops reading (a bot whose event loop is stuck, a paused process) would otherwise have every
// event kept for it in the service's memory without bound. As /ws's hub (ws/fan-out.ts
// closeIfSlow), it is checked before each send, and a connection past it is closed with 1008.
import type { WebSocket } from 'ws';

/** Unsent bytes of a connection above which it is closed as a slow consumer: 4 MiB, as /ws's. */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** Closes `socket` (1008 "slow consumer") when more than `max` bytes written to it are unsent: true then, nothing is to be sent. */
export function closedAsSlow(socket: WebSocket, max: number): boolean {
  // ws counts what its sender holds and what the TCP socket has not written yet
  if (socket.bufferedAmount <= max) return false;
  socket.close(1008, `slow consumer: more than ${max} bytes unsent`);
  return true;
}
