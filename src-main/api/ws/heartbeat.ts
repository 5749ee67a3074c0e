// Liveness of the stream hubs' connections, shared by /ws (hub.ts) and the Binance streams
// (api/binance/streams/hub.ts): a protocol ping to every open connection each pingIntervalMs, and
// a connection not heard from for idleTimeoutMs closed with 1001, so a peer that went away
// without a close (a sleeping laptop, a dropped network) does not hold its streams for ever. What
// counts as heard from is the hub's (it sets `lastSeen`): on /ws a client message or a pong, on
// the Binance streams a pong, as Binance counts it. Each hub runs sweep() on a timer of its own,
// often enough for both periods. A ping that throws (a fault of the service's) closes that
// connection alone with 1011 (isolate.ts).
import type { WebSocket } from 'ws';
import { CloseCode, WS_OPEN } from './conn.ts';
import { INTERNAL_ERROR } from './isolate.ts';

export interface HeartbeatLimits {
  /** Protocol ping period, ms. */
  pingIntervalMs: number;
  /** Nothing heard from a connection for this long closes it, ms. */
  idleTimeoutMs: number;
}

/** A connection the heartbeat watches: its socket, and when it was last heard from (the hub's clock, ms). */
interface Watched {
  readonly socket: WebSocket;
  lastSeen: number;
}

/** How a hub closes a connection: `err` is what a failed ping threw. */
type Close<C> = (conn: C, code: number, reason: string, err?: unknown) => void;

export class Heartbeat {
  /** What counts as heard from, for the close reason ("message or pong", "pong"). */
  private readonly heard: string;
  private lastPingAt: number;

  /** `now`: the hub's clock when it starts (the first ping is a period later). */
  constructor(heard: string, now: number) {
    this.heard = heard;
    this.lastPingAt = now;
  }

  /**
   * One round at `now`: each connection idle longer than idleTimeoutMs is closed (1001), and
   * when pingIntervalMs has passed since the last ping, every other open one is pinged. Answers
   * how many were closed as idle.
   */
  sweep<C extends Watched>(conns: Iterable<C>, now: number, limits: HeartbeatLimits, close: Close<C>): number {
    const ping = now - this.lastPingAt >= limits.pingIntervalMs;
    if (ping) this.lastPingAt = now;
    let idle = 0;
    // a copy: closing may take a connection out of the hub's set
    for (const conn of [...conns]) {
      if (now - conn.lastSeen > limits.idleTimeoutMs) {
        idle++;
        close(conn, CloseCode.GoingAway, `idle timeout: no ${this.heard} for ${limits.idleTimeoutMs} ms`);
      } else if (ping && conn.socket.readyState === WS_OPEN) {
        try {
          conn.socket.ping();
        } catch (err) {
          close(conn, INTERNAL_ERROR, 'Internal error: a ping could not be sent', err);
        }
      }
    }
    return idle;
  }
}
