// WebSocket client for the venue's `/ws` protocol (DESIGN section 4, docs/api.md): requests
// matched to answers by id (ws-requests.ts), pushes routed by stream, automatic reconnect.
// Invariants: after every reconnect the last accepted LOGIN goes first, then the remembered
// subscriptions, and only then the queued requests and `onReconnect` (a listener such as
// LocalOrderBook runs when the channels are live again); a request in flight when a connection
// drops is re-sent on the next one; every request ends within its timeout; reconnect delays
// grow exponentially with jitter; after `close()` nothing reconnects and nothing stays pending.
// Limits: JSON text frames only; a stream handler sees `data` as sent, unvalidated.

import { systemScheduler, type Scheduler } from './scheduler.ts';
import { PendingRequests, type Pending } from './ws-requests.ts';
import { WsRequestError } from './ws-types.ts';
import type {
  LoginParamsSource,
  WebSocketConstructor,
  WebSocketLike,
  WsClientOptions,
  WsCloseInfo,
  WsState,
} from './ws-types.ts';

// The client's option, state and error types live in ws-types.ts; they stay exported from here
// (and so from the SDK) as before the split.
export { WsRequestError } from './ws-types.ts';
export type {
  LoginParamsSource,
  WebSocketConstructor,
  WebSocketLike,
  WsClientOptions,
  WsCloseInfo,
  WsRequestErrorKind,
  WsState,
} from './ws-types.ts';

type Listener<A extends unknown[]> = (...args: A) => void;

/**
 * Client of the venue's WebSocket endpoint with request/answer matching, stream routing,
 * automatic reconnect, re-login and re-subscription.
 *
 * @example
 * ```ts
 * const ws = new WsClient({ url: 'ws://127.0.0.1:8080/ws' });
 * ws.on('depth_update@BTCUSDT', (data) => book.handleDelta(data as DepthUpdate));
 * ws.onReconnect(() => book.onReconnect());
 * ws.connect();
 * await ws.subscribe(['depth_update@BTCUSDT']);
 * ```
 */
export class WsClient {
  readonly #url: string;
  readonly #Ctor: WebSocketConstructor | undefined;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #jitter: number;
  readonly #random: () => number;
  readonly #pingMs: number;
  readonly #pingTimeoutMs: number;
  readonly #sched: Scheduler;

  #state: WsState = 'idle';
  #ws: WebSocketLike | null = null;
  /** Requests, sent or queued (ws-requests.ts). */
  readonly #requests: PendingRequests;
  /** The current socket finished re-login/re-subscription: queued requests may go. */
  #ready = false;
  #everReady = false;
  /** Failed attempts since the last restored connection; drives the backoff. */
  #attempt = 0;
  #reconnectTimer: unknown = undefined;
  #pingTimer: unknown = undefined;
  #lastMessageAt = 0;
  readonly #subs = new Set<string>();
  #login: LoginParamsSource | undefined = undefined;
  #readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  readonly #streamHandlers = new Map<string, Set<Listener<[unknown, string]>>>();
  readonly #messageHandlers = new Set<Listener<[unknown]>>();
  readonly #openListeners = new Set<Listener<[{ reconnect: boolean }]>>();
  readonly #reconnectListeners = new Set<Listener<[]>>();
  readonly #closeListeners = new Set<Listener<[WsCloseInfo]>>();
  readonly #stateListeners = new Set<Listener<[WsState, WsState]>>();
  readonly #errorListeners = new Set<Listener<[unknown]>>();

  constructor(options: WsClientOptions) {
    this.#url = options.url;
    this.#Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.#baseMs = options.reconnectBaseMs ?? 250;
    this.#maxMs = options.reconnectMaxMs ?? 30_000;
    this.#jitter = Math.min(1, Math.max(0, options.reconnectJitter ?? 0.5));
    this.#random = options.random ?? Math.random;
    this.#pingMs = options.pingIntervalMs ?? 0;
    this.#pingTimeoutMs = options.pingTimeoutMs ?? 2 * this.#pingMs;
    this.#sched = options.scheduler ?? systemScheduler;
    this.#requests = new PendingRequests(this.#sched, options.requestTimeoutMs ?? 10_000);
  }

  /** Current connection state. */
  get state(): WsState {
    return this.#state;
  }

  /** Streams acknowledged by the server and not unsubscribed since; restored after reconnect. */
  get subscriptions(): readonly string[] {
    return [...this.#subs];
  }

  /** Opens the connection (and keeps it open until `close()`). Only acts in state `idle`. */
  connect(): void {
    if (this.#state !== 'idle') return;
    this.#openSocket();
  }

  /**
   * Resolves once a connection is open and restored (immediately if it is); rejects when
   * the client is closed first.
   */
  whenReady(): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(new Error('WsClient is closed'));
    if (this.#ready) return Promise.resolve();
    return new Promise((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
  }

  /** Stops for good: no more reconnects, pending requests rejected with kind `'closed'`. */
  close(code = 1000, reason = ''): void {
    if (this.#state === 'closed') return;
    this.#setState('closed');
    this.#clearTimer('reconnect');
    this.#clearTimer('ping');
    this.#requests.failAll('WsClient closed');
    this.#ready = false;
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const w of waiters) w.reject(new Error('WsClient is closed'));
    const ws = this.#ws;
    if (ws !== null) {
      this.#detach(ws);
      try {
        ws.close(code, reason);
      } catch (e) {
        this.#emitError(e);
      }
    }
    this.#emit(this.#closeListeners, { code, reason, willReconnect: false });
  }

  /** Subscribes to streams; resolves with the server's result once acknowledged. */
  async subscribe(streams: readonly string[]): Promise<unknown> {
    const result = await this.#request('SUBSCRIBE', [...streams], true);
    for (const s of streams) this.#subs.add(s);
    return result;
  }

  /** Unsubscribes; the streams are forgotten at once, so a reconnect will not restore them. */
  unsubscribe(streams: readonly string[]): Promise<unknown> {
    for (const s of streams) this.#subs.delete(s);
    return this.#request('UNSUBSCRIBE', [...streams], true);
  }

  /** Asks the server for this connection's subscriptions; resolves with its result as sent. */
  listSubscriptions(): Promise<unknown> {
    return this.#request('LIST_SUBSCRIPTIONS', undefined, true);
  }

  /**
   * Sends `LOGIN` with the params as given (or as the function builds them). Once accepted,
   * LOGIN is sent again after every reconnect, before the re-subscription, with params from
   * the same source: pass a function when the params expire (signed with a timestamp).
   * A request re-sent because its connection dropped before the answer reuses its params.
   */
  async login(params: LoginParamsSource): Promise<unknown> {
    const result = await this.#request('LOGIN', await loginParams(params), true);
    this.#login = params;
    return result;
  }

  /**
   * A replay control over the WebSocket (`REPLAY`, replay venues, loopback): `{action: 'step', ms}`
   * takes hold of the replay clock (lockstep) and resolves once everything the step did was
   * pushed; `{action: 'release'}` lets go. Resolves with the replay's status. Unlike the other
   * methods a step is not idempotent: one in flight when the connection drops is re-sent, and
   * steps again (the hold was let go with the connection).
   */
  replay(
    action:
      | { action: 'play' | 'pause' | 'release' }
      | { action: 'speed'; speed: number }
      | { action: 'step'; ms: number }
      | { action: 'seek'; time: number },
  ): Promise<unknown> {
    return this.#request('REPLAY', action, true);
  }

  /** `replay({action: 'step', ms})`. */
  replayStep(ms: number): Promise<unknown> {
    return this.#request('REPLAY', { action: 'step', ms }, true);
  }

  /** Routes pushes of one stream (`data` and the stream name) to `handler`; returns its remover. */
  on(stream: string, handler: (data: unknown, stream: string) => void): () => void {
    let set = this.#streamHandlers.get(stream);
    if (set === undefined) this.#streamHandlers.set(stream, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.#streamHandlers.get(stream) === set) this.#streamHandlers.delete(stream);
    };
  }

  /** Receives every parsed incoming message (answers and pushes); returns its remover. */
  onMessage(handler: (message: unknown) => void): () => void {
    return add(this.#messageHandlers, handler);
  }

  /** Called each time a socket opens, before re-login and re-subscription. */
  onOpen(listener: (info: { reconnect: boolean }) => void): () => void {
    return add(this.#openListeners, listener);
  }

  /** Called after a reconnect once re-login and re-subscription have been answered. */
  onReconnect(listener: () => void): () => void {
    return add(this.#reconnectListeners, listener);
  }

  /** Called each time a connection ends or an attempt fails. */
  onClose(listener: (info: WsCloseInfo) => void): () => void {
    return add(this.#closeListeners, listener);
  }

  /** Called on every state change. */
  onStateChange(listener: (state: WsState, previous: WsState) => void): () => void {
    return add(this.#stateListeners, listener);
  }

  /** Receives socket errors, unparsable messages, failed re-login/re-subscription, listener exceptions. */
  onError(listener: (error: unknown) => void): () => void {
    return add(this.#errorListeners, listener);
  }

  // ---- internals ----

  #openSocket(): void {
    this.#setState(this.#everReady || this.#attempt > 0 ? 'reconnecting' : 'connecting');
    const Ctor = this.#Ctor;
    let ws: WebSocketLike;
    try {
      if (Ctor === undefined) throw new Error('No WebSocket implementation: pass options.WebSocket');
      ws = new Ctor(this.#url);
    } catch (e) {
      this.#emitError(e);
      this.#scheduleReconnect(1006, String(e));
      return;
    }
    this.#ws = ws;
    try {
      ws.binaryType = 'arraybuffer';
    } catch {
      // Not every implementation lets it be set; text frames do not need it.
    }
    ws.onopen = () => {
      if (this.#ws !== ws) return;
      this.#lastMessageAt = this.#sched.now();
      this.#setState('open');
      this.#emit(this.#openListeners, { reconnect: this.#everReady });
      void this.#restore(ws);
    };
    ws.onmessage = (ev: { data: unknown }) => {
      if (this.#ws === ws) this.#handleMessage(ev.data);
    };
    // The close event that follows says what happened; the error event itself carries
    // nothing useful, so it is not logged unless someone listens.
    ws.onerror = (ev: unknown) => {
      if (this.#ws === ws && this.#errorListeners.size > 0) this.#emitError(ev);
    };
    ws.onclose = (ev: { code?: number; reason?: string }) => {
      if (this.#ws === ws) this.#lost(ev.code ?? 1006, ev.reason ?? '');
    };
  }

  /** Re-login, re-subscribe, then release the queue. Aborts quietly if the socket changes. */
  async #restore(ws: WebSocketLike): Promise<void> {
    const isReconnect = this.#everReady;
    if (this.#login !== undefined) {
      try {
        const params = await loginParams(this.#login);
        if (this.#ws !== ws) return;
        await this.#request('LOGIN', params, false);
      } catch (e) {
        if (this.#ws !== ws) return;
        if (e instanceof WsRequestError && e.kind === 'server') this.#login = undefined;
        this.#emitError(e);
      }
    }
    if (this.#subs.size > 0) {
      try {
        await this.#request('SUBSCRIBE', [...this.#subs], false);
      } catch (e) {
        if (this.#ws !== ws) return;
        this.#emitError(e);
      }
    }
    if (this.#ws !== ws || this.#state !== 'open') return;
    this.#ready = true;
    this.#everReady = true;
    this.#attempt = 0;
    for (const p of this.#requests.takeQueue()) this.#send(p);
    this.#schedulePing();
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const w of waiters) w.resolve();
    if (isReconnect) this.#emit(this.#reconnectListeners);
  }

  /**
   * `internal` requests (re-login, re-subscription) go out at once on an open socket and are
   * never re-sent; the others wait for a restored connection.
   */
  #request(method: string, params: unknown, userRequest: boolean): Promise<unknown> {
    if (this.#state === 'closed') return Promise.reject(new WsRequestError('closed', method, 'WsClient closed'));
    return new Promise((resolve, reject) => {
      const p = this.#requests.add({ method, params, requeue: userRequest, resolve, reject });
      if (!userRequest || this.#ready) this.#send(p);
      else this.#requests.enqueue(p);
    });
  }

  #send(p: Pending): void {
    const ws = this.#ws;
    if (ws === null) {
      this.#requests.enqueue(p);
      return;
    }
    const msg =
      p.params === undefined ? { method: p.method, id: p.id } : { method: p.method, params: p.params, id: p.id };
    try {
      ws.send(JSON.stringify(msg));
      p.sent = true;
    } catch (e) {
      // The socket is going down; its close event re-queues or fails the request.
      p.sent = true;
      this.#emitError(e);
    }
  }

  #handleMessage(raw: unknown): void {
    this.#lastMessageAt = this.#sched.now();
    let text: string;
    if (typeof raw === 'string') text = raw;
    else if (raw instanceof ArrayBuffer) text = new TextDecoder().decode(new Uint8Array(raw));
    else if (ArrayBuffer.isView(raw))
      text = new TextDecoder().decode(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
    else {
      this.#emitError(new Error('WsClient: unsupported message payload'));
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.#emitError(new Error(`WsClient: message is not JSON: ${text.slice(0, 200)}`));
      return;
    }
    if (typeof msg === 'object' && msg !== null) {
      const m = msg as { id?: unknown; result?: unknown; error?: unknown; stream?: unknown; data?: unknown };
      if (typeof m.id === 'number' && ('result' in m || 'error' in m)) this.#requests.answer(m.id, m.result, m.error);
      else if (typeof m.stream === 'string') {
        const handlers = this.#streamHandlers.get(m.stream);
        if (handlers !== undefined) this.#emit(handlers, m.data, m.stream);
      }
    }
    this.#emit(this.#messageHandlers, msg);
  }

  /** The current socket is gone (closed, failed, or declared dead). */
  #lost(code: number, reason: string): void {
    const ws = this.#ws;
    if (ws !== null) this.#detach(ws);
    this.#ws = null;
    this.#ready = false;
    this.#clearTimer('ping');
    this.#requests.connectionLost();
    if (this.#state === 'closed') return;
    this.#scheduleReconnect(code, reason);
  }

  #scheduleReconnect(code: number, reason: string): void {
    const raw = Math.min(this.#maxMs, this.#baseMs * 2 ** this.#attempt);
    const delay = Math.round(raw * (1 - this.#jitter + this.#jitter * this.#random()));
    this.#attempt++;
    this.#setState('reconnecting');
    this.#clearTimer('reconnect');
    this.#reconnectTimer = this.#sched.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#state !== 'closed') this.#openSocket();
    }, delay);
    this.#emit(this.#closeListeners, { code, reason, willReconnect: true });
  }

  #schedulePing(): void {
    if (this.#pingMs <= 0) return;
    this.#clearTimer('ping');
    this.#pingTimer = this.#sched.setTimeout(() => {
      this.#pingTimer = undefined;
      const ws = this.#ws;
      if (ws === null || !this.#ready) return;
      if (this.#sched.now() - this.#lastMessageAt >= this.#pingTimeoutMs) {
        // A half-open TCP connection may take minutes to report its close; do not wait for it.
        try {
          ws.close(4000, 'ping timeout');
        } catch {
          // already closing
        }
        this.#lost(4000, 'ping timeout');
        return;
      }
      try {
        ws.send(JSON.stringify({ method: 'PING', id: this.#requests.nextId() }));
      } catch (e) {
        this.#emitError(e);
      }
      this.#schedulePing();
    }, this.#pingMs);
  }

  /** Keeps no-op handlers: the `ws` package throws on an 'error' event nobody listens to. */
  #detach(ws: WebSocketLike): void {
    const noop = (): void => {};
    ws.onopen = noop;
    ws.onmessage = noop;
    ws.onclose = noop;
    ws.onerror = noop;
    if (this.#ws === ws) this.#ws = null;
  }

  #clearTimer(which: 'reconnect' | 'ping'): void {
    const t = which === 'reconnect' ? this.#reconnectTimer : this.#pingTimer;
    if (t !== undefined) this.#sched.clearTimeout(t);
    if (which === 'reconnect') this.#reconnectTimer = undefined;
    else this.#pingTimer = undefined;
  }

  #setState(next: WsState): void {
    const prev = this.#state;
    if (prev === next) return;
    this.#state = next;
    this.#emit(this.#stateListeners, next, prev);
  }

  #emit<A extends unknown[]>(listeners: Set<Listener<A>>, ...args: A): void {
    for (const l of [...listeners]) {
      try {
        l(...args);
      } catch (e) {
        this.#emitError(e);
      }
    }
  }

  #emitError(error: unknown): void {
    if (this.#errorListeners.size === 0) {
      console.error(error);
      return;
    }
    for (const l of [...this.#errorListeners]) {
      try {
        l(error);
      } catch (e) {
        console.error(e);
      }
    }
  }
}

function loginParams(source: LoginParamsSource): Promise<object> {
  if (typeof source !== 'function') return Promise.resolve(source);
  const build = source as () => object | Promise<object>;
  return Promise.resolve().then(build);
}

function add<T>(set: Set<T>, item: T): () => void {
  set.add(item);
  return () => set.delete(item);
}
