// SQLite rows of the trading tables as the trading service's records (its port types), and
// the WHERE clause of a history query. Column names are the migrations'; numbers arrive as
// bigint (the statements read big ints) and flags as 0/1.
import type { PositionState } from '../risk/position.ts';
import type { ClosedPositionRow, OrderState, TradeState } from '../trading/ports.ts';

export type Raw = Record<string, bigint | string | null>;
export const n = (v: unknown): number => Number(v as bigint);

/** The conditions and arguments of a history query's WHERE clause, one optional filter at a time. */
export class Where {
  private readonly conditions: string[];
  readonly args: Array<number | string>;

  constructor(condition: string, args: Array<number | string>) {
    this.conditions = [condition];
    this.args = args;
  }

  /** Adds `condition` (one `?`) with `value`, unless the query leaves the filter out (undefined). */
  add(condition: string, value: number | string | undefined): void {
    if (value === undefined) return;
    this.conditions.push(condition);
    this.args.push(value);
  }

  /** Adds a condition with no argument. */
  addRaw(condition: string): void {
    this.conditions.push(condition);
  }

  get sql(): string {
    return this.conditions.join(' AND ');
  }
}

export function orderFromRaw(r: Raw): OrderState {
  return {
    id: n(r.id),
    clientOrderId: r.client_order_id as string,
    accountId: n(r.account_id),
    symbol: r.symbol as string,
    side: n(r.side),
    type: n(r.type),
    tif: n(r.tif),
    priceTicks: n(r.price_ticks),
    qtyLots: n(r.qty_lots),
    filledLots: n(r.filled_lots),
    filledQuote: r.filled_quote as bigint,
    status: n(r.status),
    leverage: n(r.leverage),
    marginMode: n(r.margin_mode),
    positionSide: n(r.position_side),
    positionAction: n(r.position_action),
    reduceOnly: n(r.reduce_only) === 1,
    expiredInMatch: n(r.expired_in_match) === 1,
    frozen: r.frozen as bigint,
    totalFee: r.total_fee as bigint,
    createdAt: n(r.created_at),
    updatedAt: n(r.updated_at),
  };
}

export function tradeFromRaw(r: Raw): TradeState {
  return {
    id: n(r.id),
    orderId: n(r.order_id),
    accountId: n(r.account_id),
    symbol: r.symbol as string,
    side: n(r.side),
    positionSide: n(r.position_side),
    priceTicks: n(r.price_ticks),
    qtyLots: n(r.qty_lots),
    quote: r.quote as bigint,
    fee: r.fee as bigint,
    feeRate: r.fee_rate as string,
    role: n(r.role),
    isClose: n(r.is_close) === 1,
    realizedPnl: r.realized_pnl as bigint,
    createdAt: n(r.created_at),
  };
}

export function positionFromRaw(r: Raw): PositionState {
  return {
    id: n(r.id),
    accountId: n(r.account_id),
    symbol: r.symbol as string,
    side: n(r.side) as 1 | 2,
    qty: n(r.qty_lots),
    cost: r.cost as bigint,
    marginMode: n(r.margin_mode) as 1 | 2,
    leverage: n(r.leverage),
    isolatedMargin: r.isolated_margin as bigint,
    realizedPnl: r.realized_pnl as bigint,
    openFee: r.open_fee as bigint,
    closeFee: r.close_fee as bigint,
    fundingFee: r.funding_fee as bigint,
    openQtyTotal: n(r.open_qty_total),
    closeQtyTotal: n(r.close_qty_total),
    openAmount: r.open_amount as bigint,
    closeAmount: r.close_amount as bigint,
    tpTicks: r.tp_price === null ? 0 : n(r.tp_price),
    tpTrigger: (r.tp_trigger === null ? 1 : n(r.tp_trigger)) as 1 | 2,
    slTicks: r.sl_price === null ? 0 : n(r.sl_price),
    slTrigger: (r.sl_trigger === null ? 1 : n(r.sl_trigger)) as 1 | 2,
    createdAt: n(r.created_at),
    updatedAt: n(r.updated_at),
  };
}

export function closedFromRaw(r: Raw): ClosedPositionRow {
  return {
    id: n(r.id),
    positionId: n(r.position_id),
    accountId: n(r.account_id),
    symbol: r.symbol as string,
    positionSide: n(r.position_side),
    marginMode: n(r.margin_mode),
    leverage: n(r.leverage),
    openQuantity: n(r.open_quantity),
    closeQuantity: n(r.close_quantity),
    openAmount: r.open_amount as bigint,
    closeAmount: r.close_amount as bigint,
    openFee: r.open_fee as bigint,
    closeFee: r.close_fee as bigint,
    totalFundingFee: r.total_funding_fee as bigint,
    realizedPnl: r.realized_pnl as bigint,
    closeType: n(r.close_type),
    openedAt: n(r.opened_at),
    closedAt: n(r.closed_at),
    createdAt: n(r.created_at),
  };
}
