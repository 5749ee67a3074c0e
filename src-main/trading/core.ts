// The exchange's live state, shared by its modules (order checks, ledger, fills, funding,
// liquidation, TP/SL, turn writer), and the look-ups they all use.
//
// Invariants
// - One writer: only a command running inside Exchange.execute changes this state, one command
//   at a time and to its end (no await), so commands are totally ordered.
// - Accounts are loaded lazily from the accounts port and then live here: a loaded account's
//   wallet, deposits, orders and positions in memory are the truth; the store follows through
//   the turn writer.
// - Ids never repeat, across crashes too: they are handed out from blocks whose end is stored
//   (settings 'id_hwm' for orders, 'trade_id_hwm' for trades) before the first id of the block is
//   used. A clean stop stores the last ids handed out instead (releaseIds), so a restart after it
//   continues with the next id; a crash leaves a gap up to the block's end, never a repeat.
// - A book's update id never goes back across restarts: the books start from the id stored
//   (settings 'book_update_ids'), which checkpointBookIds keeps BOOK_ID_HEADROOM ahead of the
//   live ids and a clean stop sets to the last one.
import { ApiError, Errors, STORE_FAILED, type RefusalReason } from '../../src-shared/errors.ts';
import { CloseType, MarginMode, PositionMode, PositionSide, Side, TimeInForce } from '../../src-shared/enums.ts';
import { OrderFlag, type ReduceOnlyGuard } from '../engine/types.ts';
import { IdMap, StringIdMap } from '../core/id-map.ts';
import { watchesLastPrice, type PositionState } from '../risk/position.ts';
import { EventBus, type AccountEvent } from './events.ts';
import { createPairState, type PairState } from './pair-state.ts';
import type { AccountState, ConditionalState, ExchangeDeps, OrderState, TradeState } from './ports.ts';
import { accountsAheadOfStore } from './store-divergence.ts';

/**
 * Engine account of bot orders sent through the bot route (the house market maker); house engine
 * accounts are this and up, user accounts (ids from 1) below. 2^29: the house accounts stay
 * small integers (V8 Smis, below 2^30), which the engine's fast paths and every look-up by
 * account take without boxing (a replay sends millions of house orders); never stored, so the
 * value may change between versions.
 */
export const HOUSE_ACCOUNT = 2 ** 29;
const DEFAULT_LEVERAGE = 20;
const DEFAULT_MARGIN_MODE: MarginMode = MarginMode.CROSS;
/** The insurance fund a new venue starts with: 1,000,000 USDT. */
export const INITIAL_INSURANCE_FUND = 1_000_000n * 100_000_000n;
const ID_BLOCK = 100_000;
/**
 * Trade ids a block: the most a restart after a crash skips. Trades come at hundreds a second (the
 * simulated market), so a block is stored every minute or so.
 */
const TRADE_ID_BLOCK = 10_000;
/** How far ahead of a book's update id the stored id is kept (a pair's level changes in far more than a checkpoint's second). */
const BOOK_ID_HEADROOM = 10_000_000;

/** An order the exchange tracks: user orders, cached bot orders, and the order of the command running. */
export interface LiveOrder extends OrderState {
  isBot: boolean;
  engineAccount: number;
  /** Close type written when this order flattens a position (CloseType: user, TP, SL, liquidation). */
  closeType: number;
  /** A bot order kept in the order cache (need_cache): listed, cancellable, announced. */
  cached?: boolean;
  /** Cancelled by a liquidation of its account: it ends EXPIRED, not CANCELED (liquidation.ts). */
  liquidated?: boolean;
}

export interface AccountLive {
  id: number;
  wallet: bigint;
  deposits: bigint;
  mode: PositionMode;
  frozen: bigint;
  positions: Map<string, PositionState>;
  /** Open orders by id (an IdMap: no garbage under churn, see core/id-map.ts). */
  orders: IdMap<LiveOrder>;
  /** Client order ids of the open orders. */
  clientIds: StringIdMap;
  pairs: Map<string, { leverage: number; marginMode: number }>;
  /** Margin calls made and not re-armed yet (margin-call.ts): `cross`, or an isolated position's key. */
  marginCalls?: Set<string>;
}

export const posKey = (symbol: string, side: number): string => `${symbol}:${side}`;

/**
 * The open position a request on a position names (TP/SL, isolated margin): the side's in hedge
 * mode, the net position whichever side it is on in one-way mode.
 */
export function positionNamed(a: AccountLive, symbol: string, positionSide: number): PositionState | undefined {
  const p =
    a.mode === PositionMode.HEDGE
      ? a.positions.get(posKey(symbol, positionSide))
      : (a.positions.get(posKey(symbol, PositionSide.LONG)) ?? a.positions.get(posKey(symbol, PositionSide.SHORT)));
  return p !== undefined && p.qty > 0 ? p : undefined;
}

/** Lots a reduce-only / close order may fill now: the position it reduces. */
export function reducibleLots(a: AccountLive, symbol: string, positionSide: number, side: number): number {
  if (a.mode === PositionMode.HEDGE) return a.positions.get(posKey(symbol, positionSide))?.qty ?? 0;
  // one-way: the net position must be on the other side of this order
  const p = a.positions.get(posKey(symbol, side === Side.BUY ? PositionSide.SHORT : PositionSide.LONG));
  return p?.qty ?? 0;
}

export function reject(def: (typeof Errors)[keyof typeof Errors], message?: string, reason?: RefusalReason): never {
  throw new ApiError(def, message, reason);
}

/**
 * A 1001 / 1002 about one input field: the message is `name rule` (`qty must be greater than
 * zero (got '0')`), and the error names the field, so a transport can say where it was sent.
 */
export function rejectParam(
  def: (typeof Errors)[keyof typeof Errors],
  name: string,
  rule: string,
  reason?: RefusalReason,
): never {
  throw new ApiError(def, `${name} ${rule}`, reason, name);
}

/**
 * What a command records for the end of its turn: the writes to store and the account events to
 * announce once they are durable (turn-writer.ts is the implementation; the exchange hands it in).
 */
export interface TurnLog {
  order(o: LiveOrder): void;
  /** A fill (a venue close's too: bankruptcy and ADL closes fill orders of their own, fills.ts VenueClose). */
  trade(t: TradeState): void;
  position(p: PositionState): void;
  closedPosition(p: PositionState, closeType: number): void;
  amendClosed(p: PositionState): void;
  wallet(a: AccountLive): void;
  orderEvent(o: LiveOrder): void;
  flush(): void;
  announce(ev: AccountEvent): void;
  announceBalance(a: AccountLive): void;
  announcePositions(a: AccountLive): void;
}

export class TradingCore {
  readonly events = new EventBus();
  readonly pairs = new Map<string, PairState>();
  readonly accounts = new Map<number, AccountLive>();
  /** Orders the exchange tracks: user orders and cached bot orders. */
  readonly orders = new IdMap<LiveOrder>(64);
  /** Conditional orders waiting for their trigger, by id (conditional.ts). */
  readonly conditionals = new Map<number, ConditionalState>();
  /** Positions that shrank in this drain: their reduce-only orders are trimmed (fills.ts). */
  readonly trimQueue = new Set<PositionState>();
  /**
   * One-way accounts whose position or opening orders on the drained pair changed in this drain:
   * their orders there are re-margined when it ends (fills.ts remargin).
   */
  readonly remarginQueue = new Set<AccountLive>();
  /**
   * House engine accounts whose orders are not the bot API's (a replay's historical book and
   * prints): cancelBot and trimBot refuse them as unknown, so only their owner changes them.
   */
  readonly reservedAccounts = new Set<number>();
  readonly deps: ExchangeDeps;
  readonly writer: TurnLog;
  /** Insurance fund, 1e-8 USDT; absorbs what liquidations cannot pay. Never below zero. */
  insurance = 0n;
  /**
   * The house backstop, 1e-8 USDT: what the venue's operator (the house, the counterparty of every
   * bot trade) has paid for losses the fund could not cover and nobody was left to deleverage
   * (liquidation.ts). Only grows; stored as the 'house_backstop' setting.
   */
  houseBackstop = 0n;
  /** The failed commit that stopped the exchange (null while sound): memory is ahead of the store. */
  fatal: Error | null = null;
  /**
   * Once stopped: the loaded accounts that failed commit left ahead of the store, whose reads are
   * refused (null: all of them, the store could not be compared); the others read on
   * (store-divergence.ts).
   */
  private aheadOfStore: Set<number> | null = null;
  checkingRisk = false;
  /** The market time of the command under way (Exchange.execute), null between commands: now(). */
  commandTime: number | null = null;
  /** The market time of the latest command (Exchange.lastCommandTime). */
  lastCommandTime = Number.NEGATIVE_INFINITY;
  /** Commands begun so far: the number of the one under way, which its account events carry (AccountEvent.command). */
  commands = 0;
  /**
   * Pairs traded on since their last-price triggers were last checked, while some were armed
   * (noteTrade): the first `tradedCount` slots, checked in this order when the command ends
   * (tpsl.ts fireTradeTriggers). Slots are overwritten, never dropped: a command that arms the
   * list allocates nothing (pairs live as long as the exchange).
   */
  readonly tradedPairs: PairState[] = [];
  tradedCount = 0;
  /** fireTradeTriggers is running (the closes it sends trade too: their range waits for its next round). */
  firingTriggers = false;
  private nextOrderId = 1;
  /** The pair requirePair() found last. */
  private lastPair: PairState | null = null;
  private nextTradeId = 1;
  private nextPositionId = 1;
  private idHwm = 0;
  private tradeIdHwm = 0;
  /** Each pair's update id as last stored (the books' ids stay below it until it is raised). */
  private readonly bookIdsStored = new Map<string, number>();

  constructor(deps: ExchangeDeps, writer: (core: TradingCore) => TurnLog) {
    this.deps = deps;
    this.writer = writer(this);
    // A failed group commit loses the turn's writes: memory is ahead of the disk, so refuse
    // every further command (the waiting answers get the error). The first failure is the cause
    // (the background writers' later commits may fail too). Reads of the accounts it left ahead
    // of the store are refused as well; the others' go on (store-divergence.ts).
    deps.repo.group.onFailure((err) => {
      if (this.fatal !== null) return;
      this.fatal = err;
      this.aheadOfStore = accountsAheadOfStore(deps, this.accounts.values(), this.conditionals.values());
    });
    const guard = closeGuard(this);
    for (const row of deps.symbols.all()) {
      const pair = createPairState(row, guard);
      // nobody tracks the reserved accounts' orders: their engines record only trades and levels
      pair.sink.quiet = this.reservedAccounts;
      this.pairs.set(row.symbol, pair);
    }
    // the engines record level changes only while someone listens for them (fills.ts 'level')
    this.events.watch('level', (listened) => {
      for (const pair of this.pairs.values()) pair.sink.levels = listened;
    });
    this.restore();
  }

  private restore(): void {
    const { repo, settings } = this.deps;
    const max = repo.maxIds();
    const hwm = settings.getNumber('id_hwm') ?? 0;
    // a folder from before trade ids had their own blocks: its trades are below id_hwm
    const tradeHwm = settings.getNumber('trade_id_hwm') ?? hwm;
    // conditional orders take their ids from the same sequence
    this.nextOrderId = Math.max(max.order, this.deps.conditionals.maxId(), hwm) + 1;
    this.nextTradeId = Math.max(max.trade, tradeHwm) + 1;
    this.nextPositionId = max.position + 1;
    this.reserveIds();
    // the books go on from their stored update ids, before the resting orders go back in
    const bookIds = JSON.parse(settings.get('book_update_ids') ?? '{}') as Record<string, number>;
    for (const [symbol, id] of Object.entries(bookIds)) {
      const pair = this.pairs.get(symbol);
      if (pair === undefined || !Number.isSafeInteger(id)) continue;
      pair.book.raiseUpdateId(id);
    }
    this.storeBookIds(BOOK_ID_HEADROOM);
    const fund = settings.get('insurance_fund');
    this.insurance = fund === undefined ? INITIAL_INSURANCE_FUND : BigInt(fund);
    if (fund === undefined) settings.set('insurance_fund', String(this.insurance));
    this.houseBackstop = BigInt(settings.get('house_backstop') ?? '0');

    for (const s of repo.loadPairSettings()) {
      this.account(s.accountId)?.pairs.set(s.symbol, { leverage: s.leverage, marginMode: s.marginMode });
    }
    for (const p of repo.loadPositions()) {
      const a = this.account(p.accountId);
      if (!a) continue;
      a.positions.set(posKey(p.symbol, p.side), p);
      // (a pair's bounds start open: its first trade looks at them)
      if (watchesLastPrice(p)) this.pairs.get(p.symbol)?.lastWatch.add(p);
    }
    // Resting user orders go back into their books in their original time order; they were
    // resting together before, so they cannot cross each other now.
    for (const o of repo.loadOpenOrders()) {
      const a = this.account(o.accountId);
      const pair = this.pairs.get(o.symbol);
      if (!a || !pair) continue;
      const live: LiveOrder = { ...o, isBot: false, engineAccount: o.accountId, closeType: CloseType.USER };
      this.orders.set(o.id, live);
      a.orders.set(o.id, live);
      a.clientIds.set(o.clientOrderId, o.id);
      a.frozen += o.frozen;
      pair.book.placeLimit(
        o.id,
        o.accountId,
        o.side,
        o.priceTicks,
        o.qtyLots - o.filledLots,
        TimeInForce.GTC,
        o.reduceOnly ? OrderFlag.ReduceOnly : 0,
      );
    }
    for (const pair of this.pairs.values()) {
      pair.sink.take();
      // the restored books, an empty one's too (update id 0): changed now, as far as anyone can tell
      pair.bookTimeId = pair.book.updateId;
      pair.bookTime = this.now();
    }
  }

  /** Ids are handed out from blocks whose end is stored first, so ids never repeat after a crash. */
  private reserveIds(): void {
    if (this.nextOrderId >= this.idHwm) {
      this.idHwm = this.nextOrderId + ID_BLOCK;
      this.deps.settings.set('id_hwm', String(this.idHwm));
    }
    if (this.nextTradeId >= this.tradeIdHwm) {
      this.tradeIdHwm = this.nextTradeId + TRADE_ID_BLOCK;
      this.deps.settings.set('trade_id_hwm', String(this.tradeIdHwm));
    }
  }

  takeOrderId(): number {
    const id = this.nextOrderId++;
    if (this.nextOrderId >= this.idHwm) this.reserveIds();
    return id;
  }

  takeTradeId(): number {
    const id = this.nextTradeId++;
    if (this.nextTradeId >= this.tradeIdHwm) this.reserveIds();
    return id;
  }

  /**
   * A clean stop: stores the last order and trade ids handed out as the blocks' ends, so the next
   * start continues with the next ids (no gap), and every book's update id as it is. Nothing may
   * run on the exchange afterwards without taking a new block (the next take does).
   */
  releaseIds(): void {
    // memory ahead of the disk (a failed commit): the blocks stay as stored
    if (this.fatal !== null) return;
    const { settings } = this.deps;
    this.idHwm = this.nextOrderId - 1;
    this.tradeIdHwm = this.nextTradeId - 1;
    settings.set('id_hwm', String(this.idHwm));
    settings.set('trade_id_hwm', String(this.tradeIdHwm));
    this.storeBookIds(0);
  }

  /**
   * Keeps every book's stored update id at least BOOK_ID_HEADROOM / 2 ahead of its live id
   * (storing it BOOK_ID_HEADROOM ahead when it is not), so a restart after a crash starts each
   * book above every id it announced: a client keeping its last id sees a gap, never a lower id.
   * Called once a second (the venue's market checkpoint); a write only when a pair came near.
   */
  checkpointBookIds(): void {
    for (const [symbol, pair] of this.pairs) {
      const stored = this.bookIdsStored.get(symbol) ?? 0;
      if (stored - pair.book.updateId < BOOK_ID_HEADROOM / 2) {
        this.storeBookIds(BOOK_ID_HEADROOM);
        return;
      }
    }
  }

  private storeBookIds(headroom: number): void {
    const ids: Record<string, number> = {};
    for (const [symbol, pair] of this.pairs) {
      const id = pair.book.updateId + headroom;
      ids[symbol] = id;
      this.bookIdsStored.set(symbol, id);
    }
    this.deps.settings.set('book_update_ids', JSON.stringify(ids));
  }

  /**
   * A trade at `priceTicks` on a pair with last-price triggers armed (the callers look at
   * pair.lastWatch first, so a pair without any pays for nothing more): it widens the pair's
   * traded range, which is checked when the command ends.
   */
  noteTrade(pair: PairState, priceTicks: number): void {
    if (pair.tradeHigh === 0) {
      pair.tradeHigh = priceTicks;
      pair.tradeLow = priceTicks;
      this.tradedPairs[this.tradedCount++] = pair;
    } else if (priceTicks > pair.tradeHigh) pair.tradeHigh = priceTicks;
    else if (priceTicks < pair.tradeLow) pair.tradeLow = priceTicks;
  }

  takePositionId(): number {
    return this.nextPositionId++;
  }

  account(id: number): AccountLive | undefined {
    let a = this.accounts.get(id);
    if (a) return a;
    const row = this.deps.accounts.byId(id);
    if (!row) return undefined;
    a = liveFromRow(row);
    this.accounts.set(id, a);
    return a;
  }

  /** Refuses a change (5001 naming the failure and what to do) once a commit failed. */
  checkHealthy(): void {
    if (this.fatal !== null) reject(Errors.SERVICE_UNAVAILABLE, `${STORE_FAILED.change}${this.fatal.message}`);
  }

  requirePair(symbol: string): PairState {
    // the pair of the last command first: a replay's mirror sends millions for one pair
    const last = this.lastPair;
    if (last !== null && last.row.symbol === symbol) return last;
    const p = this.pairs.get(symbol);
    if (!p) reject(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${symbol}'`);
    this.lastPair = p;
    return p;
  }

  /**
   * The account a read names. Once a commit failed, an account it left ahead of the store is
   * refused (5001): its figures in memory are not what is stored, nor what a restart shows.
   */
  requireAccount(id: number): AccountLive {
    if (this.fatal !== null && (this.aheadOfStore === null || this.aheadOfStore.has(id)))
      reject(Errors.SERVICE_UNAVAILABLE, `${STORE_FAILED.account}${this.fatal.message}`);
    const a = this.account(id);
    if (!a) reject(Errors.ACCOUNT_NOT_FOUND);
    return a;
  }

  /** The account a command changes: refused, whichever it is, once a commit failed (checkHealthy). */
  commandAccount(id: number): AccountLive {
    this.checkHealthy();
    const a = this.account(id);
    if (!a) reject(Errors.ACCOUNT_NOT_FOUND);
    return a;
  }

  /**
   * Market time: while a command runs (Exchange.execute), the one time it read when it began, so
   * an order, its fills, its ledger rows and its answer carry the same stamp however long the
   * command takes; between commands, the clock.
   */
  now(): number {
    return this.commandTime ?? this.deps.clock.now();
  }

  /**
   * A command begins (Exchange.execute): its market time is read once, here. False inside a
   * command already under way, whose time it keeps (the caller then leaves commandTime alone).
   */
  beginCommand(): boolean {
    if (this.commandTime !== null) return false;
    const time = this.deps.clock.now();
    this.commandTime = time;
    if (time > this.lastCommandTime) this.lastCommandTime = time;
    this.commands++;
    return true;
  }

  /** The account's setting on a pair (the defaults until it sets one). */
  pairSetting(a: AccountLive, pair: PairState): { leverage: number; marginMode: number } {
    return (
      a.pairs.get(pair.row.symbol) ?? {
        leverage: Math.min(DEFAULT_LEVERAGE, pair.row.maxLeverage),
        marginMode: DEFAULT_MARGIN_MODE,
      }
    );
  }
}

/**
 * The books' reduce-only guard (engine ReduceOnlyGuard): while one taker sweeps several close
 * orders of an account, each may fill only what is left of its position after the fills before
 * it in the same sweep, so none trades beyond the position (between commands fills.ts
 * trimCloseOrders keeps them within it). The positions read are as the last drain left them:
 * every command that trades is drained before the next one runs. Bot orders hold no position:
 * no cap.
 */
function closeGuard(core: TradingCore): ReduceOnlyGuard {
  return {
    makerCap(orderId: number, _account: number, reducedLots: number, otherLots: number): number {
      const o = core.orders.get(orderId);
      if (o === undefined || o.isBot) return -1;
      const a = core.accounts.get(o.accountId);
      if (a === undefined) return -1;
      // in one-way mode the account's other sells (buys) reduce the long (short) first too; in
      // hedge mode they open the other side
      const taken = a.mode === PositionMode.HEDGE ? reducedLots : reducedLots + otherLots;
      const left = reducibleLots(a, o.symbol, o.positionSide, o.side) - taken;
      return left > 0 ? left : 0;
    },
  };
}

function liveFromRow(row: AccountState): AccountLive {
  return {
    id: row.id,
    wallet: row.walletBalance,
    deposits: row.totalDeposits,
    mode: row.positionMode,
    frozen: 0n,
    positions: new Map(),
    orders: new IdMap(),
    clientIds: new StringIdMap(),
    pairs: new Map(),
  };
}

/** Open positions of an account on a symbol. */
export function positionsOf(a: AccountLive, symbol: string): PositionState[] {
  const out: PositionState[] = [];
  for (const p of a.positions.values()) if (p.symbol === symbol && p.qty > 0) out.push(p);
  return out;
}

/** Open orders of an account (on a symbol), by id. */
export function openOrdersOf(a: AccountLive, symbol?: string): LiveOrder[] {
  const out: LiveOrder[] = [];
  for (const o of a.orders.values()) if (symbol === undefined || o.symbol === symbol) out.push(o);
  return out.sort((x, y) => x.id - y.id);
}
