// The merge of a replay's streams (src-main/replay/merge.ts) against a plain sort: random streams
// of random times and ranks, run to random ends, must apply exactly the events a stable sort by
// (time, rank, order added) puts at or before each end, in that order, with the clock moved
// before each later time.
import { describe, expect, it } from 'vitest';
import { StreamMerge, type Stream } from '../../src-main/replay/merge.ts';
import { mulberry32 } from '../helpers/seeded-random.ts';

interface Ev {
  time: number;
  rank: number;
  stream: number;
  i: number;
}

function listStream(times: number[], rank: number, stream: number, log: Ev[]): Stream {
  let i = 0;
  const st: Stream = {
    time: times.length > 0 ? times[0] : Number.POSITIVE_INFINITY,
    rank,
    apply() {
      log.push({ time: times[i], rank, stream, i });
      i++;
      st.time = i < times.length ? times[i] : Number.POSITIVE_INFINITY;
    },
  };
  return st;
}

describe('StreamMerge', () => {
  it('applies events in (time, rank, order added) order up to each end, as a stable sort does', () => {
    const rnd = mulberry32(7);
    for (let round = 0; round < 200; round++) {
      const log: Ev[] = [];
      const merge = new StreamMerge();
      const all: Ev[] = [];
      const nStreams = 1 + Math.floor(rnd() * 6);
      for (let s = 0; s < nStreams; s++) {
        const rank = Math.floor(rnd() * 4);
        const times: number[] = [];
        let t = Math.floor(rnd() * 5);
        for (let k = Math.floor(rnd() * 30); k > 0; k--) {
          times.push(t);
          t += Math.floor(rnd() * 4); // repeats included
        }
        times.forEach((time, i) => all.push({ time, rank, stream: s, i }));
        merge.add(listStream(times, rank, s, log));
      }
      all.sort((a, b) => a.time - b.time || a.rank - b.rank || a.stream - b.stream);
      const moves: number[] = [];
      let now = 0;
      let applied = 0;
      for (const end of [3, 3, 10, 25, 1000]) {
        applied += merge.run(end, now, (t) => {
          expect(t).toBeGreaterThan(now);
          moves.push(t);
          now = t;
        });
        const want = all.filter((e) => e.time <= end);
        expect(log).toEqual(want);
        expect(applied).toBe(want.length);
        now = Math.max(now, end);
      }
      expect(moves).toEqual([...new Set(all.map((e) => e.time).filter((t) => t > 0))]);
      expect(merge.next()).toBe(Number.POSITIVE_INFINITY);
    }
  });
});
