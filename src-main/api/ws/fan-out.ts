// Fan-out of pushes to subscribers (the hub's hot path). Keeps true:
// - a push is serialised and framed once and the same Buffer written to every subscriber (no
//   per-subscriber allocation or copy); inside a tick the fan-outs are queued in build order and
//   each connection gets them in one corked write; subscriptions cannot change between build and write;
// - a connection over `maxBufferedBytes` when a push or an answer is due is closed (1008 "slow consumer");
// - a write to one connection that throws closes that connection alone (1011, logged) and the
//   fan-out goes on with the others (isolate.ts);
// - a replay's market-data and response latencies hold pushes in the latency gate
//   (latency-gate.ts, shared with the Binance hub) until market time reaches their stamp + the
//   delay, released in build order; of a snapshot stream only the newest frame of a stamp is kept
//   (docs/replay.md "Latency").
import type { Duplex } from 'node:stream';
import { CloseCode, WS_OPEN, type Conn, type Stream } from './conn.ts';
import { textFrame, type TextFrame } from './frame.ts';
import { INTERNAL_ERROR } from './isolate.ts';
import { LatencyGate } from './latency-gate.ts';

export interface HubStats {
  connections: number;
  /** Push frames written (one per subscriber per message). */
  pushes: number;
  /** Bytes of push payloads written. */
  pushBytes: number;
  /** Distinct push messages serialised. */
  messages: number;
  slowConsumersClosed: number;
  idleClosed: number;
}

/** A fan-out held back by the market-data latency. */
interface Held {
  readonly conns: readonly Conn[];
  readonly stream: string;
  readonly frame: TextFrame;
}

/** An account push held back by the response latency, to its one connection. */
interface HeldAccount {
  readonly conn: Conn;
  readonly stream: string;
  readonly frame: TextFrame;
}

/** Streams whose push is the whole current state: a newer frame of one stamp replaces a held one. */
function snapshotStream(stream: string): boolean {
  return stream.startsWith('depth@') || stream.startsWith('price@');
}

/** One fan-out of a tick, written after every message of the tick is built. */
export interface Due {
  readonly conns: Iterable<Conn>;
  readonly stream: string;
  readonly frame: TextFrame;
}

export class FanOut {
  private readonly stats: HubStats;
  /** The hub's limits (maxBufferedBytes read at each push, as the hub's own). */
  private readonly limits: { readonly maxBufferedBytes: number };
  /** Closes a connection with a close frame (the hub's drop). */
  private readonly drop: (conn: Conn, code: number, reason: string) => void;
  /** While a tick builds its messages: their fan-outs, in order (null: send at once). */
  private due: Due[] | null = null;
  private flushes = 0;
  /** Market-data latency (latency-gate.ts); null = none. */
  private delay: LatencyGate<Held> | null = null;
  /** Response latency of account pushes; null = none. */
  private responseDelay: LatencyGate<HeldAccount> | null = null;
  /**
   * Pushes this returns true for are not written (installed by test-hooks.ts to simulate lost
   * messages); null in production.
   */
  skip: ((conn: Conn, stream: string) => boolean) | null = null;

  constructor(
    stats: HubStats,
    limits: { readonly maxBufferedBytes: number },
    drop: (conn: Conn, code: number, reason: string) => void,
  ) {
    this.stats = stats;
    this.limits = limits;
    this.drop = drop;
  }

  serialise(stream: string, data: unknown): TextFrame {
    this.stats.messages++;
    return textFrame(JSON.stringify({ stream, data }));
  }

  /** Sends to every subscriber of `s`; they all count as served (no longer fresh). */
  broadcast(s: Stream, frame: TextFrame): void {
    if (s.fresh.size > 0) s.fresh.clear();
    this.fanOut(s.subs, s.name, frame);
  }

  /** Sends to the subscribers of `s` that have not had a push yet. */
  sendFresh(s: Stream, frame: TextFrame): void {
    const conns = [...s.fresh];
    s.fresh.clear();
    this.fanOut(conns, s.name, frame);
  }

  /**
   * Holds every later fan-out until market time (`now`) reaches its build time + `ms` (release()),
   * or the replay's end `until` when that comes first.
   */
  setDelay(ms: number, now: () => number, until?: number): void {
    this.delay = ms > 0 ? new LatencyGate(ms, now, until) : null;
  }

  /** Holds every later account push (pushAccount) until market time reaches its time + `ms` (or `until`). */
  setResponseDelay(ms: number, now: () => number, until?: number): void {
    this.responseDelay = ms > 0 ? new LatencyGate(ms, now, until) : null;
  }

  /**
   * An account push (user, bot streams): now, or held for the response latency from `time`, the
   * market time of the command that produced it (default now).
   */
  pushAccount(conn: Conn, stream: string, frame: TextFrame, time?: number): void {
    if (this.responseDelay === null) return this.push(conn, stream, frame);
    this.responseDelay.hold({ conn, stream, frame }, time);
  }

  /** Pushes held by the market-data or the response latency. */
  get heldCount(): number {
    return (this.delay?.size ?? 0) + (this.responseDelay?.size ?? 0);
  }

  /**
   * Sends (or, inside a tick, queues) the held fan-outs whose time has come, oldest first, to
   * their connections that are still subscribed. The hub calls it before building new ones.
   */
  release(): void {
    if (this.responseDelay !== null && this.responseDelay.size > 0)
      this.responseDelay.release((h) => {
        if (h.conn.names.has(h.stream)) this.push(h.conn, h.stream, h.frame);
      });
    if (this.delay === null || this.delay.size === 0) return;
    this.delay.release((h) => {
      const conns = h.conns.filter((c) => !c.closed && c.names.has(h.stream));
      if (conns.length === 0) return;
      if (this.due !== null) this.due.push({ conns, stream: h.stream, frame: h.frame });
      else for (const conn of conns) this.push(conn, h.stream, h.frame);
    });
  }

  /** Sends now, or, inside a tick, queues for flushTick (subscriptions cannot change meanwhile). */
  fanOut(conns: Iterable<Conn>, stream: string, frame: TextFrame): void {
    if (this.delay !== null) return this.hold(conns, stream, frame);
    if (this.due !== null) this.due.push({ conns, stream, frame });
    else for (const conn of conns) this.push(conn, stream, frame);
  }

  private hold(conns: Iterable<Conn>, stream: string, frame: TextFrame): void {
    const gate = this.delay!;
    const list = [...conns];
    if (list.length === 0) return;
    const item: Held = { conns: list, stream, frame };
    if (!snapshotStream(stream)) return gate.hold(item);
    // the newest state of a stream built at the same market time (the clock stood still) replaces the held one
    gate.holdOrMerge(
      item,
      (h) => h.stream === stream,
      (h) => ({ conns: [...new Set([...h.conns, ...list])], stream, frame }),
    );
  }

  /** From now on fan-outs are queued, until endTick. */
  beginTick(): void {
    this.due = [];
  }

  /** Stops queueing; returns the queued fan-outs for flushTick. */
  endTick(): Due[] {
    const due = this.due ?? [];
    this.due = null;
    return due;
  }

  /**
   * Writes a tick's messages. One message (the common case) goes straight out, one write per
   * subscriber. With several, every connection that gets one is corked until all are written,
   * so a connection on several streams gets one write (one syscall) per tick instead of one
   * per stream: the kernel's per-write cost dominates a fan-out on loopback.
   */
  flushTick(due: readonly Due[]): void {
    if (due.length === 0) return;
    if (due.length === 1) {
      const d = due[0];
      for (const conn of d.conns) this.push(conn, d.stream, d.frame);
      return;
    }
    const flush = ++this.flushes;
    const corked: Duplex[] = [];
    try {
      for (const d of due) {
        for (const conn of d.conns) {
          const raw = conn.raw;
          if (raw !== null && conn.corkedIn !== flush && !conn.closed) {
            conn.corkedIn = flush;
            raw.cork();
            corked.push(raw);
          }
          this.push(conn, d.stream, d.frame);
        }
      }
    } finally {
      for (const raw of corked) raw.uncork();
    }
  }

  /**
   * Closes `conn` (1008 "slow consumer") when more than maxBufferedBytes of what was written to it
   * is unsent, and says so. Checked before every push and every answer: a client that sends
   * requests but stops reading would otherwise pile its answers up in memory without bound.
   */
  closeIfSlow(conn: Conn): boolean {
    const raw = conn.raw;
    // Unsent bytes: the stream's queue holds both the raw pushes and what `ws` wrote.
    const unsent = raw !== null ? raw.writableLength : conn.socket.bufferedAmount;
    if (unsent <= this.limits.maxBufferedBytes) return false;
    this.stats.slowConsumersClosed++;
    this.drop(conn, CloseCode.Policy, `slow consumer: more than ${this.limits.maxBufferedBytes} bytes unsent`);
    return true;
  }

  /** The per-subscriber step of every fan-out: keep it free of allocation and serialisation. */
  push(conn: Conn, stream: string, frame: TextFrame): void {
    if (conn.closed) return;
    const socket = conn.socket;
    if (socket.readyState !== WS_OPEN) return;
    const raw = conn.raw;
    if (raw !== null && raw.destroyed) return; // the close event follows
    if (this.closeIfSlow(conn)) return;
    if (this.skip !== null && this.skip(conn, stream)) return;
    try {
      if (raw !== null) raw.write(frame.bytes);
      else socket.send(frame.payload, { binary: false });
    } catch (err) {
      // this connection alone: the rest of the fan-out (and of the tick) still goes out
      console.error(`perpdesk: ws push of ${stream} failed; that connection is closed (${INTERNAL_ERROR})`, err);
      this.drop(conn, INTERNAL_ERROR, 'Internal error: a push could not be sent');
      return;
    }
    this.stats.pushes++;
    this.stats.pushBytes += frame.payload.length;
  }
}
