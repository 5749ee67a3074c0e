// The exchange on the in-memory trading ports (trading/memory-store.ts): no SQLite anywhere.
// Place, fill, cancel, deposit, close and funding through execute(); the accounting identity
// holds to the unit, the store follows at the commit, pushes wait for it, and a second exchange
// on the same store restores the state.
import { describe, expect, it } from 'vitest';
import { openingLimit, openLimit, placeBotOrder } from '../helpers/exchange-commands.ts';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import { wireRecords } from '../../src-main/api/records.ts';
import { DEFAULT_CATALOGUE } from '../../src-main/market/catalogue.ts';
import { toNewSymbol } from '../../src-main/market/seed-catalogue.ts';
import type { SymbolRow } from '../../src-main/core/symbol.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { Exchange } from '../../src-main/trading/exchange.ts';
import {
  MemoryConditionalStore,
  MemorySettings,
  MemorySymbols,
  MemoryTradingStore,
} from '../../src-main/trading/memory-store.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const rows: SymbolRow[] = DEFAULT_CATALOGUE.map((e, i) => ({
  ...toNewSymbol(e, i),
  id: i + 1,
  createdAt: T0,
  updatedAt: T0,
}));

function memoryVenue(store = new MemoryTradingStore(), settings = new MemorySettings()) {
  const clock = { now: () => T0 };
  const ex = new Exchange({
    symbols: new MemorySymbols(rows),
    accounts: store,
    settings,
    repo: store,
    conditionals: new MemoryConditionalStore(store.group),
    clock,
    records: wireRecords,
  });
  return { ex, store, settings };
}

/** deposits = wallet + fees paid + liquidation fees - realized PnL + funding paid, in the store, exactly. */
function identity(store: MemoryTradingStore, id: number): { deposits: bigint; rhs: bigint } {
  const a = store.byId(id)!;
  const t = store.accountTotals(id);
  return {
    deposits: a.totalDeposits,
    rhs: a.walletBalance + t.fees + t.liquidationFees - t.realized + store.fundingPaid(id),
  };
}

describe('the exchange on in-memory ports', () => {
  it('place, fill, cancel, deposit, close and funding keep the accounting identity exact', () => {
    const { ex, store } = memoryVenue();
    const pushes: AccountEvent[] = [];
    ex.events.on('account', (e) => pushes.push(e));
    const { id } = ex.execute({
      kind: 'upsertAccount',
      spec: { apiKey: 'mem-alice', apiSecret: 'mem-secret', kind: 'user', balance: 10_000n * USDT },
      now: T0,
    });
    ex.execute({ kind: 'prices', symbol: 'BTCUSDT', mark: 96_000 });

    // a resting bid: 0.010 x 95,000 = 950 notional; 20x -> 47.5 margin + 0.475 taker fee frozen
    const placed = openLimit(ex, id, { side: 1, price: '95000.0', qty: '0.010' });
    expect(placed.status).toBe(1);
    expect(ex.summary(id).frozen_margin).toBe('47.97500000');
    // nothing is announced before the commit that stores it
    expect(pushes).toHaveLength(0);
    expect(store.order(Number(placed.order_id))?.frozen).toBe(4_797_500_000n);
    store.group.commitNow();
    expect(pushes.some((e) => e.kind === 'order')).toBe(true);

    // a bot sell fills 0.004 of it as maker (0.02%: 0.076 on 380)
    placeBotOrder(ex, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '95000.0',
      qty: '0.004',
    });
    // the rest is cancelled: its margin comes back
    const cancelled = ex.execute({ kind: 'cancel', accountId: id, orderId: Number(placed.order_id) });
    expect(cancelled).toMatchObject({ status: 4, filled_qty: '0.004', total_fee: '0.07600000' });
    expect(ex.summary(id).frozen_margin).toBe('0.00000000');

    expect(ex.execute({ kind: 'deposit', accountId: id, amount: 500n * USDT }).total_deposits).toBe('10500.00000000');

    // close 0.002 into a bot bid at 96,000: +2 realized, 0.096 taker fee
    placeBotOrder(ex, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '0.002',
    });
    const close = ex.execute({
      kind: 'place',
      accountId: id,
      input: { symbol: 'BTCUSDT', side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.002' },
    });
    expect(close.status).toBe(3);

    // funding at 0.01%: the long pays 96,000 x 0.002 x 0.0001 = 0.0192
    expect(ex.execute({ kind: 'funding', symbol: 'BTCUSDT', rate: 0.0001, mark: 96_000, time: T0 })).toBe(1);
    // the settlement is recorded at the commit: the pair's rate and the position's payment
    store.group.commitNow();
    expect(store.fundingRates).toEqual([{ symbol: 'BTCUSDT', time: T0, rate: 0.0001, mark: 96_000 }]);
    expect(store.fundingPayments).toEqual([
      { accountId: id, symbol: 'BTCUSDT', positionSide: 1, time: T0, rate: 0.0001, mark: 96_000, amount: -1_920_000n },
    ]);

    // 10,000 - 0.076 + 500 + 2 - 0.096 - 0.0192
    expect(ex.walletOf(id)).toBe(1_050_180_880_000n);
    store.group.commitNow();
    expect(store.byId(id)!.walletBalance).toBe(1_050_180_880_000n);
    const { deposits, rhs } = identity(store, id);
    expect(deposits).toBe(10_500n * USDT);
    expect(rhs).toBe(deposits);

    // money in bigint: 0.002 long at mark 96,000 (cost 190): upnl 2, margin 192 / 20 = 9.6
    expect(ex.summary(id)).toMatchObject({
      wallet_balance: '10501.80880000',
      available_balance: '10494.20880000',
      position_margin: '9.60000000',
      unrealized_pnl: '2.00000000',
      margin_balance: '10503.80880000',
    });
    // the stored cancelled order is final, with what it filled
    expect(store.order(Number(placed.order_id))).toMatchObject({ status: 4, filledLots: 4, frozen: 0n });
  });

  it("a liquidation's clearance fee is stored with the wallet and the fund, and the identity holds with it", () => {
    const { ex, store, settings } = memoryVenue();
    const { id } = ex.execute({
      kind: 'upsertAccount',
      spec: { apiKey: 'mem-dave', apiSecret: 'mem-secret', kind: 'user', balance: 10_000n * USDT },
      now: T0,
    });
    ex.execute({ kind: 'setMarginMode', accountId: id, symbol: 'BTCUSDT', marginMode: 1 });
    ex.execute({ kind: 'prices', symbol: 'BTCUSDT', mark: 96_000 });
    const house = (side: 1 | 2, price: string) => placeBotOrder(ex, openingLimit(side, price, '1.000'));
    house(2, '96000.0');
    ex.execute({
      kind: 'place',
      accountId: id,
      input: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' },
    });
    house(1, '93000.0');
    // isolated 20x long 0.1 at 96,000 liquidated into the bid at 93,000: realized -300, taker fee
    // 4.65, clearance fee min(9,300 x 0.0125, 480 - 304.65) = 116.25
    ex.execute({ kind: 'prices', symbol: 'BTCUSDT', mark: 91_560 });
    store.group.commitNow();
    expect(store.liquidationFees).toMatchObject([
      { accountId: id, symbol: 'BTCUSDT', positionSide: 1, fee: 11_625_000_000n },
    ]);
    expect(store.byId(id)!.walletBalance).toBe(957_430_000_000n);
    expect(settings.get('insurance_fund')).toBe(String(ex.insuranceFund()));
    const { deposits, rhs } = identity(store, id);
    expect(rhs).toBe(deposits);
  });

  it('a rejected order changes nothing, in memory or in the store', () => {
    const { ex, store } = memoryVenue();
    const { id } = ex.execute({
      kind: 'upsertAccount',
      spec: { apiKey: 'mem-bob', apiSecret: 'mem-secret', kind: 'user', balance: 10n * USDT },
      now: T0,
    });
    const before = ex.summary(id);
    let err: unknown;
    try {
      ex.execute({
        kind: 'place',
        accountId: id,
        input: {
          symbol: 'BTCUSDT',
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          price: '95000.0',
          qty: '0.010',
          leverage: 5,
        },
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(Errors.INSUFFICIENT_MARGIN.code);
    store.group.commitNow();
    expect(ex.summary(id)).toEqual(before);
    expect(ex.pairSetting(id, 'BTCUSDT').leverage).toBe(20); // the leverage it asked for was not applied
    expect(store.orders.size).toBe(0);
    expect(store.pairSettings.size).toBe(0);
  });

  it('a second exchange on the same store restores orders, positions and wallets', () => {
    const first = memoryVenue();
    const { id } = first.ex.execute({
      kind: 'upsertAccount',
      spec: { apiKey: 'mem-carol', apiSecret: 'mem-secret', kind: 'user', balance: 10_000n * USDT },
      now: T0,
    });
    placeBotOrder(first.ex, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '0.003',
    });
    first.ex.execute({
      kind: 'place',
      accountId: id,
      input: { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.003' },
    });
    first.ex.execute({
      kind: 'place',
      accountId: id,
      input: {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '94000.0',
        qty: '0.002',
        client_order_id: 'keep-me',
      },
    });
    first.store.group.commitNow();

    const second = memoryVenue(first.store, first.settings);
    expect(second.ex.positions(id)).toEqual(first.ex.positions(id));
    expect(second.ex.openOrders(id)).toEqual(first.ex.openOrders(id));
    expect(second.ex.summary(id)).toEqual(first.ex.summary(id));
    expect(second.ex.openOrders(id)[0].client_order_id).toBe('keep-me');
    // ids go on from the stored high-water mark, never reused
    const r = openLimit(second.ex, id, { side: 1, price: '94000.0', qty: '0.002' });
    expect(Number(r.order_id)).toBeGreaterThan(Number(first.ex.openOrders(id)[0].id));
  });
});
