// Real ccxt (npm, pinned) reading an account's liquidation and ADL records through the facade:
// fetchMyLiquidations (GET /fapi/v1/forceOrders, autoCloseType LIQUIDATION unless the caller asks
// for ADL). The scenario really happens on the venue (figures as test/trading/adl-end-to-end.test.ts):
// an isolated long 0.05 at 96,000 (margin 240, bankruptcy price 91,200) is gapped to a mark of
// 88,000 with no bid; its liquidation IOC finds nothing, the fund (50 USDT) cannot take the rest,
// so the two shorts are deleveraged at 91,200 (0.03 of the thin one, then 0.02 of the rich one).
// The records are read again after a restart on the same data.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { adlCast, gapBelowBankruptcy, type AdlCast } from './adl-cast.ts';
import { binanceusdm } from './helpers.ts';
import { signedCall } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
const WEEK = 7 * 86_400_000;
/** Binance's forceOrders entry: its fields, in its order. */
const FIELDS = [
  'orderId',
  'symbol',
  'status',
  'clientOrderId',
  'price',
  'avgPrice',
  'origQty',
  'executedQty',
  'cumQuote',
  'timeInForce',
  'type',
  'reduceOnly',
  'closePosition',
  'side',
  'positionSide',
  'stopPrice',
  'workingType',
  'origType',
  'time',
  'updateTime',
];

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-ccxt-liq-'));
let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
let who: AdlCast;
/** Market time of the liquidation. */
let liquidatedAt: number;

/** The facade on the folder's data, no simulated market, the clock paused. */
async function start(): Promise<void> {
  venue = openVenue({ dataDir: dir, simulate: false });
  venue.clock.pause();
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function stop(): Promise<void> {
  await app?.close();
  await venue?.close();
}

beforeAll(async () => {
  const v0 = openVenue({ dataDir: dir, simulate: false });
  v0.settings.set('insurance_fund', String(50n * 100_000_000n)); // too small for the bankrupt close
  await v0.close();
  await start();
  const ex = venue.exchange;
  who = adlCast(venue, 'liq');
  liquidatedAt = venue.clock.now();
  gapBelowBankruptcy(venue);
  expect(ex.positions(who.loser.id)).toEqual([]);
  await new Promise<void>((res, rej) => venue.durability.whenDurable((err) => (err ? rej(err) : res())));
});
afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What every check below expects of the records, before and after the restart. */
async function expectRecords(): Promise<void> {
  const loser = binanceusdm(base, who.loser);
  const [liq, ...more] = await loser.fetchMyLiquidations(BTC);
  expect(more).toEqual([]);
  // the whole 0.05 closed at 91,200: executedQty counts the closes at the bankruptcy price
  expect(liq).toMatchObject({
    symbol: BTC,
    contracts: 0.05,
    price: 91_200,
    side: 'sell',
    quoteValue: 4_560,
    timestamp: liquidatedAt,
  });
  expect(Object.keys(liq.info)).toEqual(FIELDS);
  expect(liq.info).toEqual({
    orderId: liq.info.orderId,
    symbol: 'BTCUSDT',
    status: 'FILLED',
    clientOrderId: `autoclose-${liq.info.orderId}`,
    price: '91200.0',
    avgPrice: '91200.00000000',
    origQty: '0.050',
    executedQty: '0.050',
    cumQuote: '4560.00000000',
    timeInForce: 'IOC',
    type: 'LIMIT',
    // Binance's example of forceOrders: false, as a hedge account's every order reads (it was true)
    reduceOnly: false,
    closePosition: false,
    side: 'SELL',
    positionSide: 'LONG',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    origType: 'LIMIT',
    time: liquidatedAt,
    updateTime: liquidatedAt,
  });
  // its trades are what it filled: the two closes at the bankruptcy price
  const trades = (await loser.fetchMyTrades(BTC)).filter((t: any) => t.order === String(liq.info.orderId));
  expect(trades.map((t: any) => [t.price, t.amount, t.fee.cost])).toEqual([
    [91_200, 0.03, 0],
    [91_200, 0.02, 0],
  ]);
  // the liquidated account had no ADL close; the deleveraged ones no liquidation
  expect(await loser.fetchMyLiquidations(BTC, undefined, undefined, { autoCloseType: 'ADL' })).toEqual([]);
  const thin = binanceusdm(base, who.thin);
  expect(await thin.fetchMyLiquidations(BTC)).toEqual([]);
  const [adl] = await thin.fetchMyLiquidations(BTC, undefined, undefined, { autoCloseType: 'ADL' });
  expect(adl).toMatchObject({ symbol: BTC, contracts: 0.03, price: 91_200, side: 'buy', quoteValue: 2_736 });
  expect(adl.info).toMatchObject({
    status: 'FILLED',
    clientOrderId: 'adl_autoclose',
    price: '91200.0',
    origQty: '0.030',
    executedQty: '0.030',
    positionSide: 'SHORT',
    reduceOnly: false,
  });
  const rich = binanceusdm(base, who.rich);
  const richAdl = await rich.fetchMyLiquidations(BTC, undefined, undefined, { autoCloseType: 'ADL' });
  expect(richAdl.map((l: any) => [l.contracts, l.info.origQty])).toEqual([[0.02, '0.020']]);
  // no autoCloseType: both kinds; since after the liquidation: none
  expect((await thin.fapiPrivateGetForceOrders({})).map((o: any) => o.clientOrderId)).toEqual(['adl_autoclose']);
  expect(await loser.fetchMyLiquidations(BTC, liquidatedAt + 1)).toEqual([]);
  expect((await loser.fetchMyLiquidations(undefined, liquidatedAt, 1)).length).toBe(1);
}

describe('fetchMyLiquidations through real ccxt', () => {
  it('the liquidated account sees its liquidation order filled by what closed; each deleveraged one its ADL order', async () => {
    await expectRecords();
  });

  it('the same records after a restart on the same data', async () => {
    await stop();
    await start();
    await expectRecords();
  });

  it('refuses bad parameters with Binance codes', async () => {
    const call = async (params: Record<string, string | number>) =>
      (await signedCall(base, who.loser, 'GET', '/fapi/v1/forceOrders', params)).body;
    const range = "Data sent for parameter 'limit' is not valid. Legal range is '1 to 100'.";
    expect(await call({ autoCloseType: 'BANKRUPTCY' })).toEqual({
      code: -1130,
      msg: "Data sent for parameter 'autoCloseType' is not valid. It must be one of LIQUIDATION, ADL.",
    });
    expect(await call({ limit: 101 })).toEqual({ code: -1130, msg: range });
    expect(await call({ limit: 0 })).toEqual({ code: -1130, msg: range });
    expect(await call({ symbol: 'NOPEUSDT' })).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect(await call({ startTime: liquidatedAt, endTime: liquidatedAt - 1 })).toEqual({
      code: -1023,
      msg: 'Start time is greater than end time.',
    });
    expect(await call({ startTime: liquidatedAt - WEEK - 1, endTime: liquidatedAt })).toEqual({
      code: -1127,
      msg: 'More than 7 days between startTime and endTime.',
    });
    // through ccxt: Binance's -1130 is its BadRequest
    const loser = binanceusdm(base, who.loser);
    await expect(loser.fetchMyLiquidations(BTC, undefined, undefined, { autoCloseType: 'X' })).rejects.toThrow(
      ccxt.BadRequest,
    );
  });
});
