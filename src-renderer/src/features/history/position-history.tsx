// Position history: closed positions, newest first, with the spec's filters (pair, position
// side, margin mode, close type, close time) and close types by name.
import { CloseType, MarginMode, PositionSide, valuesOf } from '../../../../src-shared/enums.ts';
import { CLOSED_POSITION_RECORD_FIELDS, type ClosedPositionRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtSigned } from '../../lib/format.ts';
import { useServices } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { DayRange, FilterSelect, HistoryTable, realizedPnlColumn, usePagedHistory } from './history-controls.tsx';

const CLOSE_TYPE_NAMES: Record<number, string> = {
  [CloseType.USER]: 'User close',
  [CloseType.TAKE_PROFIT]: 'Take profit',
  [CloseType.STOP_LOSS]: 'Stop loss',
  [CloseType.LIQUIDATION]: 'Liquidation',
  [CloseType.ADL]: 'ADL',
  [CloseType.BANKRUPTCY]: 'Bankruptcy',
};

const CLOSE_TYPES: ReadonlyArray<readonly [CloseType | 0, string]> = [
  [0, 'All'],
  ...valuesOf(CloseType).map((v) => [v, CLOSE_TYPE_NAMES[v]] as const),
];
const SIDES: ReadonlyArray<readonly [PositionSide | 0, string]> = [
  [0, 'All'],
  [PositionSide.LONG, 'Long'],
  [PositionSide.SHORT, 'Short'],
];
const MODES: ReadonlyArray<readonly [MarginMode | 0, string]> = [
  [0, 'All'],
  [MarginMode.ISOLATED, 'Isolated'],
  [MarginMode.CROSS, 'Cross'],
];

export function PositionHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.positions);
  const decimals = useDecimals();
  const columns: Column<{ p: ClosedPositionRecord; pd: number; qd: number }>[] = [
    { head: 'Closed', cls: 'dim', cell: ({ p }) => <When ms={p.closed_at} /> },
    {
      head: 'Symbol',
      // a narrow window puts the margin tag under the pair (styles.css, .fold-tag)
      cls: 'sym fold-tag',
      cell: ({ p }) => (
        <>
          {p.symbol}{' '}
          <span className="tag">
            {p.margin_mode === MarginMode.ISOLATED ? 'Isolated' : 'Cross'} {p.leverage}x
          </span>
        </>
      ),
    },
    {
      head: 'Side',
      cls: ({ p }) => (p.position_side === PositionSide.LONG ? 'up' : 'down'),
      cell: ({ p }) => (p.position_side === PositionSide.LONG ? 'Long' : 'Short'),
    },
    { head: 'Size', headClass: 'num', cls: 'num', cell: ({ p, qd }) => fmt(p.close_quantity, qd) },
    {
      head: <NarrowPair top="Entry" sub="Exit" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ p, pd }) => <NarrowPair top={fmt(p.entry_price, pd)} sub={fmt(p.exit_price, pd)} />,
    },
    { head: 'Exit', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ p, pd }) => fmt(p.exit_price, pd) },
    realizedPnlColumn(
      ({ p }) => p.realized_pnl,
      ({ p }) => fmtSigned(p.realized_pnl, 2),
    ),
    {
      head: <NarrowPair top="Fees" sub="Funding" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ p }) => <NarrowPair top={fmt(p.open_fee + p.close_fee, 4)} sub={fmtSigned(-p.total_funding_fee, 4)} />,
    },
    {
      head: 'Funding',
      headClass: 'num wide-only',
      cls: 'num wide-only',
      cell: ({ p }) => fmtSigned(-p.total_funding_fee, 4),
    },
    {
      head: 'Close type',
      attrs: () => ({ 'data-testid': 'close-type' }),
      cell: ({ p }) => CLOSE_TYPE_NAMES[p.close_type] ?? p.close_type,
    },
    { head: 'Opened', cls: 'dim', cell: ({ p }) => <When ms={p.opened_at} /> },
  ];
  return (
    <HistoryTable
      exportAs={{
        name: 'position-history',
        fields: CLOSED_POSITION_RECORD_FIELDS,
        timeFields: ['opened_at', 'closed_at', 'created_at'],
      }}
      st={st}
      what="closed positions"
      testId="position-history-table"
      // its margin tag under the pair up to 1440 px (styles.css .tag-under): eleven columns, and at
      // 1280 a 1000PEPEUSDT row with its tag beside it made the table 28 px wider than its panel
      className="grid dense tag-under"
      columns={columns}
      rows={st.items.map((p) => ({ p, ...decimals(p.symbol) }))}
      rowKey={(r) => r.p.id}
      rowAttrs={(r) => ({ 'data-testid': `position-history-row-${r.p.id}`, 'data-close-type': r.p.close_type })}
    >
      <FilterSelect st={st} filter="positionSide" label="Side" options={SIDES} />
      <FilterSelect st={st} filter="marginMode" label="Margin" options={MODES} />
      <FilterSelect st={st} filter="closeType" label="Close type" options={CLOSE_TYPES} />
      <DayRange st={st} />
    </HistoryTable>
  );
}
