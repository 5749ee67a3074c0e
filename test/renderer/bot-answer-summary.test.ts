// The bot panel's live region says the last call's outcome (bot-store.ts answerSummary): the
// focus stays on Send, and before, a screen reader heard nothing of an answer, not even the
// venue's reason for a refusal, which only the raw pane showed.
import { describe, expect, it } from 'vitest';
import { answerSummary } from '../../src-renderer/src/features/bot-panel/bot-store.ts';
import type { RawExchange } from '../../src-shared/sdk/rest-client.ts';

function ex(method: string, status: number, json: unknown, extra: Partial<RawExchange> = {}): RawExchange {
  const text = json === undefined ? '' : JSON.stringify(json);
  return { method, url: 'http://x/fapi/v1/bot/orders', requestBody: '{}', status, text, json, elapsedMs: 3, ...extra };
}

describe('the bot panel says the answer', () => {
  it('a refusal with the code and the reason the venue gave', () => {
    const refusal = { code: 3007, message: 'Order notional 95.9308 is below the minimum 100 USDT', data: null };
    expect(answerSummary(ex('POST', 400, refusal))).toBe(
      'Bot order refused, code 3007: Order notional 95.9308 is below the minimum 100 USDT',
    );
  });

  it('an accepted order with its id, status and fill', () => {
    const data = { order_id: '57981', client_order_id: 'bot.57981', status: 1, filled_qty: '0.000' };
    expect(answerSummary(ex('POST', 200, { code: 0, message: 'success', data }))).toBe(
      'Bot order 57981 new, filled 0.000',
    );
    const partly = { ...data, status: 2, filled_qty: '0.462' };
    expect(answerSummary(ex('POST', 200, { code: 0, message: 'success', data: partly }))).toBe(
      'Bot order 57981 partially filled, filled 0.462',
    );
  });

  it('an expired order with the reasons its kind expires for (the answer names none)', () => {
    const data = { order_id: '61', client_order_id: 'bot.61', status: 6, filled_qty: '0.000' };
    const answer = { code: 0, message: 'success', data };
    const sent = (body: object) => ({ requestBody: JSON.stringify({ symbol: 'BTCUSDT', side: 1, ...body }) });
    expect(answerSummary(ex('POST', 200, answer, sent({ type: 2, qty: '0.010' })))).toBe(
      'Bot order 61 expired, filled 0.000: what the book did not fill is not kept (its end or the price band ' +
        'reached), or it met a resting order of this account (self-trade prevention expires the taker)',
    );
    expect(answerSummary(ex('POST', 200, answer, sent({ type: 1, time_in_force: 4 })))).toBe(
      'Bot order 61 expired, filled 0.000: a post-only order (GTX) that would have taken expires unfilled',
    );
    expect(answerSummary(ex('POST', 200, answer, sent({ type: 1, time_in_force: 3 })))).toBe(
      'Bot order 61 expired, filled 0.000: the book could not fill it whole at its price, or it met a resting ' +
        'order of this account (self-trade prevention expires the taker)',
    );
    expect(answerSummary(ex('POST', 200, answer, sent({ type: 1, time_in_force: 1 })))).toBe(
      'Bot order 61 expired, filled 0.000: it met a resting order of this account (self-trade prevention expires the taker)',
    );
  });

  it('a cancel, and its refusal', () => {
    const done = { code: 0, message: 'success', data: { order_id: '75680', status: 4 } };
    expect(answerSummary(ex('DELETE', 200, done))).toBe('Bot order 75680 canceled');
    const gone = { code: 1102, message: 'No open bot order 75680 on BTCUSDT', data: null };
    expect(answerSummary(ex('DELETE', 400, gone))).toBe(
      'Cancel refused, code 1102: No open bot order 75680 on BTCUSDT',
    );
  });

  it('no answer, and an answer that is no envelope', () => {
    const down = ex('POST', 0, undefined, { networkError: 'Cannot reach the service' });
    expect(answerSummary(down)).toBe('Bot order got no answer: Cannot reach the service');
    expect(answerSummary({ ...ex('POST', 502, undefined), text: 'Bad Gateway' })).toBe(
      'Bot order refused, HTTP 502: Bad Gateway',
    );
  });
});
