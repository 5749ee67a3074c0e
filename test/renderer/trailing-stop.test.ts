// The order form's Stop kind, Trailing (trailing-stop.ts, trailing-fields.tsx, order-model.ts,
// order-form-store.ts): what is said under the rate and activation fields as typed, the sentence
// for each side (a sell trails the highest and fires on a fall of the rate, a buy the lowest and
// fires on a rise), the conditional order a click builds (a market order, the rate with its one
// decimal, the activation, the side's direction), the form's own refusals, the preview's price,
// and the store's notice, picked price and Esc.
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { ConditionalOrderRecord, ConditionalOrderRequest } from '../../src-shared/types.ts';
import { parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';
import { createOrderFormStore } from '../../src-renderer/src/features/order-entry/order-form-store.ts';
import {
  activationCheck,
  callbackCheck,
  callbackRate,
  trailingClause,
  trailingDoes,
  trailingFires,
  trailingRequest,
  trailingSentence,
  trailingSpec,
} from '../../src-renderer/src/features/order-entry/trailing-stop.ts';
import { display, FALLS, LAST, long, MARK, RISES, stopModels } from './stop-desk.ts';

const BUY = 1;
const SELL = 2;
/** The mark the model and the checks read: 95,000.0. */
const at = { working: MARK, watched: 95_000, tick: '0.1', pd: 1 } as const;
const p = parseDecimalInput;

const model = stopModels({ last: 94_800, stop: { trailing: true, callback: '1', activation: '', working: MARK } });

describe('the callback rate as typed', () => {
  it('0.1 to 10 with one decimal is taken, and sent with its one decimal', () => {
    for (const t of ['0.1', '1', '1.5', '1.50', '10', '10.0', '07.5']) expect(callbackCheck(p(t))).toBeNull();
    expect(['0.1', '1', '1.5', '1.50', '10', '10.0', '07.5'].map((t) => callbackRate(p(t)))).toEqual([
      '0.1',
      '1.0',
      '1.5',
      '1.5',
      '10.0',
      '10.0',
      '7.5',
    ]);
  });

  it('outside 0.1 to 10, or with a second decimal, is said under the field (and not sent)', () => {
    const range = 'From 0.1 to 10: the venue takes a callback rate of 0.1% to 10%.';
    expect(callbackCheck(p('0.05'))).toBe(range);
    expect(callbackCheck(p('10.1'))).toBe(range);
    expect(callbackCheck(p('25'))).toBe(range);
    expect(callbackCheck(p('1.25'))).toBe('One decimal at most: the venue takes the rate in steps of 0.1 (e.g. 1.5).');
    expect(callbackCheck(p('0'))).toBe('A rate is above 0: from 0.1 to 10.');
    expect(callbackCheck(p('-1'))).toBe('A rate is above 0: from 0.1 to 10.');
    expect(callbackCheck(p('1,5'))).toBe('Not a rate: use digits and a decimal point, e.g. 1.5.');
    expect(callbackCheck(p(''))).toBeNull();
    for (const t of ['0.05', '10.1', '1.25', '0', '-1', '1,5', '']) expect(callbackRate(p(t))).toBeNull();
  });
});

describe('the activation price as typed', () => {
  it('on the wrong side of the mark for the side armed: said under the field', () => {
    expect(activationCheck(p('96000'), at, BUY)).toEqual({
      text: "Above the mark price (now 95,000.0): a buy's activation is below it.",
      warn: true,
    });
    expect(activationCheck(p('94000'), at, SELL)).toEqual({
      text: "Below the mark price (now 95,000.0): a sell's activation is above it.",
      warn: true,
    });
  });

  it('on the right side for the side armed: nothing to say; with no side armed, whose it is', () => {
    expect(activationCheck(p('96000'), at, SELL)).toBeNull();
    expect(activationCheck(p('94000'), at, BUY)).toBeNull();
    expect(activationCheck(p('96000'), at, null)).toEqual({
      text: "Above the mark price (now 95,000.0): for a sell (a buy's is below it).",
      warn: false,
    });
    expect(activationCheck(p('94000'), { ...at, working: LAST, watched: 94_800 }, null)).toEqual({
      text: "Below the last price (now 94,800.0): for a buy (a sell's is above it).",
      warn: false,
    });
  });

  it('at the price itself, off the tick, or not a price: a warning', () => {
    expect(activationCheck(p('95000'), at, null)?.text).toBe(
      "At the mark price now: a sell's activation is above it, a buy's below.",
    );
    expect(activationCheck(p('96000.05'), at, SELL)).toEqual({
      text: 'Not on the tick: the venue takes multiples of 0.1.',
      warn: true,
    });
    expect(activationCheck(p('96k'), at, SELL)?.warn).toBe(true);
    expect(activationCheck(p(''), at, SELL)).toBeNull();
  });
});

describe('the sentence, side by side', () => {
  const sell = { side: SELL, position_side: 1, position_action: 2, type: 2, qty: '0.010' } as const;
  const buy = { side: BUY, position_side: 1, position_action: 1, type: 2, qty: '0.010' } as const;

  it('a sell trails the highest and fires on a fall of the rate; a buy the lowest, on a rise', () => {
    expect(trailingFires(sell, '1.0', display)).toBe(
      'when it falls 1.0% from its highest, sell 0.010 BTC at market (reduce-only)',
    );
    expect(trailingFires(buy, '2.5', display)).toBe('when it rises 2.5% from its lowest, buy 0.010 BTC at market');
  });

  it('from now, or once the price rises (a sell) or falls (a buy) to its activation', () => {
    expect(trailingClause(MARK, null, 1, 96_500)).toBe('Trailing the mark price from now (96,500.0)');
    expect(trailingClause(LAST, { price: '97000', direction: RISES }, 1, 96_500)).toBe(
      'Trailing the last price once it rises to 97,000.0 (now 96,500.0)',
    );
    expect(trailingClause(MARK, { price: '95000', direction: FALLS }, 1)).toBe(
      'Trailing the mark price once it falls to 95,000.0',
    );
  });

  it("a placed one's, from its record: the first peak as now, or the activation by its side", () => {
    const rec = { working_type: MARK, callback_rate: '1.0', activation_price: null, peak_price: '96500.0' } as const;
    expect(trailingSentence({ ...sell, ...rec }, display)).toBe(
      'Trailing the mark price from now (96,500.0): when it falls 1.0% from its highest, sell 0.010 BTC at market (reduce-only)',
    );
    expect(trailingSentence({ ...buy, ...rec, activation_price: '95000.0', peak_price: null }, display)).toBe(
      'Trailing the mark price once it falls to 95,000.0: when it rises 1.0% from its lowest, buy 0.010 BTC at market',
    );
  });

  it("each side's column: how it fires; the side whose activation is not there says so", () => {
    const x = { ...at, qd: 3, base: 'BTC' };
    expect(trailingDoes(buy, p('1'), p(''), x)).toEqual({
      text: 'when it rises 1.0% from its lowest, buy 0.010 BTC at market',
      warn: false,
    });
    expect(trailingDoes(buy, p('1'), p('96000'), x)).toEqual({
      text: "a buy's activation is below the mark price",
      warn: true,
    });
    expect(trailingDoes(sell, p('1'), p('96000'), x).warn).toBe(false);
    // no rate the venue takes yet: what it places
    expect(trailingDoes(buy, p('12'), p(''), x)).toEqual({ text: 'buy 0.010 BTC at market', warn: false });
  });
});

describe('the request a click builds', () => {
  it('a market order with the rate, the mark, the side’s direction; no price even with one left in the field', () => {
    const m = model({ price: '96100', callback: '1.50' });
    expect(m.type).toBe(2);
    const r = m.order(SELL);
    if (!r.ok) throw new Error(r.error);
    const spec = trailingSpec(m.callbackIn, m.activationIn, at, SELL);
    if (!spec.ok) throw new Error(spec.error);
    expect(trailingRequest(r.order, spec, MARK)).toEqual({
      symbol: 'BTCUSDT',
      side: SELL,
      position_side: 2,
      position_action: 1,
      type: 2,
      qty: '0.010',
      callback_rate: '1.5',
      trigger_direction: FALLS,
      working_type: MARK,
    });
  });

  it('a buy with an activation under the last price: its activation, rising to fire', () => {
    const m = model({ activation: '94,500.0', working: LAST });
    const r = m.order(BUY);
    if (!r.ok) throw new Error(r.error);
    const spec = trailingSpec(m.callbackIn, m.activationIn, { ...at, working: LAST, watched: 94_800 }, BUY);
    if (!spec.ok) throw new Error(spec.error);
    const req = trailingRequest(r.order, spec, LAST);
    expect(req).toMatchObject({
      side: BUY,
      type: 2,
      callback_rate: '1.0',
      activation_price: '94500.0',
      trigger_direction: RISES,
      working_type: LAST,
    });
    expect('trigger_price' in req || 'leverage' in req || 'margin_mode' in req || 'price' in req).toBe(false);
  });

  it('Close: a reduce-only close of the long', () => {
    const m = model({ action: 'close' }, [long]);
    const r = m.order(SELL);
    if (!r.ok) throw new Error(r.error);
    const req = trailingRequest(r.order, { rate: '1.0', activation: null }, MARK);
    expect(req).toMatchObject({ side: SELL, position_side: 1, position_action: 2, reduce_only: true, type: 2 });
  });

  it("the form's own refusals: no rate, a rate the venue refuses, an activation on the wrong side or no price to read it against", () => {
    const refusal = (
      rate: string,
      act: string,
      side: 1 | 2,
      x: typeof at | { working: 1; watched: undefined; pd: 1 } = at,
    ) => {
      const s = trailingSpec(p(rate), p(act), x, side);
      return s.ok ? null : s.error;
    };
    expect(refusal('', '', BUY)).toMatch(/^Enter a callback rate/);
    expect(refusal('abc', '', BUY)).toBe(
      'Callback rate "abc" is not a number: use digits and a decimal point, e.g. 1.5.',
    );
    expect(refusal('11', '', BUY)).toBe(
      'The callback rate is a percent from 0.1 to 10 with one decimal at most (e.g. 1.5).',
    );
    expect(refusal('1', '96000', BUY)).toBe(
      "A buy's activation price is below the mark price (now 95,000.0): it starts trailing when the price falls to it. Set it lower, or leave it empty to trail from now.",
    );
    expect(refusal('1', '94000', SELL)).toBe(
      "A sell's activation price is above the mark price (now 95,000.0): it starts trailing when the price rises to it. Set it higher, or leave it empty to trail from now.",
    );
    expect(refusal('1', '95000', SELL)).toMatch(/^A sell's activation price is above/);
    expect(refusal('1', '96000', SELL, { working: 1, watched: undefined, pd: 1 })).toBe(
      'No mark price yet to set the activation against: try again in a moment.',
    );
    expect(refusal('1', '', SELL, { working: 1, watched: undefined, pd: 1 })).toBeNull();
    expect(refusal('1', '96000', SELL)).toBeNull();
  });
});

describe('the preview', () => {
  it('is estimated at the activation price, else at the watched price now (where the venue checks the minimum notional)', () => {
    expect(model({ activation: '96000' }).sell.notional).toBeCloseTo(960, 6);
    expect(model({}).buy.notional).toBeCloseTo(950, 6);
    expect(model({ working: LAST }).buy.notional).toBeCloseTo(948, 6);
    // an activation that is not a price estimates nothing (never the market's in its place)
    expect(model({ activation: '96k' }).buy.notional).toBeNaN();
  });
});

describe("the form's store", () => {
  const record = (r: ConditionalOrderRequest): ConditionalOrderRecord =>
    ({
      ...r,
      id: '42',
      price: '0.0',
      qty: r.qty ?? null,
      close_position: false,
      status: 1,
      trigger_price: '95535.0',
      activation_price: r.activation_price ?? null,
      peak_price: r.activation_price === undefined ? '96500.0' : null,
    }) as ConditionalOrderRecord;
  function setup() {
    const placed: ConditionalOrderRequest[] = [];
    const api = {
      conditionals: { place: async (r: ConditionalOrderRequest) => (placed.push(r), record(r)) },
    } as unknown as RestClient;
    const store = createOrderFormStore(api, { schedule: () => () => undefined });
    return { store, a: store.getState().actions, placed };
  }
  const request: ConditionalOrderRequest = {
    symbol: 'BTCUSDT',
    side: SELL,
    position_side: 2,
    position_action: 1,
    type: 2,
    qty: '0.010',
    callback_rate: '1.0',
    trigger_direction: FALLS,
    working_type: MARK,
  };

  it("the notice says it's a trailing stop, and how it trails and fires", async () => {
    const { store, a, placed } = setup();
    await a.submitStop(request, display);
    expect(placed).toEqual([request]);
    expect(store.getState().notice).toBe(
      'Trailing stop BTCUSDT #42 placed. Trailing the mark price from now (96,500.0): when it falls 1.0% from its highest, sell 0.010 BTC at market.',
    );
    await a.submitStop(
      { ...request, side: BUY, position_side: 1, trigger_direction: RISES, activation_price: '94000.0' },
      display,
    );
    expect(store.getState().notice).toBe(
      'Trailing stop BTCUSDT #42 placed. Trailing the mark price once it falls to 94,000.0: when it rises 1.0% from its lowest, buy 0.010 BTC at market.',
    );
  });

  it('a price picked in Trailing is its activation; Esc clears the rate and the activation, the choice stays', () => {
    const { store, a } = setup();
    a.set({ stop: true, trailing: true, callback: '1.0' });
    a.pickPrice('96500.0');
    expect(store.getState()).toMatchObject({ activation: '96500.0', trigger: '', price: '', trailing: true });
    a.set({ trailing: false });
    a.pickPrice('96400.0');
    expect(store.getState()).toMatchObject({ activation: '96500.0', trigger: '96400.0' });
    a.set({ trailing: true });
    a.reset();
    expect(store.getState()).toMatchObject({ callback: '', activation: '', trigger: '', trailing: true, stop: true });
  });
});
