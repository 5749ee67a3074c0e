// Open interest (GET /fapi/v1/openInterest, ccxt fetchOpenInterest): the exchange's own figure,
// the users' open positions of a pair with the house market maker counted as one net position,
// so the larger of the users' long and short totals. Checked raw (Binance's field list) and
// through real ccxt, as positions open, grow and close, and across a restart on the same data.
import { houseLimit, openingLimit, openingMarket, placeOrder, tapeTrade } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { account, binanceusdm, servicesOnFolder, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
/** Services on a data folder of this file's, their clocks paused. */
const folder = servicesOnFolder('perpdesk-oi-');

const raw = async (svc: Service, symbol: string) => {
  const r = await fetch(`${svc.base}/binance/fapi/v1/openInterest?symbol=${symbol}`);
  return { status: r.status, body: (await r.json()) as any };
};

describe('openInterest', () => {
  it('follows the users positions: the larger side, the house as one net position; it survives a restart', async () => {
    let svc = await folder.start();
    const ex = svc.venue.exchange;
    const mid = Math.round(ex.pair('BTCUSDT')!.markPrice);
    const maker = account(svc.venue, 'oimm');
    const taker = account(svc.venue, 'oitk');

    // nothing open yet: zero, in Binance's shape
    const empty = await raw(svc, 'BTCUSDT');
    expect(empty.status).toBe(200);
    expect(Object.keys(empty.body).sort()).toEqual(['openInterest', 'symbol', 'time']);
    expect(empty.body).toEqual({ openInterest: '0.000', symbol: 'BTCUSDT', time: svc.venue.clock.now() });

    // user against user: 0.3 long and 0.3 short
    tapeTrade(ex, maker.id, taker.id, '0.300', (mid + 10).toFixed(1));
    expect((await raw(svc, 'BTCUSDT')).body.openInterest).toBe('0.300');

    // a user buys 0.2 from the house: longs 0.5, shorts 0.3 (the house short 0.2 is not a stored position)
    houseLimit(ex, 2, (mid + 20).toFixed(1), '0.200');
    placeOrder(ex, taker.id, openingMarket(1, '0.200'));
    expect(ex.openInterest('BTCUSDT')).toEqual({ longLots: 500, shortLots: 300, lots: 500 });
    const c = binanceusdm(svc.base);
    const oi = await c.fetchOpenInterest(BTC);
    expect(oi.symbol).toBe(BTC);
    expect(oi.openInterestAmount).toBe(0.5);
    expect(oi.timestamp).toBe(svc.venue.clock.now());
    // another pair is untouched
    expect((await raw(svc, 'ETHUSDT')).body.openInterest).toMatch(/^0(\.0+)?$/);

    // the taker closes 0.4 into the maker's bid, which opens a 0.4 long: longs 0.1 + 0.4, shorts 0.3
    placeOrder(ex, maker.id, openingLimit(1, (mid - 10).toFixed(1), '0.400'));
    placeOrder(ex, taker.id, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 2,
      qty: '0.400',
    });
    expect(ex.openInterest('BTCUSDT')).toEqual({ longLots: 500, shortLots: 300, lots: 500 });
    // the maker buys its short back from the house: longs 0.5, shorts 0 -> still 0.5; then the
    // taker sells its 0.1 to the house -> 0.4
    houseLimit(ex, 2, (mid + 20).toFixed(1), '1.000');
    houseLimit(ex, 1, (mid - 20).toFixed(1), '1.000');
    placeOrder(ex, maker.id, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 2,
      position_action: 2,
      type: 2,
      qty: '0.300',
    });
    expect(ex.openInterest('BTCUSDT')).toEqual({ longLots: 500, shortLots: 0, lots: 500 });
    placeOrder(ex, taker.id, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 2,
      qty: '0.100',
    });
    expect(ex.openInterest('BTCUSDT')).toEqual({ longLots: 400, shortLots: 0, lots: 400 });
    expect((await c.fetchOpenInterest(BTC)).openInterestAmount).toBe(0.4);

    // the same figure after a restart: it is the stored positions, not a counter kept in memory
    await new Promise<void>((resolve, reject) =>
      svc.venue.durability.whenDurable((err) => (err ? reject(err) : resolve())),
    );
    svc = await folder.restart();
    expect(svc.venue.exchange.openInterest('BTCUSDT')).toEqual({ longLots: 400, shortLots: 0, lots: 400 });
    expect((await binanceusdm(svc.base).fetchOpenInterest(BTC)).openInterestAmount).toBe(0.4);
  });

  it('refuses what Binance refuses', async () => {
    const svc = folder.current();
    expect((await raw(svc, 'NOPEUSDT')).body.code).toBe(-1121);
    const r = await fetch(`${svc.base}/binance/fapi/v1/openInterest`);
    expect(((await r.json()) as any).code).toBe(-1102);
    await expect(binanceusdm(svc.base).fapiPublicGetOpenInterest({ symbol: 'NOPEUSDT' })).rejects.toBeInstanceOf(
      ccxt.BadSymbol,
    );
  });
});
