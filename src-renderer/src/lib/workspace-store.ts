// What the trader is looking at: the symbol, the chart interval, the bottom tab and which
// overlay is open. Symbol and interval survive a reload (localStorage).
import { createStore } from 'zustand/vanilla';
import { isInterval, type Interval } from '../../../src-shared/intervals.ts';

export type BottomTab =
  'positions' | 'open-orders' | 'order-history' | 'trade-history' | 'position-history' | 'account' | 'replay-report';
type Overlay = null | 'symbols' | 'help' | 'settings' | 'bots' | 'tpsl' | 'data' | 'replay' | 'sweeps';

export interface WorkspaceState {
  symbol: string;
  interval: Interval;
  tab: BottomTab;
  overlay: Overlay;
  actions: {
    setSymbol(symbol: string): void;
    setInterval(interval: Interval): void;
    setTab(tab: BottomTab): void;
    open(overlay: Exclude<Overlay, null>): void;
    close(): void;
  };
}

const KEY = 'perpdesk.workspace';

function load(): { symbol?: string; interval?: Interval } {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return {};
    const v = JSON.parse(raw) as { symbol?: unknown; interval?: unknown };
    return {
      symbol: typeof v.symbol === 'string' && /^[A-Z0-9]{2,30}$/.test(v.symbol) ? v.symbol : undefined,
      interval: isInterval(v.interval) ? v.interval : undefined,
    };
  } catch {
    // storage disabled, or an entry that is not JSON: the default pair and interval
    return {};
  }
}

export function createWorkspaceStore(initial: { symbol?: string; interval?: Interval } = {}) {
  const saved = load();
  const store = createStore<WorkspaceState>()((set) => ({
    symbol: initial.symbol ?? saved.symbol ?? 'BTCUSDT',
    interval: initial.interval ?? saved.interval ?? '1m',
    tab: 'positions',
    overlay: null,
    actions: {
      setSymbol: (symbol) => set({ symbol, overlay: null }),
      setInterval: (interval) => set({ interval }),
      setTab: (tab) => set({ tab }),
      open: (overlay) => set({ overlay }),
      close: () => set({ overlay: null }),
    },
  }));
  store.subscribe((s, prev) => {
    if (s.symbol === prev.symbol && s.interval === prev.interval) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ symbol: s.symbol, interval: s.interval }));
    } catch {
      // storage disabled or full: the workspace is just not remembered for the next visit
    }
  });
  return store;
}
