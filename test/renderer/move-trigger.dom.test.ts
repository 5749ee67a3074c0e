// A position's take-profit or stop-loss line dragged on the chart (move-trigger.ts) sends that
// trigger alone, watching the price it watched. A take-profit and a stop-loss set apart may watch
// different prices (a bot's take-profit on the mark, its stop-loss on the last price); before, the
// drag sent the position's one working type, the take-profit's, and a dragged stop-loss moved from
// the last price onto the mark without a word.
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../src-shared/types.ts';
import type { TpSlRequest, TpSlResult } from '../../src-shared/types/position-settings.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { createPositionsStore } from '../../src-renderer/src/features/positions/positions-store.ts';
import { moveTrigger } from '../../src-renderer/src/features/positions/move-trigger.ts';

const long = { symbol: 'BTCUSDT', position_side: 1, quantity: 0.01, entry_price: 96_000 } as PositionRecord;

describe("a trigger's line dragged on the chart", () => {
  it('keeps the price the dragged trigger watches: a stop-loss on the last price beside a take-profit on the mark', async () => {
    const sent: TpSlRequest[] = [];
    const triggers = {
      symbol: 'BTCUSDT',
      position_side: 1 as const,
      take_profit_price: '99000.0',
      stop_loss_price: '93000.0',
      working_type: 1 as const,
      take_profit_working_type: 1 as const,
      stop_loss_working_type: 2 as const,
    };
    const api = {
      positions: async () => [long],
      tpslList: async () => [triggers],
      setTpSl: async (b: TpSlRequest) => {
        sent.push(b);
        return { ...long, ...triggers, stop_loss_price: b.stop_loss_price ?? '93000.0' } as TpSlResult;
      },
    } as unknown as RestClient;
    const positions = createPositionsStore(api);
    await positions.getState().actions.refresh();
    const toasts: unknown[] = [];
    const s = {
      positions,
      toasts: { getState: () => ({ actions: { push: (t: unknown) => toasts.push(t) } }) },
      symbols: { getState: () => ({ bySymbol: { BTCUSDT: { priceDecimals: 1 } } }) },
    } as unknown as Parameters<typeof moveTrigger>[0];
    await moveTrigger(s, 'sl', { symbol: 'BTCUSDT', side: 1 }, '93500.0');
    await moveTrigger(s, 'tp', { symbol: 'BTCUSDT', side: 1 }, '98500.0');
    expect(sent).toEqual([
      { symbol: 'BTCUSDT', position_side: 1, stop_loss_price: '93500.0', working_type: 2 },
      { symbol: 'BTCUSDT', position_side: 1, take_profit_price: '98500.0', working_type: 1 },
    ]);
  });
});
