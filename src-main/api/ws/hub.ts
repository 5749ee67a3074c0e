// The WebSocket hub behind /ws (DESIGN section 4): connections, subscriptions, the one timer
// that drives every stream, and fan-out.
//
// Protocol. Client messages are JSON text `{"method", "params", "id"}`; `id` is an integer or
// a string of at most 64 chars and comes back in the answer `{"id", "result"}` or
// `{"id", "error": {"code", "message"}}` (id null when the request could not be read).
//   SUBSCRIBE ["name", ...]       -> result null; all names valid or nothing subscribed
//   UNSUBSCRIBE ["name", ...]     -> result null; names not subscribed are ignored
//   LIST_SUBSCRIPTIONS            -> result ["name", ...] in subscription order
//   PING                          -> result "PONG"
//   LOGIN {api_key, timestamp, recv_window?, signature}  (or [that object])
//                                 -> result {user_id}; see login() for the signed text
// Pushes are `{"stream": name, "data": {...}}`; stream names and payloads: channels.ts and the
// builders below. Cadence on the 100 ms tick: depth_update@ and trade@ (an array, oldest first)
// on every tick that has changes or trades; depth@ every 2nd tick when the book changed, and its
// last snapshot once to each new subscriber; price@ every 10th tick; kline@ on change, at most
// every 250 ms. `E` is market time (the venue clock), ms.
//
// Invariants and limits:
// - Every push is serialised and framed once per stream per tick (frame.ts) and the same
//   framed Buffer is written to every subscriber's socket: per subscriber the fan-out costs a
//   few checks and one socket write, no allocation and no copy. Only answers are serialised
//   per client (and go through `ws`).
// - A tick builds all its messages first, then writes them in build order; when it has
//   several, each connection gets them in one write (corked), since the kernel's per-write
//   cost is most of a fan-out's. Subscriptions cannot change between build and write (both
//   run in one synchronous step).
// - One interval timer (TICK_MS = 100 ms) drives every stream; close() stops it and closes
//   every connection, so a service shuts down cleanly.
// - depth_update@ events are contiguous windows of the book's update ids (depth-feed.ts): each
//   event's U is the previous event's u + 1 and `pu` = U - 1. A stream records only while it has
//   subscribers; a new stream starts from the book's id at the moment of the SUBSCRIBE, before
//   the answer is sent, so a snapshot fetched after the answer always joins the events.
// - At most `maxSubscriptions` (200) streams per connection; a SUBSCRIBE that would exceed it
//   is refused whole (4290).
// - A connection whose unsent bytes exceed `maxBufferedBytes` (4 MiB) when a push is due is
//   closed with 1008 "slow consumer" and gets nothing more: server memory per connection stays
//   below the bound plus one message.
// - Liveness: the hub sends a protocol ping every `pingIntervalMs` (20 s); a connection with no
//   client message and no pong for `idleTimeoutMs` (60 s) is closed with 1001 "idle timeout".
// - More than `maxMessagesPerSecond` (100) client messages in a 1 s window close the connection
//   with 1008 (a runaway client costs one close, not an answer per message).
// - A failing request or stream is logged and isolated: never an uncaught exception.
// - The user channel carries the logged-in account's exchange 'account' events only; the hub
//   listens to account events only while someone is subscribed to it (the exchange skips
//   building them otherwise).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { Errors, type ErrorDef } from '../../../src-shared/errors.ts';
import { formatNumber } from '../../../src-shared/decimal.ts';
import type { Interval } from '../../../src-shared/intervals.ts';
import type { Candle, DepthSnapshotEvent, DepthUpdateEvent } from '../../../src-shared/types.ts';
import { DEPTH_SNAPSHOT_EVENT, DEPTH_UPDATE_EVENT } from '../../../src-shared/types.ts';
import type { Account } from '../../core/account.ts';
import type { PairState } from '../../trading/exchange.ts';
import type { AccountEvent, LevelEvent, TradeEvent } from '../../trading/events.ts';
import type { Venue } from '../../venue.ts';
import { DEFAULT_RECV_WINDOW, MAX_RECV_WINDOW, timestampError } from '../auth.ts';
import { parseStream, type Channel } from './channels.ts';
import { DepthWindow, toPriceLevels } from './depth-feed.ts';
import { rawSocket, textFrame, type TextFrame } from './frame.ts';

export const TICK_MS = 100;
const DEPTH_SNAPSHOT_EVERY = 2; // ticks: 200 ms
const PRICE_EVERY = 10; // ticks: 1 s
const SWEEP_EVERY = 10; // ticks: liveness check once a second
/** Least time between two pushes of one kline stream, ms. */
export const KLINE_THROTTLE_MS = 250;
const MAX_ID_LENGTH = 64;
const WS_OPEN = 1;

export const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'PING', 'LOGIN'] as const;

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

/** Close codes the hub uses. */
export const CloseCode = { GoingAway: 1001, Policy: 1008 } as const;

/**
 * What the kline channel needs from the candle service (market/kline-service.ts's KlineService
 * fits): the current candle in wire form, the latest candles, and a change notification.
 */
export interface KlineSource {
  /** The current (unclosed) candle of (symbol, interval) in wire form; undefined before any trade. */
  currentKline(symbol: string, interval: Interval): Candle | undefined;
  /** The latest `limit` candles in wire form, newest first, the current one included. */
  klines(symbol: string, interval: Interval, query: { limit: number }): Candle[];
  /** Calls the listener after a symbol's candles changed, with the candles that closed; returns the remover. */
  onCandle(listener: (symbol: string, closed: readonly { readonly interval: string }[]) => void): () => void;
}

export interface HubOptions {
  venue: Venue;
  /** API key look-up for LOGIN (auth.ts's AccountCache). */
  accounts: { byKey(apiKey: string): Account | undefined };
  /** The bot whitelist: who may subscribe to the `bot` stream (cached bot orders). */
  whitelist?: { has(ip: string): boolean };
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

class Conn {
  readonly socket: WebSocket;
  /** The TCP socket under `socket`, for pre-framed pushes; null: pushes go through `ws`. */
  readonly raw: Duplex | null;
  readonly ip: string;
  /** Subscribed stream names, in subscription order. */
  readonly names = new Set<string>();
  accountId: number | null = null;
  lastSeen: number;
  closed = false;
  /** Start of the current rate window (wall ms) and messages in it. */
  windowStart = 0;
  windowCount = 0;
  /** Test hook: pushes of these streams to skip (count left). */
  drops: Map<string, number> | null = null;
  /** The batched flush that last corked `raw` (Hub.flushTick). */
  corkedIn = 0;

  constructor(socket: WebSocket, ip: string, now: number, upgraded: unknown) {
    this.socket = socket;
    this.raw = rawSocket(socket, upgraded);
    this.ip = ip;
    this.lastSeen = now;
  }
}

class Stream {
  readonly name: string;
  readonly channel: Channel;
  readonly subs = new Set<Conn>();
  /** Subscribers that have not had their first push (depth@, kline). */
  readonly fresh = new Set<Conn>();
  /** Last message sent (depth@, kline), resent to fresh subscribers when nothing changed. */
  cached: TextFrame | null = null;
  /** depth@: book update id of the last push (-1: none). */
  lastId = -1;
  /** kline: a change is waiting; a candle of this interval closed since the last push; wall time of the last push. */
  dirty = true;
  closedPending = false;
  lastSentAt = -Infinity;

  constructor(name: string, channel: Channel) {
    this.name = name;
    this.channel = channel;
  }
}

/** Streams of one symbol with subscribers, and that symbol's pending depth window and trades. */
class SymbolFeed {
  readonly pair: PairState;
  readonly window = new DepthWindow();
  depthUpdate: Stream | null = null;
  trade: Stream | null = null;
  price: Stream | null = null;
  readonly depth = new Set<Stream>();
  readonly klines = new Set<Stream>();
  trades: TradeEvent[] = [];

  constructor(pair: PairState) {
    this.pair = pair;
  }

  get empty(): boolean {
    return this.depthUpdate === null && this.trade === null && this.price === null && this.depth.size === 0 && this.klines.size === 0;
  }
}

/** One fan-out of a tick, written after every message of the tick is built. */
interface Due {
  readonly conns: Iterable<Conn>;
  readonly stream: string;
  readonly frame: TextFrame;
}

type Reply = { id: number | string | null; result: unknown } | { id: number | string | null; error: { code: number; message: string } };

function errorReply(id: number | string | null, def: ErrorDef, message?: string): Reply {
  return { id, error: { code: def.code, message: message ?? def.message } };
}

const HEX64 = /^[0-9a-f]{64}$/;
/** LOGIN parameters and their JSON types; any other key is refused (1003), as on REST. */
const LOGIN_PARAMS = { api_key: 'string', timestamp: 'integer', recv_window: 'integer', signature: 'string' } as const;
const DIGITS = /^\d{1,15}$/;

export class Hub {
  readonly limits: HubLimits;
  /** Wall clock for liveness and LOGIN; replaceable by tests. */
  now: () => number;
  private readonly venue: Venue;
  private readonly accounts: HubOptions['accounts'];
  private readonly eventTime: () => number;
  private readonly klineLookup: () => KlineSource | undefined;
  /** The candle service while kline streams exist, and its listener's remover. */
  private klineSource: KlineSource | null = null;
  private offKlines: (() => void) | null = null;
  private klineStreams = 0;
  private readonly conns = new Set<Conn>();
  private readonly streams = new Map<string, Stream>();
  private readonly feeds = new Map<string, SymbolFeed>();
  private readonly users = new Map<number, Set<Conn>>();
  private userSubscribers = 0;
  private offAccount: (() => void) | null = null;
  private readonly offEvents: Array<() => void> = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticks = 0;
  /** While a tick builds its messages: their fan-outs, in order (null: send at once). */
  private due: Due[] | null = null;
  private flushes = 0;
  private lastPingAt: number;
  private closed = false;
  private readonly whitelist: { has(ip: string): boolean } | null;
  /** Connections on the `bot` stream: the house account's (engine account 0 events) cached bot orders. */
  private readonly botConns = new Set<Conn>();
  readonly stats: HubStats = { connections: 0, pushes: 0, pushBytes: 0, messages: 0, slowConsumersClosed: 0, idleClosed: 0 };

  constructor(opts: HubOptions) {
    this.venue = opts.venue;
    this.accounts = opts.accounts;
    this.whitelist = opts.whitelist ?? null;
    this.now = opts.now ?? Date.now;
    this.eventTime = opts.eventTime ?? (() => opts.venue.clock.now());
    this.limits = { ...DEFAULT_HUB_LIMITS, ...opts.limits };
    const k = opts.klines;
    this.klineLookup = typeof k === 'function' ? k : () => k;
    this.lastPingAt = this.now();
    const events = this.venue.exchange.events;
    this.offEvents.push(events.on('level', (e) => this.onLevel(e)));
    this.offEvents.push(events.on('trade', (e) => this.onTrade(e)));
    if (opts.autoStart !== false) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  /** The stream pushes are written to for this connection (null: they go through `ws`); for tests and diagnostics. */
  rawStreamOf(socket: WebSocket): Duplex | null {
    for (const c of this.conns) if (c.socket === socket) return c.raw;
    return null;
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
    conn.closed = true;
    this.stats.connections = this.conns.size;
    for (const name of [...conn.names]) this.removeSub(conn, name);
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
    for (const off of this.offEvents) off();
    this.offEvents.length = 0;
    this.offAccount?.();
    this.offAccount = null;
    this.offKlines?.();
    this.offKlines = null;
    for (const conn of [...this.conns]) this.drop(conn, CloseCode.GoingAway, 'server shutting down');
  }

  // ------------------------------------------------------------------ requests

  private reply(conn: Conn, r: Reply): void {
    if (conn.closed || conn.socket.readyState !== WS_OPEN) return;
    conn.socket.send(JSON.stringify(r));
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    if (conn.closed) return;
    const now = this.now();
    conn.lastSeen = now;
    if (now - conn.windowStart >= 1000) {
      conn.windowStart = now;
      conn.windowCount = 0;
    }
    if (++conn.windowCount > this.limits.maxMessagesPerSecond) {
      return this.drop(conn, CloseCode.Policy, `too many messages: at most ${this.limits.maxMessagesPerSecond} per second`);
    }
    try {
      this.handle(conn, data, isBinary);
    } catch (err) {
      // A bug must cost one answer, never the process (a throw here would be uncaught).
      console.error('perpdesk: ws request failed', err);
      this.reply(conn, errorReply(null, Errors.INTERNAL));
    }
  }

  private handle(conn: Conn, data: RawData, isBinary: boolean): void {
    if (isBinary) return this.reply(conn, errorReply(null, Errors.BAD_REQUEST, 'Binary frames are not accepted: send JSON text'));
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.reply(conn, errorReply(null, Errors.INVALID_JSON, 'Message is not valid JSON; send {"method":...,"params":[...],"id":n}'));
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      return this.reply(conn, errorReply(null, Errors.BAD_REQUEST, 'Message must be a JSON object {"method":...,"params":[...],"id":n}'));
    }
    const m = msg as { method?: unknown; params?: unknown; id?: unknown };
    const id = m.id;
    const idOk = (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.length <= MAX_ID_LENGTH);
    if (!idOk) {
      return this.reply(conn, errorReply(null, Errors.BAD_REQUEST, `"id" must be an integer or a string of at most ${MAX_ID_LENGTH} characters`));
    }
    const rid = id as number | string;
    let r: Reply;
    switch (m.method) {
      case 'SUBSCRIBE':
        r = this.subscribe(conn, rid, m.params);
        break;
      case 'UNSUBSCRIBE':
        r = this.unsubscribe(conn, rid, m.params);
        break;
      case 'LIST_SUBSCRIPTIONS':
        r = { id: rid, result: [...conn.names] };
        break;
      case 'PING':
        r = { id: rid, result: 'PONG' };
        break;
      case 'LOGIN':
        r = this.login(conn, rid, m.params);
        break;
      default: {
        const shown = typeof m.method === 'string' ? `'${m.method.slice(0, 32)}'` : m.method === undefined ? 'missing' : 'not a string';
        r = errorReply(rid, Errors.METHOD_NOT_ALLOWED, `Unknown method (${shown}); methods are ${METHODS.join(', ')}`);
      }
    }
    this.reply(conn, r);
  }

  private streamNames(id: number | string, params: unknown, method: string): string[] | Reply {
    if (!Array.isArray(params) || params.length === 0) {
      return errorReply(id, Errors.BAD_REQUEST, `${method} takes "params": a non-empty array of stream names`);
    }
    return params as string[];
  }

  private subscribe(conn: Conn, id: number | string, params: unknown): Reply {
    const names = this.streamNames(id, params, 'SUBSCRIBE');
    if (!Array.isArray(names)) return names;
    const wanted: Array<{ name: string; channel: Channel }> = [];
    const seen = new Set<string>();
    for (const name of names) {
      const p = parseStream(name, (s) => this.venue.exchange.pairs.has(s));
      if (!p.ok) return errorReply(id, p.error, p.message);
      if (p.channel.kind === 'user' && conn.accountId === null) {
        return errorReply(id, Errors.API_KEY_MISSING, "Subscribe to 'user' after a successful LOGIN");
      }
      if (p.channel.kind === 'bot' && !(this.whitelist?.has(conn.ip) ?? false)) {
        return errorReply(id, Errors.IP_NOT_WHITELISTED, `The 'bot' stream is for IPs on the bot whitelist; ${conn.ip} is not`);
      }
      if (p.channel.kind === 'kline' && this.klineSource === null && this.klineLookup() === undefined) {
        return errorReply(id, Errors.SERVICE_UNAVAILABLE, 'kline streams are not available on this service');
      }
      if (conn.names.has(name) || seen.has(name)) continue;
      seen.add(name);
      wanted.push({ name, channel: p.channel });
    }
    if (conn.names.size + wanted.length > this.limits.maxSubscriptions) {
      return errorReply(
        id,
        Errors.RATE_LIMITED,
        `Too many subscriptions: at most ${this.limits.maxSubscriptions} streams per connection (subscribed ${conn.names.size}, asked for ${wanted.length} more)`,
      );
    }
    for (const w of wanted) this.addSub(conn, w.name, w.channel);
    return { id, result: null };
  }

  private unsubscribe(conn: Conn, id: number | string, params: unknown): Reply {
    const names = this.streamNames(id, params, 'UNSUBSCRIBE');
    if (!Array.isArray(names)) return names;
    for (const name of names) {
      if (typeof name !== 'string') return errorReply(id, Errors.BAD_REQUEST, 'UNSUBSCRIBE takes stream names (strings)');
    }
    for (const name of names) if (conn.names.has(name)) this.removeSub(conn, name);
    return { id, result: null };
  }

  /**
   * LOGIN params: `{api_key, timestamp, recv_window?, signature}` (or an array holding that
   * object). Signed text: `api_key={api_key}&timestamp={timestamp}`, followed by
   * `&recv_window={recv_window}` when given; signature = lowercase hex HMAC-SHA256(secret,
   * text). Parameter rules as a REST body: no other keys (1003), timestamp and recv_window JSON
   * integers, api_key and signature strings (1001). Time rules as signed REST requests
   * (wall clock): accepted when timestamp < now + 1000 and now - timestamp <= recv_window
   * (default 5000, 1..60000). A failed LOGIN leaves an earlier
   * login in place; a successful one replaces it (the user stream follows the new account).
   */
  private login(conn: Conn, id: number | string, params: unknown): Reply {
    const p = (Array.isArray(params) && params.length === 1 ? params[0] : params) as Record<string, unknown> | null;
    if (typeof p !== 'object' || p === null || Array.isArray(p)) {
      return errorReply(id, Errors.BAD_REQUEST, 'LOGIN takes "params": {"api_key","timestamp","recv_window"?,"signature"}');
    }
    // The same shape rules as a REST body: unknown parameters 1003, wrong JSON types 1001.
    for (const key of Object.keys(p)) {
      const type = Object.hasOwn(LOGIN_PARAMS, key) ? LOGIN_PARAMS[key as keyof typeof LOGIN_PARAMS] : undefined;
      if (type === undefined) {
        return errorReply(id, Errors.UNKNOWN_PARAMETER, `Unknown LOGIN parameter '${key.slice(0, 32)}'; LOGIN params are ${Object.keys(LOGIN_PARAMS).join(', ')}`);
      }
      const v = p[key];
      if (type === 'integer' ? !(typeof v === 'number' && Number.isInteger(v)) : typeof v !== 'string') {
        return errorReply(id, Errors.INVALID_PARAMETER, `Invalid LOGIN parameter '${key}': must be a JSON ${type}`);
      }
    }
    const apiKey = p.api_key;
    if (typeof apiKey !== 'string' || apiKey === '') return errorReply(id, Errors.API_KEY_MISSING, 'LOGIN params need api_key');
    const account = apiKey.length <= 256 ? this.accounts.byKey(apiKey) : undefined;
    if (account === undefined) return errorReply(id, Errors.API_KEY_UNKNOWN);
    const signature = p.signature;
    if (typeof signature !== 'string' || signature === '') return errorReply(id, Errors.SIGNATURE_MISSING, 'LOGIN params need signature');
    // Both are JSON integers here (checked above); the signed text spells them as JSON does.
    const tsText = p.timestamp === undefined ? undefined : String(p.timestamp);
    if (tsText === undefined || !DIGITS.test(tsText)) {
      return errorReply(id, Errors.TIMESTAMP_MISSING, 'LOGIN params need timestamp: a non-negative integer of ms');
    }
    let rwText: string | undefined;
    let recvWindow = DEFAULT_RECV_WINDOW;
    if (p.recv_window !== undefined) {
      rwText = String(p.recv_window);
      recvWindow = DIGITS.test(rwText) ? Number(rwText) : NaN;
      if (!(recvWindow >= 1 && recvWindow <= MAX_RECV_WINDOW)) return errorReply(id, Errors.RECV_WINDOW_INVALID);
    }
    const late = timestampError(Number(tsText), this.now(), recvWindow);
    if (late !== null) return errorReply(id, late.def, late.message);
    const payload = `api_key=${apiKey}&timestamp=${tsText}` + (rwText === undefined ? '' : `&recv_window=${rwText}`);
    const expected = createHmac('sha256', account.apiSecret).update(payload).digest('hex');
    if (!HEX64.test(signature) || !timingSafeEqual(Buffer.from(signature, 'latin1'), Buffer.from(expected, 'latin1'))) {
      return errorReply(
        id,
        Errors.SIGNATURE_INVALID,
        `${Errors.SIGNATURE_INVALID.message}: expected 64 lowercase hex chars of HMAC-SHA256(secret, "api_key=...&timestamp=..." [+ "&recv_window=..."])`,
      );
    }
    if (conn.accountId !== account.id && conn.names.has('user')) {
      this.removeUser(conn);
      conn.accountId = account.id;
      this.addUser(conn);
    }
    conn.accountId = account.id;
    return { id, result: { user_id: account.id } };
  }

  // ------------------------------------------------------------------ subscriptions

  private feed(symbol: string): SymbolFeed {
    let f = this.feeds.get(symbol);
    if (f === undefined) {
      f = new SymbolFeed(this.venue.exchange.pairs.get(symbol)!);
      this.feeds.set(symbol, f);
    }
    return f;
  }

  private addSub(conn: Conn, name: string, channel: Channel): void {
    conn.names.add(name);
    if (channel.kind === 'user') {
      this.addUser(conn);
      return;
    }
    if (channel.kind === 'bot') {
      if (this.botConns.has(conn)) return;
      this.botConns.add(conn);
      this.accountListenerAdded();
      return;
    }
    let s = this.streams.get(name);
    if (s === undefined) {
      s = new Stream(name, channel);
      this.streams.set(name, s);
      const f = this.feed(channel.symbol);
      switch (channel.kind) {
        case 'depth_update':
          f.depthUpdate = s;
          f.window.start(f.pair.book.updateId);
          break;
        case 'depth':
          f.depth.add(s);
          break;
        case 'trade':
          f.trade = s;
          f.trades = [];
          break;
        case 'price':
          f.price = s;
          break;
        case 'kline':
          f.klines.add(s);
          this.klineStreamAdded();
          break;
      }
    }
    s.subs.add(conn);
    s.fresh.add(conn);
  }

  private removeSub(conn: Conn, name: string): void {
    conn.names.delete(name);
    if (name === 'user') {
      this.removeUser(conn);
      return;
    }
    if (name === 'bot') {
      if (this.botConns.delete(conn)) this.accountListenerRemoved();
      return;
    }
    const s = this.streams.get(name);
    if (s === undefined) return;
    s.subs.delete(conn);
    s.fresh.delete(conn);
    if (s.subs.size > 0) return;
    this.streams.delete(name);
    const ch = s.channel;
    if (ch.kind === 'user' || ch.kind === 'bot') return;
    const f = this.feeds.get(ch.symbol);
    if (f === undefined) return;
    switch (ch.kind) {
      case 'depth_update':
        f.depthUpdate = null;
        f.window.stop();
        break;
      case 'depth':
        f.depth.delete(s);
        break;
      case 'trade':
        f.trade = null;
        f.trades = [];
        break;
      case 'price':
        f.price = null;
        break;
      case 'kline':
        f.klines.delete(s);
        this.klineStreamRemoved();
        break;
    }
    if (f.empty) this.feeds.delete(ch.symbol);
  }

  private addUser(conn: Conn): void {
    const id = conn.accountId;
    if (id === null) return;
    let set = this.users.get(id);
    if (set === undefined) this.users.set(id, (set = new Set()));
    if (set.has(conn)) return;
    set.add(conn);
    this.accountListenerAdded();
  }

  private accountListenerAdded(): void {
    if (this.userSubscribers++ === 0 && !this.closed) {
      this.offAccount = this.venue.exchange.events.on('account', (e) => this.onAccount(e));
    }
  }

  private accountListenerRemoved(): void {
    if (--this.userSubscribers === 0) {
      this.offAccount?.();
      this.offAccount = null;
    }
  }

  private removeUser(conn: Conn): void {
    const id = conn.accountId;
    if (id === null) return;
    const set = this.users.get(id);
    if (set === undefined || !set.delete(conn)) return;
    if (set.size === 0) this.users.delete(id);
    this.accountListenerRemoved();
  }

  // ------------------------------------------------------------------ exchange events

  private onLevel(e: LevelEvent): void {
    const f = this.feeds.get(e.symbol);
    if (f !== undefined) f.window.add(e.updateId, e.side, e.priceTicks, e.totalLots);
  }

  private onTrade(e: TradeEvent): void {
    const f = this.feeds.get(e.symbol);
    if (f !== undefined && f.trade !== null) f.trades.push(e);
  }

  private onAccount(e: AccountEvent): void {
    if (e.accountId === 0) {
      // the house: cached bot orders (user accounts have ids >= 1)
      if (this.botConns.size === 0) return;
      const buf = this.serialise('bot', { kind: e.kind, data: e.data });
      for (const conn of this.botConns) this.push(conn, 'bot', buf);
      return;
    }
    const set = this.users.get(e.accountId);
    if (set === undefined) return;
    const buf = this.serialise('user', { kind: e.kind, data: e.data });
    for (const conn of set) this.push(conn, 'user', buf);
  }

  private klineStreamAdded(): void {
    if (this.klineStreams++ > 0 || this.closed) return;
    const src = this.klineLookup();
    if (src === undefined) return;
    this.klineSource = src;
    this.offKlines = src.onCandle((symbol, closed) => this.onKlineChange(symbol, closed));
  }

  private klineStreamRemoved(): void {
    if (--this.klineStreams > 0) return;
    this.offKlines?.();
    this.offKlines = null;
    this.klineSource = null;
  }

  private onKlineChange(symbol: string, closed: readonly { readonly interval: string }[]): void {
    const f = this.feeds.get(symbol);
    if (f === undefined) return;
    for (const s of f.klines) {
      s.dirty = true;
      if (closed.length > 0 && s.channel.kind === 'kline') {
        const interval = s.channel.interval;
        if (closed.some((c) => c.interval === interval)) s.closedPending = true;
      }
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
    if (this.feeds.size > 0) {
      const E = this.eventTime();
      const wall = this.now();
      const depthDue = n % DEPTH_SNAPSHOT_EVERY === 0;
      const priceDue = n % PRICE_EVERY === 0;
      const due: Due[] = (this.due = []);
      try {
        for (const f of this.feeds.values()) {
          // A failing stream must not stop the others, nor the timer (a throw here would be uncaught).
          try {
            if (f.depthUpdate !== null) this.sendDepthUpdate(f, f.depthUpdate, E);
            if (f.trade !== null && f.trades.length > 0) this.sendTrades(f, f.trade, E);
            if (depthDue) for (const s of f.depth) this.sendDepth(f, s, E);
            if (priceDue && f.price !== null) this.sendPrice(f, f.price, E);
            for (const s of f.klines) this.sendKline(f, s, E, wall);
          } catch (err) {
            console.error(`perpdesk: ws streams of ${f.pair.row.symbol} failed`, err);
          }
        }
      } finally {
        this.due = null;
      }
      this.flushTick(due);
    }
    if (n % SWEEP_EVERY === 0) this.sweep();
  }

  /** Liveness: pings every pingIntervalMs, closes connections idle longer than idleTimeoutMs. */
  sweep(): void {
    const now = this.now();
    const ping = now - this.lastPingAt >= this.limits.pingIntervalMs;
    if (ping) this.lastPingAt = now;
    for (const conn of [...this.conns]) {
      if (now - conn.lastSeen > this.limits.idleTimeoutMs) {
        this.stats.idleClosed++;
        this.drop(conn, CloseCode.GoingAway, `idle timeout: no message or pong for ${this.limits.idleTimeoutMs} ms`);
      } else if (ping && conn.socket.readyState === WS_OPEN) {
        conn.socket.ping();
      }
    }
  }

  private sendDepthUpdate(f: SymbolFeed, s: Stream, E: number): void {
    const w = f.window.take();
    if (w === null) return;
    const m = f.pair.math;
    const data: DepthUpdateEvent = {
      e: DEPTH_UPDATE_EVENT,
      E,
      s: f.pair.row.symbol,
      U: w.U,
      u: w.u,
      pu: w.pu,
      b: toPriceLevels(m, w.bids),
      a: toPriceLevels(m, w.asks),
    };
    this.broadcast(s, this.serialise(s.name, data));
  }

  private sendDepth(f: SymbolFeed, s: Stream, E: number): void {
    if (s.channel.kind !== 'depth') return;
    const book = f.pair.book;
    if (book.updateId !== s.lastId || s.cached === null) {
      const view = book.depth(s.channel.level);
      const data: DepthSnapshotEvent = {
        e: DEPTH_SNAPSHOT_EVENT,
        E,
        s: f.pair.row.symbol,
        u: view.updateId,
        bids: toPriceLevels(f.pair.math, view.bids),
        asks: toPriceLevels(f.pair.math, view.asks),
      };
      s.lastId = view.updateId;
      s.cached = this.serialise(s.name, data);
      this.broadcast(s, s.cached);
    } else if (s.fresh.size > 0) {
      this.sendFresh(s, s.cached);
    }
  }

  private sendTrades(f: SymbolFeed, s: Stream, E: number): void {
    const trades = f.trades;
    f.trades = [];
    const m = f.pair.math;
    const symbol = f.pair.row.symbol;
    const data = trades.map((t) => ({
      e: 'trade',
      E,
      s: symbol,
      t: t.tradeId,
      p: m.formatPrice(t.priceTicks),
      q: m.formatQty(t.qtyLots),
      T: t.time,
      S: t.takerSide,
      m: t.takerSide === 2,
    }));
    this.broadcast(s, this.serialise(s.name, data));
  }

  private sendPrice(f: SymbolFeed, s: Stream, E: number): void {
    const p = f.pair;
    const precision = p.row.pricePrecision;
    const num = (x: number, d: number): string => (Number.isFinite(x) ? formatNumber(x, d) : '0');
    const data = {
      e: 'price',
      E,
      s: p.row.symbol,
      i: num(p.indexPrice, precision),
      m: num(p.markPrice, precision),
      l: p.math.formatPrice(p.lastPriceTicks),
      r: num(p.fundingRate, 6),
      T: p.nextFundingTime,
    };
    this.broadcast(s, this.serialise(s.name, data));
  }

  /**
   * The current candle when it changed (at most every KLINE_THROTTLE_MS). When a candle of this
   * interval closed since the last push, its final form (isClosed true) goes first, so a client
   * never keeps a closed candle as it was up to 250 ms before its end.
   */
  private sendKline(f: SymbolFeed, s: Stream, E: number, wall: number): void {
    const src = this.klineSource;
    if (s.channel.kind !== 'kline' || src === null) return;
    const { symbol, interval } = s.channel;
    if (s.dirty && wall - s.lastSentAt >= KLINE_THROTTLE_MS) {
      s.dirty = false;
      s.lastSentAt = wall;
      if (s.closedPending) {
        s.closedPending = false;
        const last = src.klines(symbol, interval, { limit: 2 }).find((c) => c[11] === true);
        if (last !== undefined) this.broadcast(s, this.serialise(s.name, { e: 'kline', E, s: symbol, i: interval, k: last }));
      }
      const k = src.currentKline(symbol, interval);
      if (k === undefined) return;
      s.cached = this.serialise(s.name, { e: 'kline', E, s: symbol, i: interval, k });
      this.broadcast(s, s.cached);
    } else if (s.fresh.size > 0 && s.cached !== null) {
      this.sendFresh(s, s.cached);
    }
  }

  // ------------------------------------------------------------------ fan-out

  private serialise(stream: string, data: unknown): TextFrame {
    this.stats.messages++;
    return textFrame(JSON.stringify({ stream, data }));
  }

  private broadcast(s: Stream, frame: TextFrame): void {
    if (s.fresh.size > 0) s.fresh.clear();
    this.fanOut(s.subs, s.name, frame);
  }

  private sendFresh(s: Stream, frame: TextFrame): void {
    const conns = [...s.fresh];
    s.fresh.clear();
    this.fanOut(conns, s.name, frame);
  }

  /** Sends now, or, inside a tick, queues for flushTick (subscriptions cannot change meanwhile). */
  private fanOut(conns: Iterable<Conn>, stream: string, frame: TextFrame): void {
    if (this.due !== null) this.due.push({ conns, stream, frame });
    else for (const conn of conns) this.push(conn, stream, frame);
  }

  /**
   * Writes a tick's messages. One message (the common case) goes straight out, one write per
   * subscriber. With several, every connection that gets one is corked until all are written,
   * so a connection on several streams gets one write (one syscall) per tick instead of one
   * per stream: the kernel's per-write cost dominates a fan-out on loopback.
   */
  private flushTick(due: readonly Due[]): void {
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

  /** The per-subscriber step of every fan-out: keep it free of allocation and serialisation. */
  private push(conn: Conn, stream: string, frame: TextFrame): void {
    if (conn.closed) return;
    const socket = conn.socket;
    if (socket.readyState !== WS_OPEN) return;
    const raw = conn.raw;
    if (raw !== null && raw.destroyed) return; // the close event follows
    // Unsent bytes: the stream's queue holds both the raw pushes and what `ws` wrote.
    const unsent = raw !== null ? raw.writableLength : socket.bufferedAmount;
    if (unsent > this.limits.maxBufferedBytes) {
      this.stats.slowConsumersClosed++;
      this.drop(conn, CloseCode.Policy, `slow consumer: more than ${this.limits.maxBufferedBytes} bytes unsent`);
      return;
    }
    if (conn.drops !== null && this.skipForTest(conn, stream)) return;
    this.stats.pushes++;
    this.stats.pushBytes += frame.payload.length;
    if (raw !== null) raw.write(frame.bytes);
    else socket.send(frame.payload, { binary: false });
  }

  // ------------------------------------------------------------------ test hooks

  private skipForTest(conn: Conn, stream: string): boolean {
    const left = conn.drops!.get(stream);
    if (left === undefined) return false;
    if (left <= 1) conn.drops!.delete(stream);
    else conn.drops!.set(stream, left - 1);
    if (conn.drops!.size === 0) conn.drops = null;
    return true;
  }

  /**
   * Test hook: the next `count` pushes of `stream` are silently not sent to its current
   * subscribers (simulates lost messages, e.g. to provoke a depth gap).
   */
  dropNextPushes(stream: string, count = 1): number {
    const s = stream === 'user' ? null : this.streams.get(stream);
    const targets = s ? [...s.subs] : [...this.conns].filter((c) => c.names.has(stream));
    for (const conn of targets) (conn.drops ??= new Map()).set(stream, count);
    return targets.length;
  }

  /**
   * Sends `data` on `stream` to its subscribers now, through the normal fan-out (serialised
   * once, slow-consumer check). For producers outside the built-in channels and for tests.
   */
  publish(stream: string, data: unknown): void {
    const s = this.streams.get(stream);
    if (s === undefined) return;
    this.broadcast(s, this.serialise(stream, data));
  }
}
