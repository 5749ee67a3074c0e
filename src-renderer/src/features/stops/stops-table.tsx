// The Stops tab's Waiting view (its switch, stops-view.tsx, shows their history instead): the
// account's waiting conditional orders (stops-store.ts), each with its pair,
// direction, trigger (≥ / ≤ and the price it watches, Mark or Last; a trailing stop, whose trigger
// follows the price, its callback rate too), the order it places (market,
// or limit at its price), its size ("Close position" for one that closes it all) and its time; a
// Cancel per row and Cancel all (which asks first, naming how many), optionally the current pair
// only. ✎ beside a trigger (not a trailing stop's) opens the Modify dialog (stop-amend-dialog.tsx,
// hosted here: a double-click on the stop's line on the chart opens it too, the workspace naming
// its stop). A stop that fires or is cancelled leaves the list by the user channel's `conditional`
// event; one modified is replaced by it.
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { RecordTable, NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { useCancelTools } from '../orders/cancel-tools.tsx';
// the ✎ beside the trigger, as beside an open order's price
import '../orders/open-orders.css';
import { orderDirection, sideClass } from '../orders/order-labels.ts';
import { WATCHED_NAMES } from '../order-entry/stop-order.ts';
import { activationText, awaitsActivation, stopPlaces, stopSize, triggerText, watchedText } from './stop-labels.ts';
import { stopModifiable } from './stop-amend.ts';
import { StopAmendDialog } from './stop-amend-dialog.tsx';
import { StopsViewSwitch } from './stops-view.tsx';

type Row = { c: ConditionalOrderRecord; pd: number; qd: number };

export function StopsTable() {
  const s = useServices();
  const all = useSel(s.stopOrders, (x) => x.stops);
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const decimals = useDecimals();
  const amending = useSel(s.workspace, (w) => (w.overlay === 'amend-stop' ? w.amendingStop : null));
  // the view's tab is where the focus goes when the modified stop's row is gone (it fired
  // meanwhile) or the dialog was opened from the chart
  const cancels = useCancelTools(
    all,
    { long: 'waiting stop', short: 'stop', testId: 'cancel-all-stops-confirm' },
    s.stopOrders.getState().actions,
    <StopsViewSwitch />,
  );

  const size = stopSize;
  const placed = stopPlaces;

  const columns: Column<Row>[] = [
    { head: 'Time', cls: 'dim', cell: ({ c }) => <When ms={c.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ c }) => c.symbol },
    { head: 'Direction', cls: ({ c }) => sideClass(c.side), cell: ({ c }) => orderDirection(c, mode) },
    {
      head: (
        <span title="The order is placed when the watched price reaches the trigger: ≥ as it rises to it, ≤ as it falls to it">
          Trigger
        </span>
      ),
      headClass: 'num',
      cls: 'num',
      attrs: ({ c }) => ({
        title: `Fires when the ${WATCHED_NAMES[c.working_type]} is ${triggerText(c, decimals(c.symbol).pd)}${awaitsActivation(c) ? `; it ${activationText(c, decimals(c.symbol).pd)} first` : ''}`,
      }),
      cell: ({ c, pd, qd }) => (
        <>
          <span className="oo-price">
            <span>{triggerText(c, pd)}</span>
            <span className="dim">{watchedText(c, pd, false)}</span>
            {stopModifiable(c) && (
              <button
                className="btn-small ghost"
                disabled={cancels.busy !== null}
                // the dialog is an overlay: the global shortcuts stay inert while it is open
                onClick={() => s.workspace.getState().actions.openStopAmend(c)}
                aria-label={`Modify stop ${c.id}: ${c.symbol} ${orderDirection(c, mode)} ${size(c, qd)} when ${triggerText(c, pd)}`}
                title="Modify trigger, price or amount"
              >
                ✎
              </button>
            )}
          </span>
          {/* a trailing stop not trailing yet: its trigger is where it would start from (a line of its own, so the cell stays narrow) */}
          {awaitsActivation(c) && <span className="stop-activation dim">{activationText(c, pd)}</span>}
        </>
      ),
    },
    {
      head: <NarrowPair top="Order" sub="Amount" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ c, pd, qd }) => <NarrowPair top={placed(c, pd)} sub={size(c, qd)} />,
    },
    { head: 'Amount', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ c, qd }) => size(c, qd) },
    cancels.column(
      ({ c }) => c,
      ({ c, pd, qd }) =>
        `Cancel stop ${c.id}: ${c.symbol} ${orderDirection(c, mode)} ${size(c, qd)} when ${triggerText(c, pd)}`,
    ),
  ];

  return (
    <>
      {cancels.tools}
      <RecordTable
        testId="stops-table"
        columns={columns}
        rows={cancels.rows.map((c) => ({ c, ...decimals(c.symbol) }))}
        rowKey={(r) => r.c.id}
        rowAttrs={(r) => ({ 'data-testid': `stop-row-${r.c.id}`, 'data-symbol': r.c.symbol })}
        empty={<p className="empty">No waiting stops. The order form's Stop tab places one.</p>}
      />
      {amending && (
        <StopAmendDialog stop={amending} opener={cancels.tab} onClose={() => s.workspace.getState().actions.close()} />
      )}
    </>
  );
}
