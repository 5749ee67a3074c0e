// Open positions with live PnL and ROE (at the latest mark price), margin ratio, liquidation
// price, TP/SL (editable), and close / close-all at market.
import { useState } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtPct, fmtSigned } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { closePosition } from './close-position.ts';
import { livePnl, positionKey, roe } from './positions-store.ts';
import { TpSlDialog } from './tpsl-dialog.tsx';
import './positions.css';

export function PositionsTable() {
  const s = useServices();
  const positions = useSel(s.positions, (x) => x.positions);
  const tpsl = useSel(s.positions, (x) => x.tpsl);
  const tickers = useSel(s.tickers, (x) => x.tickers);
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const decimals = useDecimals();
  const [editing, setEditing] = useState<PositionRecord | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

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

  return (
    <>
      <table className="grid dense" data-testid="positions-table">
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
              <button className="btn-small" disabled={positions.length === 0 || busy !== null} onClick={() => void closeAll()}>
                Close all
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
            const long = oneWay ? p.quantity > 0 : p.position_side === 1;
            const t = tpsl[k];
            return (
              <tr key={k} data-testid={`position-row-${p.symbol}-${p.position_side}`}>
                <td>
                  <span className={`side-bar ${long ? 'long' : 'short'}`} />
                  <span className="sym">{p.symbol}</span>
                  <span className={`tag ${long ? 'up' : 'down'}`}>{long ? 'Long' : 'Short'}</span>
                  <span className="tag">
                    {p.margin_mode === 1 ? 'Isolated' : 'Cross'} {p.leverage}x
                  </span>
                </td>
                <td className={`num ${long ? 'up' : 'down'}`} data-testid="position-size">
                  {fmt(Math.abs(p.quantity), qd)}
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
                  <button className="btn-small ghost" onClick={() => setEditing(p)} aria-label={`TP/SL ${p.symbol} ${long ? 'long' : 'short'}`}>
                    ✎
                  </button>
                </td>
                <td className="num actions">
                  <button className="btn-small" disabled={busy !== null} onClick={() => void close(p)} aria-label={`Close ${p.symbol} ${long ? 'long' : 'short'}`}>
                    {busy === k ? '…' : 'Close'}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {positions.length === 0 && <p className="empty">No open positions.</p>}
      {editing && <TpSlDialog position={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
