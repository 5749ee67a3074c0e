// Binance-layout WebSocket streams under /binance (reference a.4): the new paths (public/ws,
// market/ws, private/ws?listenKey=) and the legacy ones (ws/<stream>, stream?streams=a/b,
// ws/<listenKey>), SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS acked with the client's id, raw
// streams (bare events) and combined ones ({stream, data}).
//
// Sources are the native ones, read-only: the exchange's level, trade and account events, the
// kline service's candle listener, the pair state. Depth diffs come from the native DepthWindow
// (api/ws/depth-feed.ts) per symbol, so U / u / pu are the native update ids and pu is the u
// of the previous event on the stream: a REST snapshot's lastUpdateId joins them (ccxt's rule
// U <= id <= u or pu == id). The user stream turns the native pushes of one command (order
// record, fills, positions, balance) into Binance's sequence: ORDER_TRADE_UPDATE NEW, one TRADE
// per fill with running totals, AMENDMENT for a modified order, CANCELED / EXPIRED, then
// ACCOUNT_UPDATE with the changed positions (pa "0" for a closed one) and the wallet.
//
// On a replay with a market-data latency (docs/replay.md "Latency") every market stream event is
// held until market time reaches the time it was built at + the latency, then sent in build
// order (released on the 100 ms tick); with a response latency the user stream's events are held
// likewise for that latency.
//
// The hub listens to the exchange's level and trade events and the candles only while at least
// one connection is open (every order pays for each listener otherwise). With the last connection
// gone it drops its depth windows too: they missed the level changes since, so the next
// subscription starts a new window from the book's id at that moment (U = pu + 1, no hole).
import { Decimal } from 'decimal.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { INTERVALS, type Interval } from '../../../src-shared/intervals.ts';
import type { AccountSummary, OrderRecord, PositionRecord, TradeRecord } from '../../../src-shared/types.ts';
import type { AccountEvent } from '../../trading/events.ts';
import type { PairState } from '../../trading/pair-state.ts';
import { DepthWindow, toPriceLevels } from '../ws/depth-feed.ts';
import { listedPairs, type BinanceContext } from './context.ts';
import { bookTicker, premiumIndex, ticker24 } from './market.ts';
import { positionSideName, STATUS, TIF, type Mode } from './records.ts';

const OPEN = 1;
const PATHS = [
  '/ws',
  '/stream',
  '/public/ws',
  '/public/stream',
  '/market/ws',
  '/market/stream',
  '/private/ws',
  '/private/stream',
];

interface Conn {
  socket: WebSocket;
  combined: boolean;
  subs: Set<string>;
  accountId: number | null;
  listenKey: string | null;
}

type Parsed =
  | { kind: 'depth'; symbol: string }
  | { kind: 'partial'; symbol: string; levels: number }
  | { kind: 'trade' | 'aggTrade' | 'bookTicker' | 'markPrice' | 'miniTicker' | 'ticker'; symbol: string }
  | { kind: 'kline'; symbol: string; interval: Interval }
  | { kind: 'allMarkPrice' | 'allMiniTicker' | 'allTicker' };

const STREAM =
  /^([a-z0-9]+)@(depth(?:5|10|20)?(?:@(?:100ms|250ms|500ms))?|trade|aggTrade|bookTicker|markPrice(?:@1s)?|miniTicker|ticker|kline_[0-9a-zA-Z]+)$/;

export class BinanceStreams {
  private readonly ctx: BinanceContext;
  private readonly conns = new Set<Conn>();
  private readonly windows = new Map<string, DepthWindow>();
  private readonly dirtyKlines = new Set<string>();
  private readonly lastTop = new Map<string, string>();
  private readonly pending = new Map<number, AccountEvent[]>();
  private readonly running = new Map<number, { lots: Decimal; quote: Decimal }>();
  private readonly seenOrders = new Set<number>();
  private readonly sentPositions = new Map<number, Map<string, string>>();
  private readonly sentWallet = new Map<number, string>();
  /** The market listeners, attached while at least one connection is open. */
  private offMarket: (() => void) | null = null;
  private readonly fast: NodeJS.Timeout;
  private readonly slow: NodeJS.Timeout;
  private flushing = false;
  /** A replay's market-data latency, ms of market time (0: none), and the events it holds. */
  private readonly dataLatency: number;
  private held: Array<{ due: number; name: string; data: unknown }> = [];
  /** A replay's response latency, ms of market time (0: none), and the user stream sends it holds. */
  private readonly responseLatency: number;
  private heldUser: Array<{ due: number; send: () => void }> = [];
  /** The exchange builds account records only while someone listens: only while a user stream is open. */
  private offAccount: (() => void) | null = null;

  constructor(ctx: BinanceContext) {
    this.ctx = ctx;
    const st = ctx.venue.replay?.status();
    this.dataLatency = st?.data_latency ?? 0;
    this.responseLatency = st?.response_latency ?? 0;
    this.fast = setInterval(() => this.tick100(), 100);
    this.slow = setInterval(() => this.tick1000(), 1000);
    this.fast.unref();
    this.slow.unref();
    // a DELETE of the key ends its streams, as on Binance: closed, nothing more delivered
    ctx.listenKeys.onClosed((key) => {
      for (const c of this.conns) if (c.listenKey === key) this.endUserStream(c);
    });
  }

  /** Closes a user stream (its socket stops taking sends at once: CLOSING is not OPEN). */
  private endUserStream(c: Conn): void {
    c.listenKey = null;
    c.socket.close(1000, 'listenKey deleted');
  }

  close(): void {
    clearInterval(this.fast);
    clearInterval(this.slow);
    this.detachMarket();
    this.offAccount?.();
    this.offAccount = null;
    for (const c of this.conns) c.socket.close(1001);
    this.conns.clear();
    this.held = [];
    this.heldUser = [];
  }

  // ---------------------------------------------------------------- connections

  private attachMarket(): void {
    if (this.offMarket !== null) return;
    const ev = this.ctx.venue.exchange.events;
    const offLevel = ev.on('level', (e) =>
      this.windows.get(e.symbol)?.add(e.updateId, e.side, e.priceTicks, e.totalLots),
    );
    const offTrade = ev.on('trade', (e) =>
      this.onTrade(e.symbol, e.tradeId, e.priceTicks, e.qtyLots, e.takerSide, e.time),
    );
    const offCandle = this.ctx.venue.klines.onCandle((symbol, closed) => this.onCandle(symbol, closed.length > 0));
    this.offMarket = () => (offLevel(), offTrade(), offCandle());
  }

  private detachMarket(): void {
    if (this.offMarket === null) return;
    this.offMarket();
    this.offMarket = null;
    // what these remember stopped following the book when the listeners went
    this.windows.clear();
    this.lastTop.clear();
    this.dirtyKlines.clear();
  }

  attach(socket: WebSocket, req: FastifyRequest): void {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname.replace(/^\/binance/, '');
    const conn: Conn = { socket, combined: /\/stream/.test(path), subs: new Set(), accountId: null, listenKey: null };
    const base = PATHS.find((p) => path === p || path.startsWith(p + '/')) ?? '/ws';
    const tail = path.slice(base.length + 1);
    const names = [...(tail ? tail.split('/') : []), ...(url.searchParams.get('streams')?.split('/') ?? [])].filter(
      (s) => s !== '',
    );
    // a listenKey comes as ?listenKey= or as the legacy ws/<listenKey>; other segments that name
    // no stream (ccxt's opaque connection index public/ws/<n>) are ignored, as Binance does
    const key =
      url.searchParams.get('listenKey') ?? names.find((n) => n.length >= 32 && !n.includes('@') && !n.startsWith('!'));
    if (key !== undefined && key !== null) {
      const id = this.ctx.listenKeys.accountOf(key);
      if (id === undefined) {
        socket.close(1008, 'This listenKey does not exist.');
        return;
      }
      conn.accountId = id;
      conn.listenKey = key;
    }
    // listeners first: a depth window started below must see every level change after its start
    this.attachMarket();
    for (const n of names) if (n !== key && parse(n) !== null) this.subscribe(conn, n);
    this.conns.add(conn);
    // what the stream starts from: only changes after it are ACCOUNT_UPDATEs (an order placement
    // moves neither the wallet nor a position, so it sends none)
    if (conn.accountId !== null && this.userConns(conn.accountId).length === 1) this.seedAccount(conn.accountId);
    if (conn.accountId !== null && this.offAccount === null) {
      const events = this.ctx.venue.exchange.events;
      const offAccount = events.on('account', (e) => this.onAccount(e));
      // leverage changes made on any surface (native API, screen, here)
      const offSetting = events.on('setting', (e) => this.configUpdate(e.accountId, e.symbol, e.leverage));
      this.offAccount = () => (offAccount(), offSetting());
    }
    socket.on('message', (data, isBinary) => this.onMessage(conn, isBinary ? '' : String(data)));
    socket.on('close', () => {
      this.conns.delete(conn);
      if (this.conns.size === 0) this.detachMarket();
      if (conn.accountId !== null && this.userConns(conn.accountId).length === 0) this.forgetAccount(conn.accountId);
      if (this.offAccount !== null && ![...this.conns].some((c) => c.accountId !== null)) {
        this.offAccount();
        this.offAccount = null;
      }
    });
    socket.on('error', () => socket.terminate());
  }

  private onMessage(conn: Conn, text: string): void {
    let msg: { method?: unknown; params?: unknown; id?: unknown };
    try {
      msg = JSON.parse(text);
    } catch {
      return this.send(conn, { error: { code: 3, msg: 'Invalid JSON: the message is not JSON' }, id: null });
    }
    const id = typeof msg?.id === 'number' || typeof msg?.id === 'string' ? msg.id : null;
    const params = Array.isArray(msg?.params) ? msg.params : [];
    switch (msg?.method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        const bad = params.find((p) => typeof p !== 'string' || parse(p) === null);
        if (bad !== undefined)
          return this.send(conn, {
            error: { code: 2, msg: `Invalid request: unknown stream ${JSON.stringify(bad)}` },
            id,
          });
        for (const p of params as string[]) {
          if (msg.method === 'SUBSCRIBE') this.subscribe(conn, p);
          else conn.subs.delete(p);
        }
        return this.send(conn, { result: null, id });
      }
      case 'LIST_SUBSCRIPTIONS':
        return this.send(conn, { result: [...conn.subs], id });
      case 'SET_PROPERTY':
        if (params[0] === 'combined' && typeof params[1] === 'boolean') {
          conn.combined = params[1];
          return this.send(conn, { result: null, id });
        }
        return this.send(conn, {
          error: { code: 2, msg: 'Invalid request: only the property combined can be set' },
          id,
        });
      case 'GET_PROPERTY':
        return this.send(conn, { result: conn.combined, id });
      default:
        return this.send(conn, {
          error: { code: 2, msg: `Invalid request: unknown method ${JSON.stringify(msg?.method)}` },
          id,
        });
    }
  }

  private subscribe(conn: Conn, name: string): void {
    const p = parse(name)!;
    if ('symbol' in p && this.pair(p.symbol) === undefined) return;
    conn.subs.add(name);
    if ((p.kind === 'depth' || p.kind === 'partial' || p.kind === 'bookTicker') && !this.windows.has(p.symbol)) {
      const w = new DepthWindow();
      w.start(this.pair(p.symbol)!.book.depth(0).updateId);
      this.windows.set(p.symbol, w);
    }
  }

  private pair(symbol: string): PairState | undefined {
    const p = this.ctx.venue.exchange.pair(symbol);
    return p === undefined || p.row.status === 3 ? undefined : p;
  }

  private send(conn: Conn, msg: unknown): void {
    if (conn.socket.readyState === OPEN) conn.socket.send(JSON.stringify(msg));
  }

  /** A market stream event: sent now, or held for the replay's market-data latency. */
  private push(name: string, data: unknown): void {
    if (this.dataLatency > 0) {
      if (this.subscribed(name)) this.held.push({ due: this.ctx.venue.clock.now() + this.dataLatency, name, data });
      return;
    }
    this.emit(name, data);
  }

  /** Sends the held market and user events whose time has come, oldest first. */
  private release(): void {
    if (this.heldUser.length > 0) {
      const now = this.ctx.venue.clock.now();
      let n = 0;
      while (n < this.heldUser.length && this.heldUser[n].due <= now) n++;
      for (const h of this.heldUser.splice(0, n)) h.send();
    }
    if (this.held.length === 0) return;
    const now = this.ctx.venue.clock.now();
    let n = 0;
    while (n < this.held.length && this.held[n].due <= now) n++;
    if (n === 0) return;
    for (const h of this.held.splice(0, n)) this.emit(h.name, h.data);
  }

  private emit(name: string, data: unknown): void {
    let raw: string | undefined;
    let wrapped: string | undefined;
    for (const c of this.conns) {
      if (!c.subs.has(name) || c.socket.readyState !== OPEN) continue;
      if (c.combined) c.socket.send((wrapped ??= JSON.stringify({ stream: name, data })));
      else c.socket.send((raw ??= JSON.stringify(data)));
    }
  }

  private subscribed(name: string): boolean {
    for (const c of this.conns) if (c.subs.has(name)) return true;
    return false;
  }

  // ---------------------------------------------------------------- market streams

  private onTrade(symbol: string, id: number, priceTicks: number, lots: number, takerSide: number, time: number): void {
    const s = symbol.toLowerCase();
    const trade = `${s}@trade`;
    const agg = `${s}@aggTrade`;
    if (!this.subscribed(trade) && !this.subscribed(agg)) return;
    const m = this.ctx.venue.exchange.pair(symbol)!.math;
    const p = m.formatPrice(priceTicks);
    const q = m.formatQty(lots);
    this.push(trade, { e: 'trade', E: time, T: time, s: symbol, t: id, p, q, X: 'MARKET', m: takerSide === 2 });
    this.push(agg, { e: 'aggTrade', E: time, s: symbol, a: id, p, q, f: id, l: id, T: time, m: takerSide === 2 });
  }

  private onCandle(symbol: string, closedAny: boolean): void {
    this.dirtyKlines.add(symbol);
    if (!closedAny) return;
    const s = symbol.toLowerCase();
    for (const iv of INTERVALS) {
      const name = `${s}@kline_${iv}`;
      if (!this.subscribed(name)) continue;
      // the candle that just closed, final, then the new current one on the next tick
      const rows = this.ctx.venue.klines.klines(symbol, iv, { limit: 2 });
      const closed = rows.find((k) => k[11] === true);
      if (closed) this.push(name, klineEvent(symbol, iv, closed, this.ctx.venue.clock.now()));
    }
  }

  private tick100(): void {
    this.release();
    const now = this.ctx.venue.clock.now();
    for (const [symbol, w] of this.windows) {
      const take = w.take();
      if (take === null) continue;
      const pair = this.ctx.venue.exchange.pair(symbol)!;
      const s = symbol.toLowerCase();
      const diff = {
        e: 'depthUpdate',
        E: now,
        T: now,
        s: symbol,
        U: take.U,
        u: take.u,
        pu: take.pu,
        b: toPriceLevels(pair.math, take.bids),
        a: toPriceLevels(pair.math, take.asks),
      };
      for (const suffix of ['@depth', '@depth@100ms', '@depth@250ms', '@depth@500ms']) this.push(s + suffix, diff);
      for (const n of [5, 10, 20]) {
        for (const suffix of ['', '@100ms', '@250ms', '@500ms']) {
          const name = `${s}@depth${n}${suffix}`;
          if (!this.subscribed(name)) continue;
          const v = pair.book.depth(n);
          this.push(name, {
            e: 'depthUpdate',
            E: now,
            T: now,
            s: symbol,
            U: take.U,
            u: take.u,
            pu: take.pu,
            b: toPriceLevels(pair.math, v.bids),
            a: toPriceLevels(pair.math, v.asks),
          });
        }
      }
      const bt = `${s}@bookTicker`;
      if (this.subscribed(bt)) {
        const t = bookTicker(pair, now);
        const top = `${t.bidPrice}|${t.bidQty}|${t.askPrice}|${t.askQty}`;
        if (this.lastTop.get(symbol) !== top) {
          this.lastTop.set(symbol, top);
          this.push(bt, {
            e: 'bookTicker',
            u: t.lastUpdateId,
            E: now,
            T: now,
            s: symbol,
            b: t.bidPrice,
            B: t.bidQty,
            a: t.askPrice,
            A: t.askQty,
          });
        }
      }
    }
    for (const symbol of this.dirtyKlines) {
      const s = symbol.toLowerCase();
      for (const iv of INTERVALS) {
        const name = `${s}@kline_${iv}`;
        if (!this.subscribed(name)) continue;
        const k = this.ctx.venue.klines.currentKline(symbol, iv);
        if (k) this.push(name, klineEvent(symbol, iv, k, now));
      }
    }
    this.dirtyKlines.clear();
  }

  private tick1000(): void {
    const now = this.ctx.venue.clock.now();
    for (const key of this.ctx.listenKeys.expire()) {
      for (const c of this.conns) {
        if (c.listenKey !== key) continue;
        this.send(c, { e: 'listenKeyExpired', E: now, listenKey: key });
        c.socket.close(1000);
      }
    }
    if (this.conns.size === 0) return;
    const markArr: unknown[] = [];
    const miniArr: unknown[] = [];
    const tickArr: unknown[] = [];
    const wantMarkArr = this.subscribed('!markPrice@arr') || this.subscribed('!markPrice@arr@1s');
    const wantMini = this.subscribed('!miniTicker@arr');
    const wantTick = this.subscribed('!ticker@arr');
    for (const pair of listedPairs(this.ctx)) {
      const s = pair.row.symbol.toLowerCase();
      const mp = `${s}@markPrice`;
      if (wantMarkArr || this.subscribed(mp) || this.subscribed(mp + '@1s')) {
        const pi = premiumIndex(pair, now);
        const ev = {
          e: 'markPriceUpdate',
          E: now,
          s: pair.row.symbol,
          p: pi.markPrice,
          i: pi.indexPrice,
          P: pi.estimatedSettlePrice,
          r: pi.lastFundingRate,
          T: pi.nextFundingTime,
        };
        this.push(mp, ev);
        this.push(mp + '@1s', ev);
        markArr.push(ev);
      }
      const mini = `${s}@miniTicker`;
      const full = `${s}@ticker`;
      if (wantMini || wantTick || this.subscribed(mini) || this.subscribed(full)) {
        const t = ticker24(this.ctx, pair, now);
        const m = {
          e: '24hrMiniTicker',
          E: now,
          s: pair.row.symbol,
          c: t.lastPrice,
          o: t.openPrice,
          h: t.highPrice,
          l: t.lowPrice,
          v: t.volume,
          q: t.quoteVolume,
        };
        const f = {
          ...m,
          e: '24hrTicker',
          p: t.priceChange,
          P: t.priceChangePercent,
          w: t.weightedAvgPrice,
          Q: t.lastQty,
          O: t.openTime,
          C: t.closeTime,
          L: t.lastId,
          n: t.count,
        };
        this.push(mini, m);
        this.push(full, f);
        miniArr.push(m);
        tickArr.push(f);
      }
    }
    if (wantMarkArr) {
      this.push('!markPrice@arr', markArr);
      this.push('!markPrice@arr@1s', markArr);
    }
    if (wantMini) this.push('!miniTicker@arr', miniArr);
    if (wantTick) this.push('!ticker@arr', tickArr);
  }

  // ---------------------------------------------------------------- user data

  private onAccount(e: AccountEvent): void {
    let list = this.pending.get(e.accountId);
    if (list === undefined) this.pending.set(e.accountId, (list = []));
    list.push(e);
    if (this.flushing) return;
    this.flushing = true;
    // the native pushes of one command arrive in one synchronous run: translate them together
    queueMicrotask(() => {
      this.flushing = false;
      const batches = [...this.pending];
      this.pending.clear();
      for (const [id, events] of batches) this.flushUser(id, events);
    });
  }

  private userConns(accountId: number): Conn[] {
    const out: Conn[] = [];
    for (const c of this.conns) if (c.accountId === accountId) out.push(c);
    return out;
  }

  private flushUser(accountId: number, events: AccountEvent[]): void {
    const conns = this.userConns(accountId);
    if (conns.length === 0) return;
    const { exchange, trading, clock } = this.ctx.venue;
    const mode: Mode = exchange.summary(accountId).position_mode;
    const now = clock.now();
    const sendNow = (msg: unknown) => {
      for (const c of conns) if (this.conns.has(c)) this.send(c, c.combined ? { stream: c.listenKey, data: msg } : msg);
    };
    // a replay's response latency holds the user stream's events (in order)
    const stamp = events[0]?.time ?? now;
    const send =
      this.responseLatency === 0
        ? sendNow
        : (msg: unknown) => void this.heldUser.push({ due: stamp + this.responseLatency, send: () => sendNow(msg) });
    const orders = new Map<number, OrderRecord>();
    const fills: TradeRecord[] = [];
    let positions: PositionRecord[] | undefined;
    let balance: AccountSummary | undefined;
    for (const e of events) {
      if (e.kind === 'order') orders.set(Number((e.data as OrderRecord).id), e.data as OrderRecord);
      else if (e.kind === 'fill') fills.push(e.data as TradeRecord);
      else if (e.kind === 'position') positions = e.data as PositionRecord[];
      else if (e.kind === 'balance') balance = e.data as AccountSummary;
    }
    const base = (id: number) => {
      // the live order while it is open (no store read, which would flush the turn's writes)
      const o = exchange.liveOrder(accountId, id)!;
      const m = exchange.pair(o.symbol)!.math;
      return {
        s: o.symbol,
        c: o.clientOrderId,
        S: o.side === 1 ? 'BUY' : 'SELL',
        o: o.type === 2 ? 'MARKET' : 'LIMIT',
        f: o.type === 2 ? 'GTC' : TIF[o.tif],
        q: m.formatQty(o.qtyLots),
        p: o.type === 2 ? '0' : m.formatPrice(o.priceTicks),
        sp: '0',
        i: o.id,
        T: now,
        b: '0',
        a: '0',
        R: mode === 'one_way' ? o.reduceOnly : false,
        wt: 'CONTRACT_PRICE',
        ot: o.type === 2 ? 'MARKET' : 'LIMIT',
        ps: positionSideName(mode, o.positionSide),
        cp: false,
        pP: false,
        si: 0,
        ss: 0,
        V: 'NONE',
        pm: 'NONE',
        gtd: 0,
        status: o.status,
        inMatch: o.expiredInMatch === true,
        qtyLots: o.qtyLots,
        math: m,
      };
    };
    const event = (o: ReturnType<typeof base>, x: string, X: string, extra: Record<string, unknown>) => {
      const { status: _s, inMatch: _i, qtyLots: _q, math: _m, ...fields } = o;
      return { e: 'ORDER_TRADE_UPDATE', E: now, T: now, o: { ...fields, x, X, ...extra } };
    };
    const zero = (o: ReturnType<typeof base>) => ({
      ap: '0',
      l: '0',
      z: '0',
      L: '0',
      N: 'USDT',
      n: '0',
      t: 0,
      m: false,
      rp: '0',
    });
    // NEW for every order seen for the first time, before its fills
    const ids = new Set<number>([...orders.keys(), ...fills.map((f) => Number(f.order_id))]);
    const bases = new Map<number, ReturnType<typeof base>>();
    const fresh = new Set<number>();
    for (const id of ids) {
      if (id === 0) continue; // bankruptcy / ADL closes have no order
      const b = base(id);
      bases.set(id, b);
      if (!this.seenOrders.has(id)) {
        this.seenOrders.add(id);
        fresh.add(id);
        send(event(b, 'NEW', 'NEW', zero(b)));
      }
    }
    // an order already announced that changed while open without a fill: its price or quantity
    // was modified (PUT order, or a reduce-only order trimmed to its position): AMENDMENT
    const filledNow = new Set(fills.map((f) => Number(f.order_id)));
    for (const [id, rec] of orders) {
      if (fresh.has(id) || filledNow.has(id) || (rec.status !== 1 && rec.status !== 2)) continue;
      const b = bases.get(id)!;
      send(
        event(b, 'AMENDMENT', STATUS[rec.status], {
          ap: rec.avg_price,
          l: '0',
          z: rec.filled_qty,
          L: '0',
          N: 'USDT',
          n: '0',
          t: 0,
          m: false,
          rp: '0',
        }),
      );
    }
    for (const f of fills) {
      const id = Number(f.order_id);
      const b = bases.get(id);
      if (b === undefined) continue;
      const r = this.running.get(id) ?? { lots: new Decimal(0), quote: new Decimal(0) };
      r.lots = r.lots.plus(f.qty);
      r.quote = r.quote.plus(f.quote_qty);
      this.running.set(id, r);
      const full = r.lots.equals(b.q);
      send(
        event(b, 'TRADE', full ? 'FILLED' : 'PARTIALLY_FILLED', {
          ap: r.quote.div(r.lots).toFixed(b.math.price.precision),
          l: f.qty,
          z: b.math.formatQty(b.math.qty.mustToUnits(r.lots.toFixed())),
          L: f.price,
          N: 'USDT',
          n: f.fee,
          t: Number(f.id),
          m: f.role === 1,
          rp: f.realized_pnl,
        }),
      );
      if (full) this.forget(id);
    }
    for (const [id, rec] of orders) {
      const b = bases.get(id)!;
      if (rec.status === 4 || rec.status === 5 || rec.status === 6) {
        // a taker expired by self-trade prevention: X EXPIRED_IN_MATCH, execution type EXPIRED
        const X = rec.status === 6 && b.inMatch ? 'EXPIRED_IN_MATCH' : STATUS[rec.status];
        send(
          event(b, X === 'CANCELED' ? 'CANCELED' : 'EXPIRED', X, {
            ap: rec.avg_price,
            l: '0',
            z: rec.filled_qty,
            L: '0',
            N: 'USDT',
            n: '0',
            t: 0,
            m: false,
            rp: '0',
          }),
        );
        this.forget(id);
      }
    }
    // ACCOUNT_UPDATE: the wallet when it moved, the positions that changed (a closed one as pa "0")
    const B: unknown[] = [];
    if (balance !== undefined && this.sentWallet.get(accountId) !== balance.wallet_balance) {
      this.sentWallet.set(accountId, balance.wallet_balance);
      B.push({ a: 'USDT', wb: balance.wallet_balance, cw: balance.wallet_balance, bc: '0' });
    }
    const P: unknown[] = [];
    if (positions !== undefined) {
      const before = this.sentPositions.get(accountId) ?? new Map<string, string>();
      const after = new Map<string, string>();
      for (const p of positions) {
        const entry = positionEntry(exchange.pair(p.symbol)!, p, mode);
        const ps = entry.ps;
        const key = `${p.symbol}|${ps}`;
        const sig = JSON.stringify(entry);
        after.set(key, sig);
        if (before.get(key) !== sig) P.push(entry);
      }
      for (const key of before.keys()) {
        if (after.has(key)) continue;
        const [s, ps] = key.split('|');
        P.push({ s, pa: '0', ep: '0', bep: '0', cr: '0', up: '0', mt: 'cross', iw: '0', ps });
      }
      this.sentPositions.set(accountId, after);
    }
    if (B.length > 0 || P.length > 0) {
      const m = fills.length > 0 ? 'ORDER' : events.some((e) => e.kind === 'funding') ? 'FUNDING_FEE' : 'DEPOSIT';
      send({ e: 'ACCOUNT_UPDATE', E: now, T: now, a: { m, B, P } });
    }
  }

  /** The wallet and positions as they are when an account's first stream opens. */
  private seedAccount(accountId: number): void {
    const { exchange } = this.ctx.venue;
    this.sentWallet.set(accountId, exchange.summary(accountId).wallet_balance);
    const mode: Mode = exchange.summary(accountId).position_mode;
    const seen = new Map<string, string>();
    for (const p of exchange.positions(accountId)) {
      const entry = positionEntry(exchange.pair(p.symbol)!, p, mode);
      seen.set(`${p.symbol}|${entry.ps}`, JSON.stringify(entry));
    }
    this.sentPositions.set(accountId, seen);
  }

  /** An account without a stream: what was sent to it no longer describes what its next stream has seen. */
  private forgetAccount(accountId: number): void {
    this.sentPositions.delete(accountId);
    this.sentWallet.delete(accountId);
  }

  private forget(orderId: number): void {
    this.running.delete(orderId);
    this.seenOrders.delete(orderId);
  }

  /** An account's leverage changed, on any surface (ACCOUNT_CONFIG_UPDATE). */
  configUpdate(accountId: number, symbol: string, leverage: number): void {
    const now = this.ctx.venue.clock.now();
    for (const c of this.userConns(accountId))
      this.send(c, { e: 'ACCOUNT_CONFIG_UPDATE', E: now, T: now, ac: { s: symbol, l: leverage } });
  }
}

/** An ACCOUNT_UPDATE position entry (a one-way short and a hedge SHORT have a negative pa). */
function positionEntry(pair: PairState, p: PositionRecord, mode: Mode) {
  return {
    s: p.symbol,
    pa: new Decimal(p.quantity).times(p.position_side === 2 ? -1 : 1).toFixed(pair.row.qtyPrecision),
    ep: String(p.entry_price),
    bep: String(p.break_even_price),
    cr: String(p.realized_pnl),
    up: String(p.unrealized_pnl),
    mt: p.margin_mode === 1 ? 'isolated' : 'cross',
    iw: p.margin_mode === 1 ? String(p.margin) : '0',
    ps: positionSideName(mode, p.position_side),
  };
}

function parse(name: string): Parsed | null {
  if (name === '!markPrice@arr' || name === '!markPrice@arr@1s') return { kind: 'allMarkPrice' };
  if (name === '!miniTicker@arr') return { kind: 'allMiniTicker' };
  if (name === '!ticker@arr') return { kind: 'allTicker' };
  const m = STREAM.exec(name);
  if (m === null) return null;
  const symbol = m[1].toUpperCase();
  const what = m[2];
  if (what.startsWith('kline_')) {
    const iv = what.slice(6);
    return (INTERVALS as readonly string[]).includes(iv) && iv !== '1s'
      ? { kind: 'kline', symbol, interval: iv as Interval }
      : null;
  }
  if (what.startsWith('depth')) {
    const n = /^depth(5|10|20)/.exec(what);
    return n ? { kind: 'partial', symbol, levels: Number(n[1]) } : { kind: 'depth', symbol };
  }
  if (what.startsWith('markPrice')) return { kind: 'markPrice', symbol };
  return { kind: what as 'trade', symbol };
}

function klineEvent(symbol: string, interval: string, k: readonly unknown[], now: number): unknown {
  return {
    e: 'kline',
    E: now,
    s: symbol,
    k: {
      t: k[0],
      T: k[1],
      s: symbol,
      i: interval,
      f: -1,
      L: -1,
      o: k[2],
      c: k[5],
      h: k[3],
      l: k[4],
      v: k[6],
      n: k[8],
      x: k[11],
      q: k[7],
      V: k[9],
      Q: k[10],
      B: '0',
    },
  };
}

export function registerStreams(app: FastifyInstance, ctx: BinanceContext): BinanceStreams {
  const streams = new BinanceStreams(ctx);
  app.addHook('onClose', (_i, done) => {
    streams.close();
    done();
  });
  for (const p of PATHS) {
    for (const url of [p, `${p}/*`]) {
      app.route({
        method: 'GET',
        url,
        handler: async (_req, reply) =>
          reply.code(400).send({ code: -1000, msg: `${p} is a WebSocket endpoint: connect with Upgrade: websocket.` }),
        wsHandler: (socket, req) => streams.attach(socket, req),
      });
    }
  }
  return streams;
}
