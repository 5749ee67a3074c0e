// Binance-layout WebSocket streams under /binance (reference a.4): the new paths (public/ws,
// market/ws, private/ws?listenKey=) and the legacy ones (ws/<stream>, stream?streams=a/b,
// ws/<listenKey>), SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS acked with the client's id, raw
// streams (bare events) and combined ones ({stream, data}). The market events are built by
// market-feed.ts, the user events by user-events.ts; this hub keeps the connections (the HTTP
// endpoints and their OpenAPI description: endpoints.ts).
//
// On a replay with a market-data latency (docs/replay.md "Latency") every market stream event is
// held until market time reaches the time it was built at + the latency, then sent in build
// order (released on the 100 ms tick); a response latency holds the user stream's events.
//
// The hub listens to the exchange's level and trade events and the candles only while at least
// one connection is open (every order pays for each listener otherwise); with the last one gone
// it drops its depth windows too, so the next subscription starts a new window (U = pu + 1).
// A DELETE of a listenKey closes its streams: nothing is delivered after it. An expired key's
// streams get listenKeyExpired and close as soon as any call finds it expired. A user stream opened
// with `events=A/B` gets only those events; a private path without a listenKey is closed (1008).
// SUBSCRIBE refuses a stream of a symbol that is not listed, so LIST_SUBSCRIPTIONS is what was acked.
// A SUBSCRIBE may name a listenKey (Binance's futures connector subscribes its user stream so): the
// connection then gets that account's events too; its UNSUBSCRIBE, DELETE or expiry ends them and
// leaves the connection's market streams open (listenKeyExpired is sent first).
// Client messages are read by requests.ts (Binance's error codes); Binance's limit of 10 messages a
// second holds (the 11th closes the connection, 1008), and its 1024 streams a connection (a
// SUBSCRIBE past it is refused, code 2; a URL naming more is closed, 1008). A request the hub
// fails to serve closes its connection alone (1011) instead of escaping into ws's event and
// ending the process; so does a send to one connection that throws (the others still get the
// event), and a timer's round that throws is logged and runs again at its next (ws/isolate.ts).
// As Binance, every connection (market or user stream) is pinged every 3 minutes and closed (1001)
// after 10 minutes without a pong (ws/heartbeat.ts, shared with /ws; tests shorten both); one with
// more than 4 MiB unsent is closed as a slow consumer (1008, slow-consumer.ts; tests lower it).
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { isListed } from '../../../core/symbol.ts';
import type { PairView } from '../../../trading/pair-state.ts';
import { listedPairs, type BinanceContext } from '../context.ts';
import { depthSpeed, MarketFeed } from './market-feed.ts';
import { parseStream, snapshotStream } from './events.ts';
import { MAX_MESSAGES_PER_SECOND, MAX_STREAMS, readControl, readStreamUrl } from './requests.ts';
import { closedAsSlow, MAX_UNSENT_BYTES } from './slow-consumer.ts';
import { UserEvents } from './user-events.ts';
import { Heartbeat, type HeartbeatLimits } from '../../ws/heartbeat.ts';
import { closeInternal, guarded, INTERNAL_ERROR } from '../../ws/isolate.ts';
import { LatencyGate } from '../../ws/latency-gate.ts';

const OPEN = 1;

/** Binance's ping every 3 minutes, and its 10 minutes without a pong before a connection is dropped. */
export const BINANCE_HEARTBEAT: Readonly<HeartbeatLimits> = Object.freeze({
  pingIntervalMs: 3 * 60_000,
  idleTimeoutMs: 10 * 60_000,
});
interface Conn {
  socket: WebSocket;
  combined: boolean;
  subs: Set<string>;
  accountId: number | null;
  listenKey: string | null;
  /** Whether the listenKey came by SUBSCRIBE (its end leaves the connection's market streams open). */
  keySubscribed: boolean;
  /** The user events this stream sends (`events=A/B`), null for all of them. */
  events: Set<string> | null;
  /** Start (wall ms) and count of the messages of the current one-second window. */
  windowStart: number;
  windowCount: number;
  /** When its last pong came (wall ms; its opening before the first). */
  lastSeen: number;
}

export class BinanceStreams {
  private readonly ctx: BinanceContext;
  /** Where a failure is reported (the service's log), `what` saying what failed and what came of it. */
  private readonly failed: (err: unknown, what: string) => void;
  private readonly conns = new Set<Conn>();
  private readonly market: MarketFeed;
  private readonly user: UserEvents;
  /** The market listeners, attached while at least one connection is open. */
  private offMarket: (() => void) | null = null;
  /** The liquidations listener of the forceOrder streams (attachLiquidations), while attached. */
  private offLiquidations: (() => void) | null = null;
  /** The exchange builds account records only while someone listens: only while a user stream is open. */
  private offAccount: (() => void) | null = null;
  private readonly offRevoked: () => void;
  /** The timed work: every 100 ms, the 250 ms and 500 ms depth streams, every second. */
  private readonly timers: NodeJS.Timeout[];
  /** A replay's market-data latency (ms of market time, 0: none) and the events it holds (ws/latency-gate.ts). */
  private readonly dataGate: LatencyGate<{ name: string; data: unknown }>;
  /** The ping period and the time without a pong that closes a connection. */
  private readonly liveness: HeartbeatLimits;
  private readonly heartbeat = new Heartbeat('pong', Date.now());
  /** Unsent bytes of a connection above which it is closed as a slow consumer. */
  private readonly maxUnsent: number;

  /** `heartbeat`: other ping and pong periods than Binance's, `maxUnsent` another slow-consumer bound (tests). */
  constructor(
    ctx: BinanceContext,
    failed: (err: unknown, what: string) => void,
    heartbeat: Partial<HeartbeatLimits> = {},
    maxUnsent = MAX_UNSENT_BYTES,
  ) {
    this.ctx = ctx;
    this.maxUnsent = maxUnsent;
    this.failed = failed;
    this.liveness = { ...BINANCE_HEARTBEAT, ...heartbeat };
    const st = ctx.venue.replay?.status();
    // what is due after the replay's end comes at its end
    this.dataGate = new LatencyGate(st?.data_latency ?? 0, () => ctx.venue.clock.now(), st?.until);
    this.market = new MarketFeed(ctx, { subscribed: (n) => this.subscribed(n), push: (n, d) => this.push(n, d) });
    this.user = new UserEvents(
      ctx,
      {
        deliver: (id, msg) => {
          for (const c of this.conns) {
            if (c.accountId !== id || (c.events !== null && !c.events.has(msg.e))) continue;
            this.send(c, c.combined ? { stream: c.listenKey, data: msg } : msg);
          }
        },
        hasStream: (id) => this.hasUserStream(id),
      },
      st?.response_latency ?? 0,
      st?.until,
    );
    // a round that throws is logged and the timer goes on: uncaught, it would end the process
    const every = (ms: number, fn: () => void) =>
      setInterval(
        guarded(fn, (err) => this.failed(err, `the streams' ${ms} ms round failed; it runs again at the next`)),
        ms,
      );
    this.timers = [
      every(100, () => this.tick100()),
      every(250, () => this.market.tickDepth(250, ctx.venue.clock.now())),
      every(500, () => this.market.tickDepth(500, ctx.venue.clock.now())),
      every(1000, () => this.tick1000()),
      // often enough for both periods: once a second at Binance's
      every(Math.max(10, Math.min(1000, this.liveness.pingIntervalMs, this.liveness.idleTimeoutMs)), () =>
        this.heartbeat.sweep(this.conns, Date.now(), this.liveness, (c, code, reason, err) =>
          this.drop(c, code, reason, err),
        ),
      ),
    ];
    for (const t of this.timers) t.unref();
    // a DELETE of the key ends its streams, as on Binance (CLOSING takes no more sends)
    ctx.listenKeys.onClosed((key) => {
      for (const c of this.conns) {
        if (c.listenKey !== key) continue;
        // a key subscribed on a connection of market streams leaves them open
        if (c.keySubscribed) this.unfollow(c);
        else {
          c.listenKey = null;
          c.socket.close(1000, 'listenKey deleted');
        }
      }
    });
    // an expired key's streams say listenKeyExpired and close, whichever call found it expired
    // (a POST or PUT, a stream opening, the 1 s round): until then they get the account's events
    ctx.listenKeys.onExpired((keys) => this.endStreams(keys, ctx.venue.clock.now()));
    // a regenerated API key ends the account's listenKey as an expiry does: what it streams is
    // private to the key's holder
    this.offRevoked = ctx.auth.accounts.onRevoked((_apiKey, accountId) => {
      const key = ctx.listenKeys.revoke(accountId);
      if (key !== undefined) this.endStreams([key], ctx.venue.clock.now());
    });
  }

  /** Stops the timers and listeners and closes every connection (1001 "server shutting down", as /ws). */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.detachMarket();
    this.offAccount?.();
    this.offAccount = null;
    this.offRevoked();
    for (const c of this.conns) c.socket.close(1001, 'server shutting down');
    this.conns.clear();
    this.dataGate.clear();
    this.user.clear();
  }

  private attachMarket(): void {
    if (this.offMarket !== null) return;
    const ev = this.ctx.venue.exchange.events;
    const offLevel = ev.on('level', (e) => this.market.onLevel(e));
    const offTrade = ev.on('trade', (e) => this.market.onTrade(e));
    const offCandle = this.ctx.venue.klines.onCandle((symbol, closed) => this.market.onCandle(symbol, closed));
    this.offMarket = () => (offLevel(), offTrade(), offCandle());
  }

  private detachMarket(): void {
    this.offLiquidations?.();
    this.offLiquidations = null;
    if (this.offMarket === null) return;
    this.offMarket();
    this.offMarket = null;
    this.market.reset();
  }

  /**
   * The liquidations, heard once a forceOrder stream is asked for (the account events cost every
   * command its records, so they are not listened to for the other market streams).
   */
  private attachLiquidations(): void {
    if (this.offLiquidations !== null) return;
    this.offLiquidations = this.ctx.venue.exchange.events.on('account', (e) => {
      if (e.kind === 'liquidation')
        this.market.onLiquidation(e.accountId, e.data as { symbol: string; order_id: string; time: number });
    });
  }

  private hasUserStream(accountId: number): boolean {
    for (const c of this.conns) if (c.accountId === accountId) return true;
    return false;
  }

  attach(socket: WebSocket, req: FastifyRequest): void {
    const { path, combined, names, key, events, refusal } = readStreamUrl(req.url);
    const conn: Conn = {
      socket,
      combined,
      subs: new Set(),
      accountId: null,
      listenKey: null,
      keySubscribed: false,
      events: null,
      windowStart: 0,
      windowCount: 0,
      lastSeen: Date.now(),
    };
    if (key !== undefined) {
      const id = this.ctx.listenKeys.accountOf(key);
      if (id === undefined) {
        socket.close(1008, 'This listenKey does not exist.');
        return;
      }
      conn.accountId = id;
      conn.listenKey = key;
      if (events.length > 0) conn.events = new Set(events);
    }
    if (refusal !== undefined) {
      socket.close(1008, refusal);
      return;
    }
    // listeners first: a depth window started below must see every level change after its start
    const wanted = new Set(names.filter((n) => n !== key && parseStream(n) !== null && this.pairOf(n) !== null));
    if (wanted.size > MAX_STREAMS) {
      socket.close(1008, `Too many streams: at most ${MAX_STREAMS} a connection, ${wanted.size} named`);
      return;
    }
    this.attachMarket();
    try {
      for (const n of names) if (n !== key && parseStream(n) !== null) this.subscribe(conn, n);
    } catch (err) {
      // as a request's failure (onMessage): this connection is closed, nothing else is touched
      this.failed(err, `opening the streams of ${path} failed; that connection is closed (${INTERNAL_ERROR})`);
      if (this.conns.size === 0) this.detachMarket();
      closeInternal(socket, 'Internal error: the streams could not be opened');
      return;
    }
    if (conn.accountId !== null && !this.hasUserStream(conn.accountId)) this.user.seed(conn.accountId);
    this.conns.add(conn);
    if (conn.accountId !== null) this.listenAccounts();
    socket.on('message', (data, isBinary) => this.onMessage(conn, isBinary ? null : String(data)));
    socket.on('pong', () => (conn.lastSeen = Date.now()));
    socket.on('close', () => this.onClose(conn));
    socket.on('error', () => socket.terminate());
  }

  /** A connection the heartbeat closes: idle (no pong), or its ping failed (`err`, logged; 1011). */
  private drop(conn: Conn, code: number, reason: string, err?: unknown): void {
    if (err !== undefined) {
      this.failed(err, `a ping failed; that connection is closed (${INTERNAL_ERROR})`);
      return closeInternal(conn.socket, reason);
    }
    try {
      conn.socket.close(code, reason);
    } catch {
      conn.socket.terminate();
    }
  }

  /** The account events, listened to while a user stream is open. */
  private listenAccounts(): void {
    if (this.offAccount !== null) return;
    const events = this.ctx.venue.exchange.events;
    const offAccount = events.on('account', (e) => this.user.onAccount(e));
    // leverage changes made on any surface (native API, screen, here)
    const offSetting = events.on('setting', (e) => this.user.configUpdate(e.accountId, e.symbol, e.leverage));
    this.offAccount = () => (offAccount(), offSetting());
  }

  /** `conn` no longer streams its account (closed, or its listenKey unsubscribed or ended). */
  private unfollow(conn: Conn): void {
    const id = conn.accountId;
    conn.accountId = null;
    conn.listenKey = null;
    conn.keySubscribed = false;
    if (id !== null && !this.hasUserStream(id)) this.user.forget(id);
    if (this.offAccount !== null && ![...this.conns].some((c) => c.accountId !== null)) {
      this.offAccount();
      this.offAccount = null;
    }
  }

  /**
   * The listenKeys a SUBSCRIBE names, checked before anything of it is applied: one key, live, and
   * the connection's own if it already streams one; the reason it is refused, else undefined.
   */
  private keyRefusal(conn: Conn, keys: string[]): string | undefined {
    if (keys.length === 0) return undefined;
    if (new Set(keys).size > 1) return 'a connection streams one listenKey';
    if (conn.listenKey !== null && conn.listenKey !== keys[0])
      return 'this connection already streams another listenKey';
    if (this.ctx.listenKeys.accountOf(keys[0]) === undefined) return 'This listenKey does not exist.';
    return undefined;
  }

  /** A SUBSCRIBE of listenKey `key` (checked by keyRefusal): the account's user events from now. */
  private followKey(conn: Conn, key: string): void {
    if (conn.listenKey === key) return;
    const id = this.ctx.listenKeys.accountOf(key)!;
    if (!this.hasUserStream(id)) this.user.seed(id);
    conn.accountId = id;
    conn.listenKey = key;
    conn.keySubscribed = true;
    this.listenAccounts();
  }

  private onClose(conn: Conn): void {
    this.conns.delete(conn);
    if (this.conns.size === 0) this.detachMarket();
    this.unfollow(conn);
  }

  private onMessage(conn: Conn, text: string | null): void {
    // Binance's limit: more than 10 messages in a second ends the connection
    const now = Date.now();
    if (now - conn.windowStart >= 1000) {
      conn.windowStart = now;
      conn.windowCount = 0;
    }
    if (++conn.windowCount > MAX_MESSAGES_PER_SECOND) {
      conn.socket.close(1008, `Too many messages: at most ${MAX_MESSAGES_PER_SECOND} per second`);
      return;
    }
    // A failure serving one request must not escape: thrown in ws's message event it would end
    // the process (every client, the venue). The connection gets back what it had subscribed and
    // is closed with 1011 (internal error); other connections are not touched.
    const subs = new Set(conn.subs);
    const combined = conn.combined;
    try {
      this.serve(conn, text);
    } catch (err) {
      this.failed(err, `serving a request failed; that connection is closed (${INTERNAL_ERROR})`);
      conn.subs = subs;
      conn.combined = combined;
      closeInternal(conn.socket, 'Internal error: the request could not be served');
    }
  }

  /** A client's control message read (requests.ts) and applied, answered with its id. */
  private serve(conn: Conn, text: string | null): void {
    const req = readControl(text);
    if ('error' in req) return this.send(conn, req.error);
    const { id } = req;
    const invalid = (why: string) => this.send(conn, { error: { code: 2, msg: `Invalid request: ${why}` }, id });
    switch (req.method) {
      case 'SUBSCRIBE': {
        // a listenKey (requests.ts lets only those through besides streams) streams its account
        const keys = req.streams.filter((p) => parseStream(p) === null);
        const streams = req.streams.filter((p) => parseStream(p) !== null);
        // a stream of a symbol not listed would never send: refused (nothing of the request is
        // subscribed), so the acknowledgement and LIST_SUBSCRIPTIONS agree
        const unlisted = streams.find((p) => this.pairOf(p) === null);
        if (unlisted !== undefined) return invalid(`unknown symbol in stream ${JSON.stringify(unlisted)}`);
        const refused = this.keyRefusal(conn, keys);
        if (refused !== undefined) return invalid(refused);
        // Binance's 1024 streams a connection: a request that would pass it takes none of its streams
        const added = new Set(streams.filter((p) => !conn.subs.has(p))).size;
        if (conn.subs.size + added > MAX_STREAMS)
          return invalid(
            `too many streams: a connection listens to at most ${MAX_STREAMS}; it has ${conn.subs.size} and the request adds ${added}`,
          );
        for (const p of streams) this.subscribe(conn, p);
        if (keys.length > 0) this.followKey(conn, keys[0]);
        return this.send(conn, { result: null, id });
      }
      case 'UNSUBSCRIBE':
        for (const p of req.streams) {
          if (p === conn.listenKey) this.unfollow(conn);
          else conn.subs.delete(p);
        }
        return this.send(conn, { result: null, id });
      case 'LIST_SUBSCRIPTIONS':
        return this.send(conn, { result: [...conn.subs, ...(conn.keySubscribed ? [conn.listenKey] : [])], id });
      case 'SET_PROPERTY':
        conn.combined = req.combined;
        return this.send(conn, { result: null, id });
      case 'GET_PROPERTY':
        return this.send(conn, { result: conn.combined, id });
    }
  }

  /** The listed pair a stream `name` (parsed) is of; undefined for an all-symbols stream, null for an unlisted symbol. */
  private pairOf(name: string): PairView | undefined | null {
    const p = parseStream(name)!;
    if (!('symbol' in p)) return undefined;
    const pair = this.ctx.venue.exchange.pair(p.symbol);
    return pair === undefined || !isListed(pair.row) ? null : pair;
  }

  private subscribe(conn: Conn, name: string): void {
    const pair = this.pairOf(name);
    if (pair === null) return;
    conn.subs.add(name);
    const p = parseStream(name)!;
    if (pair !== undefined && (p.kind === 'depth' || p.kind === 'partial')) this.market.follow(pair, depthSpeed(name));
    if (pair !== undefined && p.kind === 'bookTicker') this.market.follow(pair, 100);
    if (p.kind === 'allBookTicker') for (const listed of listedPairs(this.ctx)) this.market.follow(listed, 100);
    if (pair !== undefined && (p.kind === 'kline' || p.kind === 'continuousKline')) this.market.followKlines(pair);
    if (p.kind === 'forceOrder' || p.kind === 'allForceOrder') this.attachLiquidations();
  }

  private send(conn: Conn, msg: unknown): void {
    if (conn.socket.readyState !== OPEN || closedAsSlow(conn.socket, this.maxUnsent)) return;
    try {
      conn.socket.send(JSON.stringify(msg));
    } catch (err) {
      this.sendFailed(conn, err, 'a message');
    }
  }

  /** A send to one connection threw: that connection alone is closed (1011) and the failure logged. */
  private sendFailed(conn: Conn, err: unknown, what: string): void {
    this.failed(err, `sending ${what} failed; that connection is closed (${INTERNAL_ERROR})`);
    closeInternal(conn.socket, 'Internal error: a message could not be sent');
  }

  /**
   * A market stream event: sent now, or held for the replay's market-data latency. Of a snapshot
   * stream (events.ts) only the newest event of one market time is held: a paused replay's mark
   * price, rebuilt each wall second at the same market time, is one event when the replay moves on
   * (as without latency each of them said the same; /ws's fan-out.ts merges its own so).
   */
  private push(name: string, data: unknown): void {
    if (!this.dataGate.active) return this.emit(name, data);
    if (!this.subscribed(name)) return;
    const item = { name, data };
    if (snapshotStream(name))
      this.dataGate.holdOrMerge(
        item,
        (h) => h.name === name,
        () => item,
      );
    else this.dataGate.hold(item);
  }

  private emit(name: string, data: unknown): void {
    let raw: string | undefined;
    let wrapped: string | undefined;
    for (const c of this.conns) {
      if (!c.subs.has(name) || c.socket.readyState !== OPEN || closedAsSlow(c.socket, this.maxUnsent)) continue;
      try {
        if (c.combined) c.socket.send((wrapped ??= JSON.stringify({ stream: name, data })));
        else c.socket.send((raw ??= JSON.stringify(data)));
      } catch (err) {
        this.sendFailed(c, err, name);
      }
    }
  }

  private subscribed(name: string): boolean {
    for (const c of this.conns) if (c.subs.has(name)) return true;
    return false;
  }

  private tick100(): void {
    const now = this.ctx.venue.clock.now();
    this.user.release(now);
    this.dataGate.release((h) => this.emit(h.name, h.data), now);
    this.market.tick100(now);
  }

  private tick1000(): void {
    const now = this.ctx.venue.clock.now();
    this.ctx.listenKeys.expire(); // the expired keys' streams end through onExpired
    if (this.conns.size > 0) this.market.tick1000(now);
  }

  /** The streams of ended listenKeys `keys` say listenKeyExpired and close. */
  private endStreams(keys: readonly string[], now: number): void {
    for (const key of keys) {
      const expired = { e: 'listenKeyExpired', E: now, listenKey: key };
      for (const c of this.conns) {
        if (c.listenKey !== key) continue;
        this.send(c, c.combined ? { stream: key, data: expired } : expired);
        if (c.keySubscribed) this.unfollow(c);
        else c.socket.close(1000);
      }
    }
  }
}
