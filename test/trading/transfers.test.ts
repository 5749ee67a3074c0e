// Transfers (migration 7): every change of an account's deposits total is stored with its cause
// and market time in the same unit (paper deposit and withdrawal, reset, account set through the
// exchange, the insurance fund covering a wallet a liquidation left below zero), so an account's
// transfers always add up to its total deposits.
import {
  deposit,
  houseLimit,
  placeOrder,
  resetAccount,
  setPrices,
  upsertAccount,
} from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { TransferKind } from '../../src-main/trading/ports.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** In-memory venues (the clock paused), closed after each test. */
const { venue } = venueKit({ wall: T0, balance: 0n, pause: true });

const transfersOf = (v: Venue, accountId: number) =>
  v.trading.transfers({ accountId, limit: 100, order: 'asc' }).map((t) => [t.kind, t.amount]);
const depositsOf = (v: Venue, accountId: number) => v.accounts.byId(accountId)!.totalDeposits;
const sum = (v: Venue, accountId: number) =>
  v.trading.transfers({ accountId, limit: 100 }).reduce((a, t) => a + t.amount, 0n);

describe('transfers', () => {
  it('account set, deposit, withdrawal and reset: one row each, adding up to the deposits total', () => {
    const v = venue();
    const ex = v.exchange;
    const spec = { apiKey: 'xfer_a_0000', apiSecret: 'xfer_s_0000', kind: 'user' as const };
    const { id } = upsertAccount(ex, { ...spec, balance: 1_000n * USDT }, T0);
    upsertAccount(ex, { ...spec, balance: 1_000n * USDT }, T0); // the same balance: nothing moved, no row
    upsertAccount(ex, { ...spec, balance: 1_500n * USDT }, T0);
    deposit(ex, id, 200n * USDT);
    deposit(ex, id, -50n * USDT);
    resetAccount(ex, id, 10_000n * USDT);
    expect(transfersOf(v, id)).toEqual([
      [TransferKind.ACCOUNT_SET, 1_000n * USDT],
      [TransferKind.ACCOUNT_SET, 500n * USDT],
      [TransferKind.DEPOSIT, 200n * USDT],
      [TransferKind.DEPOSIT, -50n * USDT],
      [TransferKind.RESET, 8_350n * USDT],
    ]);
    expect(sum(v, id)).toBe(depositsOf(v, id));
    expect(v.trading.transfers({ accountId: id, limit: 1 })[0].time).toBe(v.clock.now());
    // a refused deposit leaves no row
    expect(() => deposit(ex, id, -1_000_000n * USDT)).toThrow();
    expect(transfersOf(v, id)).toHaveLength(5);
  });

  it('the insurance fund covering a wallet below zero is an INSURANCE_COVER transfer', () => {
    const v = venue();
    const ex = v.exchange;
    const { id } = upsertAccount(
      ex,
      { apiKey: 'xfer_b_0000', apiSecret: 'xfer_s_0000', kind: 'user', balance: 500n * USDT },
      T0,
    );
    houseLimit(ex, 2, '96000.0', '1.000');
    placeOrder(ex, id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
    // the bankruptcy price, where the wallet after the opening fee is gone: the liquidation may
    // sell down to it; the only bid is 10 above it, so the sale leaves 1 USDT, less than its
    // taker fee, and the wallet ends below zero, which the fund covers
    const bp = 96_000 - Number(ex.walletOf(id)) / 1e8 / 0.1;
    const bid = (Math.ceil(bp) + 10).toFixed(1);
    houseLimit(ex, 1, bid, '1.000');
    const fund = ex.insuranceFund();
    setPrices(ex, 'BTCUSDT', { mark: Number(bid) });
    expect(v.trading.trades({ accountId: id, limit: 1 })[0]).toMatchObject({
      priceTicks: ex.pair('BTCUSDT')!.math.price.mustToUnits(bid),
    });
    expect(ex.positions(id)).toEqual([]);
    expect(ex.walletOf(id)).toBe(0n);
    const rows = v.trading.transfers({ accountId: id, limit: 10, order: 'asc' });
    expect(rows.map((t) => t.kind)).toEqual([TransferKind.ACCOUNT_SET, TransferKind.INSURANCE_COVER]);
    expect(rows[1].amount).toBeGreaterThan(0n);
    expect(ex.insuranceFund()).toBe(fund - rows[1].amount);
    expect(sum(v, id)).toBe(depositsOf(v, id));
  });
});
