// Modifying a waiting stop (src-renderer/src/features/stops/stop-amend.ts): which stops may be
// dragged or modified, which fields the dialog asks for, what it sends (only what changed) and
// refuses before sending, the stop in words as the fields would make it, the hint of a trigger
// the watched price is already past, and the toast and refusal texts.
import { describe, expect, it } from 'vitest';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import { PerpdeskApiError } from '../../src-shared/sdk/rest-client.ts';
import { stopSentence } from '../../src-renderer/src/features/order-entry/stop-order.ts';
import {
  amendedStop,
  hasAmount,
  hasLimitPrice,
  reachedText,
  refusalText,
  stopAmendFields,
  stopModifiable,
  stopModified,
} from '../../src-renderer/src/features/stops/stop-amend.ts';

const stop = (change: Partial<ConditionalOrderRecord> = {}): ConditionalOrderRecord => ({
  id: '41',
  client_order_id: 'c41',
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 2,
  price: '0.0',
  qty: '0.010',
  close_position: false,
  reduce_only: false,
  time_in_force: 1,
  leverage: null,
  margin_mode: null,
  trigger_price: '97000.0',
  trigger_direction: 1,
  working_type: 1,
  callback_rate: null,
  activation_price: null,
  peak_price: null,
  status: 1,
  order_id: null,
  reject_code: null,
  reject_reason: null,
  created_at: 1,
  updated_at: 1,
  triggered_at: null,
  user_id: '7',
  ...change,
});

const limit = stop({ type: 1, price: '97100.0' });
const closeAll = stop({ side: 2, position_action: 2, qty: null, close_position: true, trigger_direction: 2 });
const d = { pd: 1, qd: 3, base: 'BTC' };

describe('which stops are modified', () => {
  it('a waiting stop is; a trailing one (its trigger follows the price) or one no longer waiting is not', () => {
    expect(stopModifiable(stop())).toBe(true);
    expect(stopModifiable(stop({ callback_rate: '1.0' }))).toBe(false);
    expect(stopModifiable(stop({ status: 2 }))).toBe(false);
    expect(stopModifiable(stop({ status: 3 }))).toBe(false);
  });

  it('the limit price is asked for a stop-limit alone, the amount unless it closes the whole position', () => {
    expect([hasLimitPrice(stop()), hasAmount(stop())]).toEqual([false, true]);
    expect([hasLimitPrice(limit), hasAmount(limit)]).toEqual([true, true]);
    expect([hasLimitPrice(closeAll), hasAmount(closeAll)]).toEqual([false, false]);
  });
});

describe('what the dialog sends', () => {
  it('only the fields changed, as the API decimals (thousands separators dropped)', () => {
    expect(stopAmendFields({ trigger: '97,500.0', price: '', qty: '0.010' }, stop())).toEqual({
      ok: true,
      change: { trigger_price: '97500.0' },
    });
    expect(stopAmendFields({ trigger: '97,000.0', price: '', qty: '0.02' }, stop())).toEqual({
      ok: true,
      change: { qty: '0.02' },
    });
    expect(stopAmendFields({ trigger: '96000', price: '96,100.5', qty: '0.030' }, limit)).toEqual({
      ok: true,
      change: { trigger_price: '96000', price: '96100.5', qty: '0.030' },
    });
  });

  it('ignores the fields a stop does not have: no price for a stop-market, no amount for a close-all', () => {
    expect(stopAmendFields({ trigger: '97000.0', price: '95000', qty: '0.010' }, stop())).toMatchObject({ ok: false });
    expect(stopAmendFields({ trigger: '92000', price: 'x', qty: '' }, closeAll)).toEqual({
      ok: true,
      change: { trigger_price: '92000' },
    });
  });

  it('refuses an empty field, what is not a number, 0 or below, and a change of nothing, naming the fields', () => {
    expect(stopAmendFields({ trigger: '', price: '', qty: '0.010' }, stop())).toEqual({
      ok: false,
      error: 'Trigger is empty.',
    });
    expect(stopAmendFields({ trigger: '97000', price: '9,71', qty: '0.010' }, limit)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Price "9,71" is not a number/),
    });
    expect(stopAmendFields({ trigger: '97000', price: '', qty: '0' }, stop())).toEqual({
      ok: false,
      error: 'Amount must be above 0.',
    });
    expect(stopAmendFields({ trigger: '97,000', price: '', qty: '0.01' }, stop())).toEqual({
      ok: false,
      error: 'The trigger and amount are the stop’s own: nothing to change.',
    });
    expect(stopAmendFields({ trigger: '97000', price: '97100', qty: '0.010' }, limit)).toEqual({
      ok: false,
      error: 'The trigger, price and amount are the stop’s own: nothing to change.',
    });
    expect(stopAmendFields({ trigger: '97000', price: '', qty: '' }, closeAll)).toEqual({
      ok: false,
      error: 'The trigger is the stop’s own: nothing to change.',
    });
  });
});

describe('the dialog’s words', () => {
  it('the stop as the fields would make it; a field not yet a number keeps the stop’s value', () => {
    expect(stopSentence(amendedStop({ trigger: '97,500', price: '', qty: '0.02' }, stop()), d)).toBe(
      'When the mark price rises to 97,500.0: buy 0.020 BTC at market',
    );
    expect(stopSentence(amendedStop({ trigger: 'abc', price: '96000', qty: '' }, limit), d)).toBe(
      'When the mark price rises to 97,000.0: buy 0.010 BTC at 96,000.0 (limit)',
    );
    expect(stopSentence(amendedStop({ trigger: '92000', price: '', qty: '5' }, closeAll), d)).toBe(
      'When the mark price falls to 92,000.0: close the whole long at market',
    );
  });

  it('says when the watched price is already past the trigger in the stop’s direction; nothing otherwise', () => {
    expect(reachedText(stop(), '96,000', 96500, 1)).toBe(
      'The mark price is 96,500.0: this stop fires as it rises, so its trigger must be above it.',
    );
    // at the price itself: reached too
    expect(reachedText(stop(), '96500', 96500, 1)).not.toBeNull();
    expect(reachedText(stop(), '97000', 96500, 1)).toBeNull();
    const falls = stop({ trigger_direction: 2, working_type: 2 });
    expect(reachedText(falls, '97000', 96500, 1)).toBe(
      'The last price is 96,500.0: this stop fires as it falls, so its trigger must be below it.',
    );
    expect(reachedText(falls, '96000', 96500, 1)).toBeNull();
    // not a number yet, or no price known: nothing said
    expect(reachedText(stop(), 'abc', 96500, 1)).toBeNull();
    expect(reachedText(stop(), '96000', undefined, 1)).toBeNull();
    expect(reachedText(stop(), '96000', NaN, 1)).toBeNull();
  });

  it('the toast of a modified stop, and a refusal with its code', () => {
    expect(stopModified(stop({ trigger_price: '97500.0', qty: '0.020' }), d)).toEqual({
      title: 'Stop BTCUSDT #41 modified',
      body: 'When the mark price rises to 97,500.0: buy 0.020 BTC at market.',
    });
    expect(
      refusalText(new PerpdeskApiError(3026, 'The mark price 96500.0 is already at or above the trigger', 400)),
    ).toBe('(3026) The mark price 96500.0 is already at or above the trigger');
    expect(refusalText(new Error('socket closed'))).toBe('socket closed');
  });
});
