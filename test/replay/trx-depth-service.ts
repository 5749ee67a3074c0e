// A replay service of the TRXUSDT recording's book (its snapshot and diffs, USD-M) from a second
// past its snapshot, and the database its datasets are read from: the set-up of the tests that
// drive a replay's controls over HTTP and WebSocket.
import type { DatabaseSync } from 'node:sqlite';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { trxReplayData } from './harness.ts';

/** The recording's REST snapshot time (ms). */
export const SNAPSHOT_TIME = 1744588800061;

export async function trxDepthService(o: {
  lockstep: boolean;
  speed?: number;
}): Promise<{ db: DatabaseSync; svc: ServiceHandle }> {
  const { db, data } = await trxReplayData({ trades: false });
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    ...(o.speed === undefined ? {} : { speed: o.speed }),
    replay: {
      options: { symbols: ['TRXUSDT'], start: SNAPSHOT_TIME + 1000 },
      data,
      lockstep: o.lockstep,
    },
  });
  return { db, svc };
}
