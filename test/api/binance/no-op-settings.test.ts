// No-op settings: Binance refuses a margin-type change to the current type (-4046 "No need to
// change margin type.", ccxt MarginModeAlreadySet, which freqtrade ignores) and a position-mode
// change to the current mode (-4059 "No need to change position side.", ccxt
// OperationRejected); the native API answers both with success, as its specification has it.
// The facade decides against the live setting, so a change made on the native API first is
// seen at once (the facade's account cache is not what it reads).
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signed } from '../../helpers/signed.ts';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc?.close());

describe('no-op margin type and position mode', () => {
  it('margin type: set natively, then the same through ccxt is MarginModeAlreadySet (-4046); native no-op is success', async () => {
    const c = account(svc.venue, 'noop1');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    // the facade's cache of this account is warm before the native change
    await ex.fetchBalance();
    dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/marginType', { json: { symbol: 'BTCUSDT', margin_mode: 1 } }));
    // native: the same again is a success, as the spec's extension route answers
    expect(
      dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/marginType', { json: { symbol: 'BTCUSDT', margin_mode: 1 } })),
    ).toEqual({ symbol: 'BTCUSDT', margin_mode: 1 });
    const err = await ex.setMarginMode('isolated', BTC).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ccxt.MarginModeAlreadySet);
    expect(String(err.message)).toContain('{"code":-4046,"msg":"No need to change margin type."}');
    // a real change still goes through, and the native API sees it
    await ex.setMarginMode('cross', BTC);
    expect(svc.venue.exchange.pairSetting(c.id, 'BTCUSDT').marginMode).toBe(2);
    await expect(ex.setMarginMode('cross', BTC)).rejects.toBeInstanceOf(ccxt.MarginModeAlreadySet);
  });

  it('position mode: set natively, then the same through ccxt is -4059 (OperationRejected); native no-op is success', async () => {
    const c = account(svc.venue, 'noop2');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    expect((await ex.fetchPositionMode(BTC)).hedged).toBe(true);
    dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'one_way' } }));
    expect(
      dataOf(await signed(svc.app, c, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'one_way' } })),
    ).toEqual({ position_mode: 'one_way' });
    expect((await ex.fetchPositionMode(BTC)).hedged).toBe(false);
    const err = await ex.setPositionMode(false).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ccxt.OperationRejected);
    expect(String(err.message)).toContain('{"code":-4059,"msg":"No need to change position side."}');
    // orders follow the live mode at once: a one-way order without positionSide is accepted
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice * 0.95));
    await ex.cancelAllOrders(BTC);
    await ex.setPositionMode(true);
    expect(svc.venue.exchange.summary(c.id).position_mode).toBe('hedge');
    await expect(ex.setPositionMode(true)).rejects.toBeInstanceOf(ccxt.OperationRejected);
  });
});
