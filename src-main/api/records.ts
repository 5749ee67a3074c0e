// Trading state -> wire records: orders, fills, positions, balance summaries (RecordFormat, the
// port the exchange formats its answers and pushes through) and closed positions.
//
// Invariants: pure functions of their arguments; money is written from exact units
// (formatMoney), quantities and prices from lots and ticks (never from floats).
//
// The spec gives the closed-position record JSON numbers. Quantities are lots x step, read
// from the step's exact decimal text; money is 1e-8 USDT units / 1e8, which IEEE division
// rounds to the double nearest the exact decimal (the same double JSON.parse of the decimal
// gives). Average prices are ratios of those, rounded to 8 decimals: display values only.
import { PositionSide } from '../../src-shared/enums.ts';
import type {
  AccountSummary,
  ClosedPositionRecord,
  OrderRecord,
  PositionRecord,
  TradeRecord,
} from '../../src-shared/types.ts';
import { breakEvenPrice, estimatedClosingFee } from '../risk/margin.ts';
import { formatMoney, unitsToNumber, type SymbolMath } from '../risk/money.ts';
import { entryPrice, type PositionState } from '../risk/position.ts';
import { maintenanceRate } from '../trading/pair-figures.ts';
import type { ClosedPositionRow } from '../trading/ports.ts';
import type { PairView } from '../trading/pair-state.ts';
import type { AccountMoney, OrderState, PositionRisk, RecordFormat, TradeState } from '../trading/ports.ts';

const r8 = (x: number): number => Math.round(x * 1e8) / 1e8;

/**
 * A closed-position record. `positionIdAs` picks the spec's two spellings of position_id:
 * an integer in the history list, a string in the detail route.
 */
export function closedPositionRecord(
  row: ClosedPositionRow,
  math: SymbolMath,
  positionIdAs: 'number' | 'string',
): ClosedPositionRecord {
  const openQty = Number(math.formatQty(row.openQuantity));
  const closeQty = Number(math.formatQty(row.closeQuantity));
  const openAmount = unitsToNumber(row.openAmount);
  const closeAmount = unitsToNumber(row.closeAmount);
  return {
    id: row.id,
    position_id: positionIdAs === 'string' ? String(row.positionId) : row.positionId,
    user_id: row.accountId,
    symbol: row.symbol,
    position_side: row.positionSide as ClosedPositionRecord['position_side'],
    margin_mode: row.marginMode as ClosedPositionRecord['margin_mode'],
    leverage: row.leverage,
    open_quantity: openQty,
    close_quantity: closeQty,
    entry_price: openQty > 0 ? r8(openAmount / openQty) : 0,
    exit_price: closeQty > 0 ? r8(closeAmount / closeQty) : 0,
    open_amount: openAmount,
    close_amount: closeAmount,
    open_fee: unitsToNumber(row.openFee),
    close_fee: unitsToNumber(row.closeFee),
    total_funding_fee: unitsToNumber(row.totalFundingFee),
    realized_pnl: unitsToNumber(row.realizedPnl),
    close_type: row.closeType as ClosedPositionRecord['close_type'],
    opened_at: row.openedAt,
    closed_at: row.closedAt,
    created_at: row.createdAt,
  };
}

export function orderRecord(m: SymbolMath, o: OrderState): OrderRecord {
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
    avg_price: m.averagePrice(o.filledQuote, o.filledLots, true),
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

export function tradeRecord(m: SymbolMath, t: TradeState): TradeRecord {
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

/** A current position: the ledger's risk figures plus what follows from the position itself. */
function positionRecord(pair: PairView, p: PositionState, risk: PositionRisk): PositionRecord {
  const m = pair.math;
  // exact decimal (lots x step in floating point gives 0.35000000000000003, which a bot
  // sending it back as a quantity would have refused as off-step)
  const qty = m.qtyOf(p.qty);
  const entry = entryPrice(p, m.lotValue);
  const mark = pair.markPrice;
  const s = p.side === PositionSide.LONG ? 1 : -1;
  const feesPaid = unitsToNumber(p.openFee + p.closeFee);
  const bep = breakEvenPrice(s, qty, entry, feesPaid, estimatedClosingFee(qty, entry, m.taker.value));
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
    liquidation_price: Math.max(0, m.roundPrice(risk.liquidationPrice)),
    break_even_price: r8(bep),
    maintenance_margin_rate: maintenanceRate(pair, qty * mark),
    margin: r8(risk.margin),
    margin_ratio: Math.round(risk.marginRatio * 1e6) / 1e6,
    unrealized_pnl: r8(risk.unrealizedPnl),
    realized_pnl: unitsToNumber(p.realizedPnl),
    total_funding_fee: unitsToNumber(p.fundingFee),
    open_fee: unitsToNumber(p.openFee),
    close_fee: unitsToNumber(p.closeFee),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  } as PositionRecord;
}

function accountSummary(m: AccountMoney): AccountSummary {
  return {
    user_id: m.id,
    asset: 'USDT',
    wallet_balance: formatMoney(m.wallet),
    available_balance: formatMoney(m.available),
    frozen_margin: formatMoney(m.frozen),
    position_margin: formatMoney(m.positionMargin),
    unrealized_pnl: formatMoney(m.unrealizedPnl),
    margin_balance: formatMoney(m.marginBalance),
    total_deposits: formatMoney(m.deposits),
    position_mode: m.mode,
  };
}

/** The record formats the exchange is wired with (venue.ts). */
export const wireRecords: RecordFormat = {
  order: orderRecord,
  trade: tradeRecord,
  position: positionRecord,
  summary: accountSummary,
};
