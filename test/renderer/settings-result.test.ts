// Settings' result lines: each says which action it is of (the panel shows it in that action's
// section, next to the control used), and the panel's next opening (load) starts without the
// lines of the last one (settings-store.ts).
import { describe, expect, it } from 'vitest';
import { createSettingsStore } from '../../src-renderer/src/features/settings/settings-store.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';

/** The routes the store calls, answering as the venue does. */
function api(): RestClient {
  return {
    whitelist: async () => ({ ips: ['127.0.0.1'] }),
    setWhitelist: async (ips: readonly string[]) => ({ ips: ['127.0.0.1', ...ips] }),
    sim: async () => ({ speed: 1, paused: false, seed: 1, market_time: 0, overload: null }),
    resetAccount: async () => ({ wallet_balance: '20000' }),
    setPositionMode: async (mode: string) => ({ position_mode: mode }),
  } as unknown as RestClient;
}

describe('settings result lines', () => {
  it('name the action they are of', async () => {
    const st = createSettingsStore(api());
    await st.getState().actions.saveWhitelist(['10.1.2.3']);
    expect(st.getState().message).toEqual({
      of: 'whitelist',
      ok: true,
      text: 'Whitelist saved: 127.0.0.1, 10.1.2.3',
    });
    await st.getState().actions.reset('20000');
    expect(st.getState().message).toEqual({
      of: 'reset',
      ok: true,
      text: 'Paper account reset: wallet 20,000.00 USDT',
    });
  });

  it('are gone when the panel opens again (load)', async () => {
    const st = createSettingsStore(api());
    await st.getState().actions.reset('20000');
    await st.getState().actions.setPositionMode('one_way');
    expect(st.getState().message).not.toBeNull();
    expect(st.getState().modeMessage).not.toBeNull();
    await st.getState().actions.load();
    expect(st.getState().message).toBeNull();
    expect(st.getState().modeMessage).toBeNull();
  });

  it("say a reset's wallet with all its decimals", async () => {
    // 12345.678 typed: the venue set 12345.678, the line said "wallet 12,345.68 USDT"
    const st = createSettingsStore({
      ...api(),
      resetAccount: async () => ({ wallet_balance: '12345.67800000' }),
    } as unknown as RestClient);
    await st.getState().actions.reset('12345.678');
    expect(st.getState().message?.text).toBe('Paper account reset: wallet 12,345.678 USDT');
  });
});
