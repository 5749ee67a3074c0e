// A liquidation's clearance fee on both surfaces: Binance's GET /fapi/v1/income lists it as
// INSURANCE_CLEAR (negative, with its symbol; the incomeType and symbol filters apply), at the rate
// exchangeInfo publishes as `liquidationFee`, and the income entries then add up to the wallet;
// the native position history counts it in the liquidated position's close_fee.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../../helpers/app.ts';
import { dataOf, signed, type Creds } from '../../helpers/signed.ts';
import { MarginMode } from '../../../src-shared/enums.ts';
import { account } from './helpers.ts';
import { signedInject } from './raw.ts';

let t: TestApp;
let c: Creds;
beforeAll(async () => {
  t = await makeApp({ simulate: false }, { rateLimit: false });
  c = account(t.venue, 'liqincome', 10_000);
  const ex = t.venue.exchange;
  const house = (side: 1 | 2, price: string) => houseLimit(ex, side, price, '1.000');
  // an isolated 20x long 0.1 at 96,000 (margin 480), liquidated at a mark of 91,560 by an IOC
  // that sells at the house's bid of 93,000: realized -300, taker fee 4.65, clearance fee
  // min(9,300 x 0.0125, 480 - 300 - 4.65) = 116.25
  setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
  setPrices(ex, 'BTCUSDT', { mark: 96_000 });
  house(2, '96000.0');
  placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
  house(1, '93000.0');
  setPrices(ex, 'BTCUSDT', { mark: 91_560 });
});
afterAll(async () => t?.close());

const income = async (params: Record<string, string | number> = {}) => {
  const r = await signedInject(t.app, c, 'GET', '/fapi/v1/income', params);
  expect(r.status).toBe(200);
  return r.body as Array<Record<string, unknown>>;
};

describe('the liquidation clearance fee as income', () => {
  it('INSURANCE_CLEAR: minus liquidationFee x the notional closed, with the symbol', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/binance/fapi/v1/exchangeInfo' });
    const rate = Number(info.json().symbols.find((s: any) => s.symbol === 'BTCUSDT').liquidationFee);
    expect(rate).toBe(0.0125);
    const clear = await income({ incomeType: 'INSURANCE_CLEAR' });
    const [row] = t.venue.trading.liquidationFees({ accountId: c.id, limit: 5 });
    expect(clear).toEqual([
      {
        symbol: 'BTCUSDT',
        incomeType: 'INSURANCE_CLEAR',
        income: '-116.25000000',
        asset: 'USDT',
        info: 'INSURANCE_CLEAR',
        time: row.time,
        tranId: row.id * 10 + 5,
        tradeId: '',
      },
    ]);
    expect(Number(clear[0].income)).toBeCloseTo(-rate * 9_300, 8);
    // the symbol filter keeps it, another symbol and another type leave it out
    expect((await income({ symbol: 'BTCUSDT' })).filter((x) => x.incomeType === 'INSURANCE_CLEAR')).toEqual(clear);
    expect(await income({ symbol: 'ETHUSDT', incomeType: 'INSURANCE_CLEAR' })).toEqual([]);
    expect((await income({ incomeType: 'COMMISSION' })).map((x) => x.income)).toEqual(['-4.80000000', '-4.65000000']);
  });

  it('every income entry together is the wallet: transfer, commissions, realized PnL and the clearance fee', async () => {
    const all = await income();
    expect(new Set(all.map((x) => x.incomeType))).toEqual(
      new Set(['TRANSFER', 'COMMISSION', 'REALIZED_PNL', 'INSURANCE_CLEAR']),
    );
    expect(new Set(all.map((x) => x.tranId)).size).toBe(all.length);
    const units = all.reduce((s, x) => s + BigInt(String(x.income).replace('.', '')), 0n);
    // 10,000 - 4.8 - 4.65 - 300 - 116.25
    expect(units).toBe(9_574_30_000_000n);
    expect(units).toBe(t.venue.exchange.walletOf(c.id));
  });

  it("the native position history counts it in the position's close_fee", async () => {
    const hist = dataOf(await signed(t.app, c, 'GET', '/fapi/v1/position/history'));
    expect(hist.list).toHaveLength(1);
    expect(hist.list[0]).toMatchObject({ close_type: 4, realized_pnl: -300, open_fee: 4.8, close_fee: 120.9 });
  });
});
