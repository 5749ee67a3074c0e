// The account's balance and margin summary, and the leverage / margin mode of each pair as the
// server last answered them. Written by the user feed (balance events, periodic refresh) and
// by the order form after it changes a setting.
import { createStore } from 'zustand/vanilla';
import type { AccountSummary, RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { MarginMode } from '../../../../src-shared/enums.ts';
import { errorText } from '../../lib/frame.ts';

export interface PairSetting {
  leverage: number;
  marginMode: MarginMode;
  maxLeverage: number;
}

export interface AccountState {
  summary: AccountSummary | null;
  settings: Record<string, PairSetting>;
  error: string | null;
  actions: {
    refresh(): Promise<void>;
    apply(summary: Partial<AccountSummary>): void;
    loadSetting(symbol: string): Promise<void>;
    setLeverage(symbol: string, leverage: number): Promise<void>;
    setMarginMode(symbol: string, mode: MarginMode): Promise<void>;
    clear(): void;
  };
}

export function createAccountStore(api: RestClient) {
  return createStore<AccountState>()((set, get) => {
    const patchSetting = (symbol: string, change: Partial<PairSetting>): void => {
      const cur = get().settings[symbol] ?? { leverage: 20, marginMode: MarginMode.CROSS, maxLeverage: 125 };
      set({ settings: { ...get().settings, [symbol]: { ...cur, ...change } } });
    };
    return {
      summary: null,
      settings: {},
      error: null,
      actions: {
        async refresh() {
          try {
            set({ summary: await api.account(), error: null });
          } catch (e) {
            set({ error: errorText(e) });
          }
        },
        apply(summary) {
          const cur = get().summary;
          if (cur === null && !('wallet_balance' in summary)) return;
          set({ summary: { ...(cur ?? ({} as AccountSummary)), ...summary } });
        },
        async loadSetting(symbol) {
          const r = await api.leverage(symbol);
          patchSetting(symbol, {
            leverage: r.leverage,
            marginMode: r.margin_mode ?? 2,
            maxLeverage: r.max_leverage ?? get().settings[symbol]?.maxLeverage ?? 125,
          });
        },
        async setLeverage(symbol, leverage) {
          const r = await api.setLeverage(symbol, leverage);
          patchSetting(symbol, { leverage: r.leverage });
        },
        async setMarginMode(symbol, mode) {
          const r = await api.setMarginMode(symbol, mode);
          patchSetting(symbol, { marginMode: r.margin_mode });
        },
        clear: () => set({ summary: null, settings: {}, error: null }),
      },
    };
  });
}
