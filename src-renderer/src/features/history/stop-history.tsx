// The Stops tab's History (its switch, stops/stops-view.tsx): every conditional order (stop) of the account, newest first, filtered by pair and
// status: its trigger, what it placed, and how it ended: fired (with the order it placed), refused
// when it fired (the venue's code and message), cancelled, or still waiting. Reloaded on the user
// channel's `conditional` events, so a stop that fires shows as fired at once.
import { ConditionalStatus, valuesOf } from '../../../../src-shared/enums.ts';
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { ClientId, NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { orderDirection, sideClass } from '../orders/order-labels.ts';
import { WATCHED_NAMES } from '../order-entry/stop-order.ts';
import {
  STOP_STATUS_NAMES,
  stopOutcome,
  stopPlacedOrder,
  stopPlaces,
  stopSize,
  triggerText,
  watchedText,
} from '../stops/stop-labels.ts';
import { StopsViewSwitch } from '../stops/stops-view.tsx';
import { FilterSelect, HistoryTable, usePagedHistory } from './history-controls.tsx';
import './stop-history.css';

const STATUS_OPTIONS: ReadonlyArray<readonly [ConditionalStatus | 0, string]> = [
  [0, 'All'],
  ...valuesOf(ConditionalStatus).map((v) => [v, STOP_STATUS_NAMES[v]] as const),
];

type Row = { c: ConditionalOrderRecord; pd: number; qd: number };

/** The status cell: "Fired", "Canceled", "Refused (3018)" and the venue's message (whole on hover). */
function Outcome({ c }: { c: ConditionalOrderRecord }) {
  const { text, reason } = stopOutcome(c);
  const fired = c.triggered_at !== null ? `Fired ${new Date(c.triggered_at).toISOString().slice(0, 19)}Z` : '';
  return (
    <span className="sh-status" title={reason !== null ? `${text}: ${reason}` : fired || undefined}>
      {text}
      {reason !== null && <span className="sh-reason">: {reason}</span>}
    </span>
  );
}

export function StopHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.stops, 'stops');
  const decimals = useDecimals();
  // each stop is named in the mode it was placed in, as the order history names its orders
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const direction = (c: ConditionalOrderRecord): string => orderDirection(c, mode);
  const columns: Column<Row>[] = [
    { head: 'Time', cls: 'dim', cell: ({ c }) => <When ms={c.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ c }) => c.symbol },
    { head: 'Type', headClass: 'wide-only', cls: 'wide-only', cell: ({ c, pd }) => stopPlaces(c, pd) },
    {
      head: <NarrowPair top="Direction" sub="Type" />,
      cls: ({ c }) => sideClass(c.side),
      cell: ({ c, pd }) => <NarrowPair top={direction(c)} sub={stopPlaces(c, pd)} />,
    },
    {
      head: (
        <span title="The order was placed when the watched price reached the trigger: ≥ as it rose to it, ≤ as it fell to it">
          <NarrowPair top="Trigger" sub="Watches" />
        </span>
      ),
      headClass: 'num',
      cls: 'num',
      attrs: ({ c, pd }) => ({ title: `Fires when the ${WATCHED_NAMES[c.working_type]} is ${triggerText(c, pd)}` }),
      cell: ({ c, pd }) => <NarrowPair top={triggerText(c, pd)} sub={watchedText(c, pd)} />,
    },
    { head: 'Watches', headClass: 'wide-only', cls: 'dim wide-only', cell: ({ c, pd }) => watchedText(c, pd) },
    { head: 'Amount', headClass: 'num', cls: 'num', cell: ({ c, qd }) => stopSize(c, qd) },
    {
      head: <NarrowPair top="Status" sub="Order" />,
      cell: ({ c }) => <NarrowPair top={<Outcome c={c} />} sub={stopPlacedOrder(c)} />,
    },
    {
      head: <span title="The order the stop placed when it fired">Order</span>,
      headClass: 'wide-only',
      cls: 'wide-only',
      cell: ({ c }) => stopPlacedOrder(c),
    },
    { head: 'Client ID', cls: 'dim', cell: ({ c }) => <ClientId id={c.client_order_id} /> },
  ];
  return (
    <HistoryTable
      st={st}
      what="stops"
      lead={<StopsViewSwitch />}
      testId="stop-history-table"
      columns={columns}
      rows={st.items.map((c) => ({ c, ...decimals(c.symbol) }))}
      rowKey={(r) => r.c.id}
      rowAttrs={(r) => ({ 'data-testid': `stop-history-row-${r.c.id}`, 'data-status': String(r.c.status) })}
    >
      <FilterSelect st={st} filter="status" label="Status" options={STATUS_OPTIONS} />
    </HistoryTable>
  );
}
