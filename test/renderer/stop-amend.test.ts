// Modifying a waiting stop (src-renderer/src/features/stops/stop-amend.ts): which stops may be
// dragged or modified, which fields the dialog asks for, what it sends (only what changed) and
// refuses before sending, the stop in words as the fields would make it, the hint of a trigger
// the watched price is already past, and the toast and refusal texts.
import { describe, expect, it } from 'vitest';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import { PerpdeskApiError } from '../../src-shared/sdk/rest-client.ts';
import { stopSentence } from '../../src-renderer/src/features/order-entry/stop-order.ts';
import { refusalText } from '../../src-renderer/src/lib/frame.ts';
import {
  amendedStop,
  hasAmount,
  hasLimitPrice,
  reachedText,
  stopAmendFields,
  stopFieldChecks,
  stopModifiable,
  stopModified,
} from '../../src-renderer/src/features/stops/stop-amend.ts';
import { conditionalRecord } from './conditional-record.ts';

const stop = conditionalRecord;

const limit = stop({ type: 1, price: '97100.0' });
const closeAll = stop({ side: 2, position_action: 2, qty: null, close_position: true, trigger_direction: 2 });
const d = { pd: 1, qd: 3, base: 'BTC' };
const BTC = { price_step: '0.1', qty_step: '0.001', min_qty: '0.002', max_qty: '120', min_notional: '5' };

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
  it('the stop exactly as the fields would send it; none while a field has a problem', () => {
    const said = (t: { trigger: string; price: string; qty: string }, c: ConditionalOrderRecord): string | null => {
      const a = amendedStop(t, c, BTC);
      return a === null ? null : stopSentence(a, d);
    };
    expect(said({ trigger: '97,500', price: '', qty: '0.02' }, stop())).toBe(
      'When the mark price rises to 97,500.0: buy 0.020 BTC at market',
    );
    expect(said({ trigger: '97000', price: '96000', qty: '0.010' }, limit)).toBe(
      'When the mark price rises to 97,000.0: buy 0.010 BTC at 96,000.0 (limit)',
    );
    expect(said({ trigger: '92000', price: '', qty: '5' }, closeAll)).toBe(
      'When the mark price falls to 92,000.0: close the whole long at market',
    );
    // off the tick or the step it would read rounded ("97,000.6", "0.011"): not said at all
    expect(said({ trigger: '97000.55', price: '', qty: '0.010' }, stop())).toBeNull();
    expect(said({ trigger: '97000', price: '', qty: '0.0105' }, stop())).toBeNull();
    expect(said({ trigger: '97000', price: '96000.05', qty: '0.010' }, limit)).toBeNull();
    // not a number, not above 0, empty: not the stop's old value either
    for (const trigger of ['abc', '0', '-1', '']) expect(said({ trigger, price: '', qty: '0.010' }, stop())).toBeNull();
    for (const qty of ['abc', '0', '-1', '']) expect(said({ trigger: '97000', price: '', qty }, stop())).toBeNull();
    // under the minimum
    expect(said({ trigger: '97000', price: '', qty: '0.001' }, stop())).toBeNull();
  });

  it('says each field’s problem as typed, as the order form does', () => {
    const t = (trigger: string, price: string, qty: string) => ({ trigger, price, qty });
    expect(stopFieldChecks(t('97000.0', '96000', '0.010'), limit, BTC)).toEqual({
      trigger: null,
      price: null,
      qty: null,
    });
    expect(stopFieldChecks(t('97000.55', '96000.05', '0.0105'), limit, BTC)).toEqual({
      trigger: 'Not on the tick: the venue takes multiples of 0.1.',
      price: 'Not on the tick: the venue takes multiples of 0.1.',
      qty: 'Not on the step: the venue takes multiples of 0.001.',
    });
    expect(stopFieldChecks(t('abc', '', '0'), stop(), BTC)).toEqual({
      trigger: expect.stringMatching(/^Not a price: use digits/),
      price: null,
      qty: 'Amount must be above 0.',
    });
    expect(stopFieldChecks(t('-1', '', 'x'), stop(), BTC)).toEqual({
      trigger: 'A price is above 0.',
      price: null,
      qty: expect.stringMatching(/^Not an amount: use digits/),
    });
    expect(stopFieldChecks(t('97000', '', '0.001'), stop(), BTC).qty).toBe(
      'Under the minimum of 0.002: the venue refuses it.',
    );
    expect(stopFieldChecks(t('97000', '', '200'), stop(), BTC).qty).toBe(
      'Over the maximum of 120 in one order: the venue refuses it.',
    );
    // empty: said when sent ("is empty"), not as typed; a field the stop has not: never
    expect(stopFieldChecks(t('', 'x', ''), stop(), BTC)).toEqual({ trigger: null, price: null, qty: null });
    expect(stopFieldChecks(t('92000', 'x', 'x'), closeAll, BTC)).toEqual({ trigger: null, price: null, qty: null });
    // the pair not known yet: what is not a number still said, the tick and the step not
    expect(stopFieldChecks(t('97000.55', '', 'x'), stop(), undefined)).toEqual({
      trigger: null,
      price: null,
      qty: expect.stringMatching(/^Not an amount/),
    });
  });

  it('says an opening stop worth less than the minimum notional, at its limit price or its trigger', () => {
    const cheap = { ...BTC, min_qty: '0.001', min_notional: '100' };
    expect(stopFieldChecks({ trigger: '97000', price: '', qty: '0.001' }, stop(), cheap).qty).toBe(
      'Worth 97.00 USDT at this price: the venue takes at least 100 USDT for an order that is not reduce-only.',
    );
    // a stop-limit's order goes at its limit price, not at the trigger
    expect(stopFieldChecks({ trigger: '97000', price: '50000', qty: '0.002' }, limit, cheap).qty).toBeNull();
    expect(stopFieldChecks({ trigger: '97000', price: '49000', qty: '0.002' }, limit, cheap).qty).toMatch(
      /^Worth 98\.00 USDT at this price/,
    );
    expect(stopFieldChecks({ trigger: '97000', price: '', qty: '0.002' }, stop(), cheap).qty).toBeNull();
    // a stop that closes is not held to it
    const closing = stop({ side: 2, position_action: 2, trigger_direction: 2 });
    expect(stopFieldChecks({ trigger: '97000', price: '', qty: '0.001' }, closing, cheap).qty).toBeNull();
    expect(
      stopFieldChecks({ trigger: '97000', price: '', qty: '0.001' }, stop({ reduce_only: true }), cheap).qty,
    ).toBeNull();
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
