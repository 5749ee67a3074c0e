// The price an L2 pair starts with when its book's snapshot lists one side only (docs/replay.md,
// Session: "the best bid of the depth snapshot the replay starts from"). The repository's spot
// BTCUSDT snapshot of 2025-04-14 (Lasota's recorder, its first 6 bid levels: SOURCES.md) has no
// ask; beside it, BTCUSDT's spot 15m klines of 2025-01-06..12, three months older, which the
// replay does not read. The pair must start at the book's best bid, not at those candles' last close.
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, it } from 'vitest';
import { FIXTURES } from '../data/archive-fixtures.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';

const SNAPSHOT = path.join(FIXTURES, 'depth/binance_spot_BTCUSDT_2025-04-14_lasota/rest_depth_snapshot.csv');

let db: DatabaseSync | null = null;
let svc: ServiceHandle | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
  db?.close();
  db = null;
});

it("lists a pair whose snapshot has bids only at the snapshot's best bid, not at older candles of another dataset", async () => {
  db = openDatabase({ dataDir: ':memory:' });
  const ds = await importInto(db, [
    { paths: [SNAPSHOT], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'depth' } },
    {
      paths: [path.join(KLINES, 'binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv')],
      opts: { market: 'spot', symbol: 'BTCUSDT', interval: '15m' },
    },
  ]);
  svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: {
      options: { symbols: ['BTCUSDT'], start: Date.parse('2025-04-14T00:00Z') },
      data: replayDataOf(ds),
      lockstep: true,
    },
  });
  expect(svc.venue.replay!.status().sources).toEqual({ BTCUSDT: 'depth' });
  const price = async (): Promise<string[]> => {
    const p = (await svc!.app.inject({ method: 'GET', url: '/fapi/v1/complete_price?symbol=BTCUSDT' })).json().data;
    return [p.mark_price, p.index_price, p.last_price];
  };
  // the snapshot's best bid (83759.99000000 in the file); 94545.06 is the 15m candles' last close, 2025-01-12 23:45
  expect(await price()).toEqual(['83759.99000000', '83759.99000000', '83759.99']);
  svc.venue.replay!.act({ action: 'step', ms: 1 });
  const book = (await svc.app.inject({ method: 'GET', url: '/fapi/v1/depth?symbol=BTCUSDT' })).json().data;
  expect(book.bids[0]).toEqual(['83759.99', '2.08852']);
  expect(book.asks).toEqual([]);
  expect(await price()).toEqual(['83759.99000000', '83759.99000000', '83759.99']);
});
