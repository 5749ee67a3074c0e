// The largest position notional each (pair, leverage) allows, as the venue answers it:
// GET /fapi/v1/leverage names it for the leverage in force, POST /fapi/v1/leverage for the new
// one. Leverage POSTs of the screen go through one queue with the reads, so a read cannot
// record a cap under a leverage that a confirmed change has just replaced.
import { createStore } from 'zustand/vanilla';
import type { LeverageSetting, RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

export interface NotionalCapsState {
  /** `${symbol}@${leverage}` -> max notional, USDT. */
  caps: Record<string, number>;
  actions: {
    /** Learns the cap of the leverage in force for `symbol` (once per pair and leverage). */
    probe(symbol: string): Promise<void>;
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
  return createStore<NotionalCapsState>()((set, get) => {
    const record = (symbol: string, leverage: number, cap: number): void => {
      if (cap > 0) set({ caps: { ...get().caps, [capKey(symbol, leverage)]: cap } });
    };
    return {
      caps: {},
      actions: {
        probe: (symbol) =>
          serial(async () => {
            const r = await api.leverage(symbol);
            record(symbol, r.leverage, Number(r.max_notional));
          }).catch(dropServiceFailure),
        setLeverage: (symbol, leverage) =>
          serial(async () => {
            const r = await api.setLeverage(symbol, leverage);
            record(symbol, r.leverage, Number(r.max_notional));
            return r;
          }),
      },
    };
  });
}
