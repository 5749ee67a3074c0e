// Order history: every order of the account, newest first, filtered by pair and status.
import { OrderStatus, OrderType, valuesOf } from '../../../../src-shared/enums.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtDateTime } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { RecordTable, type Column } from '../../layout/record-table.tsx';
import { directionName, sideClass, STATUS_NAMES, TYPE_NAMES } from '../orders/order-labels.ts';
import { EmptyHistory, HistoryTools, Select, usePagedHistory } from './history-controls.tsx';

const STATUS_OPTIONS: ReadonlyArray<readonly [OrderStatus | 0, string]> = [
  [0, 'All'],
  ...valuesOf(OrderStatus).map((v) => [v, STATUS_NAMES[v]] as const),
];

export function OrderHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.orders, 'orders');
  const decimals = useDecimals();
  // one-way orders all carry position_side LONG: named by their side, not as "Open long"
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const columns: Column<{ o: OrderRecord; pd: number; qd: number }>[] = [
    { head: 'Time', cls: 'dim', cell: ({ o }) => fmtDateTime(o.created_at) },
    { head: 'Symbol', cls: 'sym', cell: ({ o }) => o.symbol },
    { head: 'Type', cell: ({ o }) => TYPE_NAMES[o.type] },
    { head: 'Direction', cls: ({ o }) => sideClass(o.side), cell: ({ o }) => directionName(o, oneWay) },
    {
      head: 'Price',
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd }) => (o.type === OrderType.LIMIT ? fmt(o.price, pd) : 'Market'),
    },
    {
      head: 'Avg price',
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd }) => (Number(o.avg_price) > 0 ? fmt(o.avg_price, pd) : '—'),
    },
    { head: 'Amount', headClass: 'num', cls: 'num', cell: ({ o, qd }) => fmt(o.qty, qd) },
    { head: 'Filled', headClass: 'num', cls: 'num', cell: ({ o, qd }) => fmt(o.filled_qty, qd) },
    { head: 'Fee', headClass: 'num', cls: 'num', cell: ({ o }) => fmt(o.total_fee, 4) },
    { head: 'Status', cell: ({ o }) => STATUS_NAMES[o.status] ?? o.status },
    { head: 'Client ID', cls: 'dim', cell: ({ o }) => o.client_order_id },
  ];
  return (
    <>
      <HistoryTools st={st}>
        <Select
          label="Status"
          value={st.filters.status}
          options={STATUS_OPTIONS}
          onChange={(status) => void st.actions.load({ status })}
        />
      </HistoryTools>
      <RecordTable
        testId="order-history-table"
        columns={columns}
        rows={st.items.map((o) => ({ o, ...decimals(o.symbol) }))}
        rowKey={(r) => r.o.id}
        rowAttrs={(r) => ({ 'data-testid': `order-history-row-${r.o.id}` })}
        empty={<EmptyHistory st={st} what="orders" />}
      />
    </>
  );
}
