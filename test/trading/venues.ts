// Paper venues for the exchange's tests: in memory, no simulated market, closed after each test.
import { afterEach } from 'vitest';
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
