// The bottom tabs: positions, open orders, stops (waiting, or their history), order / trade / position history, account, price alerts
// (the screen's own, so shown without an account too). A row too wide for the window scrolls,
// the selected tab kept in view.
import { AccountPanel } from '../features/account/account-panel.tsx';
import { AlertsTab } from '../features/alerts/alerts-tab.tsx';
import { OrderHistory } from '../features/history/order-history.tsx';
import { StopHistory } from '../features/history/stop-history.tsx';
import { PositionHistory } from '../features/history/position-history.tsx';
import { TradeHistory } from '../features/history/trade-history.tsx';
import { LoginHint } from '../features/order-entry/login-hint.tsx';
import { OpenOrdersTable } from '../features/orders/open-orders-table.tsx';
import { PositionsTable } from '../features/positions/positions-table.tsx';
import { StopsTable } from '../features/stops/stops-table.tsx';
import { ReplayReport } from '../features/replay/replay-report.tsx';
import { useServices, useSel } from '../lib/use-services.ts';
import type { BottomTab } from '../lib/workspace-store.ts';
import { useEffect, useRef } from 'react';
import { tabStop, tablistKeys } from './tablist-keys.ts';
import './bottom-tabs.css';

const TABS: ReadonlyArray<readonly [BottomTab, string]> = [
  ['positions', 'Positions'],
  ['open-orders', 'Open orders'],
  ['stops', 'Stops'],
  ['order-history', 'Order history'],
  ['trade-history', 'Trade history'],
  ['position-history', 'Position history'],
  ['account', 'Account'],
  ['alerts', 'Alerts'],
];

export function BottomTabs() {
  const s = useServices();
  const tab = useSel(s.workspace, (w) => w.tab);
  const nPositions = useSel(s.positions, (x) => x.positions.length);
  const nOrders = useSel(s.orders, (x) => x.orders.length);
  const nStops = useSel(s.stopOrders, (x) => x.stops.length);
  const stopsView = useSel(s.workspace, (w) => w.stopsView);
  const nAlerts = useSel(s.alerts, (x) => x.alerts.filter((a) => a.fired === undefined).length);
  const session = useSel(s.session, (x) => x.status);
  // the account the tables show: another login remounts them, so what one holds of the account before
  // (a Cancel all… / Close all… bar asking about its orders or positions) never asks about the next one
  const account = useSel(s.session, (x) => (x.status === 'ready' ? x.apiKey : null));
  // a replay venue adds its session report
  const replay = useSel(s.replay, (r) => r.mode === 'replay');
  const tabs = replay ? [...TABS, ['replay-report', 'Replay report'] as const] : TABS;
  const bar = useRef<HTMLDivElement>(null);
  // the selected tab in view: the bar scrolls sideways to it, and nothing else moves (scrollIntoView
  // scrolled the page too, down to the tabs, where the narrowest layout has them below the fold)
  useEffect(() => {
    const b = bar.current;
    const el = b?.querySelector('[aria-selected="true"]');
    if (!b || !el) return;
    const r = el.getBoundingClientRect();
    const box = b.getBoundingClientRect();
    if (r.left < box.left) b.scrollLeft += r.left - box.left;
    else if (r.right > box.right) b.scrollLeft += r.right - box.right;
  }, [tab, replay]);
  const count = (t: BottomTab): string =>
    session !== 'ready'
      ? ''
      : t === 'positions'
        ? ` (${nPositions})`
        : t === 'open-orders'
          ? ` (${nOrders})`
          : t === 'stops'
            ? ` (${nStops})`
            : '';
  return (
    <div className="bottom-tabs">
      <div className="tab-bar" ref={bar} role="tablist" aria-label="Account views" onKeyDown={tablistKeys}>
        {tabs.map(([t, name]) => (
          <button
            key={t}
            id={`account-tab-${t}`}
            role="tab"
            aria-selected={tab === t}
            tabIndex={tabStop(tab === t)}
            className={tab === t ? 'active' : ''}
            onClick={() => s.workspace.getState().actions.setTab(t)}
          >
            {name}
            {t === 'alerts' ? nAlerts > 0 && ` (${nAlerts})` : count(t)}
          </button>
        ))}
      </div>
      <div className="tab-body" key={account ?? ''} role="tabpanel" aria-labelledby={`account-tab-${tab}`}>
        {tab === 'alerts' ? (
          <AlertsTab />
        ) : session !== 'ready' ? (
          session === 'checking' ? null : (
            <LoginHint />
          )
        ) : tab === 'positions' ? (
          <PositionsTable />
        ) : tab === 'open-orders' ? (
          <OpenOrdersTable />
        ) : tab === 'stops' ? (
          stopsView === 'history' ? (
            <StopHistory />
          ) : (
            <StopsTable />
          )
        ) : tab === 'order-history' ? (
          <OrderHistory />
        ) : tab === 'trade-history' ? (
          <TradeHistory />
        ) : tab === 'position-history' ? (
          <PositionHistory />
        ) : tab === 'replay-report' ? (
          replay ? (
            <ReplayReport />
          ) : (
            <PositionsTable />
          )
        ) : (
          <AccountPanel />
        )}
      </div>
    </div>
  );
}
