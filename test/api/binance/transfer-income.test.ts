// TRANSFER income: money moved into or out of a wallet from outside trading (the admin route
// creating or setting an account, the paper deposit, the paper reset) is stored as a transfer
// with its market time, in the same unit as the wallet change, and answered by
// GET /fapi/v1/income as Binance's TRANSFER entries (no symbol), beside REALIZED_PNL, COMMISSION
// and FUNDING_FEE, across a restart. The transfers add up to the account's total deposits.
import { houseLimit } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { dataOf, signed, type Creds } from '../../helpers/signed.ts';
import { binanceusdm, servicesOnFolder, type Service } from './helpers.ts';

/** Services on a data folder of this file's, their clocks paused. */
const folder = servicesOnFolder('perpdesk-transfer-');
const durable = (svc: Service) =>
  new Promise<void>((resolve, reject) => svc.venue.durability.whenDurable((err) => (err ? reject(err) : resolve())));

describe('TRANSFER income', () => {
  it('admin route, paper deposit and paper reset each leave one TRANSFER; a restart keeps them', async () => {
    let svc = await folder.start();
    const clock = svc.venue.clock;
    const c: Creds = { id: 0, apiKey: 'XFERKEY123', apiSecret: 'XFERSECRET123' };
    // the admin route creates the account with 5000 USDT, then sets it to 6000
    const admin = (balance: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        payload: { api_key: c.apiKey, api_secret: c.apiSecret, balance, position_mode: 'one_way' },
        remoteAddress: '127.0.0.1',
      });
    expect((await admin('5000')).statusCode).toBe(200);
    const t1 = clock.now();
    const ex = binanceusdm(svc.base, c);
    const transfers = async () =>
      (await ex.fapiPrivateGetIncome({ incomeType: 'TRANSFER' })).map((x: any) => [x.income, x.time]);
    expect(await transfers()).toEqual([['5000.00000000', t1]]);
    clock.resume();
    await new Promise((r) => setTimeout(r, 20));
    clock.pause();
    const t2 = clock.now();
    expect((await admin('6000')).statusCode).toBe(200);
    // a paper deposit and a reset through the native API (signed)
    c.id = svc.venue.accounts.byKey(c.apiKey)!.id;
    dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/account/deposit', { json: { amount: '250.5' } }));
    // trade a little so the reset has a position to close and a fee is paid
    await ex.loadMarkets();
    const mid = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice);
    houseLimit(svc.venue.exchange, 2, (mid + 10).toFixed(1), '1.000');
    await ex.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
    const walletBefore = Number(svc.venue.exchange.summary(c.id).wallet_balance);
    dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/account/reset', { json: { balance: '10000' } }));
    expect(svc.venue.exchange.summary(c.id).wallet_balance).toBe('10000.00000000');
    const all = await ex.fapiPrivateGetIncome({ incomeType: 'TRANSFER' });
    expect(all.map((x: any) => x.income.slice(0, 7))).toEqual(['5000.00', '1000.00', '250.500', expect.any(String)]);
    expect(all[1].time).toBe(t2);
    expect(all[3]).toMatchObject({ symbol: '', incomeType: 'TRANSFER', asset: 'USDT', info: 'TRANSFER', tradeId: '' });
    // the reset's transfer is the difference between the wallet it found and 10000 (the closed
    // position's PnL at the mark is in the wallet before the transfer)
    expect(Number(all[3].income)).toBeCloseTo(10000 - walletBefore - pnlOfReset(svc, c.id), 6);
    // they add up to the account's total deposits, and their tranIds are unique among all income
    const totalDeposits = Number(svc.venue.accounts.byId(c.id)!.totalDeposits) / 1e8;
    expect(all.reduce((a: number, x: any) => a + Number(x.income), 0)).toBeCloseTo(totalDeposits, 8);
    const every = await ex.fapiPrivateGetIncome({});
    expect(new Set(every.map((x: any) => x.incomeType))).toEqual(new Set(['TRANSFER', 'COMMISSION', 'REALIZED_PNL']));
    expect(new Set(every.map((x: any) => x.tranId)).size).toBe(every.length);
    for (let i = 1; i < every.length; i++) expect(every[i].time).toBeGreaterThanOrEqual(every[i - 1].time);
    // a symbol filter leaves transfers out (they have none); a time window and limit apply
    expect((await ex.fapiPrivateGetIncome({ symbol: 'BTCUSDT' })).some((x: any) => x.incomeType === 'TRANSFER')).toBe(
      false,
    );
    expect((await ex.fapiPrivateGetIncome({ incomeType: 'TRANSFER', limit: 2 })).map((x: any) => x.tranId)).toEqual(
      all.slice(2).map((x: any) => x.tranId),
    );
    expect(
      (await ex.fapiPrivateGetIncome({ incomeType: 'TRANSFER', startTime: t2, limit: 1 })).map((x: any) => x.tranId),
    ).toEqual([all[1].tranId]);

    // a restart finds the same entries
    await durable(svc);
    svc = await folder.restart();
    const again = await binanceusdm(svc.base, c).fapiPrivateGetIncome({ incomeType: 'TRANSFER' });
    expect(again).toEqual(all);
  });
});

/** The realized PnL the reset booked when it closed the position (its synthetic fill, the newest trade). */
function pnlOfReset(svc: Service, accountId: number): number {
  const [t] = svc.venue.trading.trades({ accountId, limit: 1 });
  return Number(t.realizedPnl) / 1e8;
}
