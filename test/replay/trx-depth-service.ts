// A replay service of the TRXUSDT recording's book (its snapshot and diffs, USD-M) from a second
// past its snapshot, and the database its datasets are read from: the set-up of the tests that
// drive a replay's controls over HTTP and WebSocket.
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, LASOTA, replayDataOf } from './harness.ts';

/** The recording's REST snapshot time (ms). */
export const SNAPSHOT_TIME = 1744588800061;

export async function trxDepthService(o: {
  lockstep: boolean;
  speed?: number;
}): Promise<{ db: DatabaseSync; svc: ServiceHandle }> {
  const db = openDatabase({ dataDir: ':memory:' });
  const ds = await importInto(db, [
    {
      paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
      opts: { market: 'um', symbol: 'TRXUSDT', kind: 'depth' },
    },
  ]);
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    ...(o.speed === undefined ? {} : { speed: o.speed }),
    replay: {
      options: { symbols: ['TRXUSDT'], start: SNAPSHOT_TIME + 1000 },
      data: replayDataOf(ds),
      lockstep: o.lockstep,
    },
  });
  return { db, svc };
}
