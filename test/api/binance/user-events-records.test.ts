// What the user stream's translator (streams/user-events.ts) says of a command agrees with the
// records the command left, whenever the events go out: ORDER_TRADE_UPDATE's `T` and `o.T` are
// the order's time (NEW), the fill's (TRADE) and the order's update time (CANCELED), never the
// time the event is sent (`E`); ACCOUNT_UPDATE pushes only the positions the command changed
// (a fill: its pair's; cross funding: none; isolated funding: that position), not every one
// whose unrealized PnL moved with the mark; its `bc` is the wallet's change less the fills' PnL
// and commission (a deposit's amount, a funding payment, "0" for a trade). Driven on a venue in memory with the
// exchange's own account events, its market clock paused and moved by the test between a command
// and the moment its events are translated (a microtask later).
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side, TimeInForce } from '../../../src-shared/enums.ts';
import type { OrderRecord, TradeRecord } from '../../../src-shared/types.ts';
import type { BinanceContext } from '../../../src-main/api/binance/context.ts';
import { UserEvents } from '../../../src-main/api/binance/streams/user-events.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import {
  cancelOrder,
  deposit,
  placeBotOrder,
  placeOrder,
  setMarginMode,
  setPrices,
  settleFunding,
} from '../../helpers/exchange-commands.ts';
import { account } from './helpers.ts';

let venue: LocalVenue;
let off: () => void;
let offRecords: () => void;
let events: UserEvents;
const streams = new Set<number>();
const sent: Array<{ accountId: number; msg: any }> = [];
/** The native records the commands pushed: orders and fills, as the native API shows them. */
const records: { orders: OrderRecord[]; fills: TradeRecord[] } = { orders: [], fills: [] };

beforeAll(() => {
  venue = openVenue({ dataDir: ':memory:' });
  venue.clock.pause();
  setPrices(venue.exchange, 'BTCUSDT', { mark: 96000 });
  setPrices(venue.exchange, 'ETHUSDT', { mark: 3400 });
  const ctx = { venue } as unknown as BinanceContext;
  events = new UserEvents(
    ctx,
    { deliver: (accountId, msg) => sent.push({ accountId, msg }), hasStream: (id) => streams.has(id) },
    0,
  );
  off = venue.exchange.events.on('account', (e) => events.onAccount(e));
  offRecords = venue.exchange.events.on('account', (e) => {
    if (e.kind === 'order') records.orders.push(e.data as OrderRecord);
    if (e.kind === 'fill') records.fills.push(e.data as TradeRecord);
  });
});
afterAll(async () => {
  off();
  offRecords();
  await venue.close();
});

// the account events go out once committed, and are translated a microtask later
const settle = () => new Promise((r) => setTimeout(r, 50));
/** Moves the paused market clock on by 5 s: what the command stamped is now 5 s old. */
const later = () => venue.clock.advance(5_000);

/** A one-way order of `who` (its one net position: position side 1). */
function order(who: { id: number }, symbol: string, side: Side, qty: string, price: string, tif: number): number {
  const r = placeOrder(venue.exchange, who.id, {
    symbol,
    side,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
    type: OrderType.LIMIT,
    price,
    qty,
    time_in_force: tif,
  });
  return Number(r.order_id);
}

/** A position of `qty` for `who` at `price`: the house rests the other side, `who` takes it. */
function open(who: { id: number }, symbol: string, side: Side, qty: string, price: string): void {
  placeBotOrder(venue.exchange, {
    symbol,
    type: OrderType.LIMIT,
    price,
    qty,
    side: side === Side.BUY ? Side.SELL : Side.BUY,
    position_side: side === Side.BUY ? PositionSide.SHORT : PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  order(who, symbol, side, qty, price, TimeInForce.IOC);
}

function stream(accountId: number): void {
  events.seed(accountId);
  streams.add(accountId);
}

const of = (accountId: number, e: string) =>
  sent.filter((s) => s.accountId === accountId && s.msg.e === e).map((s) => s.msg);

describe('ORDER_TRADE_UPDATE times', () => {
  it("T and o.T are the order's and the fill's record times, E the time the event is sent", async () => {
    const a = account(venue, 'uerta', 100_000, 'one_way');
    const b = account(venue, 'uertb', 100_000, 'one_way');
    stream(a.id);
    const resting = order(a, 'BTCUSDT', Side.SELL, '0.010', '96100.0', TimeInForce.GTC);
    later();
    await settle();
    order(b, 'BTCUSDT', Side.BUY, '0.004', '96100.0', TimeInForce.IOC);
    later();
    await settle();
    const cancelled = order(a, 'BTCUSDT', Side.SELL, '0.010', '96300.0', TimeInForce.GTC);
    later();
    cancelOrder(venue.exchange, a.id, { symbol: 'BTCUSDT', orderId: cancelled });
    later();
    await settle();
    const got = of(a.id, 'ORDER_TRADE_UPDATE').map((m) => ({ x: m.o.x, i: m.o.i, T: m.T, oT: m.o.T, E: m.E }));
    const placed = (id: number) => records.orders.find((r) => Number(r.id) === id)!.created_at;
    const fill = records.fills.find((f) => Number(f.order_id) === resting)!;
    const ended = records.orders.findLast((r) => Number(r.id) === cancelled)!.updated_at;
    expect(got.map(({ x, i, T, oT }) => ({ x, i, T, oT }))).toEqual([
      { x: 'NEW', i: resting, T: placed(resting), oT: placed(resting) },
      { x: 'TRADE', i: resting, T: fill.created_at, oT: fill.created_at },
      { x: 'NEW', i: cancelled, T: placed(cancelled), oT: placed(cancelled) },
      { x: 'CANCELED', i: cancelled, T: ended, oT: ended },
    ]);
    // each sent 5 s (or 10 s) after what it reports: E is the sending, not the record's time
    for (const m of got) expect(m.E).toBeGreaterThan(m.T);
    // the fill's ACCOUNT_UPDATE: T the fill's time too, E its sending
    const [update] = of(a.id, 'ACCOUNT_UPDATE').filter((m) => m.a.m === 'ORDER');
    expect(update.T).toBe(fill.created_at);
    expect(update.E).toBeGreaterThan(update.T);
  });
});

describe('ACCOUNT_UPDATE positions', () => {
  const pushed = (accountId: number) =>
    of(accountId, 'ACCOUNT_UPDATE').map((m) => [m.a.m, m.a.P.map((p: any) => `${p.s} ${p.pa} ${p.mt}`)]);

  it("a fill pushes its pair's position only, not another one whose unrealized PnL moved", async () => {
    const a = account(venue, 'uerpa', 100_000, 'one_way');
    stream(a.id);
    open(a, 'ETHUSDT', Side.SELL, '0.500', '3400.00');
    await settle();
    setPrices(venue.exchange, 'ETHUSDT', { mark: 3390 }); // the ETH short's PnL moves
    open(a, 'BTCUSDT', Side.BUY, '0.002', '96000.0');
    await settle();
    setPrices(venue.exchange, 'ETHUSDT', { mark: 3380 });
    open(a, 'BTCUSDT', Side.BUY, '0.002', '96000.0');
    await settle();
    expect(pushed(a.id)).toEqual([
      ['ORDER', ['ETHUSDT -0.500 cross']],
      ['ORDER', ['BTCUSDT 0.002 cross']],
      ['ORDER', ['BTCUSDT 0.004 cross']],
    ]);
  });

  it('funding: a cross position is not pushed (the wallet is), an isolated one is, with its new iw', async () => {
    const cross = account(venue, 'uerpc', 100_000, 'one_way');
    const isolated = account(venue, 'uerpi', 100_000, 'one_way');
    setMarginMode(venue.exchange, isolated.id, 'BTCUSDT', MarginMode.ISOLATED);
    stream(cross.id);
    stream(isolated.id);
    open(cross, 'BTCUSDT', Side.BUY, '0.010', '96000.0');
    open(isolated, 'BTCUSDT', Side.BUY, '0.010', '96000.0');
    await settle();
    setPrices(venue.exchange, 'BTCUSDT', { mark: 96050 }); // both positions' PnL moves
    settleFunding(venue.exchange, 'BTCUSDT', 0.0001, 96050, venue.clock.now());
    await settle();
    const funding = (id: number) => of(id, 'ACCOUNT_UPDATE').filter((m) => m.a.m === 'FUNDING_FEE');
    expect(funding(cross.id).map((m) => [m.a.B.length, m.a.P])).toEqual([[1, []]]);
    const [update] = funding(isolated.id);
    const [position] = venue.exchange.positions(isolated.id);
    expect(update.a.P).toEqual([
      expect.objectContaining({ s: 'BTCUSDT', pa: '0.010', mt: 'isolated', iw: String(position.margin) }),
    ]);
    // the isolated wallet paid the fee: it is another iw than the fill's update sent
    const [fill] = of(isolated.id, 'ACCOUNT_UPDATE').filter((m) => m.a.m === 'ORDER');
    expect(fill.a.P[0].iw).not.toBe(update.a.P[0].iw);
  });
});

describe('ACCOUNT_UPDATE bc', () => {
  const wallets = (accountId: number, reason: string) =>
    of(accountId, 'ACCOUNT_UPDATE')
      .filter((m) => m.a.m === reason)
      .map((m) => ({ wb: m.a.B[0].wb, bc: m.a.B[0].bc }));

  it("a deposit's bc is its amount, a trade's 0, a funding payment's the amount paid", async () => {
    const a = account(venue, 'uerbc', 100_000, 'one_way');
    stream(a.id);
    deposit(venue.exchange, a.id, 100n * 100_000_000n);
    await settle();
    deposit(venue.exchange, a.id, 2_550_000_000n); // 25.5
    await settle();
    expect(wallets(a.id, 'DEPOSIT')).toEqual([
      { wb: '100100.00000000', bc: '100.00000000' },
      { wb: '100125.50000000', bc: '25.50000000' },
    ]);
    // a fill moves the wallet by its fee alone: no balance change but PnL and commission
    open(a, 'BTCUSDT', Side.BUY, '0.010', '96000.0');
    await settle();
    const [trade] = wallets(a.id, 'ORDER');
    expect(trade.bc).toBe('0');
    expect(new Decimal(trade.wb).lessThan('100125.5')).toBe(true);
    // a long pays a positive rate: bc is that payment, as the wallet fell by it
    const paid = new Decimal(venue.exchange.positions(a.id)[0].quantity).times(96000).times(0.0001);
    const fundingTime = venue.clock.now();
    settleFunding(venue.exchange, 'BTCUSDT', 0.0001, 96000, fundingTime);
    later();
    await settle();
    const [funding] = wallets(a.id, 'FUNDING_FEE');
    expect(funding).toEqual({ wb: new Decimal(trade.wb).minus(paid).toFixed(8), bc: paid.negated().toFixed(8) });
    // T is the settlement's time, E the sending (5 s later)
    const [update] = of(a.id, 'ACCOUNT_UPDATE').filter((m) => m.a.m === 'FUNDING_FEE');
    expect(update.T).toBe(fundingTime);
    expect(update.E).toBe(fundingTime + 5_000);
  });
});
