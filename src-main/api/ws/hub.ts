// The WebSocket hub behind /ws: connections, request dispatch and the one 100 ms timer that
// drives every stream. The protocol (methods, streams, cadence, limits, close codes) is
// docs/api.md "WebSocket"; its parts: protocol.ts reads client messages, login.ts checks LOGIN,
// subscriptions.ts keeps who gets what, payloads.ts builds stream data, fan-out.ts writes pushes.
// It keeps true: each push is serialised once per stream per tick and the same buffer written to
// every subscriber; a connection past its buffer bound is closed, not buffered without end; a
// failing request or stream is logged and isolated, never an uncaught exception; market pushes
// of a replay with a data latency wait until market time reaches it (fan-out.ts).
import type { RawData, WebSocket } from 'ws';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../services/venue.ts';
import { CloseCode, Conn, WS_OPEN, type Stream, type SymbolFeed } from './conn.ts';
import { FanOut, type Due, type HubStats } from './fan-out.ts';
import { Heartbeat } from './heartbeat.ts';
import { INTERNAL_ERROR } from './isolate.ts';
import { checkLogin, loggedOutEvent, type LoginAccounts } from './login.ts';
import { depthSnapshotPayload, depthUpdatePayload, klinePayload, tradesPayload } from './payloads.ts';
import { priceDueAt, pushPrice } from './price-push.ts';
import { isLoopbackIp } from '../../accounts/whitelist.ts';
import { readAction } from '../routes/replay.ts';
import { errorReply, noParams, parseRequest, unknownMethod, type Reply, type Request } from './protocol.ts';
import { readReplayParams } from './replay-params.ts';
import { Subscriptions, type KlineSource } from './subscriptions.ts';

const TICK_MS = 100;
const DEPTH_SNAPSHOT_EVERY = 2; // ticks: 200 ms
const PRICE_EVERY = 10; // ticks: 1 s
const SWEEP_EVERY = 10; // ticks: liveness check once a second
/** Least time between two pushes of one kline stream, ms. */
const KLINE_THROTTLE_MS = 250;

export { METHODS } from './protocol.ts';
export type { HubStats } from './fan-out.ts';

export interface HubLimits {
  /** Streams per connection. */
  maxSubscriptions: number;
  /** Unsent bytes of a connection above which it is closed as a slow consumer. */
  maxBufferedBytes: number;
  /** No client message and no pong for this long closes the connection, ms. */
  idleTimeoutMs: number;
  /** Protocol ping period, ms. */
  pingIntervalMs: number;
  /** Client messages per connection per second (fixed 1 s window); one more closes it with 1008. */
  maxMessagesPerSecond: number;
}

export const DEFAULT_HUB_LIMITS: Readonly<HubLimits> = Object.freeze({
  maxSubscriptions: 200,
  maxBufferedBytes: 4 * 1024 * 1024,
  idleTimeoutMs: 60_000,
  pingIntervalMs: 20_000,
  maxMessagesPerSecond: 100,
});

export interface HubOptions {
  venue: Venue;
  /** API key look-up for LOGIN and, when given, revoked keys, whose logins end (auth.ts's AccountCache). */
  accounts: LoginAccounts;
  /**
   * The bot whitelist: who may subscribe to the `bot` stream (cached bot orders); when it tells of
   * changes, connections whose IP it no longer holds leave that stream (subscriptions.ts).
   */
  whitelist?: { has(ip: string): boolean; onChange?(listener: () => void): () => void };
  /** Wall clock for LOGIN timestamps (the signed-REST clock) and liveness, ms; Date.now by default. */
  now?: () => number;
  /** Event time `E` of pushes; market time (venue.clock) by default. */
  eventTime?: () => number;
  limits?: Partial<HubLimits>;
  /**
   * The candle service, or a look-up of it (it may be attached to the venue after the app is
   * built); read when the first kline stream is subscribed.
   */
  klines?: KlineSource | (() => KlineSource | undefined);
  /** Start the interval timer (default true); tests may drive tick() themselves. */
  autoStart?: boolean;
}

export class Hub {
  readonly limits: HubLimits;
  /** Wall clock for liveness and LOGIN; replaceable by tests. */
  now: () => number;
  readonly stats: HubStats = {
    connections: 0,
    pushes: 0,
    pushBytes: 0,
    messages: 0,
    slowConsumersClosed: 0,
    idleClosed: 0,
  };
  /** Pushes to subscribers (test-hooks.ts reaches in here). */
  readonly out: FanOut;
  /** Who is subscribed to what (test-hooks.ts reaches in here). */
  readonly subs: Subscriptions;
  /** Open connections. */
  readonly conns = new Set<Conn>();
  private readonly accounts: HubOptions['accounts'];
  private readonly venue: Venue;
  private readonly eventTime: () => number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticks = 0;
  /** Pings and idle closes (heartbeat.ts, shared with the Binance streams). */
  private readonly heartbeat: Heartbeat;
  private closed = false;
  private readonly offRevoked: () => void;

  constructor(opts: HubOptions) {
    this.accounts = opts.accounts;
    const offKey = opts.accounts.onRevoked?.((key) => this.endLogins(key, 'key'));
    const offSecret = opts.accounts.onSecretChanged?.((key) => this.endLogins(key, 'secret'));
    this.offRevoked = () => (offKey?.(), offSecret?.());
    this.venue = opts.venue;
    this.now = opts.now ?? Date.now;
    this.eventTime = opts.eventTime ?? (() => opts.venue.clock.now());
    this.limits = { ...DEFAULT_HUB_LIMITS, ...opts.limits };
    const k = opts.klines;
    this.heartbeat = new Heartbeat('message or pong', this.now());
    this.out = new FanOut(this.stats, this.limits, (conn, code, reason) => this.drop(conn, code, reason));
    this.subs = new Subscriptions({
      venue: opts.venue,
      limits: this.limits,
      whitelist: opts.whitelist ?? null,
      klineLookup: typeof k === 'function' ? k : () => k,
      out: this.out,
    });
    // a replay's market-data latency: market streams reach clients that many ms of history late
    const st = opts.venue.replay?.status();
    // (what is due after the replay's end comes at its end)
    if ((st?.data_latency ?? 0) > 0) this.out.setDelay(st!.data_latency, this.eventTime, st!.until);
    // and its response latency: the user and bot streams' account events reach clients that late
    if ((st?.response_latency ?? 0) > 0) this.out.setResponseDelay(st!.response_latency, this.eventTime, st!.until);
    if (opts.autoStart !== false) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  // ------------------------------------------------------------------ connections

  /**
   * Takes over a freshly upgraded socket. `upgraded` is the upgraded request's socket (the stream `ws` writes to):
   * pushes are written to it pre-framed; anything else (none given) sends through `ws`.
   */
  attach(socket: WebSocket, ip: string, upgraded?: unknown): void {
    if (this.closed) {
      socket.close(CloseCode.GoingAway, 'server shutting down');
      return;
    }
    const conn = new Conn(socket, ip, this.now(), upgraded);
    this.conns.add(conn);
    this.stats.connections = this.conns.size;
    socket.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));
    socket.on('pong', () => {
      conn.lastSeen = this.now();
    });
    socket.on('close', () => this.detach(conn));
  }

  private detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return;
    this.venue.replay?.release(conn);
    conn.closed = true;
    this.stats.connections = this.conns.size;
    this.subs.removeAll(conn);
  }

  /** Closes a connection (with a close frame) and stops sending to it at once. */
  private drop(conn: Conn, code: number, reason: string): void {
    if (conn.closed) return;
    this.detach(conn);
    try {
      conn.socket.close(code, reason);
    } catch {
      conn.socket.terminate();
    }
  }

  /** Stops the timer, the event listeners and every connection (close 1001). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.offRevoked();
    this.subs.close();
    for (const conn of [...this.conns]) this.drop(conn, CloseCode.GoingAway, 'server shutting down');
  }

  // ------------------------------------------------------------------ requests

  /**
   * Sends an answer, unless the connection is past its unsent-bytes bound (closed as a slow consumer, as
   * before a push: a client that sends but no longer reads). One that cannot be written (a fault of the
   * service's: the client would wait for it in vain) closes that connection with 1011; nothing escapes.
   */
  private reply(conn: Conn, r: Reply): void {
    if (conn.closed || conn.socket.readyState !== WS_OPEN || this.out.closeIfSlow(conn)) return;
    try {
      conn.socket.send(JSON.stringify(r));
    } catch (err) {
      console.error(`perpdesk: ws answer failed; that connection is closed (${INTERNAL_ERROR})`, err);
      this.drop(conn, INTERNAL_ERROR, 'Internal error: an answer could not be sent');
    }
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    if (conn.closed) return;
    const now = this.now();
    conn.lastSeen = now;
    if (now - conn.windowStart >= 1000) {
      conn.windowStart = now;
      conn.windowCount = 0;
    }
    const req = parseRequest(data, isBinary);
    const stepping =
      !('error' in req) && req.method === 'REPLAY' && this.venue.replay !== null && this.venue.replay.holderOf === conn;
    if (!stepping && ++conn.windowCount > this.limits.maxMessagesPerSecond) {
      return this.drop(
        conn,
        CloseCode.Policy,
        `too many messages: at most ${this.limits.maxMessagesPerSecond} per second`,
      );
    }
    if ('error' in req) return this.reply(conn, req.error);
    const before = this.subs.stateOf(conn);
    let answer: Reply | null;
    try {
      // REPLAY answers by itself (after the step's commit)
      answer = req.method === 'REPLAY' ? (this.replay(conn, req), null) : this.handle(conn, req);
    } catch (err) {
      // A fault of the service's must cost one answer, never the process (a throw here would be
      // uncaught), and never leave the connection other than its client believes: the request
      // is answered 5000 with its id only once the connection is back as it was before it.
      console.error('perpdesk: ws request failed', err);
      if (!this.subs.restore(conn, before)) {
        console.error(
          `perpdesk: the failed ws request could not be undone; that connection is closed (${INTERNAL_ERROR})`,
        );
        return this.drop(conn, INTERNAL_ERROR, 'Internal error: the request could not be served');
      }
      answer = errorReply(
        req.id,
        Errors.INTERNAL,
        `Internal error: ${typeof req.method === 'string' ? req.method.slice(0, 32) : 'the request'} was not served; ` +
          'nothing of it was applied (the subscriptions and login are as before it)',
      );
    }
    if (answer !== null) this.reply(conn, answer);
  }

  /**
   * REPLAY: a control action; the answer waits for the step's commit (account events go out
   * then) and flushes the market streams' pending changes first.
   */
  private replay(conn: Conn, req: Request): void {
    const { id } = req;
    const session = this.venue.replay;
    if (session === null)
      return this.reply(
        conn,
        errorReply(id, Errors.NOT_A_REPLAY, `${Errors.NOT_A_REPLAY.message}: REPLAY works on a replay venue`),
      );
    if (!isLoopbackIp(conn.ip))
      return this.reply(
        conn,
        errorReply(
          id,
          Errors.LOOPBACK_ONLY,
          `${Errors.LOOPBACK_ONLY.message}: REPLAY controls a replay from this machine only`,
        ),
      );
    const read = readReplayParams(id, req.params);
    if ('error' in read) return this.reply(conn, read.error);
    const { action, speed, ms, time } = read;
    let result: unknown;
    try {
      if (action === 'release') {
        session.release(conn);
        result = session.status();
      } else {
        result = session.act(readAction({ action, speed, ms, time }), conn);
      }
    } catch (err) {
      if (err instanceof ApiError) return this.reply(conn, errorReply(id, err.def, err.detail));
      if (err instanceof RangeError) return this.reply(conn, errorReply(id, Errors.INVALID_PARAMETER, err.message));
      throw err;
    }
    const answer = () => {
      // (from the commit's callback too: what the flush throws must not escape it, nor cost the answer)
      try {
        this.flushChanges();
      } catch (err) {
        console.error('perpdesk: ws flush before a REPLAY answer failed', err);
      }
      this.reply(conn, { id, result });
    };
    const group = this.venue.durability;
    if (!group.pending) return answer();
    group.whenDurable((err) => {
      if (err === null) return answer();
      this.reply(conn, errorReply(id, Errors.INTERNAL, `Storing the step failed: ${err.message}`));
    });
  }

  /**
   * Sends the changes-driven market streams now (depth_update@, trade@, price@ once a market second,
   * and the candles kline@ streams have not pushed closed yet; their current candle waits for the tick).
   */
  private flushChanges(): void {
    const feeds = this.subs.feeds;
    if (feeds.size === 0 && this.out.heldCount === 0) return;
    const E = this.eventTime();
    const out = this.out;
    const candles = this.subs.klineSource;
    out.beginTick();
    let due: Due[];
    try {
      out.release();
      for (const f of feeds.values()) {
        try {
          if (f.depthUpdate !== null) this.sendDepthUpdate(f, f.depthUpdate, E);
          if (f.trade !== null && f.trades.length > 0) this.sendTrades(f, f.trade, E);
          if (priceDueAt(f, E)) pushPrice(out, f, E);
          if (candles !== null) for (const s of f.klines) if (s.closedPending) this.sendClosed(s, candles, E);
        } catch (err) {
          console.error(`perpdesk: ws streams of ${f.pair.row.symbol} failed`, err);
        }
      }
    } finally {
      due = out.endTick();
    }
    out.flushTick(due);
  }

  private handle(conn: Conn, req: Request): Reply {
    const { id, params } = req;
    switch (req.method) {
      case 'SUBSCRIBE':
        return this.subs.subscribe(conn, id, params);
      case 'UNSUBSCRIBE':
        return this.subs.unsubscribe(conn, id, params);
      case 'LIST_SUBSCRIPTIONS':
        return noParams(id, req.method, params) ?? { id, result: [...conn.names] };
      case 'PING':
        return noParams(id, req.method, params) ?? { id, result: 'PONG' };
      case 'LOGIN': {
        // A failed LOGIN leaves an earlier login in place; a successful one replaces it.
        const r = checkLogin({ accounts: this.accounts, now: this.now }, id, params);
        if ('error' in r) return r.error;
        this.subs.setAccount(conn, r.account.id);
        conn.loginKey = r.account.apiKey;
        return { id, result: { user_id: r.account.id } };
      }
      default:
        return unknownMethod(id, req.method);
    }
  }

  /**
   * A revoked API key (regenerated), or one with a new secret: each connection logged in with it gets
   * a last `user` push, `logged_out`, if it is subscribed, then leaves the stream and is logged out.
   */
  private endLogins(apiKey: string, why: 'key' | 'secret'): void {
    for (const conn of this.conns) {
      if (conn.loginKey !== apiKey) continue;
      if (conn.names.has('user')) this.out.push(conn, 'user', this.out.serialise('user', loggedOutEvent(why)));
      this.subs.endLogin(conn);
    }
  }

  // ------------------------------------------------------------------ the tick

  /** One 100 ms step: closes windows and sends what is due. Called by the timer. */
  tick(): void {
    if (this.closed) return;
    try {
      this.step(++this.ticks);
    } catch (err) {
      console.error('perpdesk: ws tick failed', err);
    }
  }

  private step(n: number): void {
    const feeds = this.subs.feeds;
    if (feeds.size > 0 || this.out.heldCount > 0) {
      const E = this.eventTime();
      const wall = this.now();
      const depthDue = n % DEPTH_SNAPSHOT_EVERY === 0;
      const priceDue = n % PRICE_EVERY === 0;
      const out = this.out;
      out.beginTick();
      let due: Due[];
      try {
        // what the market-data latency held and is due by now goes first (it was built earlier)
        out.release();
        for (const f of feeds.values()) {
          // A failing stream must not stop the others, nor the timer (a throw here would be uncaught).
          try {
            if (f.depthUpdate !== null) this.sendDepthUpdate(f, f.depthUpdate, E);
            if (f.trade !== null && f.trades.length > 0) this.sendTrades(f, f.trade, E);
            if (depthDue) for (const s of f.depth) this.sendDepth(f, s, E);
            if (priceDue) pushPrice(out, f, E);
            for (const s of f.klines) this.sendKline(s, E, wall);
          } catch (err) {
            console.error(`perpdesk: ws streams of ${f.pair.row.symbol} failed`, err);
          }
        }
      } finally {
        due = out.endTick();
      }
      out.flushTick(due);
    }
    if (n % SWEEP_EVERY === 0) this.sweep();
  }

  /** Liveness: pings every pingIntervalMs, closes connections idle longer than idleTimeoutMs. */
  sweep(): void {
    this.stats.idleClosed += this.heartbeat.sweep(this.conns, this.now(), this.limits, (conn, code, reason, err) => {
      if (err !== undefined)
        console.error(`perpdesk: ws ping failed; that connection is closed (${INTERNAL_ERROR})`, err);
      this.drop(conn, code, reason);
    });
  }

  private sendDepthUpdate(f: SymbolFeed, s: Stream, E: number): void {
    const w = f.window.take(f.pair.book.updateId);
    if (w === null) return;
    this.out.broadcast(s, this.out.serialise(s.name, depthUpdatePayload(f.pair, w, E)));
  }

  /** depth@: a new snapshot when the book changed since the last one, else the last one to new subscribers. */
  private sendDepth(f: SymbolFeed, s: Stream, E: number): void {
    if (s.channel.kind !== 'depth') return;
    if (f.pair.book.updateId !== s.lastId || s.cached === null) {
      const data = depthSnapshotPayload(f.pair, s.channel.level, E);
      s.lastId = data.u;
      s.cached = this.out.serialise(s.name, data);
      this.out.broadcast(s, s.cached);
    } else if (s.fresh.size > 0) {
      this.out.sendFresh(s, s.cached);
    }
  }

  private sendTrades(f: SymbolFeed, s: Stream, E: number): void {
    const trades = f.trades;
    f.trades = [];
    this.out.broadcast(s, this.out.serialise(s.name, tradesPayload(f.pair, trades, E)));
  }

  /**
   * The current candle when it changed (at most every KLINE_THROTTLE_MS; never the same candle twice
   * running, so a quiet pair's streams stay quiet while its 1 s candles close). Every candle of this
   * interval that closed since the last push goes first, oldest first, each once in its final form
   * (isClosed true), so a client never keeps a closed candle as it was up to 250 ms before its end,
   * nor misses one when several close between two pushes (a fast clock, a replay step).
   */
  private sendKline(s: Stream, E: number, wall: number): void {
    const src = this.subs.klineSource;
    if (s.channel.kind !== 'kline' || src === null) return;
    const { symbol, interval } = s.channel;
    const out = this.out;
    if (s.dirty && wall - s.lastSentAt >= KLINE_THROTTLE_MS) {
      s.dirty = false;
      if (s.closedPending) this.sendClosed(s, src, E);
      const k = src.currentKline(symbol, interval);
      if (k === undefined) return;
      // unchanged (a 1 s candle closed, nothing traded): only to subscribers that have not had it
      if (s.cached !== null && s.lastK?.every((v, i) => v === k[i]) === true) {
        if (s.fresh.size > 0) out.sendFresh(s, s.cached);
        return;
      }
      s.lastSentAt = wall;
      s.lastK = [...k];
      s.cached = out.serialise(s.name, klinePayload(symbol, interval, k, E));
      out.broadcast(s, s.cached);
    } else if (s.fresh.size > 0 && s.cached !== null) {
      out.sendFresh(s, s.cached);
    }
  }

  /**
   * The candles of a kline stream that closed since it last pushed one, oldest first, read from
   * the candle service by open time from the stream's cursor: nothing is queued per stream or
   * subscriber, and a push carries what closed since the previous one, however many.
   */
  private sendClosed(s: Stream, src: KlineSource, E: number): void {
    if (s.channel.kind !== 'kline') return;
    const { symbol, interval } = s.channel;
    s.closedPending = false; // before the read: a close the read itself causes sets it again
    const closed = src.closedKlines(symbol, interval, s.closedFrom);
    if (closed.length === 0) return;
    const out = this.out;
    for (const k of closed) out.broadcast(s, out.serialise(s.name, klinePayload(symbol, interval, k, E)));
    s.closedFrom = closed[closed.length - 1][0] + 1;
  }
}
