// Who is subscribed to what on /ws, and the exchange listeners that feed the streams.
//
// Invariants:
// - A Stream exists exactly while it has subscribers, a SymbolFeed while one of its streams
//   exists; a depth_update@ stream records its window only while it exists, starting from the
//   book's update id at the SUBSCRIBE (before the answer is sent, so a snapshot fetched after
//   the answer always joins the events).
// - A SUBSCRIBE is all or nothing: every name is checked before any is added, and one that
//   would take the connection past `maxSubscriptions` is refused whole (4290).
// - The user channel carries the logged-in account's exchange 'account' events only; the
//   'account' listener (and the candle service's) is registered only while someone is
//   subscribed to it (the exchange skips building those events otherwise).
import { Errors } from '../../../src-shared/errors.ts';
import type { AccountEvent, LevelEvent, TradeEvent } from '../../trading/events.ts';
import type { Venue } from '../../services/venue.ts';
import { parseStream, type Channel } from './channels.ts';
import { Stream, SymbolFeed, type Conn } from './conn.ts';
import type { FanOut } from './fan-out.ts';
import { botStreamEndedEvent } from './login.ts';
import type { Candle } from '../../../src-shared/types.ts';
import type { Interval } from '../../../src-shared/intervals.ts';
import { errorReply, streamNames, type Reply, type RequestId } from './protocol.ts';

export interface SubscriptionDeps {
  venue: Venue;
  /** The hub's limits, read at each SUBSCRIBE (tests may change them). */
  limits: { readonly maxSubscriptions: number };
  whitelist: { has(ip: string): boolean; onChange?(listener: () => void): () => void } | null;
  klineLookup: () => KlineSource | undefined;
  out: FanOut;
}

/**
 * What the kline channel needs from the candle service (market/kline-service.ts's KlineService
 * fits): the current candle in wire form, the latest candles, the closed ones from an open time
 * on, and a change notification.
 */
export interface KlineSource {
  /** The current (unclosed) candle of (symbol, interval) in wire form; undefined before any trade. */
  currentKline(symbol: string, interval: Interval): Candle | undefined;
  /** The latest `limit` candles in wire form, newest first, the current one included. */
  klines(symbol: string, interval: Interval, query: { limit: number }): Candle[];
  /** The closed candles with open time >= fromOpen in wire form, oldest first. */
  closedKlines(symbol: string, interval: Interval, fromOpen: number): Candle[];
  /** Calls the listener after a symbol's candles changed, with the candles that closed; returns the remover. */
  onCandle(listener: (symbol: string, closed: readonly { readonly interval: string }[]) => void): () => void;
}

/** A connection's streams and login at one moment (Subscriptions.stateOf). */
export interface ConnState {
  readonly names: ReadonlySet<string>;
  readonly accountId: number | null;
  readonly loginKey: string | null;
}

export class Subscriptions {
  private readonly venue: Venue;
  private readonly limits: SubscriptionDeps['limits'];
  private readonly whitelist: SubscriptionDeps['whitelist'];
  private readonly klineLookup: () => KlineSource | undefined;
  private readonly out: FanOut;
  /** The candle service while kline streams exist, and its listener's remover. */
  private source: KlineSource | null = null;
  private offKlines: (() => void) | null = null;
  private klineStreams = 0;
  private readonly streams = new Map<string, Stream>();
  /** Symbols with streams, for the tick. */
  readonly feeds = new Map<string, SymbolFeed>();
  private readonly users = new Map<number, Set<Conn>>();
  private userSubscribers = 0;
  private offAccount: (() => void) | null = null;
  private readonly offEvents: Array<() => void> = [];
  /** Connections on the `bot` stream: the house account's (engine account 0 events) cached bot orders. */
  private readonly botConns = new Set<Conn>();
  /** Connections on the `replay` stream (a replay venue's status). */
  private readonly replayConns = new Set<Conn>();
  private offReplay: (() => void) | null = null;
  private readonly offWhitelist: () => void;
  private closed = false;

  constructor(deps: SubscriptionDeps) {
    this.venue = deps.venue;
    this.limits = deps.limits;
    this.whitelist = deps.whitelist;
    this.klineLookup = deps.klineLookup;
    this.out = deps.out;
    this.offWhitelist = deps.whitelist?.onChange?.(() => this.endBotStreams()) ?? (() => {});
  }

  /**
   * The exchange's level and trade listeners exist while some pair has a feed (the first
   * subscription of a pair attaches them, in the same turn as its feed starts; the last one gone
   * removes them): with no market stream the exchange builds no level events for this hub.
   */
  private attachMarket(): void {
    if (this.offEvents.length > 0 || this.closed) return;
    const events = this.venue.exchange.events;
    this.offEvents.push(events.on('level', (e) => this.onLevel(e)));
    this.offEvents.push(events.on('trade', (e) => this.onTrade(e)));
  }

  private detachMarket(): void {
    for (const off of this.offEvents) off();
    this.offEvents.length = 0;
  }

  /** The candle service while kline streams exist. */
  get klineSource(): KlineSource | null {
    return this.source;
  }

  /**
   * What the subscriptions hold: every count is 0 (and no exchange, account or candle listener
   * attached) once every connection has left; the memory test and bench read it.
   */
  get footprint(): {
    streams: number;
    feeds: number;
    users: number;
    botConns: number;
    replayConns: number;
    listeners: number;
  } {
    return {
      streams: this.streams.size,
      feeds: this.feeds.size,
      users: this.users.size,
      botConns: this.botConns.size,
      replayConns: this.replayConns.size,
      listeners: this.offEvents.length + (this.offAccount === null ? 0 : 1) + (this.offKlines === null ? 0 : 1),
    };
  }

  /** The stream of that name while it has subscribers. */
  stream(name: string): Stream | undefined {
    return this.streams.get(name);
  }

  /** Removes every exchange, candle and whitelist listener; later subscriptions register none. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detachMarket();
    this.offAccount?.();
    this.offAccount = null;
    this.offKlines?.();
    this.offKlines = null;
    this.offReplay?.();
    this.offReplay = null;
    this.offWhitelist();
  }

  // ------------------------------------------------------------------ requests

  subscribe(conn: Conn, id: RequestId, params: unknown): Reply {
    const names = streamNames(id, params, 'SUBSCRIBE');
    if (!Array.isArray(names)) return names;
    const wanted: Array<{ name: string; channel: Channel }> = [];
    const seen = new Set<string>();
    for (const name of names) {
      const p = parseStream(name, (s) => this.venue.exchange.pair(s)?.row);
      if (!p.ok) return errorReply(id, p.error, p.message);
      if (p.channel.kind === 'user' && conn.accountId === null) {
        return errorReply(id, Errors.API_KEY_MISSING, "Subscribe to 'user' after a successful LOGIN");
      }
      if (p.channel.kind === 'bot' && !(this.whitelist?.has(conn.ip) ?? false)) {
        return errorReply(
          id,
          Errors.IP_NOT_WHITELISTED,
          `The 'bot' stream is for IPs on the bot whitelist; ${conn.ip} is not`,
        );
      }
      if (p.channel.kind === 'replay' && this.venue.replay === null) {
        return errorReply(
          id,
          Errors.NOT_A_REPLAY,
          `${Errors.NOT_A_REPLAY.message}: the 'replay' stream is a replay venue's`,
        );
      }
      if (p.channel.kind === 'kline' && this.source === null && this.klineLookup() === undefined) {
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
        `Too many subscriptions: at most ${this.limits.maxSubscriptions} streams per connection ` +
          `(subscribed ${conn.names.size}, asked for ${wanted.length} more)`,
      );
    }
    for (const w of wanted) this.add(conn, w.name, w.channel);
    return { id, result: null };
  }

  unsubscribe(conn: Conn, id: RequestId, params: unknown): Reply {
    const names = streamNames(id, params, 'UNSUBSCRIBE');
    if (!Array.isArray(names)) return names;
    for (const name of names) {
      // a name SUBSCRIBE would refuse (a non-string one among them: 1001) is refused here too, with
      // SUBSCRIBE's code, all or nothing (one not subscribed is fine)
      if (conn.names.has(name)) continue;
      const p = parseStream(name, (s) => this.venue.exchange.pair(s)?.row);
      if (!p.ok) return errorReply(id, p.error, p.message);
    }
    for (const name of names) if (conn.names.has(name)) this.remove(conn, name);
    return { id, result: null };
  }

  /**
   * Logs `conn` in as `accountId` (after a successful LOGIN): an earlier login is replaced, and
   * a `user` subscription follows the new account.
   */
  setAccount(conn: Conn, accountId: number): void {
    if (conn.accountId !== accountId && conn.names.has('user')) {
      this.removeUser(conn);
      conn.accountId = accountId;
      this.addUser(conn);
    }
    conn.accountId = accountId;
  }

  /** Ends the connection's login: it leaves the `user` stream and is no longer logged in. */
  endLogin(conn: Conn): void {
    if (conn.names.has('user')) this.remove(conn, 'user');
    conn.accountId = null;
    conn.loginKey = null;
  }

  /**
   * The bot whitelist changed: a connection on `bot` whose IP left it gets a last push, `whitelist_removed`,
   * and leaves the stream. Run in the whitelist's replace(): a failure here must not cost that route its answer.
   */
  private endBotStreams(): void {
    const wl = this.whitelist;
    if (wl === null || this.closed) return;
    try {
      const gone = [...this.botConns].filter((conn) => !wl.has(conn.ip));
      if (gone.length === 0) return;
      const frame = this.out.serialise('bot', botStreamEndedEvent());
      for (const conn of gone) this.out.push(conn, 'bot', frame);
      for (const conn of gone) this.remove(conn, 'bot');
    } catch (err) {
      console.error('perpdesk: ending the bot streams of IPs taken off the whitelist failed', err);
    }
  }

  /** What a request may change on a connection: its streams and its login (for restore()). */
  stateOf(conn: Conn): ConnState {
    return { names: new Set(conn.names), accountId: conn.accountId, loginKey: conn.loginKey };
  }

  /**
   * Puts a connection back as it was before a request that threw (`before`, stateOf's): the
   * streams that request added are removed. False when that is not possible (it removed a stream
   * or changed the login) or the removal itself fails: the connection's state is then unknown.
   */
  restore(conn: Conn, before: ConnState): boolean {
    if (conn.accountId !== before.accountId || conn.loginKey !== before.loginKey) return false;
    for (const name of before.names) if (!conn.names.has(name)) return false;
    try {
      for (const name of [...conn.names]) if (!before.names.has(name)) this.remove(conn, name);
    } catch (err) {
      console.error('perpdesk: undoing a failed ws request failed', err);
      return false;
    }
    return conn.names.size === before.names.size;
  }

  /** Drops every subscription of a connection that went away. */
  removeAll(conn: Conn): void {
    for (const name of [...conn.names]) this.remove(conn, name);
  }

  // ------------------------------------------------------------------ bookkeeping

  private feed(symbol: string): SymbolFeed {
    let f = this.feeds.get(symbol);
    if (f === undefined) {
      f = new SymbolFeed(this.venue.exchange.pairs.get(symbol)!);
      this.feeds.set(symbol, f);
      this.attachMarket();
    }
    return f;
  }

  private add(conn: Conn, name: string, channel: Channel): void {
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
    if (channel.kind === 'replay') {
      this.replayConns.add(conn);
      const replay = this.venue.replay!;
      if (this.offReplay === null && !this.closed) this.offReplay = replay.onChange((st) => this.pushReplay(st));
      // the status at once, so a subscriber never waits for the next change
      this.out.push(conn, 'replay', this.out.serialise('replay', replay.status()));
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
          s.closedFrom = this.klineCursor(channel.symbol, channel.interval);
          break;
      }
    }
    s.subs.add(conn);
    s.fresh.add(conn);
  }

  private remove(conn: Conn, name: string): void {
    conn.names.delete(name);
    if (name === 'user') {
      this.removeUser(conn);
      return;
    }
    if (name === 'bot') {
      if (this.botConns.delete(conn)) this.accountListenerRemoved();
      return;
    }
    if (name === 'replay') {
      this.replayConns.delete(conn);
      if (this.replayConns.size === 0) {
        this.offReplay?.();
        this.offReplay = null;
      }
      return;
    }
    const s = this.streams.get(name);
    if (s === undefined) return;
    s.subs.delete(conn);
    s.fresh.delete(conn);
    if (s.subs.size > 0) return;
    this.streams.delete(name);
    const ch = s.channel;
    if (ch.kind === 'user' || ch.kind === 'bot' || ch.kind === 'replay') return;
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
    if (f.empty) {
      this.feeds.delete(ch.symbol);
      if (this.feeds.size === 0) this.detachMarket();
    }
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

  private klineStreamAdded(): void {
    if (this.klineStreams++ > 0 || this.closed) return;
    const src = this.klineLookup();
    if (src === undefined) return;
    this.source = src;
    this.offKlines = src.onCandle((symbol, closed) => this.onKlineChange(symbol, closed));
  }

  /**
   * Where a new kline stream starts pushing closed candles: the open time of the newest candle
   * (the current one; past the newest closed one when there is none), so what closes from now on
   * goes out and nothing closed before the stream existed does.
   */
  private klineCursor(symbol: string, interval: Interval): number {
    const newest = this.source?.klines(symbol, interval, { limit: 1 })[0];
    if (newest === undefined) return 0;
    return newest[11] === true ? newest[0] + 1 : newest[0];
  }

  private klineStreamRemoved(): void {
    if (--this.klineStreams > 0) return;
    this.offKlines?.();
    this.offKlines = null;
    this.source = null;
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

  /** Replay status changes go out at once, serialised once per change. */
  private pushReplay(status: unknown): void {
    if (this.replayConns.size === 0) return;
    const buf = this.out.serialise('replay', status);
    for (const conn of this.replayConns) this.out.push(conn, 'replay', buf);
  }

  /** Account events go out at once (not on the tick), serialised once per event. */
  private onAccount(e: AccountEvent): void {
    const out = this.out;
    if (e.accountId === 0) {
      // the house: cached bot orders (user accounts have ids >= 1)
      if (this.botConns.size === 0) return;
      const buf = out.serialise('bot', { kind: e.kind, data: e.data });
      for (const conn of this.botConns) out.pushAccount(conn, 'bot', buf, e.time);
      return;
    }
    const set = this.users.get(e.accountId);
    if (set === undefined) return;
    const buf = out.serialise('user', { kind: e.kind, data: e.data });
    for (const conn of set) out.pushAccount(conn, 'user', buf, e.time);
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
}
