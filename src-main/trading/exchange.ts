// The exchange: the one sequencer of every state-changing command of the venue.
//
// Each command (place, cancel, amend, leverage, mode, deposit, mark-driven closes) runs to the
// end synchronously: validate -> engine -> apply the engine's events to orders, positions and
// wallets -> store every change in one SQLite transaction -> announce events. Nothing else runs
// in between (one JS thread, no await inside a command), so commands are totally ordered and a
// run is reproducible from its command sequence. An acknowledged user order, fill or position
// change is in SQLite before the caller gets its answer; a command that throws has changed
// nothing (validation happens before the engine is touched; the store write is one transaction).
//
// Accounts: user accounts (SQLite ids >= 1) are margined and stored; bot orders belong to the
// house (engine account HOUSE_ACCOUNT and up), skip margin and storage, and only their fills
// against users touch the ledger (on the user's side). Money is bigint 1e-8 USDT (risk/money.ts).
import { ApiError, Errors } from '../../src-shared/errors.ts';
import type { OrderRecord, PlacementResult, PositionRecord, TradeRecord } from '../../src-shared/types.ts';
import { createBook, RecordingSink, type EngineEvent, type OrderBook } from '../engine/index.ts';
import { CancelReason, ExpireReason, RejectReason } from '../engine/types.ts';
import type { VirtualClock } from '../market/clock.ts';
import { rankForAdl, type AdlCandidate } from '../risk/adl.ts';
import { bankruptcyPrice, liquidationPrice } from '../risk/liquidation-price.ts';
import { breakEvenPrice, estimatedClosingFee, maintenanceMargin } from '../risk/margin.ts';
import { formatMoney, MONEY_SCALE, SymbolMath, unitsToNumber } from '../risk/money.ts';
import { applyClose, applyOpen, entryPrice, newPosition, type HedgeSide, type PositionState } from '../risk/position.ts';
import { parseFixed } from '../../src-shared/decimal.ts';
import { bracketFor, maxNotionalFor } from '../risk/tiers.ts';
import type { Account, AccountsRepo } from '../store/accounts-repo.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import type { SymbolRow, SymbolsRepo } from '../store/symbols-repo.ts';
import type { OrderRow, TradeRow, TradingRepo } from '../store/trading-repo.ts';
import { EventBus, type AccountEvent } from './events.ts';

/** Engine account of bot orders sent through the bot route (the house market maker). */
export const HOUSE_ACCOUNT = 2 ** 40;
export const DEFAULT_LEVERAGE = 20;
export const DEFAULT_MARGIN_MODE = 2; // cross
/** The insurance fund a new venue starts with: 1,000,000 USDT. */
export const INITIAL_INSURANCE_FUND = 1_000_000n * 100_000_000n;
const ID_BLOCK = 100_000;

export interface OrderInput {
  symbol: string;
  side: number;
  position_side: number;
  position_action: number;
  type: number;
  price?: string;
  qty: string;
  leverage?: number;
  margin_mode?: number;
  time_in_force?: number;
  reduce_only?: boolean;
  client_order_id?: string;
}

export interface BotOrderInput extends OrderInput {
  need_cache?: boolean;
}

interface LiveOrder extends OrderRow {
  isBot: boolean;
  engineAccount: number;
  /** Close type written when this order flattens a position (1 user, 2 TP, 3 SL, 4 liquidation). */
  closeType: number;
  /** A bot order kept in the order cache (need_cache): listed, cancellable, announced. */
  cached?: boolean;
}

export interface PairState {
  row: SymbolRow;
  math: SymbolMath;
  book: OrderBook;
  sink: RecordingSink;
  bandRatio: number;
  markPrice: number;
  indexPrice: number;
  lastPriceTicks: number;
  fundingRate: number;
  nextFundingTime: number;
  /** Market time of the last mark/index update, ms (0 before the first). */
  priceTime: number;
}

interface AccountLive {
  id: number;
  wallet: bigint;
  deposits: bigint;
  mode: 'hedge' | 'one_way';
  frozen: bigint;
  positions: Map<string, PositionState>;
  orders: Map<number, LiveOrder>;
  clientIds: Map<string, number>;
  pairs: Map<string, { leverage: number; marginMode: number }>;
}

export interface AccountSummary {
  user_id: number;
  asset: 'USDT';
  wallet_balance: string;
  available_balance: string;
  frozen_margin: string;
  position_margin: string;
  unrealized_pnl: string;
  margin_balance: string;
  total_deposits: string;
  position_mode: 'hedge' | 'one_way';
}

export interface ExchangeDeps {
  symbols: SymbolsRepo;
  accounts: AccountsRepo;
  settings: SettingsRepo;
  repo: TradingRepo;
  clock: VirtualClock;
}

const posKey = (symbol: string, side: number) => `${symbol}:${side}`;

function reject(def: (typeof Errors)[keyof typeof Errors], message?: string): never {
  throw new ApiError(def, message);
}

interface TurnWrites {
  orders: Set<LiveOrder>;
  trades: TradeRow[];
  positions: Set<PositionState>;
  closed: Array<{ p: PositionState; closeType: number }>;
  wallets: Set<AccountLive>;
}

function emptyTurn(): TurnWrites {
  return { orders: new Set(), trades: [], positions: new Set(), closed: [], wallets: new Set() };
}

export class Exchange {
  readonly events = new EventBus();
  readonly pairs = new Map<string, PairState>();
  private readonly deps: ExchangeDeps;
  private readonly accounts = new Map<number, AccountLive>();
  /** Orders the exchange tracks: user orders and cached bot orders. */
  private readonly orders = new Map<number, LiveOrder>();
  private nextOrderId = 1;
  private nextTradeId = 1;
  private nextPositionId = 1;
  private idHwm = 0;
  // per-command write set, flushed in one transaction
  private dirtyOrders = new Set<LiveOrder>();
  private dirtyTrades: TradeRow[] = [];
  private dirtyPositions = new Set<PositionState>();
  private closedPositions: Array<{ p: PositionState; closeType: number }> = [];
  private dirtyWallets = new Set<AccountLive>();
  private pendingAccountEvents: Array<{ accountId: number; kind: 'order' | 'fill' | 'position' | 'balance'; data: unknown }> = [];
  private trimQueue = new Set<PositionState>();
  /** Changes of this event-loop turn not yet written (see flush / writeTurn). */
  private turn = emptyTurn();
  private turnScheduled = false;
  private fatal: unknown = null;
  /** Insurance fund, 1e-8 USDT; absorbs what liquidations cannot pay. */
  private insurance = 0n;
  private checkingRisk = false;

  constructor(deps: ExchangeDeps) {
    this.deps = deps;
    // A failed group commit loses the turn's writes: memory is ahead of the disk, so refuse
    // every further command (the waiting answers get the error).
    deps.repo.group.onFailure((err) => {
      this.fatal = err;
    });
    for (const row of deps.symbols.all()) this.addPair(row);
    this.restore();
  }

  // ------------------------------------------------------------------ setup and restore

  private addPair(row: SymbolRow): void {
    const math = new SymbolMath(row);
    const sink = new RecordingSink();
    const bandRatio = Number(row.marketPriceProtectRatio);
    const book = createBook({ symbol: row.symbol, bandPpm: Math.round(bandRatio * 1_000_000) }, sink);
    const initial = Number(row.initialPrice);
    this.pairs.set(row.symbol, {
      row, math, book, sink, bandRatio,
      markPrice: initial, indexPrice: initial, lastPriceTicks: math.ticksRound(initial),
      fundingRate: 0.0001, nextFundingTime: 0, priceTime: 0,
    });
  }

  private restore(): void {
    const { repo, settings } = this.deps;
    const max = repo.maxIds();
    const hwm = settings.getNumber('id_hwm') ?? 0;
    this.nextOrderId = Math.max(max.order, hwm) + 1;
    this.nextTradeId = Math.max(max.trade, hwm) + 1;
    this.nextPositionId = max.position + 1;
    this.idHwm = Math.max(this.nextOrderId, this.nextTradeId);
    this.reserveIds();
    const fund = settings.get('insurance_fund');
    this.insurance = fund === undefined ? INITIAL_INSURANCE_FUND : BigInt(fund);
    if (fund === undefined) settings.set('insurance_fund', String(this.insurance));

    for (const s of repo.loadPairSettings()) {
      this.account(s.accountId)?.pairs.set(s.symbol, { leverage: s.leverage, marginMode: s.marginMode });
    }
    for (const p of repo.loadPositions()) {
      const a = this.account(p.accountId);
      if (a) a.positions.set(posKey(p.symbol, p.side), p);
    }
    // Resting user orders go back into their books in their original time order; they were
    // resting together before, so they cannot cross each other now.
    for (const o of repo.loadOpenOrders()) {
      const a = this.account(o.accountId);
      const pair = this.pairs.get(o.symbol);
      if (!a || !pair) continue;
      const live: LiveOrder = { ...o, isBot: false, engineAccount: o.accountId, closeType: 1 };
      this.orders.set(o.id, live);
      a.orders.set(o.id, live);
      a.clientIds.set(o.clientOrderId, o.id);
      a.frozen += o.frozen;
      pair.book.placeLimit(o.id, o.accountId, o.side, o.priceTicks, o.qtyLots - o.filledLots, 1, o.reduceOnly ? 1 : 0);
    }
    for (const pair of this.pairs.values()) pair.sink.take();
  }

  /** Ids are handed out from blocks whose end is stored first, so ids never repeat after a crash. */
  private reserveIds(): void {
    const need = Math.max(this.nextOrderId, this.nextTradeId);
    if (need >= this.idHwm) {
      this.idHwm = need + ID_BLOCK;
      this.deps.settings.set('id_hwm', String(this.idHwm));
    }
  }

  private takeOrderId(): number {
    const id = this.nextOrderId++;
    if (this.nextOrderId >= this.idHwm) this.reserveIds();
    return id;
  }

  private takeTradeId(): number {
    const id = this.nextTradeId++;
    if (this.nextTradeId >= this.idHwm) this.reserveIds();
    return id;
  }

  private account(id: number): AccountLive | undefined {
    let a = this.accounts.get(id);
    if (a) return a;
    const row = this.deps.accounts.byId(id);
    if (!row) return undefined;
    a = this.liveFromRow(row);
    this.accounts.set(id, a);
    return a;
  }

  private liveFromRow(row: Account): AccountLive {
    return {
      id: row.id, wallet: row.walletBalance, deposits: row.totalDeposits, mode: row.positionMode, frozen: 0n,
      positions: new Map(), orders: new Map(), clientIds: new Map(), pairs: new Map(),
    };
  }

  /**
   * Creates a paper account or updates an existing one (secret, and the wallet set to `balance`
   * with the difference booked as a deposit), in SQLite and in the live state alike: an account
   * the exchange has loaded (open orders or positions, restored at start) keeps its wallet in
   * memory, so the store alone would leave the two apart. The CLI's --account and the admin
   * route go through here.
   */
  upsertAccount(spec: { apiKey: string; apiSecret: string; kind: 'user' | 'local'; balance: bigint }, now: number): Account {
    const a = this.deps.accounts.upsert(spec, now);
    this.reloadAccount(a.id);
    return a;
  }

  /** Called after an account is created or its wallet changed outside the exchange (CLI, admin). */
  reloadAccount(id: number): void {
    const row = this.deps.accounts.byId(id);
    const a = this.accounts.get(id);
    if (!row) return;
    if (!a) return;
    a.wallet = row.walletBalance;
    a.deposits = row.totalDeposits;
    this.emitBalance(a);
  }

  pair(symbol: string): PairState | undefined {
    return this.pairs.get(symbol);
  }

  private checkHealthy(): void {
    if (this.fatal) reject(Errors.SERVICE_UNAVAILABLE, 'A store write failed earlier; restart the venue');
  }

  private requirePair(symbol: string): PairState {
    const p = this.pairs.get(symbol);
    if (!p) reject(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${symbol}'`);
    return p;
  }

  private requireAccount(id: number): AccountLive {
    this.checkHealthy();
    const a = this.account(id);
    if (!a) reject(Errors.ACCOUNT_NOT_FOUND);
    return a;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // ------------------------------------------------------------------ settings

  pairSetting(accountId: number, symbol: string): { leverage: number; marginMode: number } {
    const a = this.requireAccount(accountId);
    const pair = this.requirePair(symbol);
    return a.pairs.get(symbol) ?? { leverage: Math.min(DEFAULT_LEVERAGE, pair.row.maxLeverage), marginMode: DEFAULT_MARGIN_MODE };
  }

  private positionsOf(a: AccountLive, symbol: string): PositionState[] {
    const out: PositionState[] = [];
    for (const p of a.positions.values()) if (p.symbol === symbol && p.qty > 0) out.push(p);
    return out;
  }

  private openOrdersOf(a: AccountLive, symbol?: string): LiveOrder[] {
    const out: LiveOrder[] = [];
    for (const o of a.orders.values()) if (symbol === undefined || o.symbol === symbol) out.push(o);
    return out.sort((x, y) => x.id - y.id);
  }

  private checkLeverage(a: AccountLive, pair: PairState, leverage: number): number {
    const symbol = pair.row.symbol;
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > pair.row.maxLeverage) {
      reject(Errors.LEVERAGE_INVALID, `leverage must be an integer from 1 to ${pair.row.maxLeverage} on ${symbol}`);
    }
    const maxNotional = maxNotionalFor(pair.row.brackets, leverage);
    for (const p of this.positionsOf(a, symbol)) {
      const notional = p.qty * pair.math.lotValue * pair.markPrice;
      if (notional > maxNotional) {
        reject(Errors.LEVERAGE_INVALID, `a ${leverage}x position on ${symbol} may hold at most ${maxNotional} USDT notional; the position holds ${notional.toFixed(2)}`);
      }
    }
    return maxNotional;
  }

  private checkMarginModeChange(a: AccountLive, symbol: string, marginMode: number): void {
    if (marginMode !== 1 && marginMode !== 2) reject(Errors.INVALID_PARAMETER, 'margin_mode must be 1 (isolated) or 2 (cross)');
    if (this.positionsOf(a, symbol).length > 0 || this.openOrdersOf(a, symbol).length > 0) {
      reject(Errors.MARGIN_MODE_CHANGE_REFUSED, `Margin mode of ${symbol} cannot change while a position or open order exists`);
    }
  }

  private applyPairSetting(a: AccountLive, symbol: string, leverage: number, marginMode: number): void {
    a.pairs.set(symbol, { leverage, marginMode });
    let repriced = false;
    this.deps.repo.tx(() => {
      this.deps.repo.savePairSetting(a.id, symbol, leverage, marginMode);
      // positions take the new leverage (isolated margin stays as allocated)
      for (const p of this.positionsOf(a, symbol)) {
        if (p.leverage === leverage) continue;
        p.leverage = leverage;
        this.deps.repo.savePosition(p);
        repriced = true;
      }
    });
    // a cross position's margin, and so the account's available balance, follow the leverage
    if (repriced && this.events.has('account')) {
      this.announce({ accountId: a.id, kind: 'position', data: this.positions(a.id) });
      this.emitBalance(a);
    }
  }

  setLeverage(accountId: number, symbol: string, leverage: number): { symbol: string; leverage: number; max_notional: string } {
    const a = this.requireAccount(accountId);
    const pair = this.requirePair(symbol);
    const maxNotional = this.checkLeverage(a, pair, leverage);
    this.applyPairSetting(a, symbol, leverage, this.pairSetting(accountId, symbol).marginMode);
    return { symbol, leverage, max_notional: String(maxNotional) };
  }

  setMarginMode(accountId: number, symbol: string, marginMode: number): { symbol: string; margin_mode: number } {
    const a = this.requireAccount(accountId);
    this.requirePair(symbol);
    if (marginMode !== 1 && marginMode !== 2) reject(Errors.INVALID_PARAMETER, 'margin_mode must be 1 (isolated) or 2 (cross)');
    const cur = this.pairSetting(accountId, symbol);
    if (cur.marginMode !== marginMode) {
      this.checkMarginModeChange(a, symbol, marginMode);
      this.applyPairSetting(a, symbol, cur.leverage, marginMode);
    }
    return { symbol, margin_mode: marginMode };
  }

  setPositionMode(accountId: number, mode: 'hedge' | 'one_way'): { position_mode: 'hedge' | 'one_way' } {
    const a = this.requireAccount(accountId);
    if (a.mode !== mode) {
      const busy = [...a.positions.values()].some((p) => p.qty > 0) || a.orders.size > 0;
      if (busy) reject(Errors.POSITION_MODE_CHANGE_REFUSED);
      a.mode = mode;
      this.deps.repo.tx(() => this.deps.repo.setPositionMode(accountId, mode, this.now()));
    }
    return { position_mode: mode };
  }

  /** Paper deposit (positive) or withdrawal (negative) of `amount` units. */
  deposit(accountId: number, amount: bigint): AccountSummary {
    const a = this.requireAccount(accountId);
    if (amount === 0n) reject(Errors.INVALID_PARAMETER, 'amount must not be zero');
    if (amount < 0n && a.wallet + amount < 0n) reject(Errors.INSUFFICIENT_MARGIN, 'The wallet cannot go below zero');
    a.wallet += amount;
    a.deposits += amount;
    const now = this.now();
    this.deps.repo.tx(() => this.deps.repo.addDeposit(accountId, amount, now));
    this.emitBalance(a);
    return this.summary(accountId);
  }

  // ------------------------------------------------------------------ prices

  /** Mark and index prices from the market (simulator); drives PnL, margin and liquidation. */
  setPrices(symbol: string, p: { mark?: number; index?: number; fundingRate?: number; nextFundingTime?: number }): void {
    const pair = this.requirePair(symbol);
    if (p.mark !== undefined && p.mark > 0) pair.markPrice = p.mark;
    if (p.index !== undefined && p.index > 0) pair.indexPrice = p.index;
    if (p.fundingRate !== undefined) pair.fundingRate = p.fundingRate;
    if (p.nextFundingTime !== undefined) pair.nextFundingTime = p.nextFundingTime;
    pair.priceTime = this.now();
    if (p.mark !== undefined) this.checkRisk(pair);
  }

  // ------------------------------------------------------------------ orders

  /** General placement (signed users): validated, margined, stored before the answer. */
  placeOrder(accountId: number, input: OrderInput): PlacementResult {
    const a = this.requireAccount(accountId);
    return this.place(input, a, false, true);
  }

  /** Bot placement: no margin, never stored; `need_cache` keeps it listed and cancellable. */
  placeBotOrder(input: BotOrderInput, engineAccount = HOUSE_ACCOUNT): PlacementResult {
    return this.place(input, null, true, input.need_cache === true, engineAccount);
  }

  private place(input: OrderInput, a: AccountLive | null, isBot: boolean, track: boolean, engineAccount = HOUSE_ACCOUNT): PlacementResult {
    this.checkHealthy();
    const pair = this.requirePair(input.symbol);
    const { row, math } = pair;
    if (row.status !== 1) reject(Errors.SYMBOL_NOT_TRADING, `${row.symbol} is not trading (status ${row.status})`);
    const isMarket = input.type === 2;
    if (input.type !== 1 && input.type !== 2) reject(Errors.INVALID_PARAMETER, 'type must be 1 (limit) or 2 (market)');
    if (input.side !== 1 && input.side !== 2) reject(Errors.INVALID_PARAMETER, 'side must be 1 (buy) or 2 (sell)');
    if (isMarket && !row.allowMarket) reject(Errors.MARKET_NOT_ALLOWED, `Market orders are not allowed on ${row.symbol}`);
    const tif = isMarket ? 2 : (input.time_in_force ?? 1);
    if (![1, 2, 3, 4].includes(tif)) reject(Errors.INVALID_PARAMETER, 'time_in_force must be 1 GTC, 2 IOC, 3 FOK or 4 GTX');

    // position side and action, before quantity and price: an order whose side does not fit its
    // position is told so, not that its price is outside the band for that (wrong) side
    const mode = a?.mode ?? 'hedge';
    let positionSide = input.position_side;
    const action = input.position_action;
    if (positionSide !== 1 && positionSide !== 2) reject(Errors.INVALID_PARAMETER, 'position_side must be 1 (long) or 2 (short)');
    if (action !== 1 && action !== 2) reject(Errors.INVALID_PARAMETER, 'position_action must be 1 (open) or 2 (close)');
    let reduceOnly = input.reduce_only === true || (mode === 'one_way' && action === 2);
    if (mode === 'hedge') {
      const expectedSide = (positionSide === 1) === (action === 1) ? 1 : 2;
      if (input.side !== expectedSide) {
        reject(
          Errors.POSITION_SIDE_MISMATCH,
          `In hedge mode ${action === 1 ? 'opening' : 'closing'} a ${positionSide === 1 ? 'long' : 'short'} is a ${expectedSide === 1 ? 'buy' : 'sell'} (side ${expectedSide})`,
        );
      }
      if (action === 1 && input.reduce_only === true) {
        reject(Errors.REDUCE_ONLY_REJECTED, 'In hedge mode an order that opens (position_action 1) cannot be reduce-only; close with position_action 2');
      }
      if (action === 2) reduceOnly = true;
    } else if (positionSide !== 1) {
      reject(Errors.POSITION_SIDE_MISMATCH, 'In one-way mode position_side is 1');
    }

    // quantity
    const q = math.qty.toUnits(input.qty);
    if (!q.ok) {
      if (q.reason === 'off_step') reject(Errors.QTY_OFF_STEP, `qty ${input.qty} is not a multiple of the step ${row.stepSize}`);
      reject(Errors.INVALID_PARAMETER, `qty must be a positive decimal string (got '${input.qty}')`);
    }
    const qtyLots = q.value;
    if (qtyLots < math.qty.mustToUnits(row.minQty)) reject(Errors.QTY_BELOW_MIN, `qty ${input.qty} is below the minimum ${row.minQty}`);
    if (qtyLots > math.qty.mustToUnits(row.maxQty)) reject(Errors.QTY_ABOVE_MAX, `qty ${input.qty} is above the maximum ${row.maxQty}`);

    // price
    let priceTicks = 0;
    if (isMarket) {
      if (input.price !== undefined && input.price !== '') reject(Errors.PRICE_NOT_ALLOWED);
    } else {
      if (input.price === undefined || input.price === '') reject(Errors.PRICE_REQUIRED);
      const pr = math.price.toUnits(input.price);
      if (!pr.ok) {
        if (pr.reason === 'off_step') reject(Errors.PRICE_OFF_TICK, `price ${input.price} is not a multiple of the tick ${row.tickSize}`);
        if (pr.reason === 'range') reject(Errors.INVALID_PARAMETER, `price ${input.price} is out of range`);
        reject(Errors.INVALID_PARAMETER, `price must be a positive decimal string (got '${input.price}')`);
      }
      priceTicks = pr.value;
      if (priceTicks > 2_147_483_647) reject(Errors.INVALID_PARAMETER, `price ${input.price} is out of range`);
      const mark = pair.markPrice;
      const hi = mark * (1 + pair.bandRatio);
      const lo = mark * (1 - pair.bandRatio);
      const px = priceTicks * math.tickValue;
      if (input.side === 1 && px > hi * (1 + 1e-12)) {
        reject(Errors.PRICE_OUTSIDE_BAND, `A buy above ${math.roundPrice(hi)} (mark ${math.roundPrice(mark)} + ${pair.bandRatio * 100}%) is outside the price band`);
      }
      if (input.side === 2 && px < lo * (1 - 1e-12)) {
        reject(Errors.PRICE_OUTSIDE_BAND, `A sell below ${math.roundPrice(lo)} (mark ${math.roundPrice(mark)} - ${pair.bandRatio * 100}%) is outside the price band`);
      }
    }
    const refTicks = Math.max(1, math.ticksRound(pair.markPrice));

    // account side: settings, client id, reduce-only cap, margin
    let leverage = input.leverage ?? 0;
    let marginMode = input.margin_mode ?? 0;
    let frozen = 0n;
    let maxFill = -1;
    let clientOrderId = input.client_order_id ?? '';
    const id = this.takeOrderId();
    // Generated ids contain a '.', which client-chosen ids may not, so they never collide.
    if (clientOrderId === '') clientOrderId = `${isBot ? 'bot' : 'api'}.${id}`;

    // Settings the order asks for are checked now and applied only once the order is accepted,
    // so a rejected order leaves them as they were.
    let applySettings: (() => void) | null = null;
    if (a) {
      const current = this.pairSetting(a.id, row.symbol);
      leverage = input.leverage ?? current.leverage;
      marginMode = input.margin_mode ?? current.marginMode;
      if (marginMode !== current.marginMode) this.checkMarginModeChange(a, row.symbol, marginMode);
      if (leverage !== current.leverage) this.checkLeverage(a, pair, leverage);
      if (leverage !== current.leverage || marginMode !== current.marginMode) {
        const lev = leverage;
        const mm = marginMode;
        applySettings = () => this.applyPairSetting(a, row.symbol, lev, mm);
      }
      if (a.clientIds.has(clientOrderId)) {
        reject(Errors.DUPLICATE_CLIENT_ORDER_ID, `client_order_id '${clientOrderId}' is already used by live order ${a.clientIds.get(clientOrderId)}`);
      }
      const notionalPx = isMarket ? refTicks : priceTicks;
      if (reduceOnly) {
        const reducible = this.reducibleLots(a, row.symbol, mode, positionSide, input.side);
        if (reducible <= 0) {
          reject(action === 2 ? Errors.NO_POSITION_TO_CLOSE : Errors.REDUCE_ONLY_REJECTED, `No ${mode === 'hedge' ? (positionSide === 1 ? 'long' : 'short') + ' ' : ''}position on ${row.symbol} for this order to reduce`);
        }
        maxFill = reducible;
      } else {
        const notional = math.notional(notionalPx, qtyLots);
        if (notional < BigInt(Math.round(Number(row.minNotional) * 1e8))) {
          reject(Errors.NOTIONAL_BELOW_MIN, `Order notional ${formatMoney(notional, 2)} is below the minimum ${row.minNotional} USDT`);
        }
        const existing = this.sideNotional(a, pair, positionSide);
        const maxNotional = maxNotionalFor(row.brackets, leverage);
        const wanted = existing + unitsToNumber(notional);
        if (wanted > maxNotional) {
          reject(Errors.LEVERAGE_INVALID, `At ${leverage}x the position may hold at most ${maxNotional} USDT notional on ${row.symbol}; this order would make it ${wanted.toFixed(2)}`);
        }
        frozen = ceilDivBig(notional, BigInt(leverage)) + math.fee(notional, false);
        const available = this.available(a);
        if (frozen > available) {
          reject(Errors.INSUFFICIENT_MARGIN, `Order needs ${formatMoney(frozen, 2)} USDT of margin and fees; available is ${formatMoney(available < 0n ? 0n : available, 2)} USDT`);
        }
      }
    } else if (isBot) {
      leverage = input.leverage ?? 1;
      marginMode = input.margin_mode ?? 2;
      if (track) {
        const dup = [...this.orders.values()].find((o) => o.isBot && o.clientOrderId === clientOrderId);
        if (dup) reject(Errors.DUPLICATE_CLIENT_ORDER_ID, `client_order_id '${clientOrderId}' is already used by live bot order ${dup.id}`);
      }
    }

    applySettings?.();
    const now = this.now();
    const order: LiveOrder = {
      id, clientOrderId, accountId: a?.id ?? 0, symbol: row.symbol, side: input.side, type: input.type, tif,
      priceTicks, qtyLots, filledLots: 0, filledQuote: 0n, status: 1, leverage, marginMode, positionSide,
      positionAction: action, reduceOnly, frozen, totalFee: 0n, createdAt: now, updatedAt: now, isBot,
      engineAccount: a ? a.id : engineAccount, closeType: 1, cached: isBot && track,
    };
    if (track) {
      this.orders.set(id, order);
      if (a) {
        a.orders.set(id, order);
        a.clientIds.set(clientOrderId, id);
        a.frozen += frozen;
      }
    }
    const flags = reduceOnly ? 1 : 0;
    if (isMarket) pair.book.placeMarket(id, order.engineAccount, input.side, qtyLots, refTicks, flags, maxFill);
    else pair.book.placeLimit(id, order.engineAccount, input.side, priceTicks, qtyLots, tif, flags, maxFill);

    const untracked = track ? null : order;
    this.drain(pair, untracked);
    if (a) this.dirtyOrders.add(order);
    this.flush();
    return {
      order_id: String(id),
      client_order_id: clientOrderId,
      status: order.status as PlacementResult['status'],
      filled_qty: math.formatQty(order.filledLots),
      filled_quote: formatMoney(order.filledQuote),
    };
  }

  /** Lots a reduce-only / close order may fill now: the position it reduces. */
  private reducibleLots(a: AccountLive, symbol: string, mode: 'hedge' | 'one_way', positionSide: number, side: number): number {
    if (mode === 'hedge') return a.positions.get(posKey(symbol, positionSide))?.qty ?? 0;
    // one-way: the net position must be on the other side of this order
    const p = a.positions.get(posKey(symbol, side === 1 ? 2 : 1));
    return p?.qty ?? 0;
  }

  private sideNotional(a: AccountLive, pair: PairState, positionSide: number): number {
    let total = 0;
    for (const p of a.positions.values()) {
      if (p.symbol === pair.row.symbol && (a.mode === 'one_way' || p.side === positionSide)) {
        total += p.qty * pair.math.lotValue * pair.markPrice;
      }
    }
    for (const o of a.orders.values()) {
      if (o.symbol === pair.row.symbol && !o.reduceOnly && o.positionSide === positionSide) {
        total += (o.qtyLots - o.filledLots) * pair.math.lotValue * (o.priceTicks ? o.priceTicks * pair.math.tickValue : pair.markPrice);
      }
    }
    return total;
  }

  /** Cancel one order of a user by id or client id. */
  cancelOrder(accountId: number, by: { symbol?: string; orderId?: number; clientOrderId?: string }): OrderRecord {
    const a = this.requireAccount(accountId);
    let id = by.orderId;
    if (id === undefined && by.clientOrderId !== undefined) id = a.clientIds.get(by.clientOrderId);
    const o = id === undefined ? undefined : a.orders.get(id);
    if (o && by.symbol !== undefined && o.symbol !== by.symbol) {
      reject(Errors.ORDER_NOT_FOUND, `No open order ${o.id} on ${by.symbol}`);
    }
    if (!o) {
      // a finished order of this account (on the symbol named, if one is), found by id or by
      // client id alike, is 3019
      const stored =
        id !== undefined ? this.deps.repo.order(id) : by.clientOrderId !== undefined ? this.deps.repo.orderByClientId(accountId, by.clientOrderId, by.symbol) : undefined;
      if (stored && stored.accountId === accountId && (by.symbol === undefined || stored.symbol === by.symbol)) {
        const which = by.orderId !== undefined ? `Order ${stored.id}` : `Order ${stored.id} (client_order_id '${by.clientOrderId}')`;
        reject(Errors.ORDER_NOT_CANCELLABLE, `${which} is no longer open (status ${stored.status})`);
      }
      reject(Errors.ORDER_NOT_FOUND, by.orderId !== undefined ? `No open order ${by.orderId}` : `No open order with client_order_id '${by.clientOrderId}'`);
    }
    const pair = this.requirePair(o.symbol);
    pair.book.cancel(o.id);
    this.drain(pair, null);
    this.flush();
    return this.orderRecord(o);
  }

  /** Cancel all open orders of a user on a symbol; returns how many. */
  cancelAll(accountId: number, symbol: string): number {
    const a = this.requireAccount(accountId);
    const pair = this.requirePair(symbol);
    const ids = this.openOrdersOf(a, symbol).map((o) => o.id);
    for (const id of ids) pair.book.cancel(id);
    this.drain(pair, null);
    this.flush();
    return ids.length;
  }

  /** Cancel a bot order (cached or not) by id. */
  cancelBotOrder(symbol: string, orderId: number): { order_id: string; status: number } {
    const pair = this.requirePair(symbol);
    const view = pair.book.getOrder(orderId);
    if (!view || view.account < HOUSE_ACCOUNT) reject(Errors.ORDER_NOT_FOUND, `No open bot order ${orderId} on ${symbol}`);
    pair.book.cancel(orderId);
    this.drain(pair, null);
    this.flush();
    return { order_id: String(orderId), status: 4 };
  }

  /** Cached bot orders that are still open. */
  botOrders(symbol?: string): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const o of this.orders.values()) if (o.isBot && (symbol === undefined || o.symbol === symbol)) out.push(this.orderRecord(o));
    return out.sort((x, y) => Number(x.id) - Number(y.id));
  }

  // ------------------------------------------------------------------ engine events

  /** Applies everything the engine reported for the last command(s) on this pair. */
  private drain(pair: PairState, untracked: LiveOrder | null): void {
    for (;;) {
      const events = pair.sink.take();
      if (events.length === 0) break;
      for (const e of events) this.apply(pair, e, untracked);
      // positions that shrank: trim or cancel the reduce-only orders resting against them
      if (this.trimQueue.size > 0) {
        const queue = [...this.trimQueue];
        this.trimQueue.clear();
        for (const p of queue) this.trimCloseOrders(pair, p);
      }
    }
  }

  private lookup(id: number, untracked: LiveOrder | null): LiveOrder | undefined {
    return this.orders.get(id) ?? (untracked && untracked.id === id ? untracked : undefined);
  }

  private apply(pair: PairState, e: EngineEvent, untracked: LiveOrder | null): void {
    switch (e.type) {
      case 'level':
        this.events.emit('level', { symbol: pair.row.symbol, updateId: e.updateId, side: e.side, priceTicks: e.priceTicks, totalLots: e.totalLots });
        return;
      case 'accepted': {
        const o = this.lookup(e.orderId, untracked);
        if (o && o.qtyLots !== e.qtyLots) o.qtyLots = e.qtyLots; // trimmed to the reduce-only cap
        if (o) this.touch(o);
        return;
      }
      case 'rejected': {
        const o = this.lookup(e.orderId, untracked);
        if (o) {
          this.finish(o, 5);
          if (e.reason === RejectReason.NothingToReduce) throw new ApiError(Errors.REDUCE_ONLY_REJECTED);
        }
        throw new ApiError(Errors.INTERNAL, `engine refused the command (reason ${e.reason})`);
      }
      case 'trade': {
        const time = this.now();
        const tradeId = this.takeTradeId();
        pair.lastPriceTicks = e.priceTicks;
        const maker = this.lookup(e.makerId, untracked);
        const taker = this.lookup(e.takerId, untracked);
        if (maker) this.fill(pair, maker, e.priceTicks, e.qtyLots, true, tradeId, time);
        if (taker) this.fill(pair, taker, e.priceTicks, e.qtyLots, false, tradeId, time);
        this.events.emit('trade', { symbol: pair.row.symbol, tradeId, priceTicks: e.priceTicks, qtyLots: e.qtyLots, takerSide: e.takerSide, time });
        return;
      }
      case 'partiallyFilled': {
        const o = this.lookup(e.orderId, untracked);
        if (o) {
          o.status = 2;
          this.touch(o);
        }
        return;
      }
      case 'filled': {
        const o = this.lookup(e.orderId, untracked);
        if (o) this.finish(o, 3);
        return;
      }
      case 'amended': {
        const o = this.lookup(e.orderId, untracked);
        if (o) {
          o.qtyLots = e.qtyLots;
          o.priceTicks = e.priceTicks;
          this.touch(o);
        }
        return;
      }
      case 'cancelled': {
        const o = this.lookup(e.orderId, untracked);
        if (o) this.finish(o, e.reason === CancelReason.ReduceOnly ? 4 : 4);
        return;
      }
      case 'expired': {
        const o = this.lookup(e.orderId, untracked);
        if (o) this.finish(o, e.reason === ExpireReason.SelfTrade ? 6 : 6);
        return;
      }
    }
  }

  private touch(o: LiveOrder): void {
    o.updatedAt = this.now();
    if (!o.isBot) this.dirtyOrders.add(o);
    this.queueAccountEvent(o, 'order', null);
  }

  /** The order reached a final status: release what it froze and forget it. */
  private finish(o: LiveOrder, status: number): void {
    o.status = status;
    o.updatedAt = this.now();
    if (!o.isBot) {
      const a = this.accounts.get(o.accountId);
      if (a) {
        a.frozen -= o.frozen;
        o.frozen = 0n;
        a.orders.delete(o.id);
        if (a.clientIds.get(o.clientOrderId) === o.id) a.clientIds.delete(o.clientOrderId);
        this.dirtyWallets.add(a); // available balance changed
      }
      this.dirtyOrders.add(o);
    }
    this.orders.delete(o.id);
    this.queueAccountEvent(o, 'order', null);
  }

  private fill(pair: PairState, o: LiveOrder, priceTicks: number, lots: number, isMaker: boolean, tradeId: number, time: number): void {
    const remainingBefore = o.qtyLots - o.filledLots;
    const notional = pair.math.notional(priceTicks, lots);
    o.filledLots += lots;
    o.filledQuote += notional;
    o.updatedAt = time;
    if (o.isBot) return;
    const a = this.accounts.get(o.accountId);
    if (!a) return;
    const fee = pair.math.fee(notional, isMaker);
    o.totalFee += fee;
    if (o.frozen > 0n) {
      const rel = lots >= remainingBefore ? o.frozen : (o.frozen * BigInt(lots)) / BigInt(remainingBefore);
      o.frozen -= rel;
      a.frozen -= rel;
    }
    this.dirtyOrders.add(o);

    let pnl = 0n;
    let isClose = false;
    let positionSide = o.positionSide;
    if (a.mode === 'hedge') {
      const key = posKey(o.symbol, o.positionSide);
      if (o.reduceOnly) {
        const p = a.positions.get(key);
        if (p && p.qty > 0) {
          pnl = this.closeLots(a, pair, p, Math.min(lots, p.qty), notional, fee, time, o.closeType);
          isClose = true;
        }
      } else {
        const p = this.positionFor(a, pair, o.positionSide as HedgeSide, o, time);
        applyOpen(p, lots, notional, fee, time);
        this.dirtyPositions.add(p);
      }
    } else {
      // one-way: a fill first reduces an opposite net position, then opens with the rest
      const opposite = a.positions.get(posKey(o.symbol, o.side === 1 ? 2 : 1));
      let rest = lots;
      if (opposite && opposite.qty > 0) {
        const closing = Math.min(rest, opposite.qty);
        const closeNotional = closing === lots ? notional : pair.math.notional(priceTicks, closing);
        const closeFee = closing === lots ? fee : (fee * BigInt(closing)) / BigInt(lots);
        positionSide = opposite.side;
        pnl = this.closeLots(a, pair, opposite, closing, closeNotional, closeFee, time, o.closeType);
        isClose = true;
        rest -= closing;
        if (rest > 0) {
          const p = this.positionFor(a, pair, o.side as HedgeSide, o, time);
          applyOpen(p, rest, notional - closeNotional, fee - closeFee, time);
          this.dirtyPositions.add(p);
        }
      } else if (!o.reduceOnly) {
        positionSide = o.side;
        const p = this.positionFor(a, pair, o.side as HedgeSide, o, time);
        applyOpen(p, lots, notional, fee, time);
        this.dirtyPositions.add(p);
      }
    }
    a.wallet += pnl - fee;
    this.dirtyWallets.add(a);
    const trade: TradeRow = {
      id: tradeId, orderId: o.id, accountId: a.id, symbol: o.symbol, side: o.side, positionSide, priceTicks,
      qtyLots: lots, quote: notional, fee, feeRate: isMaker ? pair.row.makerFeeRate : pair.row.takerFeeRate,
      role: isMaker ? 1 : 2, isClose, realizedPnl: pnl, createdAt: time,
    };
    this.dirtyTrades.push(trade);
    this.pendingAccountEvents.push({ accountId: a.id, kind: 'fill', data: trade });
  }

  private positionFor(a: AccountLive, pair: PairState, side: HedgeSide, o: LiveOrder, time: number): PositionState {
    const key = posKey(pair.row.symbol, side);
    let p = a.positions.get(key);
    if (!p || p.qty === 0) {
      p = newPosition(this.nextPositionId++, a.id, pair.row.symbol, side, o.marginMode as 1 | 2, o.leverage, time);
      a.positions.set(key, p);
    }
    return p;
  }

  private closeLots(a: AccountLive, pair: PairState, p: PositionState, lots: number, notional: bigint, fee: bigint, time: number, closeType: number): bigint {
    const r = applyClose(p, lots, notional, fee, time);
    this.dirtyPositions.add(p);
    if (r.flat) {
      this.closedPositions.push({ p: { ...p }, closeType });
      a.positions.delete(posKey(p.symbol, p.side));
    }
    this.trimQueue.add(p);
    return r.pnl;
  }

  /** After a position shrank, no resting close order may exceed it; at zero they are cancelled. */
  private trimCloseOrders(pair: PairState, p: PositionState): void {
    const a = this.accounts.get(p.accountId);
    if (!a) return;
    for (const o of a.orders.values()) {
      if (o.symbol !== p.symbol || !o.reduceOnly) continue;
      const reduces = a.mode === 'hedge' ? o.positionSide === p.side : o.side !== p.side;
      if (!reduces) continue;
      const remaining = o.qtyLots - o.filledLots;
      if (remaining > p.qty) pair.book.trimOrder(o.id, p.qty);
    }
  }

  // ------------------------------------------------------------------ funding

  /**
   * Settles funding on every position open on `symbol` now: payment = mark x |qty| x rate,
   * longs pay shorts when rate > 0. The house is the counterparty of every payment.
   */
  settleFunding(symbol: string, rate: number, mark: number, time: number): number {
    this.checkHealthy();
    const pair = this.requirePair(symbol);
    let settled = 0;
    const notes: Array<{ accountId: number; data: unknown }> = [];
    for (const a of this.accounts.values()) {
      for (const p of a.positions.values()) {
        if (p.symbol !== symbol || p.qty === 0) continue;
        const base = p.qty * pair.math.lotValue;
        const amount = BigInt(Math.round(mark * base * Math.abs(rate) * 1e8));
        if (amount === 0n) continue;
        // > 0: this position pays
        const pays = (rate > 0) === (p.side === 1) ? amount : -amount;
        a.wallet -= pays;
        p.fundingFee += pays;
        if (p.marginMode === 1) {
          p.isolatedMargin -= pays;
          if (p.isolatedMargin < 0n) p.isolatedMargin = 0n;
        }
        p.updatedAt = time;
        this.dirtyPositions.add(p);
        this.dirtyWallets.add(a);
        settled++;
        notes.push({
          accountId: a.id,
          data: { symbol, position_side: p.side, funding_rate: rate, mark_price: mark, amount: formatMoney(-pays), time },
        });
      }
    }
    this.flush();
    for (const n of notes) this.announce({ accountId: n.accountId, kind: 'funding', data: n.data });
    this.checkRisk(pair);
    return settled;
  }

  // ------------------------------------------------------------------ liquidation, TP/SL

  insuranceFund(): bigint {
    return this.insurance;
  }

  /** Liquidations, then take-profit / stop-loss triggers, for the pair's current prices. */
  checkRisk(pair: PairState): void {
    if (this.checkingRisk || this.fatal) return;
    this.checkingRisk = true;
    try {
      for (const a of [...this.accounts.values()]) {
        if (a.positions.size === 0) continue;
        this.liquidateIfNeeded(a, pair);
      }
      this.checkTriggers(pair);
    } finally {
      this.checkingRisk = false;
    }
  }

  private liquidateIfNeeded(a: AccountLive, pair: PairState): void {
    // isolated positions on this pair
    for (const p of [...a.positions.values()]) {
      if (p.symbol !== pair.row.symbol || p.qty === 0 || p.marginMode !== 1) continue;
      const notional = p.qty * pair.math.lotValue * pair.markPrice;
      const equity = unitsToNumber(p.isolatedMargin) + this.upnl(p, pair);
      if (maintenanceMargin(pair.row.brackets, notional) >= equity) this.liquidate(a, [p], unitsToNumber(p.isolatedMargin));
    }
    // cross: the whole cross account
    let hasCrossHere = false;
    for (const p of a.positions.values()) if (p.symbol === pair.row.symbol && p.qty > 0 && p.marginMode === 2) hasCrossHere = true;
    if (!hasCrossHere) return;
    const t = this.crossTotals(a);
    const equity = unitsToNumber(a.wallet) - t.isolated + t.upnl;
    if (t.mm > 0 && t.mm >= equity) {
      const cross = [...a.positions.values()].filter((p) => p.qty > 0 && p.marginMode === 2);
      this.liquidate(a, cross, unitsToNumber(a.wallet) - t.isolated);
    }
  }

  /**
   * Liquidates `positions` of an account: cancels the orders that could add to them, closes each
   * with an IOC market order (close type 4), and closes any remainder at the bankruptcy price
   * against the insurance fund (close type 6); when the fund cannot cover, opposite positions are
   * deleveraged in ADL order (close type 5).
   */
  private liquidate(a: AccountLive, positions: PositionState[], wallet: number): void {
    const symbols = new Set(positions.map((p) => p.symbol));
    const crossAll = positions.some((p) => p.marginMode === 2);
    for (const o of [...a.orders.values()]) {
      if (crossAll || symbols.has(o.symbol)) {
        const pair = this.pairs.get(o.symbol)!;
        pair.book.cancel(o.id);
        this.drain(pair, null);
      }
    }
    const time = this.now();
    for (const p of positions) {
      if (p.qty === 0) continue;
      const pair = this.pairs.get(p.symbol)!;
      const qtyBefore = p.qty;
      const entry = entryPrice(p, pair.math.lotValue);
      const s = p.side === 1 ? 1 : -1;
      const bp = bankruptcyPrice(s, p.qty * pair.math.lotValue, entry, p.marginMode === 1 ? unitsToNumber(p.isolatedMargin) : Math.max(0, wallet / positions.length));
      this.announce({
        accountId: a.id,
        kind: 'liquidation',
        data: { symbol: p.symbol, position_side: p.side, quantity: pair.math.qtyOf(p.qty), mark_price: pair.markPrice, bankruptcy_price: bp, time },
      });
      // 1. IOC close in the market
      const id = this.takeOrderId();
      const order: LiveOrder = {
        id, clientOrderId: `liq-${id}`, accountId: a.id, symbol: p.symbol, side: p.side === 1 ? 2 : 1, type: 2, tif: 2,
        priceTicks: 0, qtyLots: p.qty, filledLots: 0, filledQuote: 0n, status: 1, leverage: p.leverage,
        marginMode: p.marginMode, positionSide: a.mode === 'hedge' ? p.side : 1, positionAction: 2, reduceOnly: true,
        frozen: 0n, totalFee: 0n, createdAt: time, updatedAt: time, isBot: false, engineAccount: a.id, closeType: 4,
      };
      this.orders.set(id, order);
      a.orders.set(id, order);
      a.clientIds.set(order.clientOrderId, id);
      // the IOC may trade only down to the bankruptcy price
      const bpTicks = Math.max(1, s === 1 ? pair.math.ticksCeil(bp) : pair.math.ticksFloor(bp));
      if (bp > 0 && bpTicks < 2_147_483_647) pair.book.placeLimit(id, a.id, order.side, bpTicks, p.qty, 2, 1, p.qty);
      else pair.book.placeMarket(id, a.id, order.side, p.qty, Math.max(1, pair.math.ticksRound(pair.markPrice)), 1, p.qty);
      this.drain(pair, null);
      this.dirtyOrders.add(order);
      // 2. the rest at the bankruptcy price against the fund, or by ADL
      const live = a.positions.get(posKey(p.symbol, p.side));
      if (live && live.qty > 0) this.closeAtBankruptcy(a, pair, live, Math.max(bp, pair.math.tickValue), time);
      if (qtyBefore > 0) this.trimQueue.add(p);
    }
    // A wallet below zero is covered by the fund. The cover is booked as a deposit from the
    // fund, so the account's identity (deposits = wallet + fees - PnL + funding) still holds.
    let cover = 0n;
    if (a.wallet < 0n) {
      cover = -a.wallet;
      this.insurance -= cover;
      a.wallet = 0n;
      a.deposits += cover;
      this.dirtyWallets.add(a);
    }
    this.deps.settings.set('insurance_fund', String(this.insurance));
    this.flush();
    if (cover > 0n) this.deps.repo.tx(() => this.deps.repo.addDeposit(a.id, 0n, time, cover));
  }

  /** Closes the rest of a liquidated position at its bankruptcy price (close type 6). */
  private closeAtBankruptcy(a: AccountLive, pair: PairState, p: PositionState, bp: number, time: number): void {
    const s = p.side === 1 ? 1 : -1;
    const lots = p.qty;
    const bpTicks = Math.max(1, pair.math.ticksRound(bp));
    const notional = pair.math.notional(bpTicks, lots);
    // The fund takes the position over at BP and closes it at mark: it wins or loses the gap.
    const markTicks = Math.max(1, pair.math.ticksRound(pair.markPrice));
    const fundPnl = BigInt(s) * (pair.math.notional(markTicks, lots) - notional);
    if (this.insurance + fundPnl < 0n) {
      this.autoDeleverage(a, pair, p, bpTicks, time);
      return;
    }
    this.insurance += fundPnl;
    const pnl = this.closeLots(a, pair, p, lots, notional, 0n, time, 6);
    a.wallet += pnl;
    this.dirtyWallets.add(a);
    this.recordSyntheticTrade(a, pair, p, bpTicks, lots, notional, pnl, time);
  }

  /** The fund cannot cover: reduce profitable opposite positions at the bankruptcy price (ADL). */
  private autoDeleverage(a: AccountLive, pair: PairState, p: PositionState, bpTicks: number, time: number): void {
    const opposite: Array<AdlCandidate & { acct: AccountLive; pos: PositionState }> = [];
    for (const other of this.accounts.values()) {
      if (other === a) continue;
      for (const q of other.positions.values()) {
        if (q.symbol !== p.symbol || q.side === p.side || q.qty === 0) continue;
        const qEntry = entryPrice(q, pair.math.lotValue);
        const qs = q.side === 1 ? 1 : -1;
        const margin = q.marginMode === 1 ? unitsToNumber(q.isolatedMargin) : (q.qty * pair.math.lotValue * qEntry) / q.leverage;
        opposite.push({
          id: String(q.id).padStart(16, '0'), side: qs, qty: q.qty * pair.math.lotValue, entry: qEntry, mark: pair.markPrice,
          bankruptcy: bankruptcyPrice(qs, q.qty * pair.math.lotValue, qEntry, margin), acct: other, pos: q,
        });
      }
    }
    let rest = p.qty;
    for (const c of rankForAdl(opposite)) {
      if (rest === 0) break;
      const lots = Math.min(rest, c.pos.qty);
      const notional = pair.math.notional(bpTicks, lots);
      const pnl = this.closeLots(c.acct, pair, c.pos, lots, notional, 0n, time, 5);
      c.acct.wallet += pnl;
      this.dirtyWallets.add(c.acct);
      this.recordSyntheticTrade(c.acct, pair, c.pos, bpTicks, lots, notional, pnl, time);
      const own = this.closeLots(a, pair, p, lots, notional, 0n, time, 6);
      a.wallet += own;
      this.dirtyWallets.add(a);
      this.recordSyntheticTrade(a, pair, p, bpTicks, lots, notional, own, time);
      rest -= lots;
    }
    if (rest > 0) {
      // nobody left to deleverage: the fund takes the remainder whatever it costs
      const notional = pair.math.notional(bpTicks, rest);
      const markTicks = Math.max(1, pair.math.ticksRound(pair.markPrice));
      this.insurance += BigInt(p.side === 1 ? 1 : -1) * (pair.math.notional(markTicks, rest) - notional);
      const own = this.closeLots(a, pair, p, rest, notional, 0n, time, 6);
      a.wallet += own;
      this.dirtyWallets.add(a);
      this.recordSyntheticTrade(a, pair, p, bpTicks, rest, notional, own, time);
    }
  }

  /** A fill that did not come from the book (bankruptcy close, ADL): recorded like any fill. */
  private recordSyntheticTrade(a: AccountLive, pair: PairState, p: PositionState, priceTicks: number, lots: number, notional: bigint, pnl: bigint, time: number): void {
    const trade: TradeRow = {
      id: this.takeTradeId(), orderId: 0, accountId: a.id, symbol: pair.row.symbol, side: p.side === 1 ? 2 : 1,
      positionSide: p.side, priceTicks, qtyLots: lots, quote: notional, fee: 0n, feeRate: '0', role: 2, isClose: true,
      realizedPnl: pnl, createdAt: time,
    };
    this.dirtyTrades.push(trade);
    this.pendingAccountEvents.push({ accountId: a.id, kind: 'fill', data: trade });
  }

  /**
   * Sets, changes or removes (price null) the take-profit and stop-loss of a position. A trigger
   * watches the mark price (1, default) or the last price (2); when it fires the whole position
   * closes with a market order (close type 2 take profit, 3 stop loss).
   */
  setTpSl(
    accountId: number,
    symbol: string,
    positionSide: number,
    tp: { price: string | null; trigger: 1 | 2 } | undefined,
    sl: { price: string | null; trigger: 1 | 2 } | undefined,
  ): PositionRecord {
    const a = this.requireAccount(accountId);
    const pair = this.requirePair(symbol);
    const p = a.mode === 'hedge'
      ? a.positions.get(posKey(symbol, positionSide))
      : a.positions.get(posKey(symbol, 1)) ?? a.positions.get(posKey(symbol, 2));
    if (!p || p.qty === 0) reject(Errors.POSITION_NOT_FOUND, `No ${positionSide === 1 ? 'long' : 'short'} position on ${symbol}`);
    const parse = (label: string, price: string): number => {
      const r = pair.math.price.toUnits(price);
      if (!r.ok) {
        if (r.reason === 'off_step') reject(Errors.PRICE_OFF_TICK, `${label} ${price} is not a multiple of the tick ${pair.row.tickSize}`);
        reject(Errors.INVALID_PARAMETER, `${label} must be a positive decimal string`);
      }
      return r.value;
    };
    const mark = pair.markPrice;
    const long = p.side === 1;
    let tpTicks = p.tpTicks;
    let slTicks = p.slTicks;
    if (tp) tpTicks = tp.price === null ? 0 : parse('take_profit_price', tp.price);
    if (sl) slTicks = sl.price === null ? 0 : parse('stop_loss_price', sl.price);
    const px = (t: number) => t * pair.math.tickValue;
    if (tpTicks && (long ? px(tpTicks) <= mark : px(tpTicks) >= mark)) {
      reject(Errors.INVALID_PARAMETER, `A ${long ? 'long' : 'short'}'s take-profit must be ${long ? 'above' : 'below'} the mark price ${pair.math.roundPrice(mark)}`);
    }
    if (slTicks && (long ? px(slTicks) >= mark : px(slTicks) <= mark)) {
      reject(Errors.INVALID_PARAMETER, `A ${long ? 'long' : 'short'}'s stop-loss must be ${long ? 'below' : 'above'} the mark price ${pair.math.roundPrice(mark)}`);
    }
    p.tpTicks = tpTicks;
    p.slTicks = slTicks;
    if (tp) p.tpTrigger = tp.trigger;
    if (sl) p.slTrigger = sl.trigger;
    p.updatedAt = this.now();
    this.dirtyPositions.add(p);
    this.flush();
    return this.positionRecord(a, p);
  }

  /** The take-profit / stop-loss of a position as decimal strings (null when unset). */
  tpsl(accountId: number, symbol: string, positionSide: number): { take_profit_price: string | null; stop_loss_price: string | null } {
    const a = this.requireAccount(accountId);
    const pair = this.requirePair(symbol);
    const p = a.mode === 'hedge'
      ? a.positions.get(posKey(symbol, positionSide))
      : a.positions.get(posKey(symbol, 1)) ?? a.positions.get(posKey(symbol, 2));
    return {
      take_profit_price: p && p.tpTicks ? pair.math.formatPrice(p.tpTicks) : null,
      stop_loss_price: p && p.slTicks ? pair.math.formatPrice(p.slTicks) : null,
    };
  }

  /** Take-profit / stop-loss of every open position of an account. */
  tpslList(accountId: number): Array<{ symbol: string; position_side: number; take_profit_price: string | null; stop_loss_price: string | null; working_type: number }> {
    const a = this.requireAccount(accountId);
    const out = [];
    for (const p of [...a.positions.values()].sort((x, y) => x.id - y.id)) {
      if (p.qty === 0) continue;
      const m = this.pairs.get(p.symbol)!.math;
      out.push({
        symbol: p.symbol,
        position_side: p.side,
        take_profit_price: p.tpTicks ? m.formatPrice(p.tpTicks) : null,
        stop_loss_price: p.slTicks ? m.formatPrice(p.slTicks) : null,
        working_type: p.tpTicks ? p.tpTrigger : p.slTicks ? p.slTrigger : 1,
      });
    }
    return out;
  }

  private checkTriggers(pair: PairState): void {
    const last = pair.lastPriceTicks * pair.math.tickValue;
    const mark = pair.markPrice;
    for (const a of [...this.accounts.values()]) {
      for (const p of [...a.positions.values()]) {
        if (p.symbol !== pair.row.symbol || p.qty === 0 || (!p.tpTicks && !p.slTicks)) continue;
        const long = p.side === 1;
        const tpPx = p.tpTicks * pair.math.tickValue;
        const slPx = p.slTicks * pair.math.tickValue;
        const tpRef = p.tpTrigger === 2 ? last : mark;
        const slRef = p.slTrigger === 2 ? last : mark;
        let closeType = 0;
        if (p.tpTicks && (long ? tpRef >= tpPx : tpRef <= tpPx)) closeType = 2;
        else if (p.slTicks && (long ? slRef <= slPx : slRef >= slPx)) closeType = 3;
        if (closeType) this.closeByMarket(a, pair, p, closeType);
      }
    }
  }

  /** Closes a whole position with a reduce-only market order carrying `closeType`. */
  private closeByMarket(a: AccountLive, pair: PairState, p: PositionState, closeType: number): void {
    const time = this.now();
    const id = this.takeOrderId();
    const order: LiveOrder = {
      id, clientOrderId: `${closeType === 2 ? 'tp' : closeType === 3 ? 'sl' : 'close'}-${id}`, accountId: a.id,
      symbol: p.symbol, side: p.side === 1 ? 2 : 1, type: 2, tif: 2, priceTicks: 0, qtyLots: p.qty, filledLots: 0,
      filledQuote: 0n, status: 1, leverage: p.leverage, marginMode: p.marginMode, positionSide: a.mode === 'hedge' ? p.side : 1,
      positionAction: 2, reduceOnly: true, frozen: 0n, totalFee: 0n, createdAt: time, updatedAt: time, isBot: false,
      engineAccount: a.id, closeType,
    };
    // the trigger is spent whether or not the market fills all of it
    p.tpTicks = 0;
    p.slTicks = 0;
    this.dirtyPositions.add(p);
    this.orders.set(id, order);
    a.orders.set(id, order);
    a.clientIds.set(order.clientOrderId, id);
    pair.book.placeMarket(id, a.id, order.side, p.qty, Math.max(1, pair.math.ticksRound(pair.markPrice)), 1, p.qty);
    this.drain(pair, null);
    this.dirtyOrders.add(order);
    this.flush();
  }

  // ------------------------------------------------------------------ paper account reset

  /**
   * Paper reset: cancels every open order, closes every position at the mark price (close type 1,
   * no fee) and sets the wallet to `balance` units; the difference is booked as a deposit.
   */
  resetAccount(accountId: number, balance: bigint): AccountSummary {
    const a = this.requireAccount(accountId);
    if (balance < 0n) reject(Errors.INVALID_PARAMETER, 'balance must not be negative');
    for (const o of [...a.orders.values()]) {
      const pair = this.pairs.get(o.symbol)!;
      pair.book.cancel(o.id);
      this.drain(pair, null);
    }
    const time = this.now();
    for (const p of [...a.positions.values()]) {
      if (p.qty === 0) continue;
      const pair = this.pairs.get(p.symbol)!;
      const ticks = Math.max(1, pair.math.ticksRound(pair.markPrice));
      const notional = pair.math.notional(ticks, p.qty);
      const lots = p.qty;
      const pnl = this.closeLots(a, pair, p, lots, notional, 0n, time, 1);
      a.wallet += pnl;
      this.recordSyntheticTrade(a, pair, p, ticks, lots, notional, pnl, time);
    }
    const delta = balance - a.wallet;
    a.wallet = balance;
    a.deposits += delta;
    this.dirtyWallets.add(a);
    this.flush();
    if (delta !== 0n) this.deps.repo.tx(() => this.deps.repo.addDeposit(a.id, 0n, time, delta));
    this.emitBalance(a);
    return this.summary(accountId);
  }

  /** Parses a USDT amount (decimal string, at most 8 decimals) into units. */
  static parseUsdt(text: string): bigint {
    const r = parseFixed(text, 8);
    if (!r.ok) reject(Errors.INVALID_PARAMETER, `'${text}' is not a USDT amount with at most 8 decimals`);
    return r.value;
  }

  // ------------------------------------------------------------------ store and announce

  private queueAccountEvent(o: LiveOrder, kind: 'order', _data: null): void {
    if (o.isBot && !o.cached) return; // fire-and-forget bot orders are not announced
    this.pendingAccountEvents.push({ accountId: o.isBot ? 0 : o.accountId, kind, data: o });
  }

  /**
   * Ends a command: its changes join the turn's write set, which the group commit writes once,
   * just before the turn's commit (a wallet or an order changed by many commands of one turn is
   * written once); a failed write fails that commit, whose listener stops the exchange.
   */
  private flush(): void {
    const orders = this.dirtyOrders;
    const trades = this.dirtyTrades;
    const positions = this.dirtyPositions;
    const closed = this.closedPositions;
    const wallets = this.dirtyWallets;
    const events = this.pendingAccountEvents;
    this.dirtyOrders = new Set();
    this.dirtyTrades = [];
    this.dirtyPositions = new Set();
    this.closedPositions = [];
    this.dirtyWallets = new Set();
    this.pendingAccountEvents = [];
    if (orders.size + trades.length + positions.size + closed.length + wallets.size > 0) {
      const turn = this.turn;
      for (const o of orders) turn.orders.add(o);
      for (const t of trades) turn.trades.push(t);
      for (const p of positions) turn.positions.add(p);
      for (const c of closed) turn.closed.push(c);
      for (const a of wallets) turn.wallets.add(a);
      if (!this.turnScheduled) {
        this.turnScheduled = true;
        this.deps.repo.group.defer(this.writeTurn);
      }
    }
    if (!this.events.has('account')) return;
    // Records are taken now (the state this command left); they go out once the commit that
    // stores them succeeded, so no push announces what a crash could still take back.
    const out: AccountEvent[] = [];
    const seen = new Set<unknown>();
    for (const ev of events) {
      if (ev.kind === 'order') {
        if (seen.has(ev.data)) continue;
        seen.add(ev.data);
        out.push({ accountId: ev.accountId, kind: 'order', data: this.orderRecord(ev.data as LiveOrder) });
      } else if (ev.kind === 'fill') {
        out.push({ accountId: ev.accountId, kind: 'fill', data: this.tradeRecord(ev.data as TradeRow) });
      }
    }
    const touched = new Set<number>();
    for (const p of positions) touched.add(p.accountId);
    for (const c of closed) touched.add(c.p.accountId);
    for (const id of touched) out.push({ accountId: id, kind: 'position', data: this.positions(id) });
    // The summary moves with the wallet, and also with the order margin an order freezes or
    // frees and the position margin a fill changes: one balance push per account concerned.
    const balances = new Set<number>();
    for (const a of wallets) balances.add(a.id);
    for (const ev of events) if (ev.kind === 'order' && ev.accountId > 0) balances.add(ev.accountId);
    for (const id of touched) balances.add(id);
    for (const id of balances) if (this.accounts.has(id)) out.push({ accountId: id, kind: 'balance', data: this.summary(id) });
    if (out.length > 0) this.deps.repo.group.afterCommit(() => this.emitAll(out));
  }

  /** Writes the turn's changes (run by the group commit inside its transaction). */
  private readonly writeTurn = (): void => {
    const { repo } = this.deps;
    const t = this.turn;
    this.turn = emptyTurn();
    this.turnScheduled = false;
    const now = this.now();
    for (const o of t.orders) repo.saveOrder(o);
    for (const tr of t.trades) repo.insertTrade(tr);
    // in first-change order: a flat position is deleted before a new one takes its (account,
    // symbol, side) key
    for (const p of t.positions) {
      if (p.qty > 0) repo.savePosition(p);
      else repo.deletePosition(p.id);
    }
    for (const c of t.closed) repo.insertClosed(c.p, c.closeType, c.p.updatedAt);
    for (const a of t.wallets) repo.setWallet(a.id, a.wallet, now);
  };

  private emitAll(out: AccountEvent[]): void {
    for (const ev of out) this.events.emit('account', ev);
  }

  /** Announces a private event once everything written before it is committed. */
  private announce(ev: AccountEvent): void {
    if (this.events.has('account')) this.deps.repo.group.afterCommit(() => this.events.emit('account', ev));
  }

  private emitBalance(a: AccountLive): void {
    if (this.events.has('account')) this.announce({ accountId: a.id, kind: 'balance', data: this.summary(a.id) });
  }

  // ------------------------------------------------------------------ views

  orderRecord(o: OrderRow): OrderRecord {
    const pair = this.pairs.get(o.symbol)!;
    const m = pair.math;
    const avg = o.filledLots > 0 ? unitsToNumber(o.filledQuote) / (o.filledLots * m.lotValue) : 0;
    return {
      id: String(o.id),
      client_order_id: o.clientOrderId,
      symbol: o.symbol,
      side: o.side as OrderRecord['side'],
      type: o.type as OrderRecord['type'],
      status: o.status as OrderRecord['status'],
      price: m.formatPrice(o.priceTicks),
      qty: m.formatQty(o.qtyLots),
      filled_qty: m.formatQty(o.filledLots),
      filled_quote: formatMoney(o.filledQuote),
      avg_price: avg.toFixed(m.price.precision),
      total_fee: formatMoney(o.totalFee),
      fee_asset: 'USDT',
      leverage: o.leverage,
      margin_mode: o.marginMode as OrderRecord['margin_mode'],
      position_action: o.positionAction as OrderRecord['position_action'],
      position_side: o.positionSide as OrderRecord['position_side'],
      created_at: o.createdAt,
      updated_at: o.updatedAt,
      user_id: String(o.accountId),
    };
  }

  tradeRecord(t: TradeRow): TradeRecord {
    const m = this.pairs.get(t.symbol)!.math;
    return {
      id: String(t.id),
      order_id: String(t.orderId),
      symbol: t.symbol,
      side: t.side as TradeRecord['side'],
      position_side: t.positionSide as TradeRecord['position_side'],
      price: m.formatPrice(t.priceTicks),
      qty: m.formatQty(t.qtyLots),
      quote_qty: formatMoney(t.quote),
      fee: formatMoney(t.fee),
      fee_asset: 'USDT',
      fee_rate: t.feeRate,
      role: t.role as TradeRecord['role'],
      is_close: t.isClose,
      realized_pnl: formatMoney(t.realizedPnl),
      created_at: t.createdAt,
    };
  }

  openOrders(accountId: number, symbol?: string): OrderRecord[] {
    const a = this.requireAccount(accountId);
    return this.openOrdersOf(a, symbol).map((o) => this.orderRecord(o));
  }

  /** Unrealized PnL of a position at the pair's mark (float USDT). */
  private upnl(p: PositionState, pair: PairState): number {
    const s = p.side === 1 ? 1 : -1;
    return s * (p.qty * pair.math.lotValue * pair.markPrice - unitsToNumber(p.cost));
  }

  private crossTotals(a: AccountLive, except?: PositionState): { upnl: number; im: number; mm: number; isolated: number } {
    let upnl = 0;
    let im = 0;
    let mm = 0;
    let isolated = 0;
    for (const p of a.positions.values()) {
      if (p.qty === 0) continue;
      const pair = this.pairs.get(p.symbol)!;
      if (p.marginMode === 1) {
        isolated += unitsToNumber(p.isolatedMargin);
        continue;
      }
      if (p === except) continue;
      const notional = p.qty * pair.math.lotValue * pair.markPrice;
      upnl += this.upnl(p, pair);
      im += notional / p.leverage;
      mm += maintenanceMargin(pair.row.brackets, notional);
    }
    return { upnl, im, mm, isolated };
  }

  /** Available balance in units: what new orders may use. */
  private available(a: AccountLive): bigint {
    const t = this.crossTotals(a);
    const avail = unitsToNumber(a.wallet) + t.upnl - t.im - t.isolated - unitsToNumber(a.frozen);
    return BigInt(Math.floor(avail * 1e8));
  }

  summary(accountId: number): AccountSummary {
    const a = this.requireAccount(accountId);
    const t = this.crossTotals(a);
    let isoUpnl = 0;
    for (const p of a.positions.values()) if (p.qty > 0 && p.marginMode === 1) isoUpnl += this.upnl(p, this.pairs.get(p.symbol)!);
    const wallet = unitsToNumber(a.wallet);
    const available = Math.max(0, wallet + t.upnl - t.im - t.isolated - unitsToNumber(a.frozen));
    const f = (x: number) => x.toFixed(8);
    return {
      user_id: a.id,
      asset: 'USDT',
      wallet_balance: formatMoney(a.wallet),
      available_balance: f(available),
      frozen_margin: formatMoney(a.frozen),
      position_margin: f(t.im + t.isolated),
      unrealized_pnl: f(t.upnl + isoUpnl),
      margin_balance: f(wallet + t.upnl + isoUpnl),
      total_deposits: formatMoney(a.deposits),
      position_mode: a.mode,
    };
  }

  positions(accountId: number): PositionRecord[] {
    const a = this.requireAccount(accountId);
    const out: PositionRecord[] = [];
    const list = [...a.positions.values()].filter((p) => p.qty > 0).sort((x, y) => x.id - y.id);
    for (const p of list) out.push(this.positionRecord(a, p));
    return out;
  }

  positionRecord(a: AccountLive | number, p: PositionState): PositionRecord {
    const acct = typeof a === 'number' ? this.requireAccount(a) : a;
    const pair = this.pairs.get(p.symbol)!;
    const m = pair.math;
    // exact decimal (lots x step in floating point gives 0.35000000000000003, which a bot
    // sending it back as a quantity would have refused as off-step)
    const qty = m.qtyOf(p.qty);
    const entry = entryPrice(p, m.lotValue);
    const mark = pair.markPrice;
    const notional = qty * mark;
    const bracket = bracketFor(pair.row.brackets, notional);
    const upnl = this.upnl(p, pair);
    const maint = maintenanceMargin(pair.row.brackets, notional);
    const s = p.side === 1 ? 1 : -1;
    let margin: number;
    let lp: number;
    let ratio: number;
    if (p.marginMode === 1) {
      margin = unitsToNumber(p.isolatedMargin);
      lp = liquidationPrice({ side: s, qty, entry, wallet: margin, brackets: pair.row.brackets });
      const equity = margin + upnl;
      ratio = equity > 0 ? maint / equity : maint > 0 ? 1 : 0;
    } else {
      margin = notional / p.leverage;
      const others = this.crossTotals(acct, p);
      const crossWallet = unitsToNumber(acct.wallet) - others.isolated;
      lp = liquidationPrice({ side: s, qty, entry, wallet: crossWallet, otherMaintenance: others.mm, otherUpnl: others.upnl, brackets: pair.row.brackets });
      const equity = crossWallet + others.upnl + upnl;
      ratio = equity > 0 ? (others.mm + maint) / equity : 1;
    }
    const feesPaid = unitsToNumber(p.openFee + p.closeFee);
    const bep = breakEvenPrice(s, qty, entry, feesPaid, estimatedClosingFee(qty, entry, pair.math.taker.value));
    const r8 = (x: number) => Math.round(x * 1e8) / 1e8;
    return {
      id: String(p.id),
      user_id: p.accountId,
      symbol: p.symbol,
      position_side: p.side,
      margin_mode: p.marginMode,
      leverage: p.leverage,
      quantity: qty,
      entry_price: r8(entry),
      mark_price: r8(mark),
      liquidation_price: Math.max(0, m.roundPrice(lp)),
      break_even_price: r8(bep),
      maintenance_margin_rate: bracket.mmr,
      margin: r8(margin),
      margin_ratio: Math.round(ratio * 1e6) / 1e6,
      unrealized_pnl: r8(upnl),
      realized_pnl: unitsToNumber(p.realizedPnl),
      total_funding_fee: unitsToNumber(p.fundingFee),
      open_fee: unitsToNumber(p.openFee),
      close_fee: unitsToNumber(p.closeFee),
      created_at: p.createdAt,
      updated_at: p.updatedAt,
    } as PositionRecord;
  }

  /** Sum of all user wallets plus what the venue holds (for accounting checks). */
  walletOf(accountId: number): bigint {
    return this.requireAccount(accountId).wallet;
  }
}

function ceilDivBig(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export const _internal = { MONEY_SCALE };
