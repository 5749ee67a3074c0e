// A replay's seek passes many funding settlements at once: they read as one summary toast (how
// many, the total), not one toast each (two a settlement on a hedged account, four stacked over
// the chart at a time). Settlements during play stay one toast each. funding-toast.ts with the
// replay store's `seek` span (replay-store.ts), as the user feed wires them (services.ts).
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { PositionSide } from '../../src-shared/enums.ts';
import { createFundingToasts, type SeekSpan } from '../../src-renderer/src/features/positions/funding-toast.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';
import { createReplayStore } from '../../src-renderer/src/features/replay/replay-store.ts';
import type { ReplayStatusView } from '../../src-renderer/src/features/replay/replay-view.ts';

const H = 3_600_000;
const T0 = Date.UTC(2021, 4, 16);

/** The hedged account's two payments at each of `times` (long pays, short receives less). */
function settlements(times: number[]) {
  return times.flatMap((time) => [
    { symbol: 'BTCUSDT', position_side: PositionSide.LONG, funding_rate: '0.0001', amount: '-1.5', time },
    { symbol: 'BTCUSDT', position_side: PositionSide.SHORT, funding_rate: '0.0001', amount: '0.5', time },
  ]);
}

describe('funding toasts and a seek', () => {
  it('the settlements a seek passed are one toast, those of the play after it one each', () => {
    const toasts = createToastsStore();
    let span: SeekSpan | null = null;
    const onFunding = createFundingToasts(toasts, () => span);
    span = { from: T0, to: T0 + 32 * H };
    for (const e of settlements([T0 + 8 * H, T0 + 16 * H, T0 + 24 * H, T0 + 32 * H])) onFunding(e);
    expect(toasts.getState().toasts.map((t) => t.title)).toEqual([
      'Funding over the seek: 4 settlements (8 payments), paid 4.0000 USDT',
    ]);
    expect(toasts.getState().toasts[0].body).toBe('BTCUSDT');
    // the play goes on past the seek's time: the next settlement is its own
    for (const e of settlements([T0 + 40 * H])) onFunding(e);
    expect(toasts.getState().toasts.map((t) => t.title)).toEqual([
      'Funding over the seek: 4 settlements (8 payments), paid 4.0000 USDT',
      'Funding BTCUSDT long: paid 1.5000 USDT',
      'Funding BTCUSDT short: received 0.5000 USDT',
    ]);
  });

  it('without a seek each settlement is its own toast', () => {
    const toasts = createToastsStore();
    const onFunding = createFundingToasts(toasts, () => null);
    for (const e of settlements([T0 + 8 * H])) onFunding(e);
    expect(toasts.getState().toasts.map((t) => [t.title, t.body])).toEqual([
      ['Funding BTCUSDT long: paid 1.5000 USDT', 'Rate +0.0100%'],
      ['Funding BTCUSDT short: received 0.5000 USDT', 'Rate +0.0100%'],
    ]);
  });

  it("the replay store notes a seek's span from the clock shown, and drops it when the seek is refused", async () => {
    let refuse = false;
    const status = {
      symbols: ['BTCUSDT'],
      time: T0,
      speed: 60,
      paused: false,
      lockstep: false,
      finished: false,
      until: T0 + 72 * H,
    } as ReplayStatusView;
    const api = {
      call: () => (refuse ? Promise.reject(new Error('refused')) : Promise.resolve({ ...status, time: T0 + 32 * H })),
    } as unknown as RestClient;
    let wall = 0;
    const store = createReplayStore(api, () => wall);
    store.getState().actions.apply(status);
    wall = 10_000; // 10 s at 60x: the clock shows T0 + 10 min
    expect(await store.getState().actions.control({ action: 'seek', time: T0 + 32 * H })).toBe(true);
    expect(store.getState().seek).toEqual({ from: T0 + 600_000, to: T0 + 32 * H });
    refuse = true;
    expect(await store.getState().actions.control({ action: 'seek', time: T0 + 40 * H })).toBe(false);
    expect(store.getState().seek).toBeNull();
  });
});
