// The trading service's ports: what the exchange needs from storage, the clock and the wire.
//
// The exchange depends on these interfaces only; SQLite implements them in store/*-repo.ts
// (`implements`), trading/memory-store.ts implements them in memory (tests, replay), and the API
// layer implements RecordFormat (api/records.ts). Invariants every implementation keeps:
// - `tx(fn)` is all-or-nothing: when fn throws, none of its writes stays;
// - `group.defer(fn)` runs fn once before the next commit, inside it (the turn writer: one
//   write per changed row per commit); `group.afterCommit(fn)` runs fn once everything written
//   so far is committed (at once when nothing is pending); `group.onFailure` is told when a
//   commit failed (the exchange's memory is then ahead of the store: it stops);
// - reads (`order`, `orderByClientId`, `byId`) see every write made so far, deferred or not.
// Nothing here awaits: a command runs to its end synchronously.
import type { MarginChangeType, PositionSide } from '../../src-shared/enums.ts';
import type { AccountSummary, OrderRecord, PositionRecord, TradeRecord } from '../../src-shared/types.ts';
import type { SymbolMath } from '../risk/money.ts';
import type { PositionState } from '../risk/position.ts';
import type { SymbolRow } from '../core/symbol.ts';
import type { PairState } from './pair-state.ts';

/** An order as the exchange keeps and stores it (ticks, lots, 1e-8 USDT units). */
export interface OrderState {
  id: number;
  clientOrderId: string;
  accountId: number;
  symbol: string;
  side: number;
  type: number;
  tif: number;
  priceTicks: number;
  qtyLots: number;
  filledLots: number;
  filledQuote: bigint;
  status: number;
  leverage: number;
  marginMode: number;
  positionSide: number;
  positionAction: number;
  reduceOnly: boolean;
  /** Expired by self-trade prevention (the taker met its own resting order): Binance's EXPIRED_IN_MATCH. */
  expiredInMatch?: boolean;
  frozen: bigint;
  totalFee: bigint;
  createdAt: number;
  updatedAt: number;
}

/**
 * A conditional order as the exchange keeps and stores it (trading/conditional.ts): the order to
 * place (ticks, lots; 0 lots: the whole position when it fires) and its trigger.
 */
export interface ConditionalState {
  id: number;
  clientOrderId: string;
  accountId: number;
  symbol: string;
  side: number;
  positionSide: number;
  positionAction: number;
  /** Of the order it places: 1 limit, 2 market. */
  type: number;
  /** The limit price, 0 for a market order. */
  priceTicks: number;
  /** 0: close the whole position (close_position). */
  qtyLots: number;
  tif: number;
  reduceOnly: boolean;
  /** 0: the account's setting when it fires. */
  leverage: number;
  marginMode: number;
  /** Where it fires (a trailing stop's moves with its peak, trailing.ts). */
  triggerTicks: number;
  /** 1 fires at or above the trigger, 2 at or below. */
  direction: number;
  /** A trailing stop's callback rate in tenths of a percent (1 = 0.1 %); 0 for a plain trigger. */
  callbackTenths: number;
  /** A trailing stop's activation price (0: active from placement). */
  activationTicks: number;
  /** The best price a trailing stop has seen since it activated (0: not active yet). */
  peakTicks: number;
  activatedAt: number;
  workingType: number;
  /** Held back while last and mark are apart (conditional-trigger.ts heldBack). */
  priceProtect: boolean;
  status: number;
  /** The order it placed (0 until it fired, and when that order was refused). */
  orderId: number;
  rejectCode: number;
  rejectReason: string;
  createdAt: number;
  updatedAt: number;
  triggeredAt: number;
}

/** A look-up of an account's conditional orders (every filter optional but the account). */
export interface ConditionalQuery {
  accountId: number;
  symbol?: string;
  status?: number;
  clientOrderId?: string;
  beforeId?: number;
  limit: number;
}

/** Where conditional orders are kept (SQLite store/conditional-repo.ts, or memory-store.ts). */
export interface ConditionalStorePort {
  /** Inserts or updates one (called inside the turn's group commit). */
  save(c: ConditionalState): void;
  /** Those still waiting (status 1), by id. */
  loadWaiting(): ConditionalState[];
  byId(id: number): ConditionalState | undefined;
  /** Those that fired and placed one of the orders `orderIds` (their `orderId`), in no set order. */
  placedOrders(orderIds: readonly number[]): ConditionalState[];
  /** An account's, newest first (below `beforeId` when given). */
  list(q: ConditionalQuery): ConditionalState[];
  /** The highest id stored (0 when none): ids come from the order id sequence. */
  maxId(): number;
}

/** A listenKey of the Binance dialect's user data stream: its account's one, valid until `expiresAt` (wall ms). */
export interface ListenKeyState {
  accountId: number;
  key: string;
  expiresAt: number;
}

/** Where listenKeys are kept (SQLite store/listen-keys-repo.ts, or memory-store.ts), so a restart keeps them. */
export interface ListenKeyStorePort {
  /** Every key stored, expired ones too (api/binance/listen-keys.ts drops those). */
  loadAll(): ListenKeyState[];
  /** Stores the account's key and expiry (a unit of the group commit), replacing the account's one. */
  save(k: ListenKeyState): void;
  remove(accountId: number): void;
}

/** One fill of one account (the user's side of a trade, or a bankruptcy / ADL close). */
export interface TradeState {
  id: number;
  orderId: number;
  accountId: number;
  symbol: string;
  side: number;
  positionSide: number;
  priceTicks: number;
  qtyLots: number;
  quote: bigint;
  fee: bigint;
  feeRate: string;
  role: number;
  isClose: boolean;
  realizedPnl: bigint;
  createdAt: number;
}

/**
 * One position's share of one funding settlement (positive amount = received, Binance's sign of
 * a FUNDING_FEE income); rate and mark are the settlement's, as the market gave them.
 */
export interface FundingRecordState {
  accountId: number;
  symbol: string;
  positionSide: number;
  time: number;
  rate: number;
  mark: number;
  amount: bigint;
}

/** Why money moved into or out of a wallet from outside trading (the transfers table, migration 7). */
export const TransferKind = { DEPOSIT: 1, RESET: 2, ACCOUNT_SET: 3, INSURANCE_COVER: 4 } as const;
export type TransferKind = (typeof TransferKind)[keyof typeof TransferKind];

/** One transfer into (amount > 0) or out of an account's wallet, at market time. */
export interface TransferState {
  accountId: number;
  kind: TransferKind;
  time: number;
  amount: bigint;
}

/**
 * A liquidation's clearance fee, charged to one liquidated position and paid to the insurance fund
 * (trading/liquidation.ts; Binance's INSURANCE_CLEAR income, negative). `fee` > 0 is paid.
 */
export interface LiquidationFeeState {
  accountId: number;
  symbol: string;
  positionSide: number;
  positionId: number;
  time: number;
  fee: bigint;
}

/**
 * Margin moved by hand between the available balance and an isolated position (the
 * isolated_margin_changes table, migration 12; Binance's positionMargin history): `type` 1 added,
 * 2 removed; `amount` > 0 units moved, `margin` the position's isolated margin after it.
 */
export interface MarginChangeState {
  accountId: number;
  symbol: string;
  positionSide: PositionSide;
  positionId: number;
  type: MarginChangeType;
  amount: bigint;
  margin: bigint;
  time: number;
}

/** A pair's funding rate at one settlement (recorded whether or not a position paid). */
export interface FundingRateState {
  symbol: string;
  time: number;
  rate: number;
  mark: number;
}

/** The part of an account the ledger keeps live. */
export interface AccountState {
  id: number;
  walletBalance: bigint;
  totalDeposits: bigint;
  positionMode: 'hedge' | 'one_way';
}

export interface AccountSpec {
  apiKey: string;
  apiSecret: string;
  kind: 'user' | 'local';
  balance: bigint;
}

export interface PairSettingState {
  accountId: number;
  symbol: string;
  leverage: number;
  marginMode: number;
}

/** The commit boundary the turn writer and the announcements hang on. */
export interface CommitHooks {
  defer(fn: () => void): void;
  afterCommit(fn: () => void): void;
  onFailure(fn: (err: Error) => void): void;
}

export interface SymbolsPort {
  all(): readonly SymbolRow[];
}

export interface AccountsPort {
  byId(id: number): AccountState | undefined;
  byKey(apiKey: string): AccountState | undefined;
  /** Creates the account with this key, or sets its secret and its wallet to `balance` (the difference booked as a deposit). */
  upsert(spec: AccountSpec, now: number): AccountState;
  /** Replaces the account's key and secret; undefined when there is no such account. */
  rotateKey(id: number, apiKey: string, apiSecret: string, now: number): AccountState | undefined;
}

export interface SettingsPort {
  get(key: string): string | undefined;
  getNumber(key: string): number | undefined;
  set(key: string, value: string): void;
}

export interface TradingStorePort {
  readonly group: CommitHooks;
  tx<T>(fn: () => T): T;
  saveOrder(o: OrderState): void;
  insertTrade(t: TradeState): void;
  savePosition(p: PositionState): void;
  deletePosition(id: number): void;
  insertClosed(p: PositionState, closeType: number, closedAt: number): number;
  setWallet(accountId: number, wallet: bigint, now: number): void;
  /** Adds `amount` to the wallet and `deposit` (default: the same) to total deposits. */
  addDeposit(accountId: number, amount: bigint, now: number, deposit?: bigint): void;
  setPositionMode(accountId: number, mode: 'hedge' | 'one_way', now: number): void;
  savePairSetting(accountId: number, symbol: string, leverage: number, marginMode: number): void;
  /** Stores a settlement: the pair's rate and each position's payment (one unit with the wallets). */
  insertFunding(rate: FundingRateState, records: readonly FundingRecordState[]): void;
  /** Stores a transfer (in the unit that moves the wallet and the deposits total). */
  insertTransfer(t: TransferState): void;
  /** Stores liquidation clearance fees (in the unit that moves the wallets and the insurance fund). */
  insertLiquidationFees(fees: readonly LiquidationFeeState[]): void;
  /** Stores a hand-made isolated margin change (in the unit that moves the position's margin). */
  insertMarginChange(c: MarginChangeState): void;
  loadOpenOrders(): OrderState[];
  loadPositions(): PositionState[];
  loadPairSettings(): PairSettingState[];
  order(id: number): OrderState | undefined;
  orderByClientId(accountId: number, clientOrderId: string, symbol?: string): OrderState | undefined;
  maxIds(): { order: number; trade: number; position: number };
}

/** Market time, ms. */
interface Clock {
  now(): number;
}

/** Position risk figures the ledger computes for a position record (floats: display only). */
export interface PositionRisk {
  margin: number;
  liquidationPrice: number;
  marginRatio: number;
  unrealizedPnl: number;
}

/** Account money the ledger computes for a balance summary (1e-8 USDT units). */
export interface AccountMoney {
  id: number;
  wallet: bigint;
  deposits: bigint;
  frozen: bigint;
  available: bigint;
  positionMargin: bigint;
  unrealizedPnl: bigint;
  marginBalance: bigint;
  mode: 'hedge' | 'one_way';
}

/** Wire records of trading state: implemented by the API layer (api/records.ts). */
export interface RecordFormat {
  order(math: SymbolMath, o: OrderState): OrderRecord;
  trade(math: SymbolMath, t: TradeState): TradeRecord;
  position(pair: PairState, p: PositionState, risk: PositionRisk): PositionRecord;
  summary(m: AccountMoney): AccountSummary;
}

export interface ExchangeDeps {
  symbols: SymbolsPort;
  accounts: AccountsPort;
  settings: SettingsPort;
  repo: TradingStorePort;
  conditionals: ConditionalStorePort;
  clock: Clock;
  records: RecordFormat;
}

/** A closed position as stored (the history routes format it, api/records.ts). */
export interface ClosedPositionRow {
  id: number;
  positionId: number;
  accountId: number;
  symbol: string;
  positionSide: number;
  marginMode: number;
  leverage: number;
  openQuantity: number;
  closeQuantity: number;
  openAmount: bigint;
  closeAmount: bigint;
  openFee: bigint;
  closeFee: bigint;
  totalFundingFee: bigint;
  realizedPnl: bigint;
  closeType: number;
  openedAt: number;
  closedAt: number;
  createdAt: number;
}

// ---------------------------------------------------------------- read side of the stored history

export interface TradeQuery {
  accountId: number;
  symbol?: string;
  side?: number;
  startTime?: number;
  endTime?: number;
  /** Only trades with id below this (cursor pagination, newest first). */
  beforeId?: number;
  limit: number;
}

export interface ClosedQuery {
  accountId: number;
  symbol?: string;
  positionSide?: number;
  marginMode?: number;
  closeType?: number;
  startTime?: number;
  endTime?: number;
  beforeId?: number;
  limit: number;
}

/** Funding payments of an account, by settlement time (both ends inclusive). */
export interface FundingQuery {
  accountId: number;
  symbol?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
  /** 'asc': the first `limit` from startTime; 'desc': the newest `limit` (default). */
  order?: 'asc' | 'desc';
}

/** An account's transfers, by time (both ends inclusive). */
export interface TransferQuery {
  accountId: number;
  /** Only these kinds (all when undefined). */
  kinds?: readonly TransferKind[];
  startTime?: number;
  endTime?: number;
  limit: number;
  /** 'asc': the first `limit` from startTime; 'desc': the newest `limit` (default). */
  order?: 'asc' | 'desc';
}

export interface TransferRow extends TransferState {
  id: number;
}

/** An account's liquidation clearance fees, by time (both ends inclusive). */
export interface LiquidationFeeQuery {
  accountId: number;
  symbol?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
  /** 'asc': the first `limit` from startTime; 'desc': the newest `limit` (default). */
  order?: 'asc' | 'desc';
}

/** A liquidation clearance fee as stored, with its row id (Binance's tranId). */
export interface LiquidationFeeRow extends LiquidationFeeState {
  id: number;
}

/** An account's isolated margin changes, newest first by id (both time ends inclusive). */
export interface MarginChangeQuery {
  accountId: number;
  symbol?: string;
  positionSide?: number;
  type?: number;
  startTime?: number;
  endTime?: number;
  /** Only rows with id below this (cursor pagination). */
  beforeId?: number;
  limit: number;
}

/** An isolated margin change as stored, with its row id. */
export interface MarginChangeRow extends MarginChangeState {
  id: number;
}

/** A pair's settlement rates, by time (both ends inclusive). */
export interface FundingRateQuery {
  /** Every pair's when undefined. */
  symbol?: string;
  startTime?: number;
  endTime?: number;
  limit: number;
  order?: 'asc' | 'desc';
}

/** A funding payment as stored, with its row id (Binance's tranId). */
export interface FundingRecordRow extends FundingRecordState {
  id: number;
}

/** Stored trade history of accounts, read side (the exchange writes it; routes and reports read it). */
/**
 * A page of an account's forced close orders (forceOrders): liquidation orders (autoclose-<id>),
 * ADL orders (adl_autoclose) or both, created in [startTime, endTime], the first `limit` by id in
 * `order` ('asc' oldest first).
 */
export interface ForcedOrderQuery {
  accountId: number;
  kind?: 'liquidation' | 'adl';
  symbol?: string;
  startTime: number;
  endTime: number;
  order: 'asc' | 'desc';
  limit: number;
}

export interface TradeHistoryPort {
  order(id: number): OrderState | undefined;
  forcedOrders(q: ForcedOrderQuery): OrderState[];
  orderByClientId(accountId: number, clientOrderId: string, symbol?: string): OrderState | undefined;
  orders(q: { accountId: number; symbol?: string; status?: number; beforeId?: number; limit: number }): OrderState[];
  trades(q: TradeQuery): TradeState[];
  closedPositions(q: ClosedQuery): ClosedPositionRow[];
  closedPosition(accountId: number, positionId: number): ClosedPositionRow | undefined;
  fundingPayments(q: FundingQuery): FundingRecordRow[];
  fundingRates(q: FundingRateQuery): FundingRateState[];
  transfers(q: TransferQuery): TransferRow[];
  liquidationFees(q: LiquidationFeeQuery): LiquidationFeeRow[];
  marginChanges(q: MarginChangeQuery): MarginChangeRow[];
}

/** Commit timing: whether accepted writes are still on their way to disk, and when they land. */
export interface DurabilityPort {
  readonly pending: boolean;
  whenDurable(cb: (err: Error | null) => void): void;
}
