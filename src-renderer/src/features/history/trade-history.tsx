// Trade history: the account's fills, newest first, filtered by pair, side and UTC days.
import { Side } from '../../../../src-shared/enums.ts';
import { TRADE_RECORD_FIELDS } from '../../../../src-shared/types.ts';
import type { TradeRow } from './history-stores.ts';
import { fmt, fmtSigned } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { sideClass } from '../orders/order-labels.ts';
import { tradeRoleText, tradeSideText } from './trade-words.ts';
import { DayRange, FilterSelect, HistoryTable, realizedPnlColumn, usePagedHistory } from './history-controls.tsx';

const SIDES: ReadonlyArray<readonly [Side | 0, string]> = [
  [0, 'All'],
  [Side.BUY, 'Buy'],
  [Side.SELL, 'Sell'],
];

export function TradeHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.trades);
  const decimals = useDecimals();
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const columns: Column<{ t: TradeRow; pnl: number; pd: number; qd: number }>[] = [
    { head: 'Time', cls: 'dim', cell: ({ t }) => <When ms={t.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ t }) => t.symbol },
    {
      head: 'Side',
      cls: ({ t }) => sideClass(t.side),
      cell: ({ t }) => tradeSideText(t, oneWay),
    },
    { head: 'Price', headClass: 'num', cls: 'num', cell: ({ t, pd }) => fmt(t.price, pd) },
    {
      head: <NarrowPair top="Quantity" sub="Amount" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ t, qd }) => <NarrowPair top={fmt(t.qty, qd)} sub={fmt(t.quote_qty, 2)} />,
    },
    { head: 'Amount', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ t }) => fmt(t.quote_qty, 2) },
    {
      head: <NarrowPair top="Fee" sub="Role" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ t }) => (
        <NarrowPair
          top={
            <>
              {fmt(t.fee, 4)} <span className="dim">{t.fee_asset}</span>
            </>
          }
          sub={tradeRoleText(t.role, t.closed_by)}
        />
      ),
    },
    { head: 'Role', headClass: 'wide-only', cls: 'wide-only', cell: ({ t }) => tradeRoleText(t.role, t.closed_by) },
    realizedPnlColumn(
      ({ pnl }) => pnl,
      ({ t, pnl }) => (t.is_close ? fmtSigned(pnl, 2) : '—'),
    ),
    { head: 'Order', cls: 'dim', cell: ({ t }) => t.order_id },
  ];
  return (
    <HistoryTable
      exportAs={{ name: 'trades', fields: TRADE_RECORD_FIELDS, timeFields: ['created_at'] }}
      st={st}
      what="trades"
      testId="trade-history-table"
      columns={columns}
      rows={st.items.map((t) => ({ t, pnl: Number(t.realized_pnl), ...decimals(t.symbol) }))}
      rowKey={(r) => r.t.id}
      rowAttrs={(r) => ({ 'data-testid': `trade-history-row-${r.t.id}` })}
    >
      <FilterSelect st={st} filter="side" label="Side" options={SIDES} />
      <DayRange st={st} />
    </HistoryTable>
  );
}
