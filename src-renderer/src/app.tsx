// The trading screen: top bar; chart (with the toasts in its corner), depth ladder, recent
// trades and order entry; the bottom tabs; overlays (symbol picker, help, settings, bot orders,
// TP/SL).
import { useLayoutEffect } from 'react';
import { AccountPanel } from './features/account/account-panel.tsx';
import { BotPanel } from './features/bot-panel/bot-panel.tsx';
import { BottomTabs } from './layout/bottom-tabs.tsx';
import { ChartPanel } from './features/chart/chart-panel.tsx';
import { DataPanel } from './features/data/data-panel.tsx';
import { SweepsPanel } from './features/sweeps/sweeps-panel.tsx';
import { HelpOverlay } from './features/help/help-overlay.tsx';
import { IndicatorsDialog } from './features/chart/indicators-dialog.tsx';
import { installHotkeys } from './features/help/hotkeys.ts';
import { Ladder } from './features/ladder/ladder.tsx';
import { OrderEntry } from './features/order-entry/order-entry.tsx';
import { SettingsPanel } from './features/settings/settings-panel.tsx';
import { Toasts } from './features/toasts/toasts.tsx';
import { Topbar } from './features/topbar/topbar.tsx';
import { RecentTrades } from './features/trades/recent-trades.tsx';
import { ReplayBanner } from './features/replay/replay-banner.tsx';
import { ReplayDialog } from './features/replay/replay-dialog.tsx';
import { useServices, useSel } from './lib/use-services.ts';

export function App() {
  const services = useServices();
  // A layout effect: the keys work from the first painted frame (a passive effect runs after
  // paint, and a key pressed in between was lost).
  useLayoutEffect(() => installHotkeys(services), [services]);
  const replay = useSel(services.replay, (r) => r.mode === 'replay');
  // a narrow window shows the order book or the trades in one column (styles.css)
  const bookTab = useSel(services.workspace, (w) => w.bookTab);
  // each area a named landmark, so a screen reader moves between them by name (the book and the
  // trades were in none, between the chart's main and the form's complementary)
  return (
    <div className={`app${replay ? ' replay' : ''} shows-${bookTab}`}>
      {replay && <ReplayBanner />}
      <Topbar />
      <main className="chart-area" aria-label="Chart">
        <ChartPanel />
        {/* in the chart's bottom-left corner (toasts.css) */}
        <Toasts />
      </main>
      <section className="book-area" aria-label="Order book">
        <Ladder />
      </section>
      <section className="trades-area" aria-label="Trades">
        <RecentTrades />
      </section>
      <aside className="form-area" aria-label="Order entry and account">
        <OrderEntry />
        <AccountPanel compact />
      </aside>
      <section className="bottom-area" aria-label="Positions, orders and history">
        <BottomTabs />
      </section>
      <HelpOverlay />
      <IndicatorsDialog />
      <SettingsPanel />
      <BotPanel />
      <DataPanel />
      <SweepsPanel />
      <ReplayDialog />
    </div>
  );
}
