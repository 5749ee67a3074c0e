// Top bar: symbol picker, last / mark / index price, 24 h change, high, low and volume,
// funding rate with the countdown to the next settlement, connection and login status.
import { useEffect, useRef, useState } from 'react';
import { fmt, fmtCompact, fmtCountdown, fmtPct, fmtSigned } from '../../lib/format.ts';
import { marketNow } from '../../lib/market-clock.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { SymbolPicker } from './symbol-picker.tsx';
import { change24 } from './ticker-store.ts';
import './topbar.css';

export function Topbar() {
  const s = useServices();
  const { symbol, entry, pd } = useSymbolView();
  const t = useSel(s.tickers, (x) => x.tickers[symbol]);
  const overlay = useSel(s.workspace, (w) => w.overlay);
  const dir = useDirection(t?.last);
  const ch = change24(t);
  const chClass = ch > 0 ? 'up' : ch < 0 ? 'down' : '';

  useEffect(() => {
    document.title = t && t.last > 0 ? `${fmt(t.last, pd)} · ${symbol} · perpdesk` : `${symbol} · perpdesk`;
  }, [t?.last, pd, symbol]);

  return (
    <header className="topbar" data-testid="topbar">
      <span className="brand" aria-label="perpdesk">
        <span className="brand-mark">◆</span>perpdesk
      </span>
      <div className="picker-anchor">
        <button
          className="symbol-button"
          data-testid="symbol-button"
          aria-haspopup="dialog"
          aria-expanded={overlay === 'symbols'}
          title="Change pair (/)"
          onClick={() => (overlay === 'symbols' ? s.workspace.getState().actions.close() : s.workspace.getState().actions.open('symbols'))}
        >
          {entry && <img className="logo" src={`${s.api.baseUrl}${entry.general.logo}`} alt="" width={20} height={20} />}
          <span className="symbol-name">{symbol}</span>
          <span className="symbol-kind">Perp</span>
          {entry && entry.general.status !== 1 && (
            <span className="symbol-status" data-testid="symbol-status" title="No new orders are accepted on this pair">
              {entry.general.status === 2 ? 'Trading paused' : 'Delisted'}
            </span>
          )}
          <span className="caret">▾</span>
        </button>
        {overlay === 'symbols' && <SymbolPicker />}
      </div>
      <div className={`last-price ${dir}`} data-testid="last-price" aria-label="Last price">
        {fmt(t?.last, pd)}
      </div>
      <dl className="stats">
        <Stat label="Mark" testId="mark-price" value={fmt(t?.mark, pd)} />
        <Stat label="Index" testId="index-price" value={fmt(t?.index, pd)} />
        <Stat
          label="24h change"
          testId="change-24h"
          value={`${fmtSigned(t ? t.last - t.open24 : NaN, pd)} ${fmtPct(ch, 2, true)}`}
          className={chClass}
        />
        <Stat label="24h high" value={fmt(t?.high24, pd)} />
        <Stat label="24h low" value={fmt(t?.low24, pd)} />
        <Stat label={`24h vol (${entry?.general.quote_asset ?? 'USDT'})`} value={fmtCompact(t?.quoteVolume24)} />
        <div className="stat">
          <dt>Funding / countdown</dt>
          <dd>
            <span data-testid="funding-rate" className={t && t.fundingRate < 0 ? 'down' : 'accent'}>
              {fmtPct(t?.fundingRate, 4)}
            </span>
            <span className="sep"> / </span>
            <Countdown to={t?.nextFundingTime ?? 0} />
          </dd>
        </div>
      </dl>
      <div className="topbar-right">
        <ConnectionStatus />
        <button className="icon-button" title="Bot orders (Shift+B)" onClick={() => s.workspace.getState().actions.open('bots')}>
          Bots
        </button>
        <button className="icon-button" title="Settings (,)" aria-label="Settings" onClick={() => s.workspace.getState().actions.open('settings')}>
          ⚙
        </button>
        <button className="icon-button" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" onClick={() => s.workspace.getState().actions.open('help')}>
          ?
        </button>
      </div>
    </header>
  );
}

function Stat({ label, value, testId, className }: { label: string; value: string; testId?: string; className?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId} className={className}>
        {value}
      </dd>
    </div>
  );
}

/** 'up' / 'down' after the value rose or fell, kept until the next change. */
function useDirection(v: number | undefined): string {
  const prev = useRef<number | undefined>(undefined);
  const [dir, setDir] = useState('');
  useEffect(() => {
    if (v === undefined || !Number.isFinite(v)) return;
    if (prev.current !== undefined && v !== prev.current) setDir(v > prev.current ? 'up' : 'down');
    prev.current = v;
  }, [v]);
  return dir;
}

/** Time left to `to` on the market clock, ticking on its own so the bar does not re-render. */
function Countdown({ to }: { to: number }) {
  const s = useServices();
  const [, tick] = useState(0);
  useEffect(() => {
    const h = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(h);
  }, []);
  const now = marketNow(s.clock.getState());
  return (
    <span data-testid="funding-countdown" title="Time to the next funding settlement (market clock)">
      {to > 0 ? fmtCountdown(to - now) : '—'}
    </span>
  );
}

function ConnectionStatus() {
  const s = useServices();
  const ws = useSel(s.connection, (c) => c.state);
  const session = useSel(s.session, (x) => x.status);
  const user = useSel(s.userFeed, (u) => u.status);
  const [label, cls] =
    ws === 'open' ? ['Live', 'ok'] : ws === 'reconnecting' ? ['Reconnecting', 'warn'] : ws === 'closed' ? ['Offline', 'bad'] : ['Connecting', 'warn'];
  const account =
    session === 'ready' ? (user === 'live' ? 'Account live' : user === 'error' ? 'Account feed failed' : 'Account connecting') : session === 'anonymous' ? 'Not logged in' : '';
  return (
    <div className="conn" data-testid="connection-status" data-state={ws} title={`Market data: ${label}. ${account}`}>
      <span className={`dot ${cls}`} />
      <span>{label}</span>
      {session === 'anonymous' && <span className="conn-login">· view only</span>}
    </div>
  );
}
