// Order history: every order of the account, newest first, filtered by pair and status.
import { OrderStatus, OrderType, valuesOf } from '../../../../src-shared/enums.ts';
import { ORDER_RECORD_FIELDS, type OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { ClientId, NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { orderDirection, orderTypeName, sideClass, STATUS_NAMES } from '../orders/order-labels.ts';
import { FilterSelect, HistoryTable, usePagedHistory } from './history-controls.tsx';

const STATUS_OPTIONS: ReadonlyArray<readonly [OrderStatus | 0, string]> = [
  [0, 'All'],
  ...valuesOf(OrderStatus).map((v) => [v, STATUS_NAMES[v]] as const),
];

/** An order's limit price, or "Market". */
function limitPrice(o: OrderRecord, pd: number): string {
  return o.type === OrderType.LIMIT ? fmt(o.price, pd) : 'Market';
}

/** The average price of an order's fills, or "—" before the first. */
function avgPrice(o: OrderRecord, pd: number): string {
  return Number(o.avg_price) > 0 ? fmt(o.avg_price, pd) : '—';
}

export function OrderHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.orders, 'orders');
  const decimals = useDecimals();
  // each order is named in the mode it was placed in (placedOneWay), not the account's mode now:
  // one-way orders all carry position_side LONG and are named by their side, not as "Open long"
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const columns: Column<{ o: OrderRecord; pd: number; qd: number }>[] = [
    { head: 'Time', cls: 'dim', cell: ({ o }) => <When ms={o.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ o }) => o.symbol },
    { head: 'Type', headClass: 'wide-only', cls: 'wide-only', cell: ({ o }) => orderTypeName(o) },
    {
      head: <NarrowPair top="Direction" sub="Type" />,
      cls: ({ o }) => sideClass(o.side),
      cell: ({ o }) => <NarrowPair top={orderDirection(o, mode)} sub={orderTypeName(o)} />,
    },
    {
      head: <NarrowPair top="Price" sub="Avg price" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd }) => <NarrowPair top={limitPrice(o, pd)} sub={avgPrice(o, pd)} />,
    },
    { head: 'Avg price', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ o, pd }) => avgPrice(o, pd) },
    {
      head: <NarrowPair top="Amount" sub="Filled" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ o, qd }) => <NarrowPair top={fmt(o.qty, qd)} sub={fmt(o.filled_qty, qd)} />,
    },
    { head: 'Filled', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ o, qd }) => fmt(o.filled_qty, qd) },
    { head: 'Fee', headClass: 'num', cls: 'num', cell: ({ o }) => fmt(o.total_fee, 4) },
    { head: 'Status', cell: ({ o }) => STATUS_NAMES[o.status] ?? o.status },
    { head: 'Client ID', cls: 'dim', cell: ({ o }) => <ClientId id={o.client_order_id} /> },
  ];
  return (
    <HistoryTable
      exportAs={{ name: 'orders', fields: ORDER_RECORD_FIELDS, timeFields: ['created_at', 'updated_at'] }}
      st={st}
      what="orders"
      testId="order-history-table"
      columns={columns}
      rows={st.items.map((o) => ({ o, ...decimals(o.symbol) }))}
      rowKey={(r) => r.o.id}
      rowAttrs={(r) => ({ 'data-testid': `order-history-row-${r.o.id}` })}
    >
      <FilterSelect st={st} filter="status" label="Status" options={STATUS_OPTIONS} />
    </HistoryTable>
  );
}
