// Venues for the exchange's tests, closed (and their folders removed) after each test: paper
// venues (in memory, no simulated market) and a user's venue kit (the simulated market unless
// turned off, a funded user, a one-way long, a data folder on disk for restart tests), with the
// usual BTCUSDT order input, the venue's refusal of a command and the accounting identity.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { ApiError } from '../../src-shared/errors.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import {
  houseLimit,
  placeOrder,
  setLeverage,
  setPositionMode,
  setPrices,
  upsertAccount,
} from '../helpers/exchange-commands.ts';

/**
 * Registers the closing of every venue it opens after each test of the calling file; returns the
 * opener. `wall`: a fixed wall clock (market times in events then do not depend on the run).
 */
export function paperVenues(wall?: () => number): () => LocalVenue {
  const venues: LocalVenue[] = [];
  afterEach(async () => {
    for (const v of venues.splice(0)) await v.close();
  });
  return () => {
    const v = openVenue({ dataDir: ':memory:', simulate: false, ...(wall ? { wall } : {}) });
    venues.push(v);
    return v;
  };
}

/**
 * A venue as a user's (simulated market on unless `simulate` is false, wall clock fixed at `wall`,
 * paused when asked), funded users, data folders: everything opened is closed and removed after
 * each test of the calling file.
 */
export function venueKit(o: { wall: number; balance: bigint; pause?: boolean; simulate?: boolean }) {
  const venues: LocalVenue[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    // a venue's close resolves once its checkpoint worker is gone: only then is the folder quiet
    for (const v of venues.splice(0)) await v.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A user `key` holding `balance`, created as the service creates one: through the exchange's sequencer. */
  const user = (v: LocalVenue, key: string, balance = o.balance): number =>
    upsertAccount(v.exchange, { apiKey: key, apiSecret: `${key}-secret`, kind: 'user', balance }, o.wall).id;
  const venue = (dataDir = ':memory:'): LocalVenue => {
    const v = openVenue({ dataDir, wall: () => o.wall, ...(o.simulate === false ? { simulate: false } : {}) });
    if (o.pause) v.clock.pause();
    venues.push(v);
    return v;
  };
  /** A fresh data folder, removed after the test. */
  const dataDir = (prefix: string): string => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  return {
    venue,
    user,
    dataDir,
    /**
     * A venue on a fresh data folder (`prefix`) whose insurance fund holds `fund` units: set in the
     * folder first, as the exchange reads it when it starts. Returns the venue and its folder.
     */
    async fundedVenue(prefix: string, fund: bigint): Promise<{ v: LocalVenue; dir: string }> {
      const dir = dataDir(prefix);
      const v0 = venue(dir);
      v0.settings.set('insurance_fund', String(fund));
      await v0.close(); // stays listed: closing again after the test does nothing
      const v = venue(dir);
      expect(v.exchange.insuranceFund()).toBe(fund);
      return { v, dir };
    },
    /**
     * A one-way user `key` at `leverage` on `symbol` holding a long of `qty` bought at `price` (the
     * mark, set here) as a taker against a resting house order: its id and the leverage's notional
     * cap as the leverage route answers it.
     */
    oneWayLong(
      v: LocalVenue,
      key: string,
      p: { symbol: string; leverage: number; qty: string; price: string },
      balance = o.balance,
    ): { u: number; maxNotional: number } {
      const u = user(v, key, balance);
      setPositionMode(v.exchange, u, 'one_way');
      setPrices(v.exchange, p.symbol, { mark: Number(p.price) });
      const lev = setLeverage(v.exchange, u, p.symbol, p.leverage);
      const { symbol, price, qty } = p;
      houseLimit(v.exchange, 2, price, qty, symbol);
      const buy = { symbol, side: 1, position_side: 1, position_action: 1, type: 1, price, qty } as const;
      expect(placeOrder(v.exchange, u, buy)).toMatchObject({ status: 3 });
      return { u, maxNotional: Number(lev.max_notional) };
    },
  };
}

/** A BTCUSDT order input: a limit of 0.010 unless the test says otherwise. */
export const btc = (
  o: Partial<OrderInput> & Pick<OrderInput, 'side' | 'position_side' | 'position_action'>,
): OrderInput => ({
  symbol: 'BTCUSDT',
  type: 1,
  qty: '0.010',
  ...o,
});

/** The ApiError `fn` throws (the venue's refusal); fails the test if it throws none or another error. */
export function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the venue to refuse with an ApiError');
}

/**
 * The accounting identity, exactly, in the store: deposits = wallet + fees paid + liquidation fees
 * - realized PnL + funding paid (open and closed positions). Also checks the live wallet is the
 * stored one.
 */
export function identityHolds(v: LocalVenue, accountId: number): boolean {
  const a = v.accounts.byId(accountId)!;
  const t = v.trading.accountTotals(accountId);
  const funding = v.db.prepare(
    `SELECT (SELECT COALESCE(SUM(funding_fee), 0) FROM positions WHERE account_id = ?1)
      + (SELECT COALESCE(SUM(total_funding_fee), 0) FROM closed_positions WHERE account_id = ?1) AS f`,
  );
  funding.setReadBigInts(true);
  const paid = (funding.get(accountId) as { f: bigint }).f;
  expect(v.exchange.walletOf(accountId)).toBe(a.walletBalance);
  return a.totalDeposits === a.walletBalance + t.fees + t.liquidationFees - t.realized + paid;
}
