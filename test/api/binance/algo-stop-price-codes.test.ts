// A new algo order's triggerPrice of zero or above the pair's maximum gets Binance's own codes,
// -4006 "Stop price less than zero." and -4007 "Stop price greater than max price." (its USD-M
// error list), as quantity and price get -4003 / -4005 and -4001 / -4002; not -1130.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPrices } from '../../helpers/exchange-commands.ts';
import { account, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(async () => svc?.close());

describe('algo order triggerPrice bounds', () => {
  it('zero is -4006, above maxPrice is -4007 (also past what a number holds), and nothing waits', async () => {
    const c = account(svc.venue, 'algostopcodes', 100_000, 'one_way');
    const cases: Array<[string, number, RegExp]> = [
      ['0', -4006, /^Stop price less than zero\. triggerPrice/],
      ['0.0', -4006, /^Stop price less than zero\./],
      ['214748364.8', -4007, /^Stop price greater than max price\. triggerPrice 214748364\.8 is out of range/],
      ['99999999999999999999', -4007, /^Stop price greater than max price\./],
    ];
    for (const [triggerPrice, code, msg] of cases) {
      const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        quantity: '0.010',
        triggerPrice,
      });
      expect([r.status, r.body.code], `${triggerPrice}: ${JSON.stringify(r.body)}`).toEqual([400, code]);
      expect(r.body.msg).toMatch(msg);
    }
    expect(svc.venue.exchange.openConditionals(c.id)).toHaveLength(0);
  });
});
