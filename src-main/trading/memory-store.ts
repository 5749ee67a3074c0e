// The trading ports in memory: an exchange that runs without SQLite (unit tests of the trading
// service, replays of a command log, a second venue in one process).
//
// Invariants (the ports' contract, ports.ts, kept without a database)
// - tx(fn) is all-or-nothing: writes inside it are staged and applied only when fn returns;
//   nested units join the outer one.
// - The commit boundary is explicit: defer() queues a writer for the next commit, commit()
//   runs the writers then the afterCommit callbacks (commitNow() in tests; setImmediate
//   otherwise, like the SQLite group commit). afterCommit runs at once when nothing is pending.
// - Reads run the queued writers first, so they see every change made so far.
// - Rows are copies: the store never shares an object with the exchange's live state.
import { ConditionalStatus, OrderStatus } from '../../src-shared/enums.ts';
import type { PositionState } from '../risk/position.ts';
import type { SymbolRow } from '../core/symbol.ts';
import type {
  AccountsPort,
  AccountSpec,
  AccountState,
  CommitHooks,
  ConditionalQuery,
  ConditionalState,
  ConditionalStorePort,
  FundingRateState,
  FundingRecordState,
  LiquidationFeeState,
  ListenKeyState,
  ListenKeyStorePort,
  MarginChangeState,
  TransferState,
  OrderState,
  PairSettingState,
  SettingsPort,
  SymbolsPort,
  TradeState,
  TradingStorePort,
} from './ports.ts';

export interface MemoryAccount extends AccountState {
  apiKey: string;
  apiSecret: string;
  kind: string;
}

export interface ClosedPositionState {
  position: PositionState;
  closeType: number;
  closedAt: number;
}

class MemoryCommit implements CommitHooks {
  private deferred: Array<() => void> = [];
  private after: Array<() => void> = [];
  private failureListeners: Array<(err: Error) => void> = [];
  private scheduled = false;
  /** Commits done (tests). */
  commits = 0;

  get pending(): boolean {
    return this.deferred.length > 0 || this.after.length > 0;
  }

  defer(fn: () => void): void {
    this.deferred.push(fn);
    this.schedule();
  }

  afterCommit(fn: () => void): void {
    if (!this.pending) fn();
    else this.after.push(fn);
  }

  onFailure(fn: (err: Error) => void): void {
    this.failureListeners.push(fn);
  }

  /** Runs the queued writers now (reads call this first). */
  sync(): void {
    while (this.deferred.length > 0) {
      const writers = this.deferred;
      this.deferred = [];
      for (const fn of writers) fn();
    }
  }

  /** Commits now: the queued writers, then the afterCommit callbacks (dropped when a writer fails). */
  commitNow(): void {
    const after = this.after;
    this.after = [];
    try {
      this.sync();
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      for (const fn of this.failureListeners) fn(e);
      return;
    }
    this.commits++;
    for (const fn of after) fn();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.commitNow();
    });
  }
}

export class MemorySymbols implements SymbolsPort {
  private readonly rows: readonly SymbolRow[];
  constructor(rows: readonly SymbolRow[]) {
    this.rows = rows;
  }
  all(): readonly SymbolRow[] {
    return this.rows;
  }
}

export class MemorySettings implements SettingsPort {
  private readonly values = new Map<string, string>();
  get(key: string): string | undefined {
    return this.values.get(key);
  }
  getNumber(key: string): number | undefined {
    const v = this.values.get(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  set(key: string, value: string): void {
    this.values.set(key, value);
  }
}

/** Accounts and trading rows of one in-memory venue (they share one commit boundary). */
export class MemoryTradingStore implements TradingStorePort, AccountsPort {
  readonly group = new MemoryCommit();
  readonly accounts = new Map<number, MemoryAccount>();
  readonly orders = new Map<number, OrderState>();
  readonly trades: TradeState[] = [];
  readonly positions = new Map<number, PositionState>();
  readonly closed: ClosedPositionState[] = [];
  readonly pairSettings = new Map<string, PairSettingState>();
  readonly fundingRates: FundingRateState[] = [];
  readonly fundingPayments: FundingRecordState[] = [];
  readonly transfers: TransferState[] = [];
  readonly liquidationFees: LiquidationFeeState[] = [];
  readonly marginChanges: MarginChangeState[] = [];
  private staged: Array<() => void> | null = null;

  // ---------------------------------------------------------------- accounts port

  byId(id: number): MemoryAccount | undefined {
    this.group.sync();
    const a = this.accounts.get(id);
    return a ? { ...a } : undefined;
  }

  byKey(apiKey: string): MemoryAccount | undefined {
    this.group.sync();
    for (const a of this.accounts.values()) if (a.apiKey === apiKey) return { ...a };
    return undefined;
  }

  upsert(spec: AccountSpec, _now: number): MemoryAccount {
    this.group.sync();
    let a: MemoryAccount | undefined;
    for (const x of this.accounts.values()) if (x.apiKey === spec.apiKey) a = x;
    if (!a) {
      a = {
        id: this.accounts.size + 1,
        apiKey: spec.apiKey,
        apiSecret: spec.apiSecret,
        kind: spec.kind,
        walletBalance: spec.balance,
        totalDeposits: spec.balance,
        positionMode: 'hedge',
      };
      this.accounts.set(a.id, a);
    } else {
      a.apiSecret = spec.apiSecret;
      a.totalDeposits += spec.balance - a.walletBalance;
      a.walletBalance = spec.balance;
    }
    return { ...a };
  }

  rotateKey(id: number, apiKey: string, apiSecret: string, _now: number): MemoryAccount | undefined {
    this.group.sync();
    const a = this.accounts.get(id);
    if (!a) return undefined;
    a.apiKey = apiKey;
    a.apiSecret = apiSecret;
    return { ...a };
  }

  // ---------------------------------------------------------------- trading store port

  tx<T>(fn: () => T): T {
    if (this.staged) return fn();
    this.group.sync();
    const staged: Array<() => void> = [];
    this.staged = staged;
    let out: T;
    try {
      out = fn();
    } finally {
      this.staged = null;
    }
    for (const w of staged) w();
    return out;
  }

  private write(w: () => void): void {
    if (this.staged) this.staged.push(w);
    else w();
  }

  saveOrder(o: OrderState): void {
    const row: OrderState = {
      id: o.id,
      clientOrderId: o.clientOrderId,
      accountId: o.accountId,
      symbol: o.symbol,
      side: o.side,
      type: o.type,
      tif: o.tif,
      priceTicks: o.priceTicks,
      qtyLots: o.qtyLots,
      filledLots: o.filledLots,
      filledQuote: o.filledQuote,
      status: o.status,
      leverage: o.leverage,
      marginMode: o.marginMode,
      positionSide: o.positionSide,
      positionAction: o.positionAction,
      reduceOnly: o.reduceOnly,
      expiredInMatch: o.expiredInMatch === true,
      frozen: o.frozen,
      totalFee: o.totalFee,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
    };
    this.write(() => this.orders.set(row.id, row));
  }

  insertTrade(t: TradeState): void {
    const row = { ...t };
    this.write(() => this.trades.push(row));
  }

  savePosition(p: PositionState): void {
    const row = { ...p };
    this.write(() => this.positions.set(row.id, row));
  }

  deletePosition(id: number): void {
    this.write(() => this.positions.delete(id));
  }

  insertClosed(p: PositionState, closeType: number, closedAt: number): number {
    const row = { position: { ...p }, closeType, closedAt };
    this.write(() => this.closed.push(row));
    return this.closed.length + 1;
  }

  setWallet(accountId: number, wallet: bigint, _now: number): void {
    this.write(() => {
      const a = this.accounts.get(accountId);
      if (a) a.walletBalance = wallet;
    });
  }

  addDeposit(accountId: number, amount: bigint, _now: number, deposit: bigint = amount): void {
    this.write(() => {
      const a = this.accounts.get(accountId);
      if (!a) return;
      a.walletBalance += amount;
      a.totalDeposits += deposit;
    });
  }

  setPositionMode(accountId: number, mode: 'hedge' | 'one_way', _now: number): void {
    this.write(() => {
      const a = this.accounts.get(accountId);
      if (a) a.positionMode = mode;
    });
  }

  savePairSetting(accountId: number, symbol: string, leverage: number, marginMode: number): void {
    this.write(() => this.pairSettings.set(`${accountId}:${symbol}`, { accountId, symbol, leverage, marginMode }));
  }

  insertFunding(rate: FundingRateState, records: readonly FundingRecordState[]): void {
    const r = { ...rate };
    const rows = records.map((x) => ({ ...x }));
    this.write(() => {
      this.fundingRates.push(r);
      this.fundingPayments.push(...rows);
    });
  }

  insertTransfer(t: TransferState): void {
    const row = { ...t };
    this.write(() => this.transfers.push(row));
  }

  insertLiquidationFees(fees: readonly LiquidationFeeState[]): void {
    const rows = fees.map((f) => ({ ...f }));
    this.write(() => this.liquidationFees.push(...rows));
  }

  insertMarginChange(c: MarginChangeState): void {
    const row = { ...c };
    this.write(() => this.marginChanges.push(row));
  }

  loadOpenOrders(): OrderState[] {
    this.group.sync();
    return [...this.orders.values()]
      .filter((o) => o.status === OrderStatus.NEW || o.status === OrderStatus.PARTIALLY_FILLED)
      .sort((x, y) => x.id - y.id)
      .map((o) => ({ ...o }));
  }

  loadPositions(): PositionState[] {
    this.group.sync();
    return [...this.positions.values()].sort((x, y) => x.id - y.id).map((p) => ({ ...p }));
  }

  loadPairSettings(): PairSettingState[] {
    return [...this.pairSettings.values()].map((s) => ({ ...s }));
  }

  order(id: number): OrderState | undefined {
    this.group.sync();
    const o = this.orders.get(id);
    return o ? { ...o } : undefined;
  }

  orderByClientId(accountId: number, clientOrderId: string, symbol?: string): OrderState | undefined {
    this.group.sync();
    let found: OrderState | undefined;
    for (const o of this.orders.values()) {
      if (
        o.accountId === accountId &&
        o.clientOrderId === clientOrderId &&
        (symbol === undefined || o.symbol === symbol)
      ) {
        if (!found || o.id > found.id) found = o;
      }
    }
    return found ? { ...found } : undefined;
  }

  maxIds(): { order: number; trade: number; position: number } {
    this.group.sync();
    let order = 0;
    let trade = 0;
    let position = 0;
    for (const id of this.orders.keys()) order = Math.max(order, id);
    for (const t of this.trades) trade = Math.max(trade, t.id);
    for (const id of this.positions.keys()) position = Math.max(position, id);
    for (const c of this.closed) position = Math.max(position, c.position.id);
    return { order, trade, position };
  }

  /**
   * Fees paid and realized PnL of an account over all its fills, and the liquidation clearance
   * fees it paid (the accounting identity's terms).
   */
  accountTotals(accountId: number): { fees: bigint; realized: bigint; liquidationFees: bigint } {
    this.group.sync();
    let fees = 0n;
    let realized = 0n;
    let liquidationFees = 0n;
    for (const t of this.trades) {
      if (t.accountId !== accountId) continue;
      fees += t.fee;
      realized += t.realizedPnl;
    }
    for (const f of this.liquidationFees) if (f.accountId === accountId) liquidationFees += f.fee;
    return { fees, realized, liquidationFees };
  }

  /** Funding paid by an account: open positions' plus closed positions' (positive = paid). */
  fundingPaid(accountId: number): bigint {
    this.group.sync();
    let paid = 0n;
    for (const p of this.positions.values()) if (p.accountId === accountId) paid += p.fundingFee;
    for (const c of this.closed) if (c.position.accountId === accountId) paid += c.position.fundingFee;
    return paid;
  }
}

/** Conditional orders in memory (the SQLite one: store/conditional-repo.ts). */
export class MemoryConditionalStore implements ConditionalStorePort {
  readonly rows = new Map<number, ConditionalState>();
  private readonly group: { sync(): void };

  /** `group`: the trading store's commit, whose queued writes a read runs first. */
  constructor(group: { sync(): void }) {
    this.group = group;
  }

  save(c: ConditionalState): void {
    this.rows.set(c.id, { ...c });
  }

  loadWaiting(): ConditionalState[] {
    return [...this.rows.values()].filter((c) => c.status === ConditionalStatus.NEW).sort((x, y) => x.id - y.id);
  }

  byId(id: number): ConditionalState | undefined {
    this.group.sync();
    const c = this.rows.get(id);
    return c ? { ...c } : undefined;
  }

  placedOrders(orderIds: readonly number[]): ConditionalState[] {
    const ids = new Set(orderIds);
    return [...this.rows.values()].filter((c) => c.orderId !== 0 && ids.has(c.orderId)).map((c) => ({ ...c }));
  }

  list(q: ConditionalQuery): ConditionalState[] {
    this.group.sync();
    return [...this.rows.values()]
      .filter(
        (c) =>
          c.accountId === q.accountId &&
          (q.symbol === undefined || c.symbol === q.symbol) &&
          (q.status === undefined || c.status === q.status) &&
          (q.clientOrderId === undefined || c.clientOrderId === q.clientOrderId) &&
          (q.beforeId === undefined || c.id < q.beforeId),
      )
      .sort((x, y) => y.id - x.id)
      .slice(0, q.limit)
      .map((c) => ({ ...c }));
  }

  maxId(): number {
    let m = 0;
    for (const id of this.rows.keys()) if (id > m) m = id;
    return m;
  }
}

/** listenKeys in memory (the SQLite one: store/listen-keys-repo.ts). */
export class MemoryListenKeyStore implements ListenKeyStorePort {
  readonly rows = new Map<number, ListenKeyState>();

  loadAll(): ListenKeyState[] {
    return [...this.rows.values()].map((k) => ({ ...k }));
  }

  save(k: ListenKeyState): void {
    this.rows.set(k.accountId, { ...k });
  }

  remove(accountId: number): void {
    this.rows.delete(accountId);
  }
}
