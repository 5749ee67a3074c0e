// The pair settings the order form shows follow the venue's: another client's change is read again
// (reloadSettings) or taken from the position records it reprices (follow), and an answer read
// before a newer one was applied never replaces it.
import { describe, expect, it } from 'vitest';
import { createAccountStore } from '../../src-renderer/src/features/account/account-store.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { MarginMode } from '../../src-shared/enums.ts';

interface Venue {
  leverage: number;
  margin_mode: MarginMode;
  /** GETs held back until released (a read in flight). */
  held: Array<() => void>;
  hold: boolean;
}

function fakeApi(v: Venue): RestClient {
  const read = () => ({ symbol: 'BTCUSDT', leverage: v.leverage, margin_mode: v.margin_mode, max_leverage: 125 });
  return {
    leverage: () => {
      const answer = read(); // read now, answered later when held
      return v.hold ? new Promise((res) => v.held.push(() => res(answer))) : Promise.resolve(answer);
    },
    setLeverage: (_s: string, leverage: number) => {
      v.leverage = leverage;
      return Promise.resolve(read());
    },
    setMarginMode: (_s: string, mode: MarginMode) => {
      v.margin_mode = mode;
      return Promise.resolve({ symbol: 'BTCUSDT', margin_mode: mode });
    },
  } as unknown as RestClient;
}

const venue = (): Venue => ({ leverage: 1, margin_mode: MarginMode.CROSS, held: [], hold: false });

describe('pair settings', () => {
  it('a reload reads again the pairs loaded: another client changed the leverage and the margin mode', async () => {
    const v = venue();
    const store = createAccountStore(fakeApi(v));
    await store.getState().actions.loadSetting('BTCUSDT');
    expect(store.getState().settings.BTCUSDT).toMatchObject({ leverage: 1, marginMode: MarginMode.CROSS });
    v.leverage = 20;
    v.margin_mode = MarginMode.ISOLATED;
    await store.getState().actions.reloadSettings();
    expect(store.getState().settings.BTCUSDT).toMatchObject({ leverage: 20, marginMode: MarginMode.ISOLATED });
    expect(Object.keys(store.getState().settings)).toEqual(['BTCUSDT']);
  });

  it("a position record's leverage and margin mode are its pair's; a pair not loaded is left alone", async () => {
    const store = createAccountStore(fakeApi(venue()));
    await store.getState().actions.loadSetting('BTCUSDT');
    store.getState().actions.follow([
      { symbol: 'BTCUSDT', leverage: 20, margin_mode: MarginMode.CROSS },
      { symbol: 'ETHUSDT', leverage: 7, margin_mode: MarginMode.ISOLATED },
    ]);
    expect(store.getState().settings.BTCUSDT.leverage).toBe(20);
    expect(store.getState().settings.ETHUSDT).toBeUndefined();
  });

  it('a read in flight while a change is confirmed does not put the old setting back', async () => {
    const v = venue();
    const store = createAccountStore(fakeApi(v));
    await store.getState().actions.loadSetting('BTCUSDT');
    v.hold = true;
    const reload = store.getState().actions.reloadSettings(); // reads 1x, answered later
    await store.getState().actions.setLeverage('BTCUSDT', 50);
    expect(store.getState().settings.BTCUSDT.leverage).toBe(50);
    for (const release of v.held) release();
    await reload;
    expect(store.getState().settings.BTCUSDT.leverage).toBe(50);
    // nor a position record's: it is applied after the read was asked
    v.held = [];
    const again = store.getState().actions.reloadSettings(); // reads 50x
    store.getState().actions.follow([{ symbol: 'BTCUSDT', leverage: 10, margin_mode: MarginMode.CROSS }]);
    for (const release of v.held) release();
    await again;
    expect(store.getState().settings.BTCUSDT.leverage).toBe(10);
  });
});
