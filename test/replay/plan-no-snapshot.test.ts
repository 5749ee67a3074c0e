// An L2 replay needs a REST snapshot to build its book from (docs/replay.md "The historical
// book"): the spot TRXUSDT recording of 2025-03-04 (test/fixtures, SOURCES.md) is a diff stream
// and a trade stream with no snapshot. Replayed from 00:00:01.300 it was an L2 replay whose book
// stayed empty to its end (a market buy of 100 expired unfilled, the depth read bids [] asks []);
// it is refused, naming the depth dataset and the trades to pin instead, and with the trades
// pinned it is a trades replay.
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { planSources } from '../../src-main/replay/plan.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { FIXTURES } from '../data/archive-fixtures.ts';
import { importInto, replayDataOf } from './harness.ts';

const SPOT_TRX = path.join(FIXTURES, 'depth/binance_spot_TRXUSDT_2025-03-04_lasota');
const START = Date.UTC(2025, 2, 4, 0, 0, 1, 300);

describe('a depth dataset without a snapshot', () => {
  let db: DatabaseSync | undefined;
  afterEach(() => db?.close());

  async function spotTrx() {
    db = openDatabase({ dataDir: ':memory:' });
    const datasets = await importInto(db, [
      { paths: [path.join(SPOT_TRX, 'diff_depth_stream.csv')], opts: { market: 'spot', symbol: 'TRXUSDT' } },
      { paths: [path.join(SPOT_TRX, 'trade_stream.csv')], opts: { market: 'spot', symbol: 'TRXUSDT' } },
    ]);
    const list = datasets.store.list().filter((d) => d.symbol === 'TRXUSDT');
    const depth = list.find((d) => d.kind === 'depth')!;
    const trades = list.find((d) => d.kind === 'trades')!;
    return { data: replayDataOf(datasets), depth: depth.id, trades: trades.id };
  }

  it('is refused as an L2 source, naming it and the trades to pin', async () => {
    const { data, depth, trades } = await spotTrx();
    expect(() => planSources(data, ['TRXUSDT'], START)).toThrow(
      `the dataset ${depth} (spot depth of TRXUSDT) holds no order book snapshot up to 2025-03-04T00:00:02.162Z: ` +
        'its diffs alone cannot build the book, which would stay empty for the whole replay; import a REST snapshot ' +
        `of the book into it, or replay the trades alone: pin dataset ${trades} (spot trades of TRXUSDT)`,
    );
    // pinned, the depth dataset is refused the same way
    expect(() => planSources(data, ['TRXUSDT'], START, undefined, [depth])).toThrow(/holds no order book snapshot/);
  });

  it('the trades pinned instead are replayed', async () => {
    const { data, trades } = await spotTrx();
    const [src] = planSources(data, ['TRXUSDT'], START, undefined, [trades]);
    expect(src.kind).toBe('trades');
    expect(src.depth).toBeNull();
    expect(src.trades?.id).toBe(trades);
  });
});
