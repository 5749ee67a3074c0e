// Store rows -> wire records, for the rows the exchange has no mapper for (closed positions).
//
// The spec gives the closed-position record JSON numbers. Quantities are lots x step, read
// from the step's exact decimal text; money is 1e-8 USDT units / 1e8, which IEEE division
// rounds to the double nearest the exact decimal (the same double JSON.parse of the decimal
// gives). Average prices are ratios of those, rounded to 8 decimals: display values only.
import type { ClosedPositionRecord } from '../../src-shared/types.ts';
import { unitsToNumber, type SymbolMath } from '../risk/money.ts';
import type { ClosedPositionRow } from '../store/trading-repo.ts';

const r8 = (x: number): number => Math.round(x * 1e8) / 1e8;

/**
 * A closed-position record. `positionIdAs` picks the spec's two spellings of position_id:
 * an integer in the history list, a string in the detail route.
 */
export function closedPositionRecord(row: ClosedPositionRow, math: SymbolMath, positionIdAs: 'number' | 'string'): ClosedPositionRecord {
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
