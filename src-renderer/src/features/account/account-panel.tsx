// Account summary: margin balance, wallet, unrealized PnL, available, position and order
// margin, deposits and position mode. Compact in the order column, full in the bottom tab, with
// the API key (a long one wraps, whole, and one click selects it to copy: nothing scrolls sideways).
import { fmt, fmtSigned, num } from '../../lib/format.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { LoginHint } from '../order-entry/login-hint.tsx';
import { useLiveSummary } from './use-live-summary.ts';
import './account.css';

export function AccountPanel({ compact = false }: { compact?: boolean }) {
  const s = useServices();
  const down = useSel(s.connection, (c) => marketDown(c.state));
  // at live marks, so that it agrees with the positions table between the server's updates
  const a = useLiveSummary();
  const error = useSel(s.account, (x) => x.error);
  const session = useSel(s.session, (x) => x.status);
  const key = useSel(s.session, (x) => x.apiKey);
  if (session !== 'ready') return compact ? null : <LoginHint />;
  const upnl = num(a?.unrealized_pnl);
  const rows: Array<[string, string, string?, string?]> = [
    ['Margin balance', fmt(a?.margin_balance, 2), undefined, 'margin-balance'],
    ['Wallet balance', fmt(a?.wallet_balance, 2), undefined, 'wallet-balance'],
    ['Unrealized PnL', fmtSigned(upnl, 2), upnl > 0 ? 'up' : upnl < 0 ? 'down' : undefined, 'unrealized-pnl'],
    ['Available', fmt(a?.available_balance, 2)],
    ['Position margin', fmt(a?.position_margin, 2)],
    ['Order margin', fmt(a?.frozen_margin, 2)],
  ];
  if (!compact) {
    rows.push(['Total deposits', fmt(a?.total_deposits, 2)]);
    rows.push(['Position mode', a?.position_mode === 'one_way' ? 'One-way' : 'Hedge']);
    rows.push(['API key', key ?? '—', 'api-key', 'account-api-key']);
  }
  return (
    <section
      className={`${compact ? 'account compact' : 'account'}${down ? ' stale' : ''}`}
      data-testid={compact ? 'account-compact' : 'account-summary'}
      data-stale={down ? 'true' : undefined}
      aria-label="Account"
    >
      {compact && (
        <div className="panel-title">
          <span>Account</span>
          <span className="muted small">USDT</span>
        </div>
      )}
      <dl>
        {rows.map(([label, value, cls, id]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={cls} data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {error && <p className="error small">{error}</p>}
      {!compact && (
        <p className="muted small">
          Paper account on this machine. Reset the balance or regenerate the API key in{' '}
          <button className="link" onClick={() => s.workspace.getState().actions.open('settings')}>
            Settings
          </button>
          .
        </p>
      )}
    </section>
  );
}
