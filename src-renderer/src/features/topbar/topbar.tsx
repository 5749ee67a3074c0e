// Top bar: symbol picker, last / mark / index price, 24 h change, high, low and volume,
// funding rate with the countdown to the next settlement, connection and login status.
// A market connection lost for more than a few seconds is a loud "Disconnected —
// reconnecting…" and the prices are dimmed (they are stale); a paused market clock says
// "Market paused" (connection-status.ts); a venue that cannot store changes (a failed commit, a
// nearly full disk) says so and why beside it, whichever request met it (store-status.ts). The funding stat comes right after the prices so
// that on a narrow window the 24 h statistics are the ones left out, each as a whole: the
// stats row wraps and only its first line shows, so nothing is cut mid-number. Below 1400 px the
// 24 h change shows its percentage alone (its price change kept for screen readers and in its
// title), so that the 24 h change fits from 1024 px and all four from 1280 px; the row's title
// holds every 24 h figure, the ones left out too.
import { useEffect, useRef, useState } from 'react';
import { fmt, fmtCompact, fmtCountdown, fmtPct } from '../../lib/format.ts';
import { connectionView, marketDown, storeView } from '../../lib/connection-status.ts';
import { screenNow } from '../replay/replay-store.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { SymbolPicker } from './symbol-picker.tsx';
import { change24, change24Text, grouped, venueFigures } from './ticker-store.ts';
import { SymbolStatus } from '../../../../src-shared/enums.ts';
import './topbar.css';

export function Topbar() {
  const s = useServices();
  const { symbol, entry, pd } = useSymbolView();
  const t = useSel(s.tickers, (x) => x.tickers[symbol]);
  const overlay = useSel(s.workspace, (w) => w.overlay);
  const replayMode = useSel(s.replay, (r) => r.mode);
  const symbolButton = useRef<HTMLButtonElement>(null);
  const dir = useDirection(t?.last);
  const down = useSel(s.connection, (c) => marketDown(c.state));
  const v = venueFigures(t, entry?.general.status === SymbolStatus.DELISTED);
  const ch = change24(t);
  const chText = change24Text(t);
  const day = t?.day ?? null;
  const chClass = ch > 0 ? 'up' : ch < 0 ? 'down' : '';
  const day24: Array<[string, string, string | undefined]> = [
    ['24h high', day ? grouped(day.high_price) : '—', 'high-24h'],
    ['24h low', day ? grouped(day.low_price) : '—', 'low-24h'],
    [`24h vol (${entry?.general.quote_asset ?? 'USDT'})`, fmtCompact(day?.quote_volume), undefined],
  ];
  const statsTitle = [`24h change ${chText.price} ${chText.percent}`, ...day24.map(([l, v]) => `${l} ${v}`)].join('\n');

  useEffect(() => {
    const title = t && t.last > 0 ? `${fmt(t.last, pd)} · ${symbol} · perpdesk` : `${symbol} · perpdesk`;
    document.title = replayMode === 'replay' ? `REPLAY · ${title}` : title;
  }, [t?.last, pd, symbol, replayMode]);

  return (
    <header className={`topbar${down ? ' stale' : ''}`} data-testid="topbar">
      <span className="brand" aria-label="perpdesk">
        <span className="brand-mark">◆</span>
        <span className="brand-name">perpdesk</span>
      </span>
      <div className="picker-anchor">
        <button
          ref={symbolButton}
          className="symbol-button"
          data-testid="symbol-button"
          aria-haspopup="dialog"
          aria-expanded={overlay === 'symbols'}
          title="Change pair (/)"
          onClick={() =>
            overlay === 'symbols'
              ? s.workspace.getState().actions.close()
              : s.workspace.getState().actions.open('symbols')
          }
        >
          {entry && (
            <img className="logo" src={`${s.api.baseUrl}${entry.general.logo}`} alt="" width={20} height={20} />
          )}
          <span className="symbol-name">{symbol}</span>
          <span className="symbol-kind">Perp</span>
          {entry && entry.general.status !== SymbolStatus.TRADING && (
            <span className="symbol-status" data-testid="symbol-status" title="No new orders are accepted on this pair">
              {entry.general.status === SymbolStatus.PAUSED ? 'Trading paused' : 'Delisted'}
            </span>
          )}
          <span className="caret">▾</span>
        </button>
        {overlay === 'symbols' && <SymbolPicker opener={symbolButton} />}
      </div>
      <div className={`last-price ${dir}`} data-testid="last-price" aria-label="Last price">
        {fmt(t?.last, pd)}
      </div>
      {/* a 24 h figure that does not fit is out of sight, whole; all of them are in the row's title */}
      <dl className="stats" data-testid="stats" title={statsTitle}>
        <Stat label="Mark" testId="mark-price" value={fmt(v.mark, pd)} />
        <Stat label="Index" testId="index-price" value={fmt(v.index, pd)} />
        <div className="stat funding">
          <dt>Funding / countdown</dt>
          <dd>
            <span data-testid="funding-rate" className={v.fundingRate < 0 ? 'down' : 'accent'}>
              {fmtPct(v.fundingRate, 4)}
            </span>
            <span className="sep"> / </span>
            <Countdown to={v.nextFundingTime} />
          </dd>
        </div>
        <div className="stat" title={`24h change ${chText.price} ${chText.percent}`}>
          <dt>24h change</dt>
          <dd data-testid="change-24h" className={chClass}>
            <span className="change-price">{chText.price}</span> {chText.percent}
          </dd>
        </div>
        {day24.map(([label, value, testId]) => (
          <Stat key={label} label={label} testId={testId} value={value} />
        ))}
      </dl>
      <div className="topbar-right">
        <StoreStatusBanner />
        <ConnectionStatus />
        <button
          className="icon-button"
          title="Bot orders (Shift+B)"
          onClick={() => s.workspace.getState().actions.open('bots')}
        >
          Bots
        </button>
        {/* a replay keeps no market data (its dataset routes answer 1108): it is the live market's */}
        {replayMode !== 'replay' && (
          <button
            className="icon-button"
            title="Market data: import Binance archive files"
            onClick={() => s.workspace.getState().actions.open('data')}
          >
            Data
          </button>
        )}
        {replayMode === 'live' && (
          <button
            className="icon-button"
            title="Sweeps: a bot over many replay days and parameter sets"
            onClick={() => s.workspace.getState().actions.open('sweeps')}
          >
            Sweeps
          </button>
        )}
        {replayMode === 'live' && (
          <button
            className="icon-button"
            title="Replay stored market history (Shift+R)"
            onClick={() => s.workspace.getState().actions.open('replay')}
          >
            Replay
          </button>
        )}
        <button
          className="icon-button"
          title="Settings (,)"
          aria-label="Settings"
          onClick={() => s.workspace.getState().actions.open('settings')}
        >
          ⚙
        </button>
        <button
          className="icon-button"
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
          onClick={() => s.workspace.getState().actions.open('help')}
        >
          ?
        </button>
      </div>
    </header>
  );
}

function Stat({
  label,
  value,
  testId,
  className,
}: {
  label: string;
  value: string;
  testId?: string;
  className?: string;
}) {
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
  const now = screenNow(s.clock.getState(), s.replay.getState(), Date.now());
  return (
    <span data-testid="funding-countdown" title="Time to the next funding settlement (market clock)">
      {to > 0 ? fmtCountdown(to - now) : '—'}
    </span>
  );
}

/** The venue's store: said once, here, from whichever answer of the venue said it (store-status.ts). */
function StoreStatusBanner() {
  const s = useServices();
  const v = storeView(useSel(s.storeStatus, (x) => x));
  if (v === null) return null;
  return (
    <div className={`conn conn-alert conn-store ${v.tone}`} data-testid="store-status" role="alert" title={v.label}>
      <span className={`dot ${v.tone}`} />
      <span className="conn-store-text">{v.label}</span>
    </div>
  );
}

function ConnectionStatus() {
  const s = useServices();
  const ws = useSel(s.connection, (c) => c.state);
  const downSince = useSel(s.connection, (c) => c.downSince);
  // a replay's clock is moved event by event and reads paused all along: its banner says
  // whether it plays
  const replay = useSel(s.replay, (r) => r.mode === 'replay');
  const ended = useSel(s.replay, (r) => r.link === 'ended');
  const paused = useSel(s.clock, (c) => c.paused) && !replay;
  const session = useSel(s.session, (x) => x.status);
  const user = useSel(s.userFeed, (u) => u.status);
  const accountStale = useSel(s.userFeed, (u) => u.refreshError !== null);
  // re-evaluated each second while down, so a lasting drop escalates without a new event
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (downSince === null) return;
    setNow(Date.now());
    const h = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(h);
  }, [downSince]);
  const v = connectionView(ws, downSince, ended ? 'replay-ended' : replay ? 'replay' : paused ? 'paused' : 'live', now);
  const account =
    session === 'ready'
      ? user === 'live'
        ? 'Account live'
        : user === 'error'
          ? 'Account feed failed'
          : 'Account connecting'
      : session === 'anonymous'
        ? 'Not logged in'
        : '';
  const title = ended
    ? 'This replay has ended: the service it ran in stopped (or it was closed), and its account, orders and report went with it.'
    : v.down
      ? `Market data: ${v.label}. Prices, PnL, the account and the order book on screen are stale until the connection is back; orders are disabled. ${account}`
      : paused && ws === 'open'
        ? 'The simulator is paused (Settings): market time stands still, no trades and no funding until it resumes.'
        : replay
          ? `Connected to the replay venue: its market is history, not the live market. ${account}`
          : `Market data: ${v.label}. ${account}`;
  return (
    <div
      className={`conn${v.prominent ? ` conn-alert ${v.tone}` : ''}`}
      data-testid="connection-status"
      data-state={ws}
      data-paused={paused}
      role={v.prominent ? 'alert' : undefined}
      title={title}
    >
      <span className={`dot ${v.tone}`} />
      <span>{v.label}</span>
      {session === 'anonymous' && <span className="conn-login">· view only</span>}
      {session === 'ready' && accountStale && !ended && (
        <span
          className="conn-stale"
          data-testid="account-stale"
          title="The account could not be refreshed: balances, positions and orders on screen may be out of date"
        >
          · account not updating
        </span>
      )}
    </div>
  );
}
