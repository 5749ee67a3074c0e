// Settings of the local venue as the screen manages them: the bot whitelist (loopback-only
// admin route), the simulator (speed, pause, seed), the paper balance reset and the API key
// (regenerating it swaps the screen's own credentials at once).
import { createStore } from 'zustand/vanilla';
import type { AccountSummary, RestClient, SimState } from '../../../../src-shared/sdk/rest-client.ts';
import { fmt } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';

export interface SettingsState {
  ips: readonly string[] | null;
  ipsError: string | null;
  sim: SimState | null;
  simError: string | null;
  /** Result line of the last action (reset, regenerate, whitelist save). */
  message: { ok: boolean; text: string } | null;
  busy: boolean;
  actions: {
    load(): Promise<void>;
    /** Re-reads the simulator (its market time moves). */
    refreshSim(): Promise<void>;
    saveWhitelist(ips: readonly string[]): Promise<void>;
    setSim(change: { speed?: number; paused?: boolean }): Promise<void>;
    reset(balance: string): Promise<AccountSummary | null>;
    regenerate(): Promise<{ api_key: string; api_secret: string } | null>;
  };
}

export function createSettingsStore(api: RestClient) {
  return createStore<SettingsState>()((set) => {
    const run = async <T,>(what: string, fn: () => Promise<T>, okText: (r: T) => string): Promise<T | null> => {
      set({ busy: true, message: null });
      try {
        const r = await fn();
        set({ busy: false, message: { ok: true, text: okText(r) } });
        return r;
      } catch (e) {
        set({ busy: false, message: { ok: false, text: `${what}: ${errorText(e)}` } });
        return null;
      }
    };
    return {
      ips: null,
      ipsError: null,
      sim: null,
      simError: null,
      message: null,
      busy: false,
      actions: {
        async load() {
          await Promise.all([
            api.whitelist().then(
              (r) => set({ ips: r.ips, ipsError: null }),
              (e) => set({ ipsError: errorText(e) }),
            ),
            api.sim().then(
              (r) => set({ sim: r, simError: null }),
              (e) => set({ simError: errorText(e) }),
            ),
          ]);
        },
        async refreshSim() {
          try {
            set({ sim: await api.sim(), simError: null });
          } catch (e) {
            set({ simError: errorText(e) });
          }
        },
        async saveWhitelist(ips) {
          const r = await run('Whitelist', () => api.setWhitelist(ips), (x) => `Whitelist saved: ${x.ips.join(', ')}`);
          if (r) set({ ips: r.ips });
        },
        async setSim(change) {
          try {
            set({ sim: await api.setSim(change), simError: null });
          } catch (e) {
            set({ simError: errorText(e) });
          }
        },
        reset: (balance) => run('Reset', () => api.resetAccount(balance.trim() === '' ? undefined : balance.trim()), (r) => `Paper account reset: wallet ${fmt(r.wallet_balance, 2)} USDT`),
        regenerate: () => run('Regenerate', () => api.regenerateApiKey(), () => 'New API key and secret issued; the old ones no longer work'),
      },
    };
  });
}
