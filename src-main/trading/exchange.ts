// The exchange: the one sequencer of every state-changing command of the venue, a facade over
// small modules (order checks, ledger, fills and positions, funding, liquidation, TP/SL, isolated
// margin, turn writer; see core.ts for the state they share).
//
// Each command (commands.ts: orders, cancels, amendments, leverage / margin / position mode, TP/SL,
// isolated margin, deposits, resets, accounts, prices, funding) enters through execute() and runs
// to its end synchronously: validate -> engine -> apply the engine's events to orders, positions and
// wallets -> hand every change to the store as one group-commit unit -> announce events after
// the commit. Nothing else runs in between (one JS thread, no await inside a command), so
// commands are totally ordered and a run is reproducible from its command sequence. An
// acknowledged user order, fill or position change is in the store before the caller gets its
// answer; a command that throws has changed nothing (validation happens before the engine is
// touched; the store write is one unit).
//
// Accounts: user accounts (ids >= 1) are margined and stored; bot orders belong to the house
// (engine account HOUSE_ACCOUNT and up), skip margin and storage, and only their fills against
// users touch the ledger (on the user's side). Money is bigint 1e-8 USDT (risk/money.ts).
// The exchange depends only on its ports (ports.ts): SQLite or memory-store.ts behind them.
import { Errors } from '../../src-shared/errors.ts';
import { PositionSide } from '../../src-shared/enums.ts';
import type { AccountSummary, ConditionalOrderRecord, OrderRecord, PositionRecord } from '../../src-shared/types.ts';
import type { IsolatedMarginLimits, PositionTpSl } from '../../src-shared/types/position-settings.ts';
import { checkPositionMode, setLeverage, setMarginMode, setPositionMode } from './account-settings.ts';
import type { Command, OrderInput, ResultOf } from './commands.ts';
import { amendConditional } from './conditional-amend.ts';
import {
  cancelAllConditionals,
  cancelConditional,
  conditionalRecord,
  placeConditional,
  restoreConditionals,
  waitingOf,
} from './conditional.ts';
import { HOUSE_ACCOUNT, openOrdersOf, reject, TradingCore } from './core.ts';
import type { EventBus } from './events.ts';
import { settleFunding } from './funding.ts';
import { TurnWriter } from './turn-writer.ts';
import { deposit, upnlUnits } from './ledger.ts';
import { paperReset } from './paper-reset.ts';
import { checkRisk } from './liquidation.ts';
import { adlQuantile, adlQueue } from './adl-queue.ts';
import { adjustIsolatedMargin, isolatedMarginView } from './isolated-margin.ts';
import { growHouseOrder, housePrint, placeHouseOrder, trimHouseOrder } from './house-orders.ts';
import { HouseDesk } from './house-desk.ts';
import {
  amendOrder,
  cancelAll,
  cancelBotOrder,
  cancelOrder,
  checkUserOrder,
  placeBotOrder,
  placeUserOrder,
  trimBotOrder,
} from './orders.ts';
import type { PairState } from './pair-state.ts';
import { TransferKind, type AccountSpec, type AccountState, type ExchangeDeps, type OrderState } from './ports.ts';
import { fireTradeTriggers, setTpSl, tpslList, tpslOf } from './tpsl.ts';
import {
  openInterestLots,
  orderRecord,
  positionCounts,
  positionRecords,
  summaryRecord,
  type PositionCounts,
} from './views.ts';

export { HOUSE_ACCOUNT, INITIAL_INSURANCE_FUND } from './core.ts';
export type { ExchangeDeps } from './ports.ts';
export type { BotOrderInput, Command, OrderInput, ResultOf } from './commands.ts';

export class Exchange {
  readonly events: EventBus;
  readonly pairs: Map<string, PairState>;
  private readonly core: TradingCore;

  constructor(deps: ExchangeDeps) {
    this.core = new TradingCore(deps, (core) => new TurnWriter(core));
    restoreConditionals(this.core);
    this.events = this.core.events;
    this.pairs = this.core.pairs;
  }

  /**
   * Venue set-up (not a command of the market): house engine accounts whose orders the bot API
   * may not cancel or trim (a replay's historical book and prints: their owner keeps them).
   */
  reserveHouseAccounts(accounts: readonly number[]): void {
    for (const a of accounts) {
      if (!Number.isSafeInteger(a) || a < HOUSE_ACCOUNT)
        throw new RangeError(`account ${a} is not a house engine account`);
      this.core.reservedAccounts.add(a);
    }
  }

  /**
   * Venue set-up (not a command of the market): a pair's last traded price as the stored tape has it
   * (a start after a stop; until then the pair's listing price stands in).
   */
  restoreLastPrice(symbol: string, priceTicks: number): void {
    if (Number.isSafeInteger(priceTicks) && priceTicks > 0) this.core.requirePair(symbol).lastPriceTicks = priceTicks;
  }

  /** Keeps the stored book update ids ahead of the live ones (the venue's market checkpoint): TradingCore.checkpointBookIds. */
  checkpointBookIds(): void {
    this.core.checkpointBookIds();
  }

  /** A clean stop: the next start continues the order, trade and book update ids (TradingCore.releaseIds). */
  releaseIds(): void {
    this.core.releaseIds();
  }

  /**
   * The house commands of a replay on one pair as numbers (house-desk.ts: 'houseOrder',
   * 'housePrint', 'houseTrim' and 'houseGrow' without the command and answer objects), for the
   * book and taker accounts given, which are reserved here (reserveHouseAccounts).
   */
  houseDesk(symbol: string, accounts: { book: number; taker: number }): HouseDesk {
    const pair = this.core.requirePair(symbol);
    this.reserveHouseAccounts([accounts.book, accounts.taker]);
    return new HouseDesk(this.core, pair, accounts);
  }

  /**
   * Runs one command to its end (synchronously) and returns its answer; throws ApiError having
   * changed nothing. Then fires the last-price take-profits / stop-losses its trades reached
   * (after the answer is made, as separate closes: tpsl.ts).
   */
  execute<C extends Command>(c: C): ResultOf<C> {
    const core = this.core;
    // one market time for the command and the triggers it fires (TradingCore.now)
    const outer = core.beginCommand();
    try {
      return this.run(c) as ResultOf<C>;
    } finally {
      // a command that throws has traded nothing, unless it threw after its trades (they stand)
      try {
        if (core.tradedCount !== 0) fireTradeTriggers(core);
      } finally {
        if (outer) core.commandTime = null;
      }
    }
  }

  /**
   * Fires the last-price take-profits / stop-losses that trades since the last command reached.
   * Every command does it when it ends; a house desk's calls (houseDesk) do not, since its caller's
   * print may still be under way: the caller calls this once the print is over. Nothing to do is
   * one comparison.
   */
  fireTradeTriggers(): void {
    if (this.core.tradedCount !== 0) fireTradeTriggers(this.core);
  }

  /**
   * The market time of the latest command carried out (what its orders, trades and ledger rows
   * are stamped with). A source that runs behind the clock (the simulator steps the time up to
   * now in arrears) stamps nothing earlier, so no record follows another with an earlier time: a
   * fill never comes before its order.
   */
  get lastCommandTime(): number {
    return this.core.lastCommandTime;
  }

  private run(c: Command): unknown {
    const core = this.core;
    switch (c.kind) {
      case 'placeBot':
        return placeBotOrder(core, c.input, c.engineAccount ?? HOUSE_ACCOUNT);
      case 'houseOrder':
        return placeHouseOrder(core, c);
      case 'houseTrim':
        return trimHouseOrder(core, c.symbol, c.orderId, c.lots);
      case 'houseGrow':
        return growHouseOrder(core, c.symbol, c.orderId, c.lots);
      case 'housePrint':
        return housePrint(core, c);
      case 'place':
        return placeUserOrder(core, core.commandAccount(c.accountId), c.input);
      case 'cancel':
        return cancelOrder(core, core.commandAccount(c.accountId), c);
      case 'amend':
        return amendOrder(core, core.commandAccount(c.accountId), c);
      case 'cancelAll':
        return cancelAll(core, core.commandAccount(c.accountId), c.symbol);
      case 'placeConditional':
        return placeConditional(core, core.commandAccount(c.accountId), c.input);
      case 'cancelConditional':
        return cancelConditional(core, core.commandAccount(c.accountId), c);
      case 'amendConditional':
        return amendConditional(core, core.commandAccount(c.accountId), c);
      case 'cancelAllConditionals':
        return cancelAllConditionals(core, core.commandAccount(c.accountId), c.symbol);
      case 'cancelBot':
        return cancelBotOrder(core, c.symbol, c.orderId);
      case 'trimBot':
        return trimBotOrder(core, c.symbol, c.orderId, c.lots);
      case 'setLeverage':
        return setLeverage(core, core.commandAccount(c.accountId), c.symbol, c.leverage);
      case 'setMarginMode':
        return setMarginMode(core, core.commandAccount(c.accountId), c.symbol, c.marginMode);
      case 'setPositionMode':
        return setPositionMode(core, core.commandAccount(c.accountId), c.mode);
      case 'setTpSl':
        return setTpSl(core, core.commandAccount(c.accountId), c);
      case 'adjustMargin':
        return adjustIsolatedMargin(core, core.commandAccount(c.accountId), c);
      case 'deposit': {
        const a = core.commandAccount(c.accountId);
        deposit(core, a, c.amount);
        core.writer.announceBalance(a);
        return summaryRecord(core, a);
      }
      case 'reset':
        return paperReset(core, core.commandAccount(c.accountId), c.balance);
      case 'upsertAccount':
        return this.upsert(c.spec, c.now);
      case 'rotateKey': {
        // the exchange addresses accounts by id and holds no keys; the command still passes the
        // sequencer so a command log orders it with the account's orders
        core.commandAccount(c.accountId);
        if (core.deps.accounts.rotateKey(c.accountId, c.apiKey, c.apiSecret, c.now) === undefined)
          reject(Errors.ACCOUNT_NOT_FOUND);
        return { apiKey: c.apiKey, apiSecret: c.apiSecret };
      }
      case 'prices':
        return this.prices(c);
      case 'funding':
        return settleFunding(core, c.symbol, c.rate, c.mark, c.time);
    }
  }

  // ------------------------------------------------------------------ commands kept here

  /**
   * Creates a paper account or updates an existing one (secret, and the wallet set to `balance`
   * with the difference booked as a deposit and a transfer), in the store and in the live state alike: an
   * account the exchange has loaded keeps its wallet in memory, so the store alone would leave
   * the two apart. The CLI's --account and the admin route go through here.
   */
  private upsert(spec: AccountSpec, now: number): AccountState {
    const core = this.core;
    const { accounts, repo } = core.deps;
    // the deposits total moves by what the store booked: stored with its transfer, in one unit
    const row = repo.tx(() => {
      const before = accounts.byKey(spec.apiKey);
      const after = accounts.upsert(spec, now);
      const delta = after.totalDeposits - (before?.totalDeposits ?? 0n);
      if (delta !== 0n)
        repo.insertTransfer({ accountId: after.id, kind: TransferKind.ACCOUNT_SET, time: core.now(), amount: delta });
      return after;
    });
    const a = core.accounts.get(row.id);
    if (a) {
      a.wallet = row.walletBalance;
      a.deposits = row.totalDeposits;
      core.writer.announceBalance(a);
    }
    return row;
  }

  /** Mark and index prices from the market (simulator); drives PnL, margin and liquidation. */
  private prices(p: Extract<Command, { kind: 'prices' }>): void {
    const pair = this.core.requirePair(p.symbol);
    if (p.mark !== undefined && p.mark > 0) pair.markPrice = p.mark;
    if (p.index !== undefined && p.index > 0) pair.indexPrice = p.index;
    if (p.fundingRate !== undefined) pair.fundingRate = p.fundingRate;
    if (p.nextFundingTime !== undefined) pair.nextFundingTime = p.nextFundingTime;
    pair.priceTime = this.core.now();
    if (p.mark !== undefined) checkRisk(this.core, pair);
    // mark / index history listeners (market/price-klines.ts); nothing is built when none listens
    const events = this.core.events;
    if (
      (p.mark !== undefined || p.index !== undefined) &&
      pair.markPrice > 0 &&
      pair.indexPrice > 0 &&
      events.has('price')
    ) {
      events.emit('price', { symbol: p.symbol, mark: pair.markPrice, index: pair.indexPrice, time: pair.priceTime });
    }
  }

  // ------------------------------------------------------------------ views (read-only)

  pair(symbol: string): PairState | undefined {
    return this.pairs.get(symbol);
  }

  /** An account's leverage and margin mode on a pair (the defaults until it sets them). */
  pairSetting(accountId: number, symbol: string): { leverage: number; marginMode: number } {
    return this.core.pairSetting(this.core.requireAccount(accountId), this.core.requirePair(symbol));
  }

  /** Throws the refusal (3015) a change of the account's position mode would meet now; changes nothing. */
  checkPositionModeChange(accountId: number): void {
    checkPositionMode(this.core, this.core.requireAccount(accountId));
  }

  /** Throws the refusal a user placement of `input` would meet now; places nothing, changes nothing. */
  checkOrder(accountId: number, input: OrderInput): void {
    checkUserOrder(this.core, this.core.requireAccount(accountId), input);
  }

  summary(accountId: number): AccountSummary {
    return summaryRecord(this.core, this.core.requireAccount(accountId));
  }

  /**
   * An account's margin balance (wallet + unrealized PnL at the mark) and its deposits, in 1e-8
   * USDT units, without building its summary: a replay's report reads it at every mark move.
   */
  equityUnits(accountId: number): { equity: bigint; deposits: bigint } {
    const a = this.core.requireAccount(accountId);
    let equity = a.wallet;
    for (const p of a.positions.values()) if (p.qty > 0) equity += upnlUnits(p, this.core.pairs.get(p.symbol)!);
    return { equity, deposits: a.deposits };
  }

  positions(accountId: number): PositionRecord[] {
    return positionRecords(this.core, this.core.requireAccount(accountId));
  }

  /**
   * An account's ADL quantiles on a pair, Binance's 0 to 4 (trading/adl-queue.ts): of its long and
   * of its short position (a one-way position is on one of them), 0 for a side it holds nothing on.
   */
  adlQuantiles(accountId: number, symbol: string): { long: number; short: number } {
    const a = this.core.requireAccount(accountId);
    this.core.requirePair(symbol);
    const of = (side: PositionSide): number => {
      for (const p of a.positions.values())
        if (p.symbol === symbol && p.side === side && p.qty !== 0)
          return adlQuantile(adlQueue(this.core, symbol, side), p);
      return 0;
    };
    return { long: of(PositionSide.LONG), short: of(PositionSide.SHORT) };
  }

  openOrders(accountId: number, symbol?: string): OrderRecord[] {
    return openOrdersOf(this.core.requireAccount(accountId), symbol).map((o) => orderRecord(this.core, o));
  }

  /** What the account's open orders on `symbol` (of one position side if given) freeze, 1e-8 USDT, one-way netting included. */
  frozenMargin(accountId: number, symbol: string, positionSide?: number): bigint {
    let sum = 0n;
    for (const o of this.core.requireAccount(accountId).orders.values())
      if (o.symbol === symbol && (positionSide === undefined || o.positionSide === positionSide)) sum += o.frozen;
    return sum;
  }

  /**
   * An account's order by id: the live one while it is open (read from memory, so the turn's
   * coalesced writes are not flushed as a store read would), else the stored one; undefined when
   * there is none of this account. The object is the exchange's own: read it, never keep or change it.
   */
  liveOrder(accountId: number, orderId: number): Readonly<OrderState> | undefined {
    const live = this.core.requireAccount(accountId).orders.get(orderId);
    if (live) return live;
    const stored = this.core.deps.repo.order(orderId);
    return stored?.accountId === accountId ? stored : undefined;
  }

  /** An account's order by client id (on `symbol` when given): the open one first, else the newest stored. */
  liveOrderByClientId(accountId: number, clientOrderId: string, symbol?: string): Readonly<OrderState> | undefined {
    const a = this.core.requireAccount(accountId);
    const id = a.clientIds.get(clientOrderId);
    const live = id === undefined ? undefined : a.orders.get(id);
    if (live && (symbol === undefined || live.symbol === symbol)) return live;
    return this.core.deps.repo.orderByClientId(accountId, clientOrderId, symbol);
  }

  /** An account's waiting conditional orders (on `symbol` when given), by id. */
  openConditionals(accountId: number, symbol?: string): ConditionalOrderRecord[] {
    const core = this.core;
    return waitingOf(core, core.requireAccount(accountId), symbol).map((c) => conditionalRecord(core, c));
  }

  /**
   * An account's conditional order by id or client id (a client id names a waiting one, else the
   * newest stored with it): undefined when it has none such.
   */
  conditional(
    accountId: number,
    by: { id?: number; clientOrderId?: string; symbol?: string },
  ): ConditionalOrderRecord | undefined {
    const core = this.core;
    const a = core.requireAccount(accountId);
    const fits = (c: { accountId: number; symbol: string } | undefined) =>
      c !== undefined && c.accountId === a.id && (by.symbol === undefined || c.symbol === by.symbol);
    if (by.id !== undefined) {
      const c = core.conditionals.get(by.id) ?? core.deps.conditionals.byId(by.id);
      return c !== undefined && fits(c) ? conditionalRecord(core, c) : undefined;
    }
    const live = waitingOf(core, a, by.symbol).find((c) => c.clientOrderId === by.clientOrderId);
    if (live) return conditionalRecord(core, live);
    const [stored] = core.deps.conditionals.list({
      accountId: a.id,
      symbol: by.symbol,
      clientOrderId: by.clientOrderId,
      limit: 1,
    });
    return stored === undefined ? undefined : conditionalRecord(core, stored);
  }

  /** An account's conditional orders of every status, newest first (below `beforeId` when given). */
  conditionalHistory(q: {
    accountId: number;
    symbol?: string;
    status?: number;
    beforeId?: number;
    limit: number;
  }): ConditionalOrderRecord[] {
    const core = this.core;
    core.requireAccount(q.accountId);
    return core.deps.conditionals.list(q).map((c) => conditionalRecord(core, c));
  }

  /** Cached bot orders that are still open. */
  botOrders(symbol?: string): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const o of this.core.orders.values())
      if (o.isBot && (symbol === undefined || o.symbol === symbol)) out.push(orderRecord(this.core, o));
    return out.sort((x, y) => Number(x.id) - Number(y.id));
  }

  /** The take-profit / stop-loss of a position as decimal strings and the price each watches (null when unset). */
  tpsl(accountId: number, symbol: string, positionSide: number): ReturnType<typeof tpslOf> {
    return tpslOf(this.core, this.core.requireAccount(accountId), symbol, positionSide);
  }

  /**
   * How far the margin of an account's isolated position may move now (exact decimal strings):
   * its margin, its initial margin at the mark, and the most that may be added or removed. Throws
   * as the margin command does when there is no such position (1103) or it is cross (3024).
   */
  isolatedMargin(accountId: number, symbol: string, positionSide: number): IsolatedMarginLimits {
    return isolatedMarginView(this.core, this.core.requireAccount(accountId), symbol, positionSide);
  }

  /** Take-profit / stop-loss of every open position of an account. */
  tpslList(accountId: number): PositionTpSl[] {
    return tpslList(this.core, this.core.requireAccount(accountId));
  }

  /** Open interest of a pair in lots (views.ts openInterestLots: users' long and short totals, and the larger of them). */
  openInterest(symbol: string): { longLots: number; shortLots: number; lots: number } {
    return openInterestLots(this.core, this.core.requirePair(symbol).row.symbol);
  }

  /** Who holds a pair's positions, long and short, and the top traders among them (views.ts positionCounts). */
  positionCounts(symbol: string): PositionCounts {
    return positionCounts(this.core, this.core.requirePair(symbol).row.symbol);
  }

  /** The live wallet of an account, units (the store follows it at the turn's commit). */
  walletOf(accountId: number): bigint {
    return this.core.requireAccount(accountId).wallet;
  }

  /** The insurance fund, units. */
  insuranceFund(): bigint {
    return this.core.insurance;
  }

  /** What the house backstop has paid for losses beyond the fund, units (liquidation.ts). */
  houseBackstop(): bigint {
    return this.core.houseBackstop;
  }
}
