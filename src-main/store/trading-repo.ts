// SQLite persistence of user trading state: orders, fills, positions, closed positions,
// per-pair account settings and wallets. The exchange calls these inside one unit per command
// (tx: a savepoint of the turn's group commit), so a failed command leaves nothing behind, and
// answers wait for the commit (group.whenDurable), so an acknowledged change is on disk.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { MarginChangeType, PositionSide } from '../../src-shared/enums.ts';
import type { PositionState } from '../risk/position.ts';
import type {
  OrderState,
  TradeState,
  TradingStorePort,
  ClosedPositionRow,
  FundingRateState,
  FundingRecordState,
  TransferKind,
  TransferState,
  TradeHistoryPort,
  TradeQuery,
  ForcedOrderQuery,
  ClosedQuery,
  FundingQuery,
  TransferQuery,
  TransferRow,
  FundingRateQuery,
  FundingRecordRow,
  LiquidationFeeQuery,
  LiquidationFeeRow,
  LiquidationFeeState,
  MarginChangeQuery,
  MarginChangeRow,
  MarginChangeState,
} from '../trading/ports.ts';
import { groupCommitOf, type GroupCommit } from './group-commit.ts';
import { closedFromRaw, n, orderFromRaw, positionFromRaw, tradeFromRaw, Where, type Raw } from './trading-rows.ts';

/** An order row: the trading service's order state (its port type). */
export type OrderRow = OrderState;

/** A trade row: the trading service's fill (its port type). */
export type TradeRow = TradeState;

export class TradingRepo implements TradingStorePort, TradeHistoryPort {
  private readonly db: DatabaseSync;
  private readonly s: Record<string, StatementSync>;
  /** The connection's group commit: answers wait for `group.whenDurable`. */
  readonly group: GroupCommit;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.group = groupCommitOf(db);
    const prep = (sql: string) => {
      const st = db.prepare(sql);
      st.setReadBigInts(true);
      return st;
    };
    // a write whose run() result is unread: its changes and rowid as numbers, not two BigInts a run
    const write = (sql: string) => db.prepare(sql);
    this.s = {
      upsertOrder:
        write(`INSERT INTO orders (id, client_order_id, account_id, symbol, side, type, tif, price_ticks, qty_lots,
        filled_lots, filled_quote, status, leverage, margin_mode, position_side, position_action, reduce_only, frozen,
        total_fee, created_at, updated_at, expired_in_match) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        ON CONFLICT(id) DO UPDATE SET qty_lots = excluded.qty_lots, price_ticks = excluded.price_ticks,
        filled_lots = excluded.filled_lots, filled_quote = excluded.filled_quote, status = excluded.status,
        leverage = excluded.leverage, frozen = excluded.frozen, total_fee = excluded.total_fee, updated_at = excluded.updated_at,
        expired_in_match = excluded.expired_in_match`),
      insertTrade:
        write(`INSERT INTO trades (id, order_id, account_id, symbol, side, position_side, price_ticks, qty_lots,
        quote, fee, fee_rate, role, is_close, realized_pnl, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`),
      upsertPosition: write(`INSERT INTO positions (id, account_id, symbol, side, qty_lots, cost, margin_mode, leverage,
        isolated_margin, realized_pnl, open_fee, close_fee, funding_fee, open_qty_total, close_qty_total, open_amount,
        close_amount, tp_price, tp_trigger, sl_price, sl_trigger, created_at, updated_at)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        ON CONFLICT(id) DO UPDATE SET qty_lots = excluded.qty_lots, cost = excluded.cost, margin_mode = excluded.margin_mode,
        leverage = excluded.leverage, isolated_margin = excluded.isolated_margin, realized_pnl = excluded.realized_pnl,
        open_fee = excluded.open_fee, close_fee = excluded.close_fee, funding_fee = excluded.funding_fee,
        open_qty_total = excluded.open_qty_total, close_qty_total = excluded.close_qty_total,
        open_amount = excluded.open_amount, close_amount = excluded.close_amount, tp_price = excluded.tp_price,
        tp_trigger = excluded.tp_trigger, sl_price = excluded.sl_price, sl_trigger = excluded.sl_trigger,
        updated_at = excluded.updated_at`),
      deletePosition: write('DELETE FROM positions WHERE id = ?'),
      insertClosed:
        prep(`INSERT INTO closed_positions (position_id, account_id, symbol, position_side, margin_mode, leverage,
        open_quantity, close_quantity, open_amount, close_amount, open_fee, close_fee, total_funding_fee, realized_pnl,
        close_type, opened_at, closed_at, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`),
      setWallet: write('UPDATE accounts SET wallet_balance = ?, updated_at = ? WHERE id = ?'),
      addDeposit: write(
        'UPDATE accounts SET wallet_balance = wallet_balance + ?, total_deposits = total_deposits + ?, updated_at = ? WHERE id = ?',
      ),
      setPositionMode: write('UPDATE accounts SET position_mode = ?, updated_at = ? WHERE id = ?'),
      upsertPairSetting:
        write(`INSERT INTO account_pair_settings (account_id, symbol, leverage, margin_mode) VALUES (?,?,?,?)
        ON CONFLICT(account_id, symbol) DO UPDATE SET leverage = excluded.leverage, margin_mode = excluded.margin_mode`),
      insertTransfer: write('INSERT INTO transfers (account_id, kind, time, amount) VALUES (?,?,?,?)'),
      insertLiquidationFee: write(`INSERT INTO liquidation_fees (account_id, symbol, position_side, position_id, time,
        fee) VALUES (?,?,?,?,?,?)`),
      insertMarginChange: write(`INSERT INTO isolated_margin_changes (account_id, symbol, position_side, position_id,
        type, amount, margin, time) VALUES (?,?,?,?,?,?,?,?)`),
      insertFundingRate: write('INSERT INTO funding_rates (symbol, time, rate, mark) VALUES (?,?,?,?)'),
      insertFundingPayment:
        write(`INSERT INTO funding_payments (account_id, symbol, position_side, time, rate, mark, amount)
        VALUES (?,?,?,?,?,?,?)`),
      openOrders: prep('SELECT * FROM orders WHERE status IN (1, 2) ORDER BY id'),
      allPositions: prep('SELECT * FROM positions ORDER BY id'),
      pairSettings: prep('SELECT * FROM account_pair_settings'),
      orderById: prep('SELECT * FROM orders WHERE id = ?'),
      closedById: prep('SELECT * FROM closed_positions WHERE position_id = ? AND account_id = ?'),
      maxIds:
        prep(`SELECT (SELECT COALESCE(MAX(id), 0) FROM orders) AS o, (SELECT COALESCE(MAX(id), 0) FROM trades) AS t,
        (SELECT COALESCE(MAX(id), 0) FROM positions) AS p, (SELECT COALESCE(MAX(position_id), 0) FROM closed_positions) AS cp`),
    };
  }

  /**
   * Runs fn as one all-or-nothing unit of the connection's group commit (nested calls join the
   * outer one); it is committed by the end of the event-loop turn (see `group`).
   */
  tx<T>(fn: () => T): T {
    return this.group.unit(fn);
  }

  saveOrder(o: OrderRow): void {
    this.s.upsertOrder.run(
      o.id,
      o.clientOrderId,
      o.accountId,
      o.symbol,
      o.side,
      o.type,
      o.tif,
      o.priceTicks,
      o.qtyLots,
      o.filledLots,
      o.filledQuote,
      o.status,
      o.leverage,
      o.marginMode,
      o.positionSide,
      o.positionAction,
      o.reduceOnly ? 1 : 0,
      o.frozen,
      o.totalFee,
      o.createdAt,
      o.updatedAt,
      o.expiredInMatch === true ? 1 : 0,
    );
  }

  insertTrade(t: TradeRow): void {
    this.s.insertTrade.run(
      t.id,
      t.orderId,
      t.accountId,
      t.symbol,
      t.side,
      t.positionSide,
      t.priceTicks,
      t.qtyLots,
      t.quote,
      t.fee,
      t.feeRate,
      t.role,
      t.isClose ? 1 : 0,
      t.realizedPnl,
      t.createdAt,
    );
  }

  savePosition(p: PositionState): void {
    this.s.upsertPosition.run(
      p.id,
      p.accountId,
      p.symbol,
      p.side,
      p.qty,
      p.cost,
      p.marginMode,
      p.leverage,
      p.isolatedMargin,
      p.realizedPnl,
      p.openFee,
      p.closeFee,
      p.fundingFee,
      p.openQtyTotal,
      p.closeQtyTotal,
      p.openAmount,
      p.closeAmount,
      p.tpTicks || null,
      p.tpTicks ? p.tpTrigger : null,
      p.slTicks || null,
      p.slTicks ? p.slTrigger : null,
      p.createdAt,
      p.updatedAt,
    );
  }

  deletePosition(id: number): void {
    this.s.deletePosition.run(id);
  }

  insertClosed(p: PositionState, closeType: number, closedAt: number): number {
    const res = this.s.insertClosed.run(
      p.id,
      p.accountId,
      p.symbol,
      p.side,
      p.marginMode,
      p.leverage,
      p.openQtyTotal,
      p.closeQtyTotal,
      p.openAmount,
      p.closeAmount,
      p.openFee,
      p.closeFee,
      p.fundingFee,
      p.realizedPnl,
      closeType,
      p.createdAt,
      closedAt,
      closedAt,
    );
    return Number(res.lastInsertRowid);
  }

  setWallet(accountId: number, wallet: bigint, now: number): void {
    this.s.setWallet.run(wallet, now, accountId);
  }

  /** Adds `amount` to the wallet and `deposit` (default: the same amount) to total deposits. */
  addDeposit(accountId: number, amount: bigint, now: number, deposit: bigint = amount): void {
    this.s.addDeposit.run(amount, deposit, now, accountId);
  }

  setPositionMode(accountId: number, mode: 'hedge' | 'one_way', now: number): void {
    this.s.setPositionMode.run(mode, now, accountId);
  }

  savePairSetting(accountId: number, symbol: string, leverage: number, marginMode: number): void {
    this.s.upsertPairSetting.run(accountId, symbol, leverage, marginMode);
  }

  insertFunding(rate: FundingRateState, records: readonly FundingRecordState[]): void {
    this.s.insertFundingRate.run(rate.symbol, rate.time, rate.rate, rate.mark);
    for (const r of records) {
      this.s.insertFundingPayment.run(r.accountId, r.symbol, r.positionSide, r.time, r.rate, r.mark, r.amount);
    }
  }

  insertTransfer(t: TransferState): void {
    this.s.insertTransfer.run(t.accountId, t.kind, t.time, t.amount);
  }

  insertLiquidationFees(fees: readonly LiquidationFeeState[]): void {
    for (const f of fees)
      this.s.insertLiquidationFee.run(f.accountId, f.symbol, f.positionSide, f.positionId, f.time, f.fee);
  }

  insertMarginChange(c: MarginChangeState): void {
    this.s.insertMarginChange.run(
      c.accountId,
      c.symbol,
      c.positionSide,
      c.positionId,
      c.type,
      c.amount,
      c.margin,
      c.time,
    );
  }

  /** Isolated margin changes of an account, newest first. */
  marginChanges(q: MarginChangeQuery): MarginChangeRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    where.add('position_side = ?', q.positionSide);
    where.add('type = ?', q.type);
    return this.newestFirst('isolated_margin_changes', where, q, 'time').map((r) => ({
      id: n(r.id),
      accountId: n(r.account_id),
      symbol: r.symbol as string,
      positionSide: n(r.position_side) as PositionSide,
      positionId: n(r.position_id),
      type: n(r.type) as MarginChangeType,
      amount: r.amount as bigint,
      margin: r.margin as bigint,
      time: n(r.time),
    }));
  }

  /** Liquidation clearance fees of an account, ordered by time then id. */
  liquidationFees(q: LiquidationFeeQuery): LiquidationFeeRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    return this.byTime('liquidation_fees', where, q).map((r) => ({
      id: n(r.id),
      accountId: n(r.account_id),
      symbol: r.symbol as string,
      positionSide: n(r.position_side),
      positionId: n(r.position_id),
      time: n(r.time),
      fee: r.fee as bigint,
    }));
  }

  /** Transfers of an account, ordered by time then id. */
  transfers(q: TransferQuery): TransferRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    if (q.kinds !== undefined) where.addRaw(`kind IN (${q.kinds.map((k) => Number(k)).join(', ')})`);
    return this.byTime('transfers', where, q).map((r) => ({
      id: n(r.id),
      accountId: n(r.account_id),
      kind: n(r.kind) as TransferKind,
      time: n(r.time),
      amount: r.amount as bigint,
    }));
  }

  loadOpenOrders(): OrderRow[] {
    return (this.s.openOrders.all() as Raw[]).map(orderFromRaw);
  }

  loadPositions(): PositionState[] {
    return (this.s.allPositions.all() as Raw[]).map(positionFromRaw);
  }

  loadPairSettings(): Array<{ accountId: number; symbol: string; leverage: number; marginMode: number }> {
    return (this.s.pairSettings.all() as Raw[]).map((r) => ({
      accountId: n(r.account_id),
      symbol: r.symbol as string,
      leverage: n(r.leverage),
      marginMode: n(r.margin_mode),
    }));
  }

  order(id: number): OrderRow | undefined {
    this.group.sync(); // the turn's deferred writes first: reads see every change so far
    const r = this.s.orderById.get(id) as Raw | undefined;
    return r ? orderFromRaw(r) : undefined;
  }

  /**
   * The account's newest order with this client id (on that symbol, when one is given), open or
   * not. Only error paths ask (a cancel
   * of an order that is no longer live), so it walks the account's orders (orders_account)
   * rather than keeping an index every placement would pay for.
   */
  orderByClientId(accountId: number, clientOrderId: string, symbol?: string): OrderRow | undefined {
    this.group.sync();
    const st =
      symbol === undefined
        ? this.db.prepare('SELECT * FROM orders WHERE account_id = ? AND client_order_id = ? ORDER BY id DESC LIMIT 1')
        : this.db.prepare(
            'SELECT * FROM orders WHERE account_id = ? AND client_order_id = ? AND symbol = ? ORDER BY id DESC LIMIT 1',
          );
    st.setReadBigInts(true);
    const r = (symbol === undefined ? st.get(accountId, clientOrderId) : st.get(accountId, clientOrderId, symbol)) as
      Raw | undefined;
    return r ? orderFromRaw(r) : undefined;
  }

  maxIds(): { order: number; trade: number; position: number } {
    const r = this.s.maxIds.get() as Raw;
    return { order: n(r.o), trade: n(r.t), position: Math.max(n(r.p), n(r.cp)) };
  }

  /** Trades of an account, newest first. */
  trades(q: TradeQuery): TradeRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    where.add('side = ?', q.side);
    return this.newestFirst('trades', where, q, 'created_at').map(tradeFromRaw);
  }

  /** Orders of an account (all statuses), newest first. */
  orders(q: { accountId: number; symbol?: string; status?: number; beforeId?: number; limit: number }): OrderRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    where.add('status = ?', q.status);
    return this.newestFirst('orders', where, q).map(orderFromRaw);
  }

  /**
   * An account's forced close orders, told apart by the client ids no client may choose
   * (trading/liquidation-client-id.ts); walks the account's orders (orders_account): no index to pay for.
   */
  forcedOrders(q: ForcedOrderQuery): OrderRow[] {
    this.group.sync(); // the turn's deferred writes first: reads see every change so far
    const liquidation = "(client_order_id GLOB 'autoclose-[0-9]*' AND client_order_id NOT GLOB 'autoclose-*[^0-9]*')";
    const adl = "client_order_id = 'adl_autoclose'";
    const where = new Where('account_id = ?', [q.accountId]);
    where.addRaw(q.kind === 'liquidation' ? liquidation : q.kind === 'adl' ? adl : `(${liquidation} OR ${adl})`);
    where.add('symbol = ?', q.symbol);
    where.add('created_at >= ?', q.startTime);
    where.add('created_at <= ?', q.endTime);
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const st = this.db.prepare(`SELECT * FROM orders WHERE ${where.sql} ORDER BY id ${dir} LIMIT ?`);
    st.setReadBigInts(true);
    return (st.all(...where.args, q.limit) as Raw[]).map(orderFromRaw);
  }

  /** Closed positions of an account, newest close first. */
  closedPositions(q: ClosedQuery): ClosedPositionRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    where.add('position_side = ?', q.positionSide);
    where.add('margin_mode = ?', q.marginMode);
    where.add('close_type = ?', q.closeType);
    return this.newestFirst('closed_positions', where, q, 'closed_at').map(closedFromRaw);
  }

  closedPosition(accountId: number, positionId: number): ClosedPositionRow | undefined {
    this.group.sync(); // the turn's deferred writes first: reads see every change so far
    const r = this.s.closedById.get(positionId, accountId) as Raw | undefined;
    return r ? closedFromRaw(r) : undefined;
  }

  /** Funding payments of an account, ordered by time then id. */
  fundingPayments(q: FundingQuery): FundingRecordRow[] {
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    return this.byTime('funding_payments', where, q).map((r) => ({
      id: n(r.id),
      accountId: n(r.account_id),
      symbol: r.symbol as string,
      positionSide: n(r.position_side),
      time: n(r.time),
      rate: Number(r.rate),
      mark: Number(r.mark),
      amount: r.amount as bigint,
    }));
  }

  /** A pair's settlement rates, ordered by time. */
  fundingRates(q: FundingRateQuery): FundingRateState[] {
    const where = new Where('1 = 1', []);
    where.add('symbol = ?', q.symbol);
    return this.byTime('funding_rates', where, q).map((r) => ({
      symbol: r.symbol as string,
      time: Number(r.time),
      rate: Number(r.rate),
      mark: Number(r.mark),
    }));
  }

  /**
   * Rows of `table` matching `where`, with `timeColumn` (if named) in [startTime, endTime] and id
   * below beforeId (each bound when given), newest id first, at most `limit`; deferred writes first.
   */
  private newestFirst(
    table: string,
    where: Where,
    q: { startTime?: number; endTime?: number; beforeId?: number; limit: number },
    timeColumn?: string,
  ): Raw[] {
    this.group.sync();
    if (timeColumn !== undefined) {
      where.add(`${timeColumn} >= ?`, q.startTime);
      where.add(`${timeColumn} <= ?`, q.endTime);
    }
    where.add('id < ?', q.beforeId);
    const st = this.db.prepare(`SELECT * FROM ${table} WHERE ${where.sql} ORDER BY id DESC LIMIT ?`);
    st.setReadBigInts(true);
    return st.all(...where.args, q.limit) as Raw[];
  }

  /**
   * Rows of `table` matching `where` with `time` in [startTime, endTime] (each bound when given),
   * ordered by time then id, oldest first for order 'asc', else newest first, at most `limit`.
   * The turn's deferred writes go first, so a read sees every change so far.
   */
  private byTime(
    table: string,
    where: Where,
    q: { startTime?: number; endTime?: number; order?: 'asc' | 'desc'; limit: number },
  ): Raw[] {
    this.group.sync();
    where.add('time >= ?', q.startTime);
    where.add('time <= ?', q.endTime);
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const st = this.db.prepare(`SELECT * FROM ${table} WHERE ${where.sql} ORDER BY time ${dir}, id ${dir} LIMIT ?`);
    st.setReadBigInts(true);
    return st.all(...where.args, q.limit) as Raw[];
  }

  /**
   * Sums for the accounting identity (tests, audits): the fills' fees and realized PnL, and the
   * liquidation clearance fees paid.
   */
  accountTotals(accountId: number): { fees: bigint; realized: bigint; liquidationFees: bigint } {
    this.group.sync(); // the turn's deferred writes first: reads see every change so far
    const st = this.db.prepare(
      `SELECT COALESCE(SUM(fee), 0) AS f, COALESCE(SUM(realized_pnl), 0) AS r,
        (SELECT COALESCE(SUM(fee), 0) FROM liquidation_fees WHERE account_id = ?1) AS l
      FROM trades WHERE account_id = ?1`,
    );
    st.setReadBigInts(true);
    const r = st.get(accountId) as Raw;
    return { fees: r.f as bigint, realized: r.r as bigint, liquidationFees: r.l as bigint };
  }
}
