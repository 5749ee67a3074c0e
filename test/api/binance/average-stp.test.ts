// An order's average price as Binance gives it (cumQuote / executedQty itself, not rounded to the
// tick) in the POST order answer, GET order and the user stream's `ap`; and the self-trade
// prevention the venue applies (EXPIRE_TAKER) reported as the order's selfTradePreventionMode and
// `V`, whatever mode was sent. Prices stand still (clock paused, mark set by the test).
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, until, userStream, type Collected, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let c: Creds;
let stream: Collected;

/** A house ask of `qty` BTCUSDT at `price`. */
function ask(price: string, qty: string): void {
  placeBotOrder(svc.venue.exchange, {
    symbol: 'BTCUSDT',
    side: Side.SELL,
    position_side: PositionSide.SHORT,
    position_action: PositionAction.OPEN,
    type: OrderType.LIMIT,
    price,
    qty,
  });
}

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
  c = account(svc.venue, 'avgstp', 100_000, 'one_way');
  stream = await userStream(svc.base, c);
});
afterAll(async () => {
  await stream?.close();
  await svc?.close();
});

/** The stream's ORDER_TRADE_UPDATE events of order `id`, once `n` came (or 2 s passed). */
async function streamed(id: number, n: number): Promise<any[]> {
  const of = () => stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.i === id).map((m) => m.o);
  await until(() => of().length >= n);
  return of();
}

describe('avgPrice and ap: the exact average', () => {
  it('a market buy over two prices: 96000.06, not 96000.1', async () => {
    ask('96000.0', '0.002');
    ask('96000.1', '0.003');
    const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.005',
      newOrderRespType: 'RESULT',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'FILLED', executedQty: '0.005', cumQuote: '480.00030000' });
    expect(r.body.avgPrice).toBe('96000.06000000');
    expect(new Decimal(r.body.cumQuote).div(r.body.executedQty).toFixed(8)).toBe(r.body.avgPrice);
    const g = await signedCall(svc.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: r.body.orderId });
    expect(g.body.avgPrice).toBe('96000.06000000');
    const events = await streamed(r.body.orderId, 3);
    expect(events.map((o) => [o.x, o.X, o.ap])).toEqual([
      ['NEW', 'NEW', '0'],
      ['TRADE', 'PARTIALLY_FILLED', '96000.00000000'],
      ['TRADE', 'FILLED', '96000.06000000'],
    ]);
  });

  it('an IOC that fills part at two prices and expires: the average to 8 decimals, everywhere', async () => {
    ask('96000.0', '0.002');
    ask('96000.1', '0.004');
    const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: '96000.1',
      quantity: '0.008',
      newOrderRespType: 'RESULT',
    });
    expect(r.body).toMatchObject({ status: 'EXPIRED', executedQty: '0.006', cumQuote: '576.00040000' });
    // 576.0004 / 0.006 = 96000.0666...
    expect(r.body.avgPrice).toBe('96000.06666667');
    const g = await signedCall(svc.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: r.body.orderId });
    expect(g.body.avgPrice).toBe('96000.06666667');
    const last = (await streamed(r.body.orderId, 4)).at(-1);
    expect([last.x, last.X, last.ap]).toEqual(['EXPIRED', 'EXPIRED', '96000.06666667']);
  });
});

describe('selfTradePreventionMode: the mode the venue applies', () => {
  it.each([undefined, 'NONE', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'EXPIRE_TAKER'])(
    'sent %s: accepted, reported EXPIRE_TAKER (answer, GET order, V)',
    async (mode) => {
      const r = await signedCall(svc.base, c, 'POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '90000.0',
        quantity: '0.002',
        ...(mode === undefined ? {} : { selfTradePreventionMode: mode }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.selfTradePreventionMode).toBe('EXPIRE_TAKER');
      const g = await signedCall(svc.base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: r.body.orderId });
      expect(g.body.selfTradePreventionMode).toBe('EXPIRE_TAKER');
      const open = await signedCall(svc.base, c, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
      expect(open.body.find((o: any) => o.orderId === r.body.orderId).selfTradePreventionMode).toBe('EXPIRE_TAKER');
      const [created] = await streamed(r.body.orderId, 1);
      expect(created.V).toBe('EXPIRE_TAKER');
    },
  );
});
