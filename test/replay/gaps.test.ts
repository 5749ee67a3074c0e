// Gaps in an L2 recording (docs/replay.md "The historical book"): a diff that does not continue
// the stream is a break; the book stays as it was until the next snapshot, and the replay's
// status shows the breaks met, their count and times. The TRXUSDT recording with one diff event
// taken out (its rows dropped from the CSV) must show one break, at the next event's time.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../data/archive-fixtures.ts';
import { LASOTA, replayVenue, type ReplayVenue } from './harness.ts';

let v: ReplayVenue | undefined;
afterEach(() => {
  v?.close();
  v = undefined;
});

describe('gaps in the depth stream', () => {
  it('are counted, with their times, in the status', async () => {
    const [header, ...rows] = readFileSync(path.join(LASOTA, 'diff_depth_stream.csv'), 'utf8').trim().split('\n');
    const ids = [...new Set(rows.map((r) => r.split(',')[7]))];
    const dropped = ids[Math.floor(ids.length / 2)];
    const kept = rows.filter((r) => r.split(',')[7] !== dropped);
    const next = kept.find((r) => BigInt(r.split(',')[7]) > BigInt(dropped))!.split(',');
    const file = path.join(tempDir(), 'diff_depth_stream.csv');
    writeFileSync(file, [header, ...kept].join('\n') + '\n');
    const snapshot = readFileSync(path.join(LASOTA, 'rest_depth_snapshot.csv'), 'utf8')
      .trim()
      .split('\n')[1]
      .split(',');
    v = await replayVenue(
      [
        {
          paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), file],
          opts: { market: 'um', symbol: 'TRXUSDT', kind: 'depth' },
        },
      ],
      { symbols: ['TRXUSDT'], start: Number(snapshot[3]) },
    );
    expect(v.market.status().gaps).toEqual({ TRXUSDT: { count: 0, times: [] } });
    v.market.seek(v.market.status().until);
    // the event after the hole breaks the chain, at its TransactionTime (a USD-M diff's time is its T);
    // the book then waits for a snapshot (none comes)
    expect(v.market.status().gaps).toEqual({ TRXUSDT: { count: 1, times: [Number(next[4])] } });
  });
});
