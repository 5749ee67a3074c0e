// The bot panel sends what its form holds (bot-store.ts botBody): a whole-number leverage as a
// number, anything else as typed, for the venue to refuse by name; before, Number() sent "abc"
// as null (taken as no leverage) and "0x10" as 16, so the request shown was not what was typed.
import { describe, expect, it } from 'vitest';
import { createBotStore } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';

const bots = createBotStore({} as RestClient, 'BTCUSDT');
const body = (leverage: string) => {
  bots.getState().actions.set({ leverage, qty: '0.010', price: '90000' });
  return JSON.parse(JSON.stringify(bots.getState().actions.body())) as Record<string, unknown>;
};

describe('the bot form as sent', () => {
  it('a whole number is a number; anything else goes as typed; empty is left out', () => {
    expect(body('20').leverage).toBe(20);
    expect(body(' 5 ').leverage).toBe(5);
    expect(body('abc').leverage).toBe('abc');
    expect(body('0x10').leverage).toBe('0x10');
    expect(body('2.5').leverage).toBe('2.5');
    expect('leverage' in body('')).toBe(false);
  });
});

describe('a leverage no double holds exactly', () => {
  it('goes as typed, never as 1e20 or Infinity', () => {
    expect(body('99999999999999999999').leverage).toBe('99999999999999999999');
    expect(body('9'.repeat(400)).leverage).toBe('9'.repeat(400));
    expect(body(String(Number.MAX_SAFE_INTEGER)).leverage).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('a request that cannot be written leaves Send usable (it stood at "Sending…" for good)', async () => {
    const refused = createBotStore(
      {
        request: () => Promise.reject(new Error('body field leverage is not finite: Infinity')),
      } as unknown as RestClient,
      'BTCUSDT',
    );
    await expect(refused.getState().actions.submit()).rejects.toThrow('not finite');
    expect(refused.getState().sending).toBe(false);
  });
});
