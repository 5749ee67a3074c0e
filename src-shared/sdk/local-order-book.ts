// Local order book that follows the spec's accurate-mode rules (spec/api.md, Events): buffer
// the deltas, join them to a snapshot, resync on a gap, verify when idle.
// Invariants: while 'live', the book equals the venue's book at `lastUpdateId` (as long as the
// feed keeps its rules), and the feed is connected (a dropped connection leaves 'live' at once).
// Each side is sorted best first, with no empty or duplicate level (book-side.ts); level tuples
// handed out are never changed afterwards. No I/O of its own: deltas and pushes are handed in,
// snapshots come from `fetchSnapshot`, time from a `Scheduler`. Limits are in the class's doc.

import { followConnection } from './book-connection.ts';
import { jointOf } from './book-continuity.ts';
import { BookSide } from './book-side.ts';
import { isSnapshot } from './depth-types.ts';
import type {
  BookState,
  ConnectionEvents,
  Continuity,
  DepthPush,
  DepthSnapshot,
  DepthUpdate,
  GroupedBook,
  LocalOrderBookOptions,
  PriceLevel,
} from './depth-types.ts';
import { groupSide, parseStep } from './grouped-view.ts';
import { systemScheduler, type Scheduler } from './scheduler.ts';

// The book's input and output types live in depth-types.ts, the scheduler in scheduler.ts; both
// stay exported from here (and so from the SDK) as before the split.
export type {
  BookState,
  ConnectionEvents,
  Continuity,
  DepthPush,
  DepthSnapshot,
  DepthUpdate,
  GroupedBook,
  GroupedLevel,
  LocalOrderBookOptions,
  PriceLevel,
} from './depth-types.ts';
export { systemScheduler, type Scheduler } from './scheduler.ts';

/**
 * Local copy of one symbol's order book, kept by the spec's accurate-mode rules.
 *
 * Use: subscribe to `depth_update@{symbol}` (and `depth@{symbol},{level}` for the push
 * snapshot or the simple-mode fallback), route the pushes to {@link handleDelta} and
 * {@link handleSnapshotPush}, call {@link start} once the subscription is acknowledged, and
 * let {@link followConnection} tell the book when the WebSocket drops and when it is back
 * (or call {@link onDisconnect} and {@link onReconnect} yourself).
 *
 * @example
 * ```ts
 * const book = new LocalOrderBook({ symbol: 'BTCUSDT', fetchSnapshot: () => rest.depth('BTCUSDT') });
 * ws.on('depth_update@BTCUSDT', (d) => book.handleDelta(d as DepthUpdate));
 * ws.on('depth@BTCUSDT,20', (d) => book.handleSnapshotPush(d as DepthPush));
 * book.followConnection(ws);
 * await ws.subscribe(['depth_update@BTCUSDT', 'depth@BTCUSDT,20']);
 * book.start();
 * book.onUpdate(() => render(book.grouped('0.5', 20)));
 * ```
 *
 * Limits: prices and quantities stay the wire's decimal strings, ordered by `Number(price)`
 * (exact up to 15 significant digits); ids are JS numbers (exact up to 2^53); verification
 * compares only as many levels as the REST snapshot carries; while syncing or resyncing the
 * views keep the previous content, and `state` says whether it can be trusted.
 */
export class LocalOrderBook {
  readonly #symbol: string | undefined;
  readonly #fetch: (() => Promise<DepthSnapshot>) | undefined;
  readonly #continuity: Continuity;
  readonly #verifyIdleMs: number;
  readonly #snapshotRetries: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #recoverAfterMs: number;
  readonly #maxBuffer: number;
  readonly #sched: Scheduler;
  readonly #onError: (error: unknown) => void;

  #bids = new BookSide(true);
  #asks = new BookSide(false);
  #state: BookState = 'syncing';
  #lastUpdateId = -1;
  #resyncCount = 0;
  #buffer: DepthUpdate[] = [];
  /** No delta applied since the last snapshot: the bracketing rule applies to the next one. */
  #awaitingFirst = true;
  #started = false;
  #disposed = false;
  #everLive = false;
  /** False between `onDisconnect` and `onReconnect`: no snapshot is fetched meanwhile. */
  #connected = true;
  /** Failed or unusable snapshots in the current initialisation. */
  #attempts = 0;
  /** Bumped on every fetch and every reset; a fetch result with an older token is ignored. */
  #fetchToken = 0;
  #retryTimer: unknown = undefined;
  #recoverTimer: unknown = undefined;
  #verifyTimer: unknown = undefined;
  #lastActivityAt = 0;
  readonly #updateListeners = new Set<(book: LocalOrderBook) => void>();
  readonly #stateListeners = new Set<(state: BookState, previous: BookState) => void>();

  constructor(options: LocalOrderBookOptions = {}) {
    this.#symbol = options.symbol;
    this.#fetch = options.fetchSnapshot;
    this.#continuity = options.continuity ?? 'id';
    this.#verifyIdleMs = options.verifyIdleMs ?? 30_000;
    this.#snapshotRetries = options.snapshotRetries ?? 3;
    this.#retryBaseMs = options.retryBaseMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 10_000;
    this.#recoverAfterMs = options.recoverAfterMs ?? 30_000;
    this.#maxBuffer = options.maxBuffer ?? 10_000;
    this.#sched = options.scheduler ?? systemScheduler;
    this.#onError = options.onError ?? ((e) => console.error(e));
  }

  /** Current state; see {@link BookState}. */
  get state(): BookState {
    return this.#state;
  }

  /** Id of the book's content: the last applied `u`, the snapshot id, or -1 before any snapshot. */
  get lastUpdateId(): number {
    return this.#lastUpdateId;
  }

  /** Re-initialisations started after a gap, a reconnect or a failed verification. */
  get resyncCount(): number {
    return this.#resyncCount;
  }

  /** Deltas waiting for a snapshot. */
  get bufferedCount(): number {
    return this.#buffer.length;
  }

  /**
   * Starts initialisation: fetches a REST snapshot, or, without `fetchSnapshot`, waits for
   * the next `depth@` push. Call it after the `depth_update@` subscription is acknowledged,
   * so that the snapshot is not older than the first buffered delta. Calling it again is a no-op.
   */
  start(): void {
    if (this.#started || this.#disposed) return;
    this.#started = true;
    this.#requestSnapshot();
  }

  /** Repeats the full initialisation; call after the WebSocket reconnected and re-subscribed. */
  onReconnect(): void {
    if (this.#disposed) return;
    this.#connected = true;
    // Deltas from the old connection say nothing about what the new one will deliver.
    this.#buffer = [];
    if (!this.#started) return;
    this.#reinit();
  }

  /**
   * The feed's connection dropped: no delta can arrive until {@link onReconnect}. A 'live' or
   * 'simple' book goes to 'resyncing' at once ('syncing' if it was never live); its content
   * stays visible but is no longer current. Pending snapshot fetches, retries and
   * verification stop until the reconnect.
   * Calling it again while disconnected is a no-op.
   */
  onDisconnect(): void {
    if (this.#disposed || !this.#connected) return;
    this.#connected = false;
    this.#buffer = [];
    this.#fetchToken++;
    this.#clearTimers();
    this.#attempts = 0;
    if (this.#state === 'live' || this.#state === 'simple') this.#setState(this.#everLive ? 'resyncing' : 'syncing');
  }

  /**
   * Follows a connection (e.g. a {@link WsClient}): when it starts reconnecting or closes the
   * book leaves 'live' ({@link onDisconnect}); once it is ready again, with the channels
   * re-subscribed, the book re-initialises ({@link onReconnect}). Covers a first connection
   * that failed too, which `WsClient.onReconnect` does not report. Use it instead of wiring
   * `onReconnect` by hand, not besides it. The book is connected only while its delta stream
   * (`stream`; by default `depth_update@{symbol}` for a book with a symbol and `'id'` continuity)
   * is among the connection's `subscriptions`, when it lists them: a stream refused when the
   * connection was restored keeps the book out of 'live'. Returns a remover.
   */
  followConnection(conn: ConnectionEvents, stream?: string): () => void {
    const own = this.#continuity === 'id' && this.#symbol !== undefined ? `depth_update@${this.#symbol}` : undefined;
    return followConnection(this, conn, stream ?? own);
  }

  /** Stops all timers, ignores pending fetches and drops listeners. */
  dispose(): void {
    this.#disposed = true;
    this.#fetchToken++;
    this.#clearTimers();
    this.#updateListeners.clear();
    this.#stateListeners.clear();
    this.#buffer = [];
  }

  /** Hands one `depth_update@` delta to the book (in arrival order). */
  handleDelta(event: DepthUpdate): void {
    if (this.#disposed) return;
    if (this.#symbol !== undefined && event.s !== undefined && event.s !== this.#symbol) return;
    if (!Number.isFinite(event.U) || !Number.isFinite(event.u) || event.u < event.U) return;
    this.#lastActivityAt = this.#sched.now();
    if (this.#state !== 'live') {
      if (this.#buffer.length >= this.#maxBuffer) this.#buffer.shift();
      this.#buffer.push(event);
      return;
    }
    const r = this.#step(event);
    if (r === 'applied') this.#emitUpdate();
    else if (r === 'gap') {
      this.#buffer = [event];
      this.#reinit();
    }
  }

  /**
   * Hands one `depth@` push to the book. It initialises the book when the book has no
   * `fetchSnapshot`, and replaces the whole book in simple mode; otherwise it is ignored.
   */
  handleSnapshotPush(push: DepthPush): void {
    if (this.#disposed) return;
    if (this.#symbol !== undefined && push.s !== undefined && push.s !== this.#symbol) return;
    const id = push.u ?? push.id;
    if (id === undefined || !Number.isFinite(id)) return;
    if (this.#state === 'simple') {
      this.#bids.load(push.bids);
      this.#asks.load(push.asks);
      this.#lastUpdateId = id;
      this.#emitUpdate();
    } else if (this.#fetch === undefined && this.#started && this.#connected && this.#state !== 'live') {
      this.#install(push.bids, push.asks, id);
    }
  }

  /** Registers a listener called after every change of the book's content; returns its remover. */
  onUpdate(listener: (book: LocalOrderBook) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /** Registers a listener called on every state change; returns its remover. */
  onStateChange(listener: (state: BookState, previous: BookState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Best `n` bid levels (all when `n` is omitted), highest price first. */
  bids(n?: number): readonly PriceLevel[] {
    return this.#bids.levels.slice(0, n);
  }

  /** Best `n` ask levels (all when `n` is omitted), lowest price first. */
  asks(n?: number): readonly PriceLevel[] {
    return this.#asks.levels.slice(0, n);
  }

  /** Highest bid, or undefined when there is none. */
  bestBid(): PriceLevel | undefined {
    return this.#bids.levels[0];
  }

  /** Lowest ask, or undefined when there is none. */
  bestAsk(): PriceLevel | undefined {
    return this.#asks.levels[0];
  }

  /**
   * Levels grouped by a price step (a decimal string such as `"0.5"` or `"10"`), best `n`
   * groups per side with cumulative sizes, for a ladder. Bids round down to the step, asks
   * up, so a group never mixes prices from across the spread. Sums are exact decimals.
   * Only the levels needed for `n` groups are read.
   */
  grouped(step: string, n = 20): GroupedBook {
    const s = parseStep(step);
    return { bids: groupSide(this.#bids.levels, s, n, false), asks: groupSide(this.#asks.levels, s, n, true) };
  }

  // ---- internals ----

  /** Continuity check and application of one delta against the current book. */
  #step(ev: DepthUpdate): 'applied' | 'stale' | 'gap' {
    const joint = jointOf(this.#continuity, this.#lastUpdateId, this.#awaitingFirst, ev);
    if (joint !== 'join') return joint;
    for (const [p, q] of ev.b) this.#bids.set(p, q);
    for (const [p, q] of ev.a) this.#asks.set(p, q);
    this.#lastUpdateId = ev.u;
    this.#awaitingFirst = false;
    return 'applied';
  }

  /** Throws away the current synchronisation and starts a new one (gap, reconnect, verification). */
  #reinit(): void {
    this.#resyncCount++;
    this.#fetchToken++;
    this.#clearTimers();
    this.#attempts = 0;
    // In simple mode the pushes keep the book useful while we try again.
    if (this.#state !== 'simple') this.#setState(this.#everLive ? 'resyncing' : 'syncing');
    this.#requestSnapshot();
  }

  #requestSnapshot(): void {
    const fetch = this.#fetch;
    if (fetch === undefined) return; // the next depth@ push is the snapshot
    if (!this.#connected) return; // onReconnect starts it
    const token = ++this.#fetchToken;
    fetchOnce(fetch).then(
      (snap) => {
        if (token !== this.#fetchToken || this.#disposed) return;
        if (!isSnapshot(snap)) {
          this.#report(new Error('fetchSnapshot returned no valid snapshot'));
          this.#snapshotUnusable();
          return;
        }
        this.#install(snap.bids, snap.asks, snap.id);
      },
      (err: unknown) => {
        if (token !== this.#fetchToken || this.#disposed) return;
        this.#report(err);
        this.#snapshotUnusable();
      },
    );
  }

  /**
   * Loads a snapshot and replays the buffered deltas on it. When the snapshot is older than
   * the first buffered delta (a gap before anything was applied) the previous content is
   * restored and the snapshot counts as unusable.
   */
  #install(bids: readonly PriceLevel[], asks: readonly PriceLevel[], id: number): void {
    const prev = { bids: this.#bids, asks: this.#asks, id: this.#lastUpdateId, first: this.#awaitingFirst };
    this.#bids = new BookSide(true);
    this.#asks = new BookSide(false);
    this.#bids.load(bids);
    this.#asks.load(asks);
    this.#lastUpdateId = id;
    this.#awaitingFirst = true;
    const pending = this.#buffer;
    this.#buffer = [];
    for (let i = 0; i < pending.length; i++) {
      const r = this.#step(pending[i]);
      if (r !== 'gap') continue;
      this.#buffer = pending.slice(i);
      if (this.#awaitingFirst) {
        this.#bids = prev.bids;
        this.#asks = prev.asks;
        this.#lastUpdateId = prev.id;
        this.#awaitingFirst = prev.first;
        this.#snapshotUnusable();
      } else {
        // A gap inside the buffer itself: the feed lost events after the snapshot.
        this.#emitUpdate();
        this.#reinit();
      }
      return;
    }
    this.#attempts = 0;
    this.#everLive = true;
    this.#clearTimers();
    this.#lastActivityAt = this.#sched.now();
    this.#setState('live');
    this.#armVerify();
    this.#emitUpdate();
  }

  /** A snapshot fetch failed or its snapshot could not be joined to the deltas. */
  #snapshotUnusable(): void {
    if (this.#fetch === undefined) return; // push source: the next push is the next try
    if (this.#state === 'simple') {
      this.#recoverTimer = this.#sched.setTimeout(() => {
        this.#recoverTimer = undefined;
        this.#requestSnapshot();
      }, this.#recoverAfterMs);
      return;
    }
    this.#attempts++;
    if (this.#attempts > this.#snapshotRetries) {
      this.#attempts = 0;
      this.#setState('simple');
      this.#snapshotUnusable();
      return;
    }
    const delay = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** (this.#attempts - 1));
    this.#retryTimer = this.#sched.setTimeout(() => {
      this.#retryTimer = undefined;
      this.#requestSnapshot();
    }, delay);
  }

  #armVerify(): void {
    if (this.#fetch === undefined || this.#verifyIdleMs <= 0 || this.#verifyTimer !== undefined) return;
    this.#verifyTimer = this.#sched.setTimeout(() => this.#verifyTick(), this.#verifyIdleMs);
  }

  /**
   * Re-arms itself instead of being reset on every delta, so a busy feed costs no timer churn.
   */
  #verifyTick(): void {
    this.#verifyTimer = undefined;
    if (this.#state !== 'live' || this.#disposed) return;
    const idle = this.#sched.now() - this.#lastActivityAt;
    if (idle < this.#verifyIdleMs) {
      this.#verifyTimer = this.#sched.setTimeout(() => this.#verifyTick(), this.#verifyIdleMs - idle);
      return;
    }
    const fetch = this.#fetch;
    if (fetch === undefined) return;
    const token = ++this.#fetchToken;
    fetchOnce(fetch).then(
      (snap) => {
        if (token !== this.#fetchToken || this.#disposed || this.#state !== 'live') return;
        this.#lastActivityAt = this.#sched.now();
        if (isSnapshot(snap)) this.#verify(snap);
        else this.#report(new Error('fetchSnapshot returned no valid snapshot'));
        this.#armVerify();
      },
      (err: unknown) => {
        if (token !== this.#fetchToken || this.#disposed || this.#state !== 'live') return;
        this.#lastActivityAt = this.#sched.now();
        this.#report(err);
        this.#armVerify();
      },
    );
  }

  /**
   * Same id: the books must be equal, else the snapshot replaces the book. A newer snapshot
   * means deltas were lost: it re-initialises the book directly (deltas still in flight are
   * then stale or bracket it). An older one (deltas arrived during the fetch) proves nothing.
   */
  #verify(snap: DepthSnapshot): void {
    if (snap.id < this.#lastUpdateId) return;
    if (snap.id === this.#lastUpdateId) {
      const bids = new BookSide(true);
      const asks = new BookSide(false);
      bids.load(snap.bids);
      asks.load(snap.asks);
      if (this.#bids.startsWith(bids) && this.#asks.startsWith(asks)) return;
    }
    this.#resyncCount++;
    this.#buffer = [];
    this.#install(snap.bids, snap.asks, snap.id);
  }

  #clearTimers(): void {
    for (const t of [this.#retryTimer, this.#recoverTimer, this.#verifyTimer]) {
      if (t !== undefined) this.#sched.clearTimeout(t);
    }
    this.#retryTimer = this.#recoverTimer = this.#verifyTimer = undefined;
  }

  #setState(next: BookState): void {
    const prev = this.#state;
    if (prev === next) return;
    this.#state = next;
    for (const l of [...this.#stateListeners]) {
      try {
        l(next, prev);
      } catch (e) {
        this.#report(e);
      }
    }
  }

  #emitUpdate(): void {
    for (const l of [...this.#updateListeners]) {
      try {
        l(this);
      } catch (e) {
        this.#report(e);
      }
    }
  }

  #report(error: unknown): void {
    try {
      this.#onError(error);
    } catch {
      // An error reporter that throws must not break the book.
    }
  }
}

/** One call of `fetchSnapshot`, a synchronous throw included, as a promise. */
function fetchOnce(fetch: () => Promise<DepthSnapshot>): Promise<DepthSnapshot> {
  try {
    return Promise.resolve(fetch());
  } catch (e) {
    return Promise.reject(e);
  }
}
