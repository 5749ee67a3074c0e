// Position history: closed positions, newest first, with the spec's filters (pair, position
// side, margin mode, close type, close time) and close types by name.
import type { CloseType, MarginMode, PositionSide } from '../../../../src-shared/enums.ts';
import { fmt, fmtDateTime, fmtSigned } from '../../lib/format.ts';
import { useServices } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { DayFilter, EmptyHistory, HistoryTools, Select, usePagedHistory } from './history-controls.tsx';

export const CLOSE_TYPE_NAMES: Record<number, string> = {
  1: 'User close',
  2: 'Take profit',
  3: 'Stop loss',
  4: 'Liquidation',
  5: 'ADL',
  6: 'Bankruptcy',
};

const CLOSE_TYPES: ReadonlyArray<readonly [CloseType | 0, string]> = [[0, 'All'], ...([1, 2, 3, 4, 5, 6] as const).map((v) => [v, CLOSE_TYPE_NAMES[v]] as const)];
const SIDES: ReadonlyArray<readonly [PositionSide | 0, string]> = [
  [0, 'All'],
  [1, 'Long'],
  [2, 'Short'],
];
const MODES: ReadonlyArray<readonly [MarginMode | 0, string]> = [
  [0, 'All'],
  [1, 'Isolated'],
  [2, 'Cross'],
];

export function PositionHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.positions);
  const decimals = useDecimals();
  return (
    <>
      <HistoryTools st={st}>
        <Select label="Side" value={st.filters.positionSide} options={SIDES} onChange={(positionSide) => void st.actions.load({ positionSide })} />
        <Select label="Margin" value={st.filters.marginMode} options={MODES} onChange={(marginMode) => void st.actions.load({ marginMode })} />
        <Select label="Close type" value={st.filters.closeType} options={CLOSE_TYPES} onChange={(closeType) => void st.actions.load({ closeType })} />
        <DayFilter label="From" value={st.filters.startTime} onChange={(startTime) => void st.actions.load({ startTime })} />
        <DayFilter label="To" end value={st.filters.endTime} onChange={(endTime) => void st.actions.load({ endTime })} />
      </HistoryTools>
      <table className="grid dense" data-testid="position-history-table">
        <thead>
          <tr>
            <th>Closed</th>
            <th>Symbol</th>
            <th>Side</th>
            <th className="num">Size</th>
            <th className="num">Entry</th>
            <th className="num">Exit</th>
            <th className="num">Realized PnL</th>
            <th className="num">Fees</th>
            <th className="num">Funding</th>
            <th>Close type</th>
            <th>Opened</th>
          </tr>
        </thead>
        <tbody>
          {st.items.map((p) => {
            const { pd, qd } = decimals(p.symbol);
            const fees = p.open_fee + p.close_fee;
            return (
              <tr key={p.id} data-testid={`position-history-row-${p.id}`} data-close-type={p.close_type}>
                <td className="dim">{fmtDateTime(p.closed_at)}</td>
                <td className="sym">
                  {p.symbol}{' '}
                  <span className="tag">
                    {p.margin_mode === 1 ? 'Isolated' : 'Cross'} {p.leverage}x
                  </span>
                </td>
                <td className={p.position_side === 1 ? 'up' : 'down'}>{p.position_side === 1 ? 'Long' : 'Short'}</td>
                <td className="num">{fmt(p.close_quantity, qd)}</td>
                <td className="num">{fmt(p.entry_price, pd)}</td>
                <td className="num">{fmt(p.exit_price, pd)}</td>
                <td className={`num ${p.realized_pnl > 0 ? 'up' : p.realized_pnl < 0 ? 'down' : ''}`}>{fmtSigned(p.realized_pnl, 2)}</td>
                <td className="num">{fmt(fees, 4)}</td>
                <td className="num">{fmtSigned(-p.total_funding_fee, 4)}</td>
                <td data-testid="close-type">{CLOSE_TYPE_NAMES[p.close_type] ?? p.close_type}</td>
                <td className="dim">{fmtDateTime(p.opened_at)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <EmptyHistory st={st} what="closed positions" />
    </>
  );
}
