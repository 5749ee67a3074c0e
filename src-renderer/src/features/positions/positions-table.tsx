// Open positions with live PnL and ROE (at the latest mark price), margin ratio, liquidation
// price, TP/SL (editable), and close / close-all at market. Long or short comes from
// positionDirection() (a one-way short is side 2, never read from the mode alone). Close all
// asks first, naming how many positions it closes.
import { useRef, useState } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtPct, fmtSigned } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { ConfirmBar } from '../orders/confirm-bar.tsx';
import { closePosition } from './close-position.ts';
import { positionDirection } from './position-direction.ts';
import { livePnl, positionKey, roe } from './positions-store.ts';
import { TpSlDialog } from './tpsl-dialog.tsx';
import './positions.css';

export function PositionsTable() {
  const s = useServices();
  const down = useSel(s.connection, (c) => marketDown(c.state));
  const positions = useSel(s.positions, (x) => x.positions);
  const tpsl = useSel(s.positions, (x) => x.tpsl);
  const tickers = useSel(s.tickers, (x) => x.tickers);
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const decimals = useDecimals();
  const [editing, setEditing] = useState<PositionRecord | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const closeAllButton = useRef<HTMLButtonElement>(null);

  const editTpSl = (p: PositionRecord): void => {
    setEditing(p);
    // the dialog is an overlay: the global shortcuts stay inert while it is open
    s.workspace.getState().actions.open('tpsl');
  };
  const overlay = useSel(s.workspace, (w) => w.overlay);

  const fail = (what: string, e: unknown): void => {
    s.toasts.getState().actions.push({ kind: 'error', title: what, body: errorText(e) });
  };
  const close = async (p: PositionRecord): Promise<void> => {
    const k = positionKey(p.symbol, p.position_side);
    setBusy(k);
    try {
      await closePosition(s.api, p, decimals(p.symbol).qd, oneWay);
      await s.positions.getState().actions.refresh();
    } catch (e) {
      fail(`Close ${p.symbol} refused`, e);
    } finally {
      setBusy(null);
    }
  };
  const closeAll = async (): Promise<void> => {
    setConfirmAll(false);
    setBusy('all');
    for (const p of positions) {
      try {
        await closePosition(s.api, p, decimals(p.symbol).qd, oneWay);
      } catch (e) {
        fail(`Close ${p.symbol} refused`, e);
      }
    }
    await s.positions.getState().actions.refresh().catch(() => {});
    setBusy(null);
  };

  const n = positions.length;
  return (
    <>
      {confirmAll && n > 0 && (
        <ConfirmBar
          testId="close-all-confirm"
          text={`Close ${n} position${n === 1 ? '' : 's'} at market?`}
          action={`Close ${n} position${n === 1 ? '' : 's'}`}
          busy={busy !== null}
          onConfirm={() => void closeAll()}
          onCancel={() => {
            setConfirmAll(false);
            closeAllButton.current?.focus();
          }}
        />
      )}
      {down && positions.length > 0 && (
        <p className="stale-note" data-testid="positions-stale">
          Mark prices and PnL as of the last update: the connection to the service is down.
        </p>
      )}
      <table className={down ? 'grid dense stale' : 'grid dense'} data-testid="positions-table">
        <thead>
          <tr>
            <th>Symbol</th>
            <th className="num">Size</th>
            <th className="num">Entry</th>
            <th className="num">Break-even</th>
            <th className="num">Mark</th>
            <th className="num">Liq. price</th>
            <th className="num">Margin ratio</th>
            <th className="num">Margin</th>
            <th className="num">PnL (ROE)</th>
            <th className="num">TP / SL</th>
            <th className="num actions">
              <button
                ref={closeAllButton}
                className="btn-small"
                disabled={positions.length === 0 || busy !== null}
                aria-expanded={confirmAll}
                onClick={() => setConfirmAll(true)}
              >
                {busy === 'all' ? '…' : 'Close all…'}
              </button>
            </th>
          </tr>
        </thead>
        <tbody>
          {positions.map((p) => {
            const { pd, qd } = decimals(p.symbol);
            const k = positionKey(p.symbol, p.position_side);
            const mark = tickers[p.symbol]?.mark;
            const pnl = livePnl(p, mark);
            const r = roe(p, pnl);
            const { long, name, size } = positionDirection(p);
            const t = tpsl[k];
            return (
              <tr key={k} data-testid={`position-row-${p.symbol}-${p.position_side}`} data-direction={name}>
                <td>
                  <span className={`side-bar ${long ? 'long' : 'short'}`} />
                  <span className="sym">{p.symbol}</span>
                  <span className={`tag ${long ? 'up' : 'down'}`}>{long ? 'Long' : 'Short'}</span>
                  <span className="tag">
                    {p.margin_mode === 1 ? 'Isolated' : 'Cross'} {p.leverage}x
                  </span>
                </td>
                <td className={`num ${long ? 'up' : 'down'}`} data-testid="position-size">
                  {fmt(size, qd)}
                </td>
                <td className="num">{fmt(p.entry_price, pd)}</td>
                <td className="num">{fmt(p.break_even_price, pd)}</td>
                <td className="num">{fmt(mark ?? p.mark_price, pd)}</td>
                <td className="num warn">{p.liquidation_price > 0 ? fmt(p.liquidation_price, pd) : '—'}</td>
                <td className="num">{fmtPct(p.margin_ratio, 2)}</td>
                <td className="num">{fmt(p.margin, 2)}</td>
                <td className={`num ${pnl > 0 ? 'up' : pnl < 0 ? 'down' : ''}`} data-testid="position-pnl" data-pnl={pnl}>
                  {fmtSigned(pnl, 2)} ({fmtPct(r, 2, true)})
                </td>
                <td className="num">
                  <span className="up">{t?.takeProfit ? fmt(t.takeProfit, pd) : '—'}</span> / <span className="down">{t?.stopLoss ? fmt(t.stopLoss, pd) : '—'}</span>
                  <button className="btn-small ghost" onClick={() => editTpSl(p)} aria-label={`TP/SL ${p.symbol} ${name}`}>
                    ✎
                  </button>
                </td>
                <td className="num actions">
                  <button className="btn-small" disabled={busy !== null} onClick={() => void close(p)} aria-label={`Close ${p.symbol} ${name}`}>
                    {busy === k ? '…' : 'Close'}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {positions.length === 0 && <p className="empty">No open positions.</p>}
      {editing && overlay === 'tpsl' && (
        <TpSlDialog
          position={editing}
          onClose={() => {
            setEditing(null);
            s.workspace.getState().actions.close();
          }}
        />
      )}
    </>
  );
}
