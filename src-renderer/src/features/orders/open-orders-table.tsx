// Open orders with modify (✎ beside a limit order's price, or a double-click on the order's line
// on the chart: amend-dialog.tsx, hosted here, the workspace naming its order), cancel and
// cancel-all (which asks first, naming how many orders it cancels); optionally only the current
// pair. Margin is what each order holds (order-margin.ts), its margin mode and leverage in the
// cell's title.
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt, num } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { RecordTable, ClientId, NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { AmendDialog } from './amend-dialog.tsx';
import { useCancelTools } from './cancel-tools.tsx';
import './open-orders.css';
import { orderDirection, sideClass, TYPE_NAMES } from './order-labels.ts';
import { MarginMode, OrderType, PositionAction } from '../../../../src-shared/enums.ts';
import { orderMargins, type OrderMargin } from './order-margin.ts';

export function OpenOrdersTable() {
  const s = useServices();
  const all = useSel(s.orders, (x) => x.orders);
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const decimals = useDecimals();
  const positions = useSel(s.positions, (x) => x.positions);
  const bySymbol = useSel(s.symbols, (x) => x.bySymbol);
  const amending = useSel(s.workspace, (w) => (w.overlay === 'amend' ? w.amending : null));
  const cancels = useCancelTools(
    all,
    { long: 'open order', short: 'order', testId: 'cancel-all-confirm' },
    s.orders.getState().actions,
  );
  // worked out over all the account's orders: in one-way mode an order's opening part depends on the older ones;
  // until the mode has loaded, an order whose figure depends on it has none ('—')
  const oneWay = mode === undefined ? undefined : mode === 'one_way';
  const margins = orderMargins(all, positions, oneWay, (sym) => num(bySymbol[sym]?.futures.taker_fee_rate));

  // the dialog is an overlay: the global shortcuts stay inert while it is open
  const amend = (o: OrderRecord): void => s.workspace.getState().actions.openAmend(o);

  const columns: Column<{ o: OrderRecord; pd: number; qd: number }>[] = [
    { head: 'Time', cls: 'dim', cell: ({ o }) => <When ms={o.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ o }) => o.symbol },
    { head: 'Type', headClass: 'wide-only', cls: 'wide-only', cell: ({ o }) => TYPE_NAMES[o.type] },
    {
      head: <NarrowPair top="Direction" sub="Type" />,
      cls: ({ o }) => sideClass(o.side),
      cell: ({ o }) => <NarrowPair top={orderDirection(o, mode)} sub={TYPE_NAMES[o.type]} />,
    },
    {
      head: 'Price',
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd, qd }) =>
        o.type === OrderType.LIMIT ? (
          <span className="oo-price">
            <span>{fmt(o.price, pd)}</span>
            <button
              className="btn-small ghost"
              disabled={cancels.busy !== null}
              onClick={() => amend(o)}
              aria-label={`Modify order ${o.id}: ${o.symbol} ${orderDirection(o, mode)} ${fmt(o.qty, qd)} at ${fmt(o.price, pd)}`}
              title="Modify price or amount"
            >
              ✎
            </button>
          </span>
        ) : (
          'Market'
        ),
    },
    {
      head: <NarrowPair top="Amount" sub="Filled" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ o, qd }) => <NarrowPair top={fmt(o.qty, qd)} sub={fmt(o.filled_qty, qd)} />,
    },
    { head: 'Filled', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ o, qd }) => fmt(o.filled_qty, qd) },
    {
      head: (
        <span title="Initial margin of the part of the order that would open, at its price and leverage">Margin</span>
      ),
      headClass: 'num',
      cls: 'num',
      attrs: ({ o }) => ({
        title: marginTitle(o, margins.get(o.id), decimals(o.symbol).qd),
        'data-testid': 'order-margin',
      }),
      cell: ({ o }) => {
        const m = margins.get(o.id);
        return m === undefined || Number.isNaN(m.margin) ? '—' : fmt(m.margin, 2);
      },
    },
    { head: 'Client ID', cls: 'dim', cell: ({ o }) => <ClientId id={o.client_order_id} /> },
    cancels.column(
      ({ o }) => o,
      ({ o, pd, qd }) =>
        `Cancel order ${o.id}: ${o.symbol} ${orderDirection(o, mode)} ${fmt(o.qty, qd)}${
          o.type === OrderType.LIMIT ? ` at ${fmt(o.price, pd)}` : ''
        }`,
    ),
  ];

  return (
    <>
      {cancels.tools}
      <RecordTable
        testId="open-orders-table"
        columns={columns}
        rows={cancels.rows.map((o) => ({ o, ...decimals(o.symbol) }))}
        rowKey={(r) => r.o.id}
        rowAttrs={(r) => ({ 'data-testid': `order-row-${r.o.id}`, 'data-symbol': r.o.symbol })}
        empty={<p className="empty">No open orders.</p>}
      />
      {amending && (
        <AmendDialog order={amending} opener={cancels.tab} onClose={() => s.workspace.getState().actions.close()} />
      )}
    </>
  );
}

/** The Margin cell's title: the mode and leverage, and what the figure is (or why there is none). */
function marginTitle(o: OrderRecord, m: OrderMargin | undefined, qd: number): string {
  const mode = `${o.margin_mode === MarginMode.ISOLATED ? 'Isolated' : 'Cross'} ${o.leverage}x`;
  if (m === undefined)
    return o.position_action === PositionAction.CLOSE
      ? `${mode}: a close only reduces the position and holds no margin`
      : `${mode}: a market order does not rest and holds no margin`;
  if (Number.isNaN(m.opens))
    return `${mode}: what of it would open depends on the account's position mode (one-way: only what the position does not cover), not loaded yet`;
  const held = Number.isFinite(m.hold) ? `; held with the taker fee: ${fmt(m.hold, 2)} USDT` : '';
  return `${mode}: initial margin of the ${fmt(m.opens, qd)} that would open, at the order's price${held}`;
}
