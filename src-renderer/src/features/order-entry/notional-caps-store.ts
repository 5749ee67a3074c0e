// The largest position notional each (pair, leverage) allows, as the venue answers it:
// GET /fapi/v1/leverage names it for the leverage in force, POST /fapi/v1/leverage for the new
// one; both answers list the pair's maintenance tiers too, which the order form's estimated
// liquidation price is worked out with (preview.ts). Leverage POSTs of the screen go through one queue with the reads, so a read cannot
// record a cap under a leverage that a confirmed change has just replaced.
import { createStore } from 'zustand/vanilla';
import type { LeverageSetting, RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import type { Tier } from './preview.ts';

export interface NotionalCapsState {
  /** `${symbol}@${leverage}` -> max notional, USDT. */
  caps: Record<string, number>;
  /** symbol -> its maintenance tiers, lowest first (as numbers). */
  tiers: Record<string, readonly Tier[]>;
  actions: {
    /** Learns the cap of the leverage in force for `symbol` (once per pair and leverage). */
    probe(symbol: string): Promise<void>;
    /** Learns a pair's maintenance tiers (GET /fapi/v1/leverage) unless they are known or being read. */
    learnTiers(symbol: string): Promise<void>;
    /** Sets the leverage (POST), learning its cap from the answer. */
    setLeverage(symbol: string, leverage: number): Promise<LeverageSetting>;
  };
}

export const capKey = (symbol: string, leverage: number): string => `${symbol}@${leverage}`;

export function createNotionalCapsStore(api: Pick<RestClient, 'leverage' | 'setLeverage'>) {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    // the queue only orders the calls; `run` hands each call's error to its own caller
    queue = run.catch(() => undefined);
    return run;
  };
  // pairs whose tiers are being read (or were: a pair is asked once)
  const asked = new Set<string>();
  return createStore<NotionalCapsState>()((set, get) => {
    const record = (symbol: string, r: LeverageSetting): void => {
      const cap = Number(r.max_notional);
      if (cap > 0) set({ caps: { ...get().caps, [capKey(symbol, r.leverage)]: cap } });
      const tiers = tiersOf(r);
      if (tiers.length > 0 && get().tiers[symbol] === undefined) set({ tiers: { ...get().tiers, [symbol]: tiers } });
    };
    return {
      caps: {},
      tiers: {},
      actions: {
        probe: (symbol) =>
          serial(async () => {
            const r = await api.leverage(symbol);
            record(symbol, r);
          }).catch(dropServiceFailure),
        learnTiers: async (symbol) => {
          if (get().tiers[symbol] !== undefined || asked.has(symbol)) return;
          asked.add(symbol);
          await serial(async () => record(symbol, await api.leverage(symbol)))
            // asked again the next time when it failed
            .catch((e: unknown) => (asked.delete(symbol), dropServiceFailure(e)));
        },
        setLeverage: (symbol, leverage) =>
          serial(async () => {
            const r = await api.setLeverage(symbol, leverage);
            record(symbol, r);
            return r;
          }),
      },
    };
  });
}

/** The tiers of a leverage answer as numbers; none when the answer has none or one is not a number. */
function tiersOf(r: LeverageSetting): Tier[] {
  const tiers = (r.brackets ?? []).map((b) => ({
    cap: Number(b.notional_cap),
    mmr: Number(b.maintenance_margin_rate),
    cum: Number(b.maintenance_amount),
  }));
  return tiers.every((t) => t.cap > 0 && t.mmr > 0 && t.mmr < 1 && t.cum >= 0) ? tiers : [];
}
