// The Alerts tab: set a price alert on the current pair (a level and Enter, or Add alert), and the
// list of alerts, waiting and fired, with how far each waiting one is from its pair's last price
// now; a pair's name shows its chart, a waiting one's level edits in place (alert-edit.tsx), ✕
// removes an alert, "Clear fired" the fired ones. `A` comes here with the focus on the level (the
// store's focusWanted; `A` again there is not typed).
import { useEffect, useRef, useState } from 'react';
import { fmt, fmtPct, fmtSigned } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals, useSymbolView } from '../../lib/use-symbol.ts';
import { RecordTable, When, type Column } from '../../layout/record-table.tsx';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { condition, type PriceAlert } from './alert-rules.ts';
import { AlertLevel, alertFieldKey, levelOf } from './alert-edit.tsx';
import { askNotifications } from '../toasts/toast-notices.ts';
import './alerts.css';

/** How far a level is from the last price: "+12.5, +0.013%" (three decimals under 0.1 %). */
function distance(diff: number, last: number, pd: number): string {
  const ratio = diff / last;
  return `${fmtSigned(diff, pd)}, ${fmtPct(ratio, Math.abs(ratio) < 0.001 ? 3 : 2, true)}`;
}

export function AlertsTab() {
  const s = useServices();
  const { symbol, pd } = useSymbolView();
  const alerts = useSel(s.alerts, (x) => x.alerts);
  const focusWanted = useSel(s.alerts, (x) => x.focusWanted);
  const lasts = useSel(s.tickers, (x) => x.tickers);
  const decimals = useDecimals();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** What the tab's live region says: a refusal of the new alert, or an edit's answer. */
  const [said, setSaid] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const last = lasts[symbol]?.last ?? NaN;

  useEffect(() => {
    if (!focusWanted) return;
    input.current?.focus();
    s.alerts.getState().actions.focused();
  }, [focusWanted, s]);

  const add = (): void => {
    const level = levelOf(text, pd);
    if ('error' in level) {
      setError(level.error);
      setSaid(level.error);
      return;
    }
    const r = s.alerts.getState().actions.add(symbol, level.price, s.tickers.getState().tickers[symbol]?.last ?? NaN);
    if (!r.ok) {
      setError(r.error);
      setSaid(r.error);
      return;
    }
    void askNotifications();
    setError(null);
    setSaid(null);
    setText('');
  };

  const typed = parseDecimalInput(text);
  const hint =
    error ??
    (typed.kind === 'ok' && typed.n > 0 && last > 0 && typed.n !== last
      ? `Last price ${fmt(last, pd)}: ${distance(typed.n - last, last, pd)} to go`
      : last > 0
        ? `Last price ${fmt(last, pd)}`
        : '');
  const nFired = alerts.filter((a) => a.fired !== undefined).length;

  const columns: Column<{ a: PriceAlert; pd: number }>[] = [
    { head: 'Set', cls: 'dim', cell: ({ a }) => <When ms={a.created} /> },
    {
      head: 'Symbol',
      cls: 'sym',
      cell: ({ a }) => (
        <button
          className="link-button"
          title={`Show ${a.symbol}`}
          onClick={() => s.workspace.getState().actions.setSymbol(a.symbol)}
        >
          {a.symbol}
        </button>
      ),
    },
    {
      head: 'Alert when last price',
      headClass: 'num',
      cls: 'num',
      cell: ({ a, pd }) => <AlertLevel a={a} pd={pd} say={setSaid} />,
    },
    {
      head: 'Last price',
      headClass: 'num',
      cls: 'num',
      attrs: () => ({ 'data-testid': 'alert-status' }),
      cell: ({ a, pd }) => {
        if (a.fired !== undefined)
          return (
            <span className="alert-fired">
              Fired at {fmt(a.fired.last, pd)}, <When ms={a.fired.at} />
            </span>
          );
        const now = lasts[a.symbol]?.last ?? NaN;
        return now > 0 ? `${fmt(now, pd)} (${distance(Number(a.price) - now, now, pd)} to go)` : '—';
      },
    },
    {
      head: (
        <button className="btn-small" disabled={nFired === 0} onClick={() => s.alerts.getState().actions.clearFired()}>
          Clear fired
        </button>
      ),
      headClass: 'num actions',
      cls: 'num actions',
      cell: ({ a, pd }) => (
        <button
          className="btn-small"
          aria-label={`Remove alert: ${a.symbol} ${condition(a)} ${fmt(a.price, pd)}`}
          title="Remove this alert"
          onClick={() => s.alerts.getState().actions.remove(a.id)}
        >
          ✕
        </button>
      ),
    },
  ];

  return (
    <>
      <form
        className="table-tools alert-form"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label className="inline">
          <span>Alert when {symbol} last price reaches</span>
          <input
            ref={input}
            className="alert-price"
            data-testid="alert-price"
            aria-label={`Alert price for ${symbol}, USDT`}
            inputMode="decimal"
            autoComplete="off"
            placeholder={last > 0 ? fmt(last, pd) : 'price'}
            value={text}
            aria-invalid={error !== null}
            aria-describedby="alert-hint"
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
              setSaid(null);
            }}
            onKeyDown={alertFieldKey}
          />
          <span className="dim">USDT</span>
        </label>
        <button type="submit" className="btn-small" data-testid="alert-add">
          Add alert
        </button>
        {/* the hint follows the last price on every trade: it describes the field (read with it), and
            only a refusal goes into the live region, else a screen reader said the price on each tick */}
        <span id="alert-hint" className={error === null ? 'dim' : 'down'} data-testid="alert-hint">
          {hint}
        </span>
        <span className="sr-only" role="status" data-testid="alert-said">
          {said ?? ''}
        </span>
      </form>
      <RecordTable
        testId="alerts-table"
        columns={columns}
        rows={alerts.map((a) => ({ a, pd: decimals(a.symbol).pd }))}
        rowKey={(r) => r.a.id}
        rowAttrs={(r) => ({
          'data-testid': `alert-row-${r.a.id}`,
          'data-symbol': r.a.symbol,
          'data-state': r.a.fired === undefined ? 'waiting' : 'fired',
        })}
        empty={
          <p className="empty">
            No alerts. Type a price above, or press the bell at the crosshair on the chart, to be told when the last
            price reaches it.
          </p>
        }
      />
    </>
  );
}
