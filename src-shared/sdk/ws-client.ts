// WebSocket client for the venue's `/ws` protocol (DESIGN section 4, docs/api.md): requests matched to answers by id
// (ws-requests.ts), pushes routed by stream, automatic reconnect. Invariants: after every reconnect the last accepted
// LOGIN goes first, then the subscriptions, then the queued requests and `onReconnect`; public streams come back
// whatever the login does, private ones (`user`) only after a successful (re-)login; a stream the server refuses or
// ends (`bot` off the whitelist) costs only itself (a refused SUBSCRIBE is split until it is found), a 5000 or no
// answer refuses nothing (the connection is dropped, the restore runs on the next); a request in flight when a
// connection drops is re-sent on the next one; every request ends within its timeout; reconnect delays grow
// exponentially with jitter (ws-backoff.ts; `retryNow()` cuts one short and starts them over); a connection silent for
// 45 s (pinged every 15 s by default; pingIntervalMs 0: never) is dropped and reconnected; a client never connected yet
// waits neither for a service not there nor for one that never upgrades the connection (its requests and `whenReady()`
// fail with the reason; connectTimeoutMs); after `close()` nothing reconnects or stays pending. JSON only; pushes unvalidated.
import { systemScheduler, type Scheduler } from './scheduler.ts';
import { Backoff } from './ws-backoff.ts';
import { WsEvents } from './ws-events.ts';
import { PendingRequests, replayLost, unsentError, wireText, type Pending } from './ws-requests.ts';
import { SendPacer } from './ws-pacer.ts';
import { checkedWsUrl, closeQuietly, detach, loggedOut, loginParams, parseMessage } from './ws-session.ts';
import { ReadyWaiters, WsStreams } from './ws-session.ts';
import { keepAliveOf, restoreFailureCode, WsConnectionError, WsLoginLostError, WsRequestError } from './ws-types.ts';
import type {
  LoginParamsSource,
  WebSocketConstructor,
  WebSocketLike,
  WsClientOptions,
  WsLoginState,
  WsState,
  WsTimings,
} from './ws-types.ts';

// The option, state and error types live in ws-types.ts, exported from here (and the SDK) too.
export { WsConnectionError, WsLoginLostError, WsRequestError } from './ws-types.ts';
export type { LoginParamsSource, WebSocketConstructor, WebSocketLike, WsClientOptions } from './ws-types.ts';
export type { WsCloseInfo, WsLoginState, WsRequestErrorKind, WsState } from './ws-types.ts';

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
export class WsClient extends WsEvents {
  readonly #url: string;
  readonly #Ctor: WebSocketConstructor | undefined;
  readonly #backoff: Backoff;
  readonly #keepAlive: WsTimings; // ping period, silence that drops, connection attempt's limit, ms
  readonly #sched: Scheduler;
  /** Keeps the writes under the service's 100 messages a second (ws-pacer.ts). */
  readonly #pacer: SendPacer;

  #state: WsState = 'idle';
  #ws: WebSocketLike | null = null;
  /** Requests, sent or queued (ws-requests.ts). */
  readonly #requests: PendingRequests;
  /** The current socket finished re-login/re-subscription: queued requests may go. */
  #ready = false;
  #everReady = false;
  /** The current socket has opened (a close before that is a failed attempt). */
  #opened = false;
  /** The last attempt's failure while the client has never been ready; null once ready. */
  #unreachable: WsConnectionError | null = null;
  #reconnectTimer: unknown = undefined;
  #pingTimer: unknown = undefined;
  #lastMessageAt = 0;
  readonly #streams = new WsStreams((subs) => this.emitSubscriptions(subs));
  #login: LoginParamsSource | undefined = undefined;
  #loginState: WsLoginState = 'none';
  readonly #readyWaiters = new ReadyWaiters();

  constructor(options: WsClientOptions) {
    super();
    this.#url = checkedWsUrl(options.url);
    this.#Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.#backoff = new Backoff({
      baseMs: options.reconnectBaseMs ?? 250,
      maxMs: options.reconnectMaxMs ?? 30_000,
      jitter: options.reconnectJitter ?? 0.5,
      random: options.random ?? Math.random,
    });
    const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.#keepAlive = keepAliveOf(options, requestTimeoutMs);
    this.#sched = options.scheduler ?? systemScheduler;
    this.#pacer = new SendPacer(this.#sched, (e) => this.emitError(e));
    const idle = (): boolean => this.#state === 'idle';
    this.#requests = new PendingRequests(this.#sched, requestTimeoutMs, this.#url, idle);
  }

  /** Current connection state. */
  get state(): WsState {
    return this.#state;
  }

  /**
   * Streams acknowledged by the server and not unsubscribed since; restored after reconnect. A
   * stream refused at its restoration leaves the list; `user` leaves it while the login is lost
   * (see {@link loginState}) and comes back with the next successful `login()`.
   */
  get subscriptions(): readonly string[] {
    return [...this.#streams.subs];
  }

  /** Whether the client is logged in; `lost` after a refused re-login or a `logged_out` push. */
  get loginState(): WsLoginState {
    return this.#loginState;
  }

  /** Opens the connection (and keeps it open until `close()`). Only acts in state `idle`. */
  connect(): void {
    if (this.#state !== 'idle') return;
    this.#openSocket();
  }

  /**
   * Resolves once a connection is open and restored (immediately if it is). Rejects at once before
   * `connect()`, when the client is closed first, and, while it has never been connected, when the
   * attempt under way (or the next one) fails, with a {@link WsConnectionError}: a service that
   * is not there is reported, not waited for. The client keeps trying in the background; call
   * `whenReady()` again to wait for the next attempt. Once connected, it waits across reconnects.
   */
  whenReady(): Promise<void> {
    if (this.#state === 'closed') return Promise.reject(new Error('WsClient is closed'));
    if (this.#state === 'idle') return Promise.reject(new Error('WsClient is not connected: call connect() first'));
    if (this.#ready) return Promise.resolve();
    return this.#readyWaiters.wait();
  }

  /** Stops for good: no more reconnects, pending requests rejected with kind `'closed'`. */
  close(code = 1000, reason = ''): void {
    if (this.#state === 'closed') return;
    this.#setState('closed');
    this.#clearTimer('reconnect');
    this.#clearTimer('ping');
    this.#pacer.clear();
    this.#requests.failAll('WsClient closed');
    this.#ready = false;
    this.#readyWaiters.settle(new Error('WsClient is closed'));
    const ws = this.#ws;
    if (ws !== null) {
      detach(ws);
      this.#ws = null;
      try {
        ws.close(code, reason);
      } catch (e) {
        this.emitError(e);
      }
    }
    this.emitClose({ code, reason, willReconnect: false });
  }

  /**
   * The service is known to be back (another channel reached it, the window regained focus, the
   * network came back): while waiting out a reconnect delay, tries again at once, with the backoff
   * started over. Does nothing otherwise (open, an attempt under way, not connected yet, closed),
   * so it may be called as often as such a sign comes. Returns whether it started an attempt.
   */
  retryNow(): boolean {
    if (this.#state !== 'reconnecting' || this.#reconnectTimer === undefined) return false;
    this.#clearTimer('reconnect');
    this.#backoff.reset();
    this.#openSocket();
    return true;
  }

  /** Subscribes; resolves with the server's result once acknowledged (unsubscribe() since then wins). Not logged
   * in, `user` waits (resolved at once) for the next successful login(), which subscribes it before it resolves. */
  subscribe(streams: readonly string[]): Promise<unknown> {
    const send = (now: readonly string[]): Promise<unknown> => this.#request('SUBSCRIBE', [...now], true);
    return this.#streams.subscribe(streams, send, this.#loginState === 'logged_in');
  }

  /** Unsubscribes; the streams are forgotten at once (a reconnect will not restore them), back if it is refused. */
  unsubscribe(streams: readonly string[]): Promise<unknown> {
    const held = (): unknown => (this.#ready ? this.#ws : null); // the connection that holds them
    return this.#streams.unsubscribe(streams, () => this.#request('UNSUBSCRIBE', [...streams], true), held);
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
   * When a re-login was refused or the server ended the login (`loginState` 'lost', reported to
   * `onError` as a {@link WsLoginLostError}), the private streams it had are off; the next
   * successful `login()` subscribes them again before it resolves.
   */
  async login(params: LoginParamsSource): Promise<unknown> {
    const result = await this.#request('LOGIN', await loginParams(params), true);
    this.#login = params;
    this.#loginState = 'logged_in';
    if (this.#streams.waiting.size > 0)
      await this.subscribe([...this.#streams.waiting]).catch((e) => this.emitError(e));
    return result;
  }

  /**
   * A replay control over the WebSocket (`REPLAY`, replay venues, loopback): `{action: 'step', ms}`
   * takes hold of the replay clock (lockstep) and resolves once everything the step did was
   * pushed; `{action: 'release'}` lets go. Resolves with the replay's status. Unlike the other
   * requests, one sent and unanswered when the connection drops is not sent again (the service
   * may have applied it: a step sent again would step twice): it fails with kind `'closed'`;
   * read the replay's status before stepping on. One not sent yet waits for the connection.
   */
  replay(
    action:
      | { action: 'play' | 'pause' | 'release' }
      | { action: 'speed'; speed: number }
      | { action: 'step'; ms: number }
      | { action: 'seek'; time: number },
  ): Promise<unknown> {
    return this.#request('REPLAY', action, true, replayLost(action.action));
  }

  /** `replay({action: 'step', ms})`. */
  replayStep(ms: number): Promise<unknown> {
    return this.#request('REPLAY', { action: 'step', ms }, true, replayLost('step'));
  }

  // ---- internals ----

  #openSocket(): void {
    this.#setState(this.#everReady || this.#backoff.attempt > 0 ? 'reconnecting' : 'connecting');
    const Ctor = this.#Ctor;
    let ws: WebSocketLike;
    try {
      if (Ctor === undefined) throw new Error('No WebSocket implementation: pass options.WebSocket');
      ws = new Ctor(this.#url);
    } catch (e) {
      this.emitError(e);
      this.#attemptFailed(new WsConnectionError(this.#url, 1006, String(e)));
      this.#scheduleReconnect(1006, String(e));
      return;
    }
    this.#ws = ws;
    this.#opened = false;
    // (the ping timer is free until the connection is restored: it times the attempt meanwhile)
    if (this.#keepAlive.connectMs > 0)
      this.#pingTimer = this.#sched.setTimeout(() => this.#attemptTimedOut(ws), this.#keepAlive.connectMs);
    try {
      ws.binaryType = 'arraybuffer';
    } catch {
      // Not every implementation lets it be set; text frames do not need it.
    }
    ws.onopen = () => {
      if (this.#ws !== ws) return;
      this.#clearTimer('ping');
      this.#opened = true;
      this.#unreachable = null;
      this.#lastMessageAt = this.#sched.now();
      this.#setState('open');
      this.emitOpen({ reconnect: this.#everReady });
      void this.#restore(ws);
    };
    ws.onmessage = (ev: { data: unknown }) => {
      if (this.#ws === ws) this.#handleMessage(ev.data);
    };
    // The error event carries nothing useful (no reason, no status); the close event that
    // follows reports what happened (#lost: a WsConnectionError when the socket never opened).
    ws.onerror = () => {};
    ws.onclose = (ev: { code?: number; reason?: string }) => {
      if (this.#ws === ws) this.#lost(ev.code ?? 1006, ev.reason ?? '');
    };
  }

  /**
   * Re-login, re-subscribe (private streams only after a successful re-login), then release the
   * queue. Aborts quietly if the socket changes.
   */
  async #restore(ws: WebSocketLike): Promise<void> {
    const isReconnect = this.#everReady;
    const loggedIn = await this.#relogin(ws);
    if (this.#ws !== ws) return;
    if (!loggedIn) this.#streams.park();
    const subs = this.#streams.subs;
    if (subs.size > 0 && !(await this.#resubscribe(ws, [...subs]))) return;
    if (this.#ws !== ws || this.#state !== 'open') return;
    this.#ready = true;
    this.#everReady = true;
    this.#backoff.reset();
    for (const p of this.#requests.takeQueue()) this.#send(p);
    this.#schedulePing();
    this.#readyWaiters.settle();
    if (isReconnect) this.emitReconnect();
  }

  /** LOGIN again from the remembered source; false when there is none or it failed (reported). */
  async #relogin(ws: WebSocketLike): Promise<boolean> {
    const source = this.#login;
    if (source === undefined) return false;
    try {
      const params = await loginParams(source);
      if (this.#ws !== ws) return false;
      await this.#request('LOGIN', params, false);
      return true;
    } catch (e) {
      if (this.#ws !== ws || this.#faulted(ws, e)) return false;
      const refused = e instanceof WsRequestError && e.kind === 'server';
      // refused params come from this source again: only a new login() can help
      if (refused) this.#login = undefined;
      const why = `The re-login after a reconnect ${refused ? 'was refused' : 'failed'}: ${(e as Error).message}`;
      this.#loginLost(why, e instanceof WsRequestError ? e.code : undefined);
      return false;
    }
  }

  /**
   * SUBSCRIBE again; a refused request is split in halves until each refused stream is found,
   * dropped and reported. False when the socket changed meanwhile.
   */
  async #resubscribe(ws: WebSocketLike, streams: readonly string[]): Promise<boolean> {
    try {
      await this.#request('SUBSCRIBE', [...streams], false);
      return this.#ws === ws;
    } catch (e) {
      if (this.#ws !== ws || this.#faulted(ws, e)) return false;
      if (!(e instanceof WsRequestError) || e.kind !== 'server') {
        this.emitError(e);
        return true;
      }
      if (streams.length > 1) {
        const half = Math.ceil(streams.length / 2);
        return (await this.#resubscribe(ws, streams.slice(0, half))) && this.#resubscribe(ws, streams.slice(half));
      }
      this.#streams.remove(streams);
      const text = `Re-subscribing ${streams[0]} after a reconnect was refused (${e.message}); it is no longer subscribed`;
      this.emitError(new WsRequestError('server', 'SUBSCRIBE', text, e.code));
      return true;
    }
  }

  /** A restore step the service failed (5000) or left unanswered, no refusal: reported; a new connection. */
  #faulted(ws: WebSocketLike, e: unknown): boolean {
    const code = restoreFailureCode(e);
    if (code === null) return false;
    this.emitError(e);
    this.#lost(code, (e as Error).message); // detaches ws: its close below reports nothing more
    ws.close(1000, 'the service failed to restore the connection');
    return true;
  }

  /** The login is gone without login() asking: private streams wait for the next login(). */
  #loginLost(message: string, code: number | undefined): void {
    this.#loginState = 'lost';
    const parked = this.#streams.park();
    const off = parked.length === 0 ? '' : `; ${parked.join(', ')} off until login() succeeds`;
    this.emitError(new WsLoginLostError(message + off, code));
  }

  /**
   * A connection attempt failed. A client that has never been ready stops waiting for it:
   * `whenReady()` and the queued requests fail with the reason (the client still retries).
   */
  #attemptFailed(error: WsConnectionError): void {
    if (this.hasErrorListeners) this.emitError(error);
    if (this.#everReady) return;
    this.#unreachable = error;
    this.#requests.failUnsent((p) => unsentError(p.method, error));
    this.#readyWaiters.settle(error);
  }

  /**
   * `internal` requests (re-login, re-subscription) go out at once on an open socket and are
   * never re-sent; the others wait for a restored connection. `lost`: a request never sent twice
   * (not idempotent: a replay step), failing with this message when its connection drops.
   */
  #request(method: string, params: unknown, userRequest: boolean, lost?: string): Promise<unknown> {
    if (this.#state === 'closed') return Promise.reject(new WsRequestError('closed', method, 'WsClient closed'));
    const unreachable = this.#unreachable;
    if (userRequest && !this.#ready && unreachable !== null) return Promise.reject(unsentError(method, unreachable));
    return new Promise((resolve, reject) => {
      const p = this.#requests.add({ method, params, requeue: userRequest && !lost, lost, resolve, reject });
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
    try {
      // sent as far as the requests know: one waiting in the pacer when the connection drops is handled as lost on it
      this.#pacer.send(ws, wireText(p), p.method !== 'REPLAY');
      p.sent = true;
    } catch (e) {
      // The socket is going down; its close event re-queues or fails the request.
      p.sent = true;
      this.emitError(e);
    }
  }

  #handleMessage(raw: unknown): void {
    this.#lastMessageAt = this.#sched.now();
    const msg = parseMessage(raw);
    if (msg instanceof Error) {
      this.emitError(msg);
      return;
    }
    if (typeof msg === 'object' && msg !== null) {
      const m = msg as { id?: unknown; result?: unknown; error?: unknown; stream?: unknown; data?: unknown };
      if (typeof m.id === 'number' && ('result' in m || 'error' in m)) this.#requests.answer(m.id, m.result, m.error);
      else if (typeof m.stream === 'string') {
        this.emitPush(m.stream, m.data);
        const out = m.stream === 'user' ? loggedOut(m.data) : undefined;
        if (out !== undefined) {
          // the server ended the login (its API key was regenerated): the source signs for a dead key
          this.#login = undefined;
          this.#loginLost(`The server ended the login: ${out.message}`, out.code);
        }
        const ended = this.#streams.endedBy(m.stream, m.data); // `bot` once this IP left the whitelist
        if (ended !== undefined) this.emitError(ended);
      }
    }
    this.emitMessage(msg);
  }

  /** The current socket is gone (closed, failed, or declared dead). */
  #lost(code: number, reason: string): void {
    const opened = this.#opened;
    this.#opened = false;
    const ws = this.#ws;
    if (ws !== null) detach(ws);
    this.#ws = null;
    this.#ready = false;
    this.#clearTimer('ping');
    this.#pacer.clear();
    this.#requests.connectionLost();
    if (this.#state === 'closed') return;
    if (!opened) this.#attemptFailed(new WsConnectionError(this.#url, code, reason));
    this.#scheduleReconnect(code, reason);
  }

  /** An attempt not open within connectTimeoutMs: abandoned as failed (a service that never answers the upgrade). */
  #attemptTimedOut(ws: WebSocketLike): void {
    this.#pingTimer = undefined;
    if (this.#ws !== ws || this.#opened) return;
    this.#lost(1006, `the connection was not open after ${this.#keepAlive.connectMs} ms (connectTimeoutMs)`);
    closeQuietly(ws); // detached first: a close it reports at once is not a second loss
  }

  #scheduleReconnect(code: number, reason: string): void {
    const delay = this.#backoff.next();
    this.#setState('reconnecting');
    this.#clearTimer('reconnect');
    this.#reconnectTimer = this.#sched.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#state !== 'closed') this.#openSocket();
    }, delay);
    this.emitClose({ code, reason, willReconnect: true });
  }

  #schedulePing(): void {
    if (this.#keepAlive.intervalMs <= 0) return;
    this.#clearTimer('ping');
    this.#pingTimer = this.#sched.setTimeout(() => {
      this.#pingTimer = undefined;
      const ws = this.#ws;
      if (ws === null || !this.#ready) return;
      if (this.#sched.now() - this.#lastMessageAt >= this.#keepAlive.timeoutMs) {
        // A half-open TCP connection may take minutes to report its close; do not wait for it.
        closeQuietly(ws, 4000, 'ping timeout');
        this.#lost(4000, 'ping timeout');
        return;
      }
      try {
        this.#pacer.send(ws, JSON.stringify({ method: 'PING', id: this.#requests.nextId() }));
      } catch (e) {
        this.emitError(e);
      }
      this.#schedulePing();
    }, this.#keepAlive.intervalMs);
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
    this.emitState(next, prev);
  }
}
