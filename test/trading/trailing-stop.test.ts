// Trailing stops (trading/trailing.ts): a conditional order whose trigger follows the watched
// price's best since it activated, on the tick on the safe side of the rate; activation; the
// last price's traded range read adverse extreme first; the peak kept across a restart.
import { describe, expect, it } from 'vitest';
import { ConditionalStatus, TriggerDirection, WorkingType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalInput } from '../../src-main/trading/commands.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { trailingTrigger } from '../../src-main/trading/trailing.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { houseLimit, setPrices } from '../helpers/exchange-commands.ts';
import { conditionalNow, longQty, openLong, print } from './conditional-kit.ts';
import { refusal, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 100_000n * USDT, simulate: false });

/** A trailing sell of 0.010 that closes a long: 1 % unless told otherwise. */
function trailing(v: Venue, u: number, o: Partial<ConditionalInput> = {}): ConditionalOrderRecord {
  const input: ConditionalInput = {
    symbol: 'BTCUSDT',
    side: 2,
    position_side: 1,
    position_action: 2,
    type: 2,
    qty: '0.010',
    callback_rate: '1.0',
    ...o,
  };
  return v.exchange.execute({ kind: 'placeConditional', accountId: u, input });
}

const get = conditionalNow;

describe('trailing stops', () => {
  it('put the trigger on the tick, on the safe side of the rate', () => {
    const sell = { side: 2, callbackTenths: 10 };
    const buy = { side: 1, callbackTenths: 10 };
    expect(trailingTrigger(sell, 960_000)).toBe(950_400); // 96,000.0 less 1 %: 95,040.0 exactly
    expect(trailingTrigger(sell, 960_001)).toBe(950_400); // 950,400.99: down to the tick below
    expect(trailingTrigger(buy, 960_001)).toBe(969_602); // 969,601.01: up to the tick above
    expect(trailingTrigger(sell, 1000)).toBe(990); // 1000 x 0.99 is 989.999... in floats
    expect(trailingTrigger({ side: 2, callbackTenths: 100 }, 1)).toBe(1); // never below one tick
  });

  it('a trailing sell on the mark follows its highest mark and fires when the mark comes back the rate', () => {
    const v = venue();
    const u = user(v, 'trail-mark');
    openLong(v, u);
    const c = trailing(v, u);
    expect(c).toMatchObject({
      callback_rate: '1.0',
      activation_price: null,
      peak_price: '96000.0',
      trigger_price: '95040.0',
      trigger_direction: TriggerDirection.FALLS_TO,
    });
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000 });
    expect(get(v, u, c)).toMatchObject({ peak_price: '97000.0', trigger_price: '96030.0', status: 1 });
    setPrices(v.exchange, 'BTCUSDT', { mark: 96500 }); // down, above the trigger: the peak stays
    expect(get(v, u, c)).toMatchObject({ peak_price: '97000.0', trigger_price: '96030.0', status: 1 });
    houseLimit(v.exchange, 1, '96000.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96030 });
    const fired = get(v, u, c);
    expect(fired.status).toBe(ConditionalStatus.TRIGGERED);
    expect(v.exchange.liveOrder(u, Number(fired.order_id))).toMatchObject({ side: 2, type: 2, qtyLots: 10 });
    expect(longQty(v, u)).toBe(0);
  });

  it('with an activation price it waits to trail until the price reaches it, and refuses one already reached', () => {
    const v = venue();
    const u = user(v, 'trail-actv');
    openLong(v, u);
    const reached = refusal(() => trailing(v, u, { activation_price: '95000.0' }));
    expect(reached.def).toBe(Errors.TRIGGER_ALREADY_REACHED);
    expect(reached.message).toBe('The mark price 96000.0 is already at or above the activation price 95000.0');
    const c = trailing(v, u, { activation_price: '97000.0', callback_rate: '0.5' });
    expect(c).toMatchObject({ activation_price: '97000.0', peak_price: null, trigger_price: '96515.0' });
    setPrices(v.exchange, 'BTCUSDT', { mark: 95000 }); // below where it would fire once active: not active
    expect(get(v, u, c)).toMatchObject({ status: 1, peak_price: null });
    setPrices(v.exchange, 'BTCUSDT', { mark: 97200 });
    expect(get(v, u, c)).toMatchObject({ status: 1, peak_price: '97200.0', trigger_price: '96714.0' });
    houseLimit(v.exchange, 1, '96700.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96714 });
    expect(get(v, u, c).status).toBe(ConditionalStatus.TRIGGERED);
  });

  it("on the last price it reads a command's range adverse extreme first, then the new peak against the last price", () => {
    const v = venue();
    const u = user(v, 'trail-last');
    openLong(v, u);
    print(v, '96000.0');
    const c = trailing(v, u, { working_type: WorkingType.LAST_PRICE });
    expect(c).toMatchObject({ peak_price: '96000.0', trigger_price: '95040.0' });
    print(v, '96800.0'); // a new best
    expect(get(v, u, c)).toMatchObject({ peak_price: '96800.0', trigger_price: '95832.0', status: 1 });
    setPrices(v.exchange, 'BTCUSDT', { mark: 90000 }); // the mark is not what it watches
    expect(get(v, u, c).status).toBe(1);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96500 });
    // a replay's desk prints 97,000 then 95,950 before the triggers are looked at: against the old
    // trigger (95,832) the low is no fire; the high is the new peak (trigger 96,030), under which
    // the price ended: it fires
    houseLimit(v.exchange, 1, '95900.0', '0.010');
    const desk = v.exchange.houseDesk('BTCUSDT', { book: HOUSE_ACCOUNT + 11, taker: HOUSE_ACCOUNT + 12 });
    expect(desk.print(1, 970_000, 2, 0, false)).toBe(2);
    expect(desk.print(2, 959_500, 2, 0, false)).toBe(2);
    expect(get(v, u, c)).toMatchObject({ status: 1, peak_price: '96800.0' }); // the print may still be under way
    v.exchange.fireTradeTriggers();
    const fired = get(v, u, c);
    expect(fired).toMatchObject({
      status: ConditionalStatus.TRIGGERED,
      peak_price: '97000.0',
      trigger_price: '96030.0',
    });
    expect(longQty(v, u)).toBe(0);
  });

  it('keeps its peak and trigger across a restart', async () => {
    const dir = dataDir('perpdesk-trail-');
    const v1 = venue(dir);
    const u = user(v1, 'trail-keep');
    openLong(v1, u);
    const c = trailing(v1, u, { callback_rate: '2.0' });
    setPrices(v1.exchange, 'BTCUSDT', { mark: 98000 });
    const before = get(v1, u, c);
    expect(before).toMatchObject({ peak_price: '98000.0', trigger_price: '96040.0' });
    await v1.close();
    const v2 = venue(dir);
    expect(v2.exchange.openConditionals(u)).toEqual([before]);
  });

  it('refuses a rate outside 0.1 to 10 %, a trigger price, a limit or close-position order, a wrong direction', () => {
    const v = venue();
    const u = user(v, 'trail-bad1');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    const code = (o: Partial<ConditionalInput>) => refusal(() => trailing(v, u, o)).def.code;
    for (const rate of ['0.0', '0.05', '10.1', '1.25', '-1', 'x', ''])
      expect(code({ callback_rate: rate }), rate).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ trigger_price: '95000.0' })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ type: 1, price: '95000.0' })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ qty: undefined, close_position: true })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ trigger_direction: TriggerDirection.RISES_TO })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ activation_price: '97000.05' })).toBe(Errors.PRICE_OFF_TICK.code);
    expect(code({ activation_price: '99999999999.0' })).toBe(Errors.INVALID_PARAMETER.code);
    expect(code({ callback_rate: undefined, activation_price: '97000.0', trigger_price: '95000.0' })).toBe(
      Errors.INVALID_PARAMETER.code,
    );
    expect(code({ callback_rate: undefined })).toBe(Errors.MISSING_PARAMETER.code);
    // the limits themselves are taken, and so is the direction a sell fires in
    trailing(v, u, { callback_rate: '0.1' });
    trailing(v, u, { callback_rate: '10', trigger_direction: TriggerDirection.FALLS_TO });
    expect(v.exchange.openConditionals(u).map((c) => c.callback_rate)).toEqual(['0.1', '10.0']);
  });
});
