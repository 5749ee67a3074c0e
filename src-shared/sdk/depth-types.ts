// What LocalOrderBook takes and gives: the depth records it accepts, its states and options,
// and the grouped (ladder) view's rows; plus the one shape check of a fetched snapshot.
//
// The input types accept the wire records of
// src-shared/types.ts (DepthSnapshot, DepthUpdateEvent, DepthSnapshotEvent) as they are,
// and are lenient enough for other feeds (tests, Binance data).

import type { Scheduler } from './scheduler.ts';

/** One price level: `[price, quantity]`, both decimal strings; read-only once in the book. */
export type PriceLevel = readonly [price: string, qty: string];

/** REST snapshot: `data` of `GET /fapi/v1/depth?symbol=X&with_id=true`. */
export interface DepthSnapshot {
  /** Bid levels (any order; the book sorts them). */
  readonly bids: readonly PriceLevel[];
  /** Ask levels (any order; the book sorts them). */
  readonly asks: readonly PriceLevel[];
  /** Update id after the last change the snapshot includes. */
  readonly id: number;
}

/** Push of the snapshot channel `depth@{symbol},{level}`. The spec allows the id as `u` or `id`. */
export interface DepthPush {
  /** Event type; our server sends `'depth'`. Not checked. */
  readonly e?: string;
  /** Event time, ms. */
  readonly E?: number;
  /** Symbol. */
  readonly s?: string;
  /** Update id after the last change the push includes. */
  readonly u?: number;
  /** Same as `u`, for feeds that name it `id`. */
  readonly id?: number;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

/** Delta of the `depth_update@{symbol}` channel. Quantities are absolute; `"0"` deletes the level. */
export interface DepthUpdate {
  /** Event type; our server sends `'depthUpdate'` (Binance's name). Not checked. */
  readonly e?: string;
  /** Event time, ms. */
  readonly E?: number;
  /** Symbol. */
  readonly s?: string;
  /** First update id in the event. */
  readonly U: number;
  /** Last update id in the event. */
  readonly u: number;
  /** `u` of the previous event; required when `continuity` is `'pu'`. */
  readonly pu?: number;
  /** Bid changes. */
  readonly b: readonly PriceLevel[];
  /** Ask changes. */
  readonly a: readonly PriceLevel[];
}

/**
 * - `syncing`: never synchronised yet; deltas are buffered.
 * - `live`: accurate mode, every delta applied in order.
 * - `resyncing`: was live, re-initialising after a gap, a lost connection (until it is back
 *   and a new snapshot is joined), a reconnect or a failed verification.
 * - `simple`: snapshots cannot be fetched; the book is replaced by each `depth@` push and
 *   the book keeps trying to return to accurate mode.
 */
export type BookState = 'syncing' | 'live' | 'resyncing' | 'simple';

/**
 * How consecutive deltas are checked.
 * - `'id'` (our spec): ids rise by one per change; the first applied event has
 *   `U <= lastUpdateId+1 <= u`; then `U > lastUpdateId+1` is a gap.
 * - `'pu'` (Binance USD-M feeds, whose ids are shared across symbols and so skip): the first
 *   applied event has `U <= lastUpdateId <= u`; then each event's `pu` must equal the
 *   previous `u`. Exists so that Binance-format data can be replayed through this book.
 */
export type Continuity = 'id' | 'pu';

/**
 * What {@link LocalOrderBook.followConnection} needs of a connection; {@link WsClient} fits.
 * `state` values other than 'reconnecting' and 'closed' count as up.
 */
export interface ConnectionEvents {
  readonly state: string;
  /** Registers a state listener; returns its remover. */
  onStateChange(listener: (state: string, previous: string) => void): () => void;
  /**
   * Resolves once the connection is open and its subscriptions are restored; rejects when closed
   * for good, or when an attempt failed (the follower then waits for the next one unless `state`
   * is 'closed').
   */
  whenReady(): Promise<void>;
  /** The streams the connection holds (WsClient's `subscriptions`); when given, the book checks its own is there. */
  readonly subscriptions?: readonly string[];
  /** Registers a listener of `subscriptions` changes; returns its remover. */
  onSubscriptionsChange?(listener: (subscriptions: readonly string[]) => void): () => void;
}

/** Options of {@link LocalOrderBook}. Every timing is in ms of the injected scheduler. */
export interface LocalOrderBookOptions {
  /** When set, events whose `s` names another symbol are ignored. */
  symbol?: string;
  /**
   * Fetches a REST snapshot (e.g. `GET /fapi/v1/depth?symbol=X&with_id=true`'s `data`).
   * Without it the book initialises from the first `depth@` push after `start()`.
   */
  fetchSnapshot?: () => Promise<DepthSnapshot>;
  /** Continuity rule; default `'id'` (our spec). `'pu'` is for Binance-format feeds. */
  continuity?: Continuity;
  /** Verify against a REST snapshot when no delta arrived for this long; 0 disables. Default 30000. */
  verifyIdleMs?: number;
  /** Retries after a failed or unusable snapshot before falling back to simple mode. Default 3. */
  snapshotRetries?: number;
  /** First retry delay; doubles per retry. Default 500. */
  retryBaseMs?: number;
  /** Upper bound of the retry delay. Default 10000. */
  retryMaxMs?: number;
  /** In simple mode, try a REST snapshot again this often. Default 30000. */
  recoverAfterMs?: number;
  /** Most deltas kept while not live; the oldest are dropped beyond it. Default 10000. */
  maxBuffer?: number;
  /** Clock and timers; default {@link systemScheduler}. */
  scheduler?: Scheduler;
  /** Receives fetch failures and listener exceptions; default `console.error`. */
  onError?: (error: unknown) => void;
}

/** One row of a grouped (ladder) view. */
export interface GroupedLevel {
  /** Group price, a multiple of the step, written with the step's decimals. */
  readonly price: string;
  /** Sum of the quantities in the group (exact decimal). */
  readonly qty: string;
  /** Cumulative quantity from the best group to this one (exact decimal). */
  readonly total: string;
}

/** Grouped view of both sides, best group first. */
export interface GroupedBook {
  readonly bids: readonly GroupedLevel[];
  readonly asks: readonly GroupedLevel[];
}

/** A fetched value has a snapshot's shape (bids, asks, a finite id); levels are checked as they load. */
export function isSnapshot(x: unknown): x is DepthSnapshot {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Partial<DepthSnapshot>;
  return Array.isArray(s.bids) && Array.isArray(s.asks) && typeof s.id === 'number' && Number.isFinite(s.id);
}
