// The account's balance and margin summary, and the leverage / margin mode of each pair as the
// server last answered them. Written by the user feed (balance events, periodic refresh) and
// by the order form after it changes a setting. A pair's setting can be changed by another
// client of the account (a bot's POST /fapi/v1/leverage or /fapi/v1/marginType): the user feed
// has the settings loaded here read again with each refresh (reloadSettings) and takes those of
// the position records it is sent (follow), as the positions table shows them.
// Keeps true: an answer read before a newer one was applied (a reload in flight while the
// form's change was confirmed) never replaces it.
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
    /** Reads again the setting of every pair loaded so far. */
    reloadSettings(): Promise<void>;
    /** A position record's leverage and margin mode are its pair's (a pair not loaded is left alone). */
    follow(positions: readonly { symbol: string; leverage: number; margin_mode: MarginMode }[]): void;
    setLeverage(symbol: string, leverage: number): Promise<void>;
    setMarginMode(symbol: string, mode: MarginMode): Promise<void>;
    clear(): void;
  };
}

export function createAccountStore(api: RestClient) {
  /** Bumped by clear(): an answer to a refresh sent before (another login's) is dropped. */
  let epoch = 0;
  return createStore<AccountState>()((set, get) => {
    // each read or change of a setting is numbered as it is asked (a change, as it is answered):
    // a pair's setting takes an answer only if none asked later has been applied
    let asked = 0;
    const applied: Record<string, number> = {};
    const fresh = (symbol: string, n: number): boolean => {
      if (n <= (applied[symbol] ?? 0)) return false;
      applied[symbol] = n;
      return true;
    };
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
          // (cleared meanwhile, another login: the answer is the account before's)
          const at = epoch;
          try {
            const summary = await api.account();
            if (at === epoch) set({ summary, error: null });
          } catch (e) {
            if (at === epoch) set({ error: errorText(e) });
          }
        },
        apply(summary) {
          const cur = get().summary;
          if (cur === null && !('wallet_balance' in summary)) return;
          set({ summary: { ...(cur ?? ({} as AccountSummary)), ...summary } });
        },
        async loadSetting(symbol) {
          const n = ++asked;
          const r = await api.leverage(symbol);
          if (!fresh(symbol, n)) return;
          patchSetting(symbol, {
            leverage: r.leverage,
            marginMode: r.margin_mode ?? 2,
            maxLeverage: r.max_leverage ?? get().settings[symbol]?.maxLeverage ?? 125,
          });
        },
        async setLeverage(symbol, leverage) {
          const r = await api.setLeverage(symbol, leverage);
          fresh(symbol, ++asked);
          patchSetting(symbol, { leverage: r.leverage });
        },
        async setMarginMode(symbol, mode) {
          const r = await api.setMarginMode(symbol, mode);
          fresh(symbol, ++asked);
          patchSetting(symbol, { marginMode: r.margin_mode });
        },
        async reloadSettings() {
          await Promise.all(Object.keys(get().settings).map((symbol) => get().actions.loadSetting(symbol)));
        },
        follow(positions) {
          for (const p of positions) {
            const cur = get().settings[p.symbol];
            if (cur === undefined || (cur.leverage === p.leverage && cur.marginMode === p.margin_mode)) continue;
            fresh(p.symbol, ++asked);
            patchSetting(p.symbol, { leverage: p.leverage, marginMode: p.margin_mode });
          }
        },
        clear: () => {
          epoch++;
          set({ summary: null, settings: {}, error: null });
        },
      },
    };
  });
}
