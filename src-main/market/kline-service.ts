// Klines of the venue: every symbol's candles in all 16 intervals, built from its trades, kept in
// a CandleStore (market/ports.ts; SQLite in a venue) and served from memory (candle-rings.ts:
// per (symbol, interval) a ring of the newest 1,500 closed candles, loaded on first read).
//
// One CandleBuilder per symbol, fed by recordTrade() (the exchange's trade events, and the
// simulator directly) and moved by advanceTo() (a timer on the market clock, and every read).
// Time per symbol never steps back: a trade or advance stamped earlier counts at the symbol's
// latest time. Closed candles are written in one transaction per advance (upserted by symbol,
// interval, open time), the current ones as checkpoints, so a restart continues them (the tape first).
// Hot path: recordTrade() is a Map lookup, a compare and CandleBuilder.trade(); it allocates only
// when a candle closes (the builder's Candle) or a listener wants the closed list.
import { Side, SymbolStatus } from '../../src-shared/enums.ts';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { INTERVALS, isInterval, nextOpenTime, type Interval } from '../../src-shared/intervals.ts';
import type { EventBus } from '../trading/events.ts';
import { CandleBuilder, klineFormatter, type Candle, type KlineTuple } from './candles.ts';
import type { CandleCoverage } from './candle-coverage.ts';
import { olderCandles, type CandleHistory } from './kline-history.ts';
import { skipAhead, SymbolCandles, type Ring } from './candle-rings.ts';
import { currentCandles } from './kline-restore.ts';
import { closedBytes, KLINES_MAX_LIMIT, selectRange, type KlineRange, type Selection } from './kline-selection.ts';
import type { CandleCut, CandleStore, SymbolCatalogue } from './ports.ts';

export { KLINES_MAX_LIMIT };
export const KLINES_DEFAULT_LIMIT = 500;

export interface KlineServiceDeps {
  /** Where closed and checkpointed candles go, and where reads past the rings come from. */
  candles: CandleStore;
  symbols: SymbolCatalogue;
  /** Market clock (VirtualClock). */
  clock: { now(): number };
  /** When given, every trade of the exchange is recorded as it happens; its pairs' prices: openAtPrice. */
  exchange?: { events: EventBus; pair(symbol: string): { readonly lastPriceTicks: number } | undefined };
}

export interface KlineServiceOptions {
  /** Closed candles kept in memory per (symbol, interval); also the most zero-trade candles emitted for a gap. Default 1500. */
  ringSize?: number;
  /** Wall ms between timer advances to the market clock; 0 = no timer (tests and benches call advanceTo). Default 250. */
  tickMs?: number;
  /** Wall ms between checkpoints of the current candles (with the timer). Default 10,000. */
  checkpointMs?: number;
  /** Market ms each interval is kept (0 = forever); older candles are deleted. Default { '1s': 24 h }. */
  retention?: Partial<Record<Interval, number>>;
  /** Waiting closed candles that force a write before the next advance. Default 20,000. */
  flushAt?: number;
  /** A pair with no stored candle opens its current ones flat at the exchange's price (kline-restore.ts). Default true; not a replay's. */
  openAtPrice?: boolean;
}

/** Latest `limit` candles (default 500), or every candle opening in [startTime, endTime]. */
export type KlineQuery = { limit?: number } | KlineRange;

/** One trade as the klines take it: market ms, ticks, lots, the taker's side (1 buy, 2 sell). */
export interface KlineTrade {
  readonly time: number;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly takerSide: number;
  /** > 1: a record standing for that many trades at one price (the simulated history). Default 1. */
  readonly count?: number;
}

/**
 * Called after each change of a symbol's candles: a trade (every current candle changed) or an
 * advance that closed candles. `closed` lists the candles closed by this change, ascending per
 * interval (usually empty; a fresh array when not). Read current candles with current() /
 * currentKline(); listeners are expected to throttle.
 */
export type CandleListener = (symbol: string, closed: readonly Candle[]) => void;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const EMPTY: readonly Candle[] = Object.freeze([]);
const CLOSE_BRACKET = Buffer.from(']');
const CLOSE_BRACE = Buffer.from('}');
const EMPTY_OBJECT = Buffer.from('{}');
const INTERVAL_INDEX: Readonly<Record<Interval, number>> = Object.fromEntries(
  INTERVALS.map((i, k) => [i, k]),
) as Record<Interval, number>;

export class KlineService {
  private readonly symbols: SymbolCatalogue;
  private readonly clock: { now(): number };
  private readonly priceSource: KlineServiceDeps['exchange'] | null;
  readonly repo: CandleStore;
  private readonly ringSize: number;
  private readonly flushAt: number;
  private readonly retention: Array<[Interval, number]>;
  private readonly states = new Map<string, SymbolCandles>();
  private pendingSymbols: string[] = [];
  private pendingCandles: Candle[] = [];
  private listeners: CandleListener[] = [];
  private nextPruneAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  /**
   * Whether reads and the timer move candles to the market clock. A simulator that feeds
   * history with recordTrade() in chunks (yielding between them) turns it off meanwhile, so the
   * clock's "now" does not overtake the history being written, and calls advanceTo() itself.
   */
  autoAdvance = true;
  /** The public tape (RecentTrades), written before every candle write: a crash leaves no stored trade off it. */
  tape: { checkpoint(wait?: boolean): boolean } | null = null;
  /** What history has candles for (a replay of candles sets it): the candles it has none for are left out. */
  coverage: CandleCoverage | null = null;
  /** Candles from before the venue began (a replay's history before its start): served past its own oldest. */
  history: CandleHistory | null = null;

  constructor(deps: KlineServiceDeps, options: KlineServiceOptions = {}) {
    this.symbols = deps.symbols;
    this.clock = deps.clock;
    this.repo = deps.candles;
    this.priceSource = options.openAtPrice === false ? null : (deps.exchange ?? null);
    this.ringSize = options.ringSize ?? KLINES_MAX_LIMIT;
    if (!Number.isSafeInteger(this.ringSize) || this.ringSize < 1)
      throw new RangeError('ringSize must be a positive integer');
    this.flushAt = options.flushAt ?? 20_000;
    const retention = { '1s': DAY, ...options.retention } as Partial<Record<Interval, number>>;
    this.retention = (Object.entries(retention) as Array<[Interval, number]>).filter(([, ms]) => ms > 0);

    for (const row of this.symbols.all()) this.stateFor(row.symbol);
    if (deps.exchange) {
      this.unsubscribe = deps.exchange.events.on('trade', (e) => this.recordTrade(e.symbol, e));
    }
    const tickMs = options.tickMs ?? 250;
    if (tickMs > 0) {
      const every = Math.max(1, Math.round((options.checkpointMs ?? 10_000) / tickMs));
      let ticks = 0;
      this.timer = setInterval(() => {
        try {
          if (this.autoAdvance) this.advanceTo(this.clock.now());
          if (++ticks % every === 0) this.checkpoint(false);
        } catch (err) {
          console.error('perpdesk: kline timer failed', err);
        }
      }, tickMs);
      this.timer.unref?.();
    }
  }

  // ------------------------------------------------------------------ writing

  /**
   * Records one trade of `symbol` (the exchange's TradeEvent is a KlineTrade: nothing is built per
   * trade). Times must not go back; an earlier one counts at the symbol's latest time.
   */
  recordTrade(symbol: string, trade: KlineTrade): void {
    const { time, takerSide } = trade;
    const st = this.states.get(symbol) ?? this.stateFor(symbol);
    if (!Number.isSafeInteger(time)) throw new RangeError(`trade time must be an integer ms, got ${time}`);
    if (takerSide !== Side.BUY && takerSide !== Side.SELL)
      throw new RangeError(`takerSide must be 1 or 2, got ${takerSide}`);
    const t = time < st.lastTime ? st.lastTime : time;
    const before = this.pendingCandles.length;
    if (t >= st.horizon) this.skipAhead(st, t);
    st.builder.trade(t, trade.priceTicks, trade.qtyLots, takerSide, trade.count ?? 1);
    st.lastTime = t;
    st.dirty = true;
    if (this.listeners.length > 0) this.notify(symbol, before);
    if (this.pendingCandles.length >= this.flushAt) this.flush(false);
  }

  /** CandleBuilder.adjust on a symbol's current candles (a replay of candles: the source's columns). */
  adjustCurrent(
    symbol: string,
    from: Interval,
    columns: { trades: number; quote: bigint; takerBuyQuote: bigint },
  ): void {
    const st = this.states.get(symbol) ?? this.stateFor(symbol);
    st.builder.adjust(from, columns.trades, columns.quote, columns.takerBuyQuote);
    st.dirty = true;
    if (this.listeners.length > 0) this.notify(symbol, this.pendingCandles.length);
  }

  /** Moves every symbol's candles to market time t (closing what ended) and writes the closed ones. */
  advanceTo(t: number): void {
    if (!Number.isSafeInteger(t)) throw new RangeError(`advanceTo needs an integer ms, got ${t}`);
    for (const st of this.states.values()) {
      // A delisted pair's candles stand still.
      if (this.symbols.get(st.symbol)?.status === SymbolStatus.DELISTED) continue;
      this.advanceState(st, t);
    }
    this.flush(false);
    if (t >= this.nextPruneAt) this.prune(t);
  }

  /** Writes the closed candles collected so far (one unit); not `wait`: not while another connection locks the database. */
  flush(wait = true): void {
    const n = this.pendingCandles.length;
    if (n === 0 || this.stopped) return;
    // Inside someone else's unit a rollback would take our rows along: write later; so while the tape waits.
    if (this.repo.inUnit || this.tape?.checkpoint(wait) === false) return;
    try {
      if (wait) this.repo.writeMany(this.pendingSymbols, this.pendingCandles, n);
      else if (!this.repo.tryWriteMany(this.pendingSymbols, this.pendingCandles, n)) return;
    } catch (err) {
      // Market data, not acknowledged user data: the rings still serve them; keep going.
      console.error(`perpdesk: writing ${n} candles failed:`, oneLine(err));
    }
    this.pendingSymbols.length = 0;
    this.pendingCandles.length = 0;
  }

  /** Writes the closed candles and every changed current candle, so a restart continues them (`wait`: as flush). */
  checkpoint(wait = true): void {
    this.flush(wait);
    if (this.stopped || this.repo.inUnit || this.tape?.checkpoint(wait) === false) return;
    const syms: string[] = [];
    const candles: Candle[] = [];
    const states: SymbolCandles[] = [];
    for (const st of this.states.values()) {
      if (!st.dirty) continue;
      states.push(st);
      for (const c of st.builder.currentAll()) {
        if (this.coverage !== null && !this.coverage.shows(st.symbol, c, st.lastTime + 1)) continue;
        syms.push(st.symbol);
        candles.push(c);
      }
    }
    try {
      if (wait) this.repo.writeMany(syms, candles);
      else if (!this.repo.tryWriteMany(syms, candles)) return; // locked: the next checkpoint writes them
    } catch (err) {
      console.error('perpdesk: candle checkpoint failed:', oneLine(err)); // market data: the next change writes it again
    }
    for (const st of states) st.dirty = false;
  }

  /** Stops the timer and the trade subscription, writes everything. Call before the database closes. */
  close(): void {
    if (this.stopped) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.checkpoint();
    this.stopped = true;
  }

  onCandle(listener: CandleListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ------------------------------------------------------------------ reading

  /** The current (unclosed) candle of (symbol, interval); undefined while the symbol has no price (kline-restore.ts). */
  current(symbol: string, interval: Interval): Candle | undefined {
    const st = this.states.get(symbol);
    return st === undefined ? undefined : this.currentOf(st, interval);
  }

  /** The current candle in wire form (isClosed false). */
  currentKline(symbol: string, interval: Interval): KlineTuple | undefined {
    const st = this.states.get(symbol);
    const c = st === undefined ? undefined : this.currentOf(st, interval);
    return c === undefined ? undefined : st!.format(c, false);
  }

  /** The current candle as served: none where history has none (`coverage`). */
  private currentOf(st: SymbolCandles, interval: Interval): Candle | undefined {
    const c = st.builder.current(interval);
    if (c === undefined || this.coverage === null) return c;
    return this.coverage.shows(st.symbol, c, st.lastTime + 1) ? c : undefined;
  }

  /** Candles in wire form, newest first, the current unclosed one included. Throws ApiError (klines codes). */
  klines(symbol: string, interval: Interval, query: KlineQuery = {}): KlineTuple[] {
    const sel = this.select(symbol, interval, query);
    const { st, ring, current, rows } = sel;
    const out: KlineTuple[] = [];
    if (current) out.push(st.format(current, false));
    if (rows) for (let i = rows.length - 1; i >= 0; i--) out.push(st.format(rows[i], true));
    else for (let i = sel.to - 1; i >= sel.from; i--) out.push(st.format(ring.at(i), true));
    out.push(...this.older(sel, interval, query));
    return out;
  }

  /**
   * The closed candles with open time >= fromOpen, oldest first, in wire form: what a follower of the
   * candles (a kline stream) has not had yet, from its cursor. From the ring, or, when more than the
   * ring holds closed since fromOpen, from the store; costs the candles returned.
   */
  closedKlines(symbol: string, interval: Interval, fromOpen: number): KlineTuple[] {
    if (!isInterval(interval)) throw new ApiError(Errors.KLINES_INVALID_INTERVAL, `Invalid interval '${interval}'`);
    const st = this.states.get(symbol) ?? this.stateFor(symbol);
    const ring = this.ringOf(st, interval, this.currentOf(st, interval)); // no advance: a candle listener may call it
    const out: KlineTuple[] = [];
    if (ring.complete || (ring.size > 0 && ring.at(0).openTime <= fromOpen)) {
      for (let i = ring.lowerBound(fromOpen); i < ring.size; i++) out.push(st.format(ring.at(i), true));
      return out;
    }
    this.flush();
    const open = st.builder.current(interval)?.openTime; // the store's checkpoint of it is not closed
    const to = open === undefined ? Number.MAX_SAFE_INTEGER : open - 1;
    for (const c of this.repo.range(symbol, interval, fromOpen, to)) out.push(st.format(c, true));
    return out;
  }

  /** klines() as the JSON text of the response body. */
  klinesJson(symbol: string, interval: Interval, query: KlineQuery = {}): string {
    return this.klinesBody(symbol, interval, query).toString('utf8');
  }

  /**
   * klines() as the UTF-8 bytes of the response body. The closed part of a read is kept as bytes
   * until the next candle of that (symbol, interval) closes, so a repeated read costs one
   * serialised current candle and one copy.
   */
  klinesBody(symbol: string, interval: Interval, query: KlineQuery = {}): Buffer {
    const sel = this.select(symbol, interval, query);
    const closed = closedBytes(sel);
    const head = sel.current
      ? '[' + JSON.stringify(sel.st.format(sel.current, false)) + (closed.length > 0 ? ',' : '')
      : '[';
    const older = this.older(sel, interval, query);
    if (older.length === 0) return Buffer.concat([Buffer.from(head), closed, CLOSE_BRACKET]);
    const sep = sel.current !== undefined || closed.length > 0 ? ',' : '';
    const tail = Buffer.from(sep + older.map((k) => JSON.stringify(k)).join(','));
    return Buffer.concat([Buffer.from(head), closed, tail, CLOSE_BRACKET]);
  }

  /** Batch form: `{"SYM":[...],...}` in the given order (latest `limit` per symbol), as UTF-8 bytes. */
  klinesBatchBody(symbols: readonly string[], interval: Interval, limit = KLINES_DEFAULT_LIMIT): Buffer {
    const parts: Buffer[] = [];
    for (let i = 0; i < symbols.length; i++) {
      parts.push(Buffer.from((i === 0 ? '{' : ',') + JSON.stringify(symbols[i]) + ':'));
      parts.push(this.klinesBody(symbols[i], interval, { limit }));
    }
    parts.push(symbols.length === 0 ? EMPTY_OBJECT : CLOSE_BRACE);
    return Buffer.concat(parts);
  }

  private select(symbol: string, interval: Interval, query: KlineQuery): Selection {
    if (!isInterval(interval))
      throw new ApiError(Errors.KLINES_INVALID_INTERVAL, `Invalid interval '${String(interval)}'`);
    const st = this.states.get(symbol) ?? this.stateFor(symbol);
    if (this.autoAdvance && this.symbols.get(symbol)?.status !== SymbolStatus.DELISTED)
      this.advanceState(st, this.clock.now());
    const current = this.currentOf(st, interval);
    const ring = this.ringOf(st, interval, current);

    if ('startTime' in query) {
      const oldest = (): number | undefined => this.oldestOpen(symbol, interval);
      return selectRange({ st, ring, interval, current }, query, oldest, this.repo);
    }
    const limit = query.limit ?? KLINES_DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > KLINES_MAX_LIMIT) {
      throw new ApiError(Errors.KLINES_LIMIT_OUT_OF_RANGE);
    }
    const closedWanted = current ? limit - 1 : limit;
    return { st, ring, current, from: Math.max(0, ring.size - closedWanted), to: ring.size, rows: null };
  }

  /** The ring of (symbol, interval), loaded from the store (the candles before `current`) on first use. */
  private ringOf(st: SymbolCandles, interval: Interval, current: Candle | undefined): Ring {
    const ring = st.rings[INTERVAL_INDEX[interval]];
    if (!ring.loaded) {
      this.flush();
      const before = current ? current.openTime : Number.MAX_SAFE_INTEGER;
      ring.load(this.repo.latest(st.symbol, interval, before, this.ringSize));
    }
    return ring;
  }

  /** Open time of the pair's oldest `interval` candle (stored, current, or history's); undefined when it has none. */
  oldestOpen(symbol: string, interval: Interval): number | undefined {
    const { st, ring, current } = this.select(symbol, interval, { limit: 1 });
    const own = this.ownOldest(st, ring, current, interval);
    const past = this.history?.oldestOpen(symbol, interval);
    return past === undefined || (own !== undefined && own < past) ? own : past;
  }

  /** Open time of the venue's own oldest candle of a ring's interval (stored or current). */
  private ownOldest(
    st: SymbolCandles,
    ring: Ring,
    current: Candle | undefined,
    interval: Interval,
  ): number | undefined {
    if (ring.complete) return ring.size > 0 ? ring.at(0).openTime : current?.openTime;
    this.flush();
    return this.repo.oldestOpen(st.symbol, interval);
  }

  /** The history candles a read adds after the venue's own (kline-history.ts), in wire form, newest first. */
  private older(sel: Selection, interval: Interval, query: KlineQuery): KlineTuple[] {
    if (this.history === null) return [];
    const { st, ring, current, rows } = sel;
    const n = rows ? rows.length : sel.to - sel.from;
    const newest = current ?? (n === 0 ? undefined : rows ? rows[n - 1] : ring.at(sel.to - 1));
    const read = { symbol: st.symbol, interval, query, served: n + (current ? 1 : 0), newest: newest?.openTime };
    const oldest = this.ownOldest(st, ring, this.currentOf(st, interval), interval);
    return olderCandles(this.history, { ...read, oldest }, KLINES_DEFAULT_LIMIT, st.format, this.clock.now());
  }

  // ------------------------------------------------------------------ internals

  private stateFor(symbol: string): SymbolCandles {
    let st = this.states.get(symbol);
    if (st) return st;
    const row = this.symbols.get(symbol);
    if (!row) throw new ApiError(Errors.KLINES_SYMBOL_NOT_FOUND, `Unknown symbol '${symbol}'`);
    const plain = klineFormatter({
      tickSize: row.tickSize,
      stepSize: row.stepSize,
      pricePrecision: row.pricePrecision,
      qtyPrecision: row.qtyPrecision,
      quotePrecision: row.quotePrecision,
    });
    // the venue's candle of the period its history ends in is served joined to history's part of it
    const format = (c: Candle, closed: boolean): KlineTuple =>
      plain(this.history === null || c.openTime >= this.history.start ? c : this.history.join(symbol, c), closed);
    st = new SymbolCandles(symbol, format, this.ringSize);
    st.builder = this.newBuilder(st);
    // a trading pair only: a paused one that never traded has no candle, as a delisted one (e2e/markets.spec.ts)
    const price = row.status === SymbolStatus.TRADING ? this.priceSource?.pair(symbol)?.lastPriceTicks : undefined;
    const { candles: stored, lastTime } = currentCandles(this.repo, symbol, this.clock.now(), price);
    if (lastTime > st.lastTime) st.lastTime = lastTime;
    st.builder.restore(stored);
    this.states.set(symbol, st);
    return st;
  }

  private newBuilder(st: SymbolCandles): CandleBuilder {
    return new CandleBuilder({ onClose: (c) => this.candleClosed(st, c) });
  }

  /** A candle closed: queued for SQLite and appended to its ring (none where history has none: `coverage`). */
  private candleClosed(st: SymbolCandles, closed: Candle): void {
    let c = closed;
    if (this.coverage !== null) {
      if (c.trades === 0 && !this.coverage.shows(st.symbol, c, nextOpenTime(c.interval, c.openTime))) return;
      c = this.coverage.closed(st.symbol, c);
    }
    this.pendingSymbols.push(st.symbol);
    this.pendingCandles.push(c);
    st.rings[INTERVAL_INDEX[c.interval]].push(c);
  }

  private advanceState(st: SymbolCandles, time: number): void {
    const t = time < st.lastTime ? st.lastTime : time;
    const before = this.pendingCandles.length;
    if (t >= st.horizon) this.skipAhead(st, t);
    st.builder.advanceTo(t);
    st.lastTime = t;
    if (this.pendingCandles.length > before) {
      st.dirty = true;
      if (this.listeners.length > 0) this.notify(st.symbol, before);
    }
  }

  /** Before moving a symbol to time t: candle-rings.ts skipAhead (at most ringSize + 1 candles per interval a jump). */
  private skipAhead(st: SymbolCandles, t: number): void {
    const live = skipAhead(st.builder.currentAll(), t, this.ringSize, (c) => this.candleClosed(st, c));
    if (live !== null) {
      st.builder = this.newBuilder(st);
      st.builder.restore(live);
      st.dirty = true;
    }
    st.horizon = Math.floor(t / 1000) * 1000 + (this.ringSize + 1) * 1000;
  }

  private notify(symbol: string, before: number): void {
    const closed = this.pendingCandles.length > before ? this.pendingCandles.slice(before) : EMPTY;
    for (const l of this.listeners) {
      try {
        l(symbol, closed);
      } catch (err) {
        console.error('perpdesk: candle listener failed', err);
      }
    }
  }

  private prune(t: number): void {
    if (this.retention.length === 0 || this.repo.inUnit) return;
    const cuts: CandleCut[] = [];
    for (const st of this.states.values())
      for (const [interval, ms] of this.retention) cuts.push({ symbol: st.symbol, interval, beforeOpen: t - ms });
    try {
      // Not while another connection holds the write lock (a sqlite3 shell, the checkpointer's RESTART): the DELETE
      // waited for it on the event loop, up to the busy timeout (5 s, every answer held), and then failed the turn's
      // batch as a failed COMMIT would. Tried again at the next advance instead.
      if (!this.repo.tryPrune(cuts)) return;
    } catch (err) {
      console.error('perpdesk: pruning candles failed:', oneLine(err));
    }
    this.nextPruneAt = t + HOUR;
  }
}

/** A storage error (SQLite's: an errcode) in one line, as its message: a held lock is no bug; any other error with its stack. */
const oneLine = (err: unknown): unknown =>
  typeof (err as { errcode?: unknown })?.errcode === 'number' ? String(err) : err;
