// Settings of the local venue as the screen manages them: the bot whitelist (loopback-only
// admin route), the simulator (speed, pause, fast mode, seed), the paper balance reset and the API key
// (regenerating it swaps the screen's own credentials at once) and the position mode (hedge
// or one-way; the venue refuses the switch with 3015 while a position or order is open, and
// that reason is shown). A refused speed change is handed back to the panel, which keeps it
// until the next edit: the 2 s refresh only clears a failed refresh (simError). Each action's
// result line says which action it is of, so the panel shows it in that action's section, and an
// opening of the panel (load) starts with none: a result of an earlier opening is not shown again.
// The whitelist is read again while the panel is open (refreshWhitelist), as another tab or a bot
// may change it (whitelist-field.ts).
import { createStore } from 'zustand/vanilla';
import {
  PerpdeskApiError,
  type AccountSummary,
  type RestClient,
  type SimChange,
  type SimState,
} from '../../../../src-shared/sdk/rest-client.ts';
import { fmtAmount } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

/** The actions with a result line: the key's regeneration, the whitelist's save, the paper reset. */
export type SettingsAction = 'regenerate' | 'whitelist' | 'reset';

export interface SettingsState {
  ips: readonly string[] | null;
  ipsError: string | null;
  sim: SimState | null;
  simError: string | null;
  /** Result line of the last action (reset, regenerate, whitelist save), shown in its section. */
  message: { of: SettingsAction; ok: boolean; text: string } | null;
  /** Result line of the last position-mode switch, shown in its section. */
  modeMessage: { ok: boolean; text: string } | null;
  busy: boolean;
  actions: {
    /** Reads the whitelist and the simulator as the panel opens; the result lines of an earlier opening go. */
    load(): Promise<void>;
    /** Re-reads the simulator (its market time moves). */
    refreshSim(): Promise<void>;
    /**
     * Re-reads the whitelist (another tab or a bot may change it): `ips` is replaced only when the
     * list differs; a failed read leaves the list read before, its failure at load is shown.
     */
    refreshWhitelist(): Promise<void>;
    /** Saves the whitelist; true when the venue took it (`ips` is then its list). */
    saveWhitelist(ips: readonly string[]): Promise<boolean>;
    /** Applies a speed, pause or fast-mode change; the error text when it was refused, else null. */
    setSim(change: SimChange): Promise<string | null>;
    /** Switches hedge / one-way; true when done (the message says why not). */
    setPositionMode(mode: 'hedge' | 'one_way'): Promise<boolean>;
    reset(balance: string): Promise<AccountSummary | null>;
    regenerate(): Promise<{ api_key: string; api_secret: string } | null>;
  };
}

export interface SettingsOptions {
  /** Runs after an accepted simulator change (re-syncs the market clock). */
  afterSim?: () => Promise<unknown> | void;
  /** Runs after the position mode changed (reloads the account). */
  afterPositionMode?: () => Promise<unknown> | void;
}

/** The message of a refused request with its code, e.g. "(3015) Position mode cannot ...". */
function refusal(e: unknown): string {
  return e instanceof PerpdeskApiError && e.code > 0 ? `(${e.code}) ${e.message}` : errorText(e);
}

export function createSettingsStore(api: RestClient, opts: SettingsOptions = {}) {
  return createStore<SettingsState>()((set, get) => {
    const run = async <T>(
      of: SettingsAction,
      what: string,
      fn: () => Promise<T>,
      okText: (r: T) => string,
    ): Promise<T | null> => {
      set({ busy: true, message: null });
      try {
        const r = await fn();
        set({ busy: false, message: { of, ok: true, text: okText(r) } });
        return r;
      } catch (e) {
        set({ busy: false, message: { of, ok: false, text: `${what}: ${refusal(e)}` } });
        return null;
      }
    };
    return {
      ips: null,
      ipsError: null,
      sim: null,
      simError: null,
      message: null,
      modeMessage: null,
      busy: false,
      actions: {
        async load() {
          set({ message: null, modeMessage: null });
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
        async refreshWhitelist() {
          try {
            const r = await api.whitelist();
            if (get().ips?.join('\n') !== r.ips.join('\n')) set({ ips: r.ips, ipsError: null });
          } catch {
            // the list read before stays (with any edit in its field); a failure at load is said
          }
        },
        async saveWhitelist(ips) {
          const r = await run(
            'whitelist',
            'Whitelist',
            () => api.setWhitelist(ips),
            (x) => `Whitelist saved: ${x.ips.join(', ')}`,
          );
          if (r) set({ ips: r.ips });
          return r !== null;
        },
        async setSim(change) {
          try {
            set({ sim: await api.setSim(change), simError: null });
          } catch (e) {
            return refusal(e);
          }
          await Promise.resolve(opts.afterSim?.()).catch(dropServiceFailure);
          return null;
        },
        async setPositionMode(mode) {
          set({ busy: true, modeMessage: null });
          try {
            const r = await api.setPositionMode(mode);
            set({
              busy: false,
              modeMessage: {
                ok: true,
                text: `Position mode is now ${r.position_mode === 'hedge' ? 'hedge (a long and a short per pair)' : 'one-way (one net position per pair)'}`,
              },
            });
          } catch (e) {
            set({ busy: false, modeMessage: { ok: false, text: `Position mode not changed: ${refusal(e)}` } });
            return false;
          }
          await Promise.resolve(opts.afterPositionMode?.()).catch(dropServiceFailure);
          return true;
        },
        reset: (balance) =>
          run(
            'reset',
            'Reset',
            () => api.resetAccount(balance.trim() === '' ? undefined : balance.trim()),
            (r) => `Paper account reset: wallet ${fmtAmount(r.wallet_balance)} USDT`,
          ),
        regenerate: () =>
          run(
            'regenerate',
            'Regenerate',
            () => api.regenerateApiKey(),
            () => 'New API key and secret issued; the old ones no longer work',
          ),
      },
    };
  });
}
