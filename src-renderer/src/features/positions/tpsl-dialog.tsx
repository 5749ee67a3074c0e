// Take-profit / stop-loss of one position: set, change or remove each trigger, watched on
// the mark or the last price. Shows the PnL each trigger would realise; the API's message
// when it refuses (e.g. a take-profit on the wrong side of the mark).
import { useEffect, useRef, useState } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtSigned, num } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { positionKey } from './positions-store.ts';

export function TpSlDialog({ position: p, onClose }: { position: PositionRecord; onClose: () => void }) {
  const s = useServices();
  const { pd } = useDecimals()(p.symbol);
  const current = useSel(s.positions, (x) => x.tpsl[positionKey(p.symbol, p.position_side)]);
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const mark = useSel(s.tickers, (x) => x.tickers[p.symbol]?.mark ?? p.mark_price);
  const [tp, setTp] = useState(current?.takeProfit ?? '');
  const [sl, setSl] = useState(current?.stopLoss ?? '');
  const [working, setWorking] = useState<1 | 2>((current?.workingType as 1 | 2) ?? 1);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const long = oneWay ? p.quantity > 0 : p.position_side === 1;
  const qty = Math.abs(p.quantity);
  const pnlAt = (price: string): number => (num(price) > 0 ? (num(price) - p.entry_price) * qty * (long ? 1 : -1) : NaN);

  const save = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await s.positions.getState().actions.setTpSl({
        symbol: p.symbol,
        position_side: p.position_side,
        take_profit_price: tp.trim() === '' ? null : tp.trim(),
        stop_loss_price: sl.trim() === '' ? null : sl.trim(),
        working_type: working,
      });
      s.toasts.getState().actions.push({ kind: 'success', title: `TP/SL saved for ${p.symbol} ${long ? 'long' : 'short'}` });
      onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal"
        role="dialog"
        aria-label="Take profit / stop loss"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
          if (e.key === 'Enter') void save();
        }}
      >
        <h3>
          TP / SL · {p.symbol} <span className={long ? 'up' : 'down'}>{long ? 'Long' : 'Short'}</span>
        </h3>
        <p className="muted small">
          Entry {fmt(p.entry_price, pd)} · Mark {fmt(mark, pd)} · the whole position closes at market when the trigger is reached.
        </p>
        <label className="field">
          <span className="field-label">Take profit</span>
          <input ref={first} aria-label="Take profit price" inputMode="decimal" value={tp} placeholder={long ? 'above mark' : 'below mark'} onChange={(e) => (setTp(e.target.value), setError(null))} />
          <span className="unit">
            <button type="button" className="link" onClick={() => (setTp(''), setError(null))}>
              clear
            </button>
          </span>
        </label>
        <p className="est">
          Est. PnL <b className={pnlAt(tp) >= 0 ? 'up' : 'down'}>{fmtSigned(pnlAt(tp), 2)}</b> USDT
        </p>
        <label className="field">
          <span className="field-label">Stop loss</span>
          <input aria-label="Stop loss price" inputMode="decimal" value={sl} placeholder={long ? 'below mark' : 'above mark'} onChange={(e) => (setSl(e.target.value), setError(null))} />
          <span className="unit">
            <button type="button" className="link" onClick={() => (setSl(''), setError(null))}>
              clear
            </button>
          </span>
        </label>
        <p className="est">
          Est. PnL <b className={pnlAt(sl) >= 0 ? 'up' : 'down'}>{fmtSigned(pnlAt(sl), 2)}</b> USDT
        </p>
        <div className="seg" role="group" aria-label="Trigger price">
          <span className="muted small">Trigger on</span>
          {([1, 2] as const).map((w) => (
            <button key={w} type="button" className={working === w ? 'active' : ''} aria-pressed={working === w} onClick={() => (setWorking(w), setError(null))}>
              {w === 1 ? 'Mark price' : 'Last price'}
            </button>
          ))}
        </div>
        {error && (
          <p className="oe-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
            Save
          </button>
        </div>
      </div>
    </div>
  );
}
