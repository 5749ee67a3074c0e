// SQLite persistence of conditional orders (trading/conditional.ts). Written inside the trading
// turn's group commit (the exchange defers its saves to it), so an acknowledged conditional order
// is on disk before its answer, as an order is.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ConditionalQuery, ConditionalState, ConditionalStorePort } from '../trading/ports.ts';
import { groupCommitOf, type GroupCommit } from './group-commit.ts';
import { n, Where, type Raw } from './trading-rows.ts';

const COLUMNS =
  'id, client_order_id, account_id, symbol, side, position_side, position_action, type, price_ticks, qty_lots, tif, ' +
  'reduce_only, leverage, margin_mode, trigger_ticks, direction, working_type, callback_tenths, activation_ticks, ' +
  'peak_ticks, activated_at, price_protect, status, order_id, reject_code, ' +
  'reject_reason, created_at, updated_at, triggered_at';

function fromRaw(r: Raw): ConditionalState {
  return {
    id: n(r.id),
    clientOrderId: r.client_order_id as string,
    accountId: n(r.account_id),
    symbol: r.symbol as string,
    side: n(r.side),
    positionSide: n(r.position_side),
    positionAction: n(r.position_action),
    type: n(r.type),
    priceTicks: n(r.price_ticks),
    qtyLots: n(r.qty_lots),
    tif: n(r.tif),
    reduceOnly: n(r.reduce_only) === 1,
    leverage: n(r.leverage),
    marginMode: n(r.margin_mode),
    triggerTicks: n(r.trigger_ticks),
    direction: n(r.direction),
    workingType: n(r.working_type),
    callbackTenths: n(r.callback_tenths),
    activationTicks: n(r.activation_ticks),
    peakTicks: n(r.peak_ticks),
    activatedAt: n(r.activated_at),
    priceProtect: n(r.price_protect) === 1,
    status: n(r.status),
    orderId: n(r.order_id),
    rejectCode: n(r.reject_code),
    rejectReason: r.reject_reason as string,
    createdAt: n(r.created_at),
    updatedAt: n(r.updated_at),
    triggeredAt: n(r.triggered_at),
  };
}

export class ConditionalRepo implements ConditionalStorePort {
  private readonly db: DatabaseSync;
  private readonly group: GroupCommit;
  private readonly upsert: StatementSync;
  private readonly waiting: StatementSync;
  private readonly one: StatementSync;
  private readonly placed: StatementSync;
  private readonly max: StatementSync;

  constructor(db: DatabaseSync) {
    this.db = db;
    this.group = groupCommitOf(db);
    const prep = (sql: string): StatementSync => {
      const st = db.prepare(sql);
      st.setReadBigInts(true);
      return st;
    };
    // only what changes after the insert is updated: a trailing stop's trigger and peak move, and a
    // modify (conditional-amend.ts) changes the trigger, a stop-limit's price and the qty
    this.upsert = prep(`INSERT INTO conditional_orders (${COLUMNS}) VALUES (${COLUMNS.split(',')
      .map(() => '?')
      .join(',')})
      ON CONFLICT(id) DO UPDATE SET status = excluded.status, order_id = excluded.order_id,
      price_ticks = excluded.price_ticks, qty_lots = excluded.qty_lots,
      trigger_ticks = excluded.trigger_ticks, peak_ticks = excluded.peak_ticks, activated_at = excluded.activated_at,
      reject_code = excluded.reject_code, reject_reason = excluded.reject_reason, updated_at = excluded.updated_at,
      triggered_at = excluded.triggered_at`);
    this.waiting = prep('SELECT * FROM conditional_orders WHERE status = 1 ORDER BY id');
    this.one = prep('SELECT * FROM conditional_orders WHERE id = ?');
    this.placed = prep(
      'SELECT * FROM conditional_orders WHERE order_id != 0 AND order_id IN (SELECT value FROM json_each(?))',
    );
    this.max = prep('SELECT COALESCE(MAX(id), 0) AS m FROM conditional_orders');
  }

  save(c: ConditionalState): void {
    this.upsert.run(
      c.id,
      c.clientOrderId,
      c.accountId,
      c.symbol,
      c.side,
      c.positionSide,
      c.positionAction,
      c.type,
      c.priceTicks,
      c.qtyLots,
      c.tif,
      c.reduceOnly ? 1 : 0,
      c.leverage,
      c.marginMode,
      c.triggerTicks,
      c.direction,
      c.workingType,
      c.callbackTenths,
      c.activationTicks,
      c.peakTicks,
      c.activatedAt,
      c.priceProtect ? 1 : 0,
      c.status,
      c.orderId,
      c.rejectCode,
      c.rejectReason,
      c.createdAt,
      c.updatedAt,
      c.triggeredAt,
    );
  }

  loadWaiting(): ConditionalState[] {
    return (this.waiting.all() as Raw[]).map(fromRaw);
  }

  byId(id: number): ConditionalState | undefined {
    this.group.sync(); // the turn's deferred writes first
    const r = this.one.get(id) as Raw | undefined;
    return r ? fromRaw(r) : undefined;
  }

  placedOrders(orderIds: readonly number[]): ConditionalState[] {
    this.group.sync();
    // (read at a start, once: a scan of the table against the ids, no index on order_id to keep up)
    return (this.placed.all(JSON.stringify(orderIds)) as Raw[]).map(fromRaw);
  }

  list(q: ConditionalQuery): ConditionalState[] {
    this.group.sync();
    const where = new Where('account_id = ?', [q.accountId]);
    where.add('symbol = ?', q.symbol);
    where.add('status = ?', q.status);
    where.add('client_order_id = ?', q.clientOrderId);
    where.add('id < ?', q.beforeId);
    const st = this.db.prepare(`SELECT * FROM conditional_orders WHERE ${where.sql} ORDER BY id DESC LIMIT ?`);
    st.setReadBigInts(true);
    return (st.all(...where.args, q.limit) as Raw[]).map(fromRaw);
  }

  maxId(): number {
    return n((this.max.get() as Raw).m);
  }
}
