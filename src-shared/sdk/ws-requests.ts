// The WebSocket client's requests in flight: ids, timeouts, the queue of requests waiting for a
// restored connection, and the matching of answers to requests. Every request ends exactly
// once: answered, refused by the server, timed out, or failed (closed, connection lost); its
// timer is cleared when it ends. WsClient (ws-client.ts) owns the socket and decides when a
// request goes out; this table only keeps the books.
import type { Scheduler } from './scheduler.ts';
import { WsRequestError, type WsConnectionError } from './ws-types.ts';

export interface Pending {
  readonly id: number;
  readonly method: string;
  readonly params: unknown;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: WsRequestError) => void;
  timer: unknown;
  sent: boolean;
  /** Re-send on the next connection when the current one drops before the answer. */
  readonly requeue: boolean;
  /** Not re-sent (`requeue` false): the error when the connection drops before the answer (default 'connection lost'). */
  readonly lost?: string;
}

interface NewRequest {
  method: string;
  params: unknown;
  requeue: boolean;
  lost?: string;
  resolve: (result: unknown) => void;
  reject: (error: WsRequestError) => void;
}

export class PendingRequests {
  readonly #sched: Scheduler;
  readonly #timeoutMs: number;
  /** The endpoint, named when a request could not be sent. */
  readonly #url: string;
  /** Whether the client's connect() has not been called yet (a request waiting then says so). */
  readonly #idle: () => boolean;
  /** Requests, sent or queued, by id. */
  readonly #pending = new Map<number, Pending>();
  /** Ids waiting to be sent, oldest first. */
  #queue: number[] = [];
  #nextId = 1;

  constructor(sched: Scheduler, timeoutMs: number, url: string, idle: () => boolean = () => false) {
    this.#sched = sched;
    this.#timeoutMs = timeoutMs;
    this.#url = url;
    this.#idle = idle;
  }

  /** A fresh message id (requests and PINGs share the sequence). */
  nextId(): number {
    return this.#nextId++;
  }

  /** Registers a request and starts its timeout; the caller sends or queues it. */
  add(r: NewRequest): Pending {
    const p: Pending = { id: this.nextId(), ...r, timer: undefined, sent: false };
    p.timer = this.#sched.setTimeout(() => {
      p.timer = undefined;
      const ms = this.#timeoutMs;
      const error = p.sent
        ? new WsRequestError('timeout', p.method, `${p.method} got no answer in ${ms} ms`)
        : this.#idle()
          ? new WsRequestError(
              'disconnected',
              p.method,
              `${p.method} was not sent in ${ms} ms: the client is not connected (call connect() first)`,
            )
          : new WsRequestError(
              'disconnected',
              p.method,
              `${p.method} was not sent: no connection to ${this.#url} for ${ms} ms (the client keeps reconnecting)`,
            );
      this.fail(p, error);
    }, this.#timeoutMs);
    this.#pending.set(p.id, p);
    return p;
  }

  /** Puts a request at the end of the queue for the next restored connection. */
  enqueue(p: Pending): void {
    this.#queue.push(p.id);
  }

  /** Empties the queue and returns the requests in it still waiting, oldest first. */
  takeQueue(): Pending[] {
    const ids = this.#queue;
    this.#queue = [];
    const out: Pending[] = [];
    for (const id of ids) {
      const p = this.#pending.get(id);
      if (p !== undefined) out.push(p);
    }
    return out;
  }

  /** Ends a request with `error`; a request that already ended is left alone. */
  fail(p: Pending, error: WsRequestError): void {
    if (!this.#pending.delete(p.id)) return;
    if (p.timer !== undefined) this.#sched.clearTimeout(p.timer);
    p.reject(error);
  }

  /** Ends every request not sent (queued or re-queued) with the error `make` gives it. */
  failUnsent(make: (p: Pending) => WsRequestError): void {
    for (const p of [...this.#pending.values()]) if (!p.sent) this.fail(p, make(p));
    this.#queue = [];
  }

  /** Ends every request (the client closed) and empties the queue. */
  failAll(reason: string): void {
    for (const p of [...this.#pending.values()]) this.fail(p, new WsRequestError('closed', p.method, reason));
    this.#queue = [];
  }

  /**
   * Ends the request an answer names, if it is still waiting: `error` (non-null) rejects it as
   * the server's refusal, otherwise it resolves with `result`.
   */
  answer(id: number, result: unknown, error: unknown): void {
    const p = this.#pending.get(id);
    if (p === undefined) return;
    this.#pending.delete(id);
    if (p.timer !== undefined) this.#sched.clearTimeout(p.timer);
    if (error !== undefined && error !== null) {
      const err = error as { code?: unknown; message?: unknown };
      const code = typeof err.code === 'number' ? err.code : undefined;
      const text = typeof err.message === 'string' ? err.message : `${p.method} failed`;
      p.reject(new WsRequestError('server', p.method, text, code));
    } else p.resolve(result);
  }

  /**
   * The connection dropped: requests sent on it and marked `requeue` go to the front of the
   * queue (they are older than the ones still queued); the other sent ones fail.
   */
  connectionLost(): void {
    const requeue: number[] = [];
    for (const p of [...this.#pending.values()]) {
      if (!p.sent) continue;
      if (p.requeue) {
        p.sent = false;
        requeue.push(p.id);
      } else this.fail(p, new WsRequestError('closed', p.method, p.lost ?? 'connection lost'));
    }
    this.#queue = [...requeue, ...this.#queue];
  }
}

/** A request that was not sent because the service could not be reached. */
/** A request as it goes over the wire: `{method, params?, id}` (no params: the key left out). */
export function wireText(p: Pending): string {
  const msg =
    p.params === undefined ? { method: p.method, id: p.id } : { method: p.method, params: p.params, id: p.id };
  return JSON.stringify(msg);
}

export function unsentError(method: string, cause: WsConnectionError): WsRequestError {
  return new WsRequestError('disconnected', method, `${method} was not sent: ${cause.message}`);
}

/** Why a REPLAY control sent on a connection that dropped before its answer is not sent again. */
export function replayLost(action: string): string {
  return (
    `connection lost after REPLAY ${action} was sent: the replay may have applied it ` +
    '(a step sent again would step twice); read its status (GET /api/v1/replay) before going on'
  );
}
