// Venues for the exchange's tests, closed (and their folders removed) after each test: paper
// venues (in memory, no simulated market) and a user's venue kit (the simulated market unless
// turned off, a funded user, a data folder on disk for restart tests), with the usual BTCUSDT
// order input.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';

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
  return {
    venue(dataDir = ':memory:'): LocalVenue {
      const v = openVenue({ dataDir, wall: () => o.wall, ...(o.simulate === false ? { simulate: false } : {}) });
      if (o.pause) v.clock.pause();
      venues.push(v);
      return v;
    },
    user(v: LocalVenue, key: string, balance = o.balance): number {
      return v.accounts.upsert({ apiKey: key, apiSecret: `${key}-secret`, kind: 'user', balance }, o.wall).id;
    },
    /** A fresh data folder, removed after the test. */
    dataDir(prefix: string): string {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
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
