// The mark derived from the prints (no mark data; docs/replay.md "Mark, index, funding"): the last
// print, at most once a second of history: a print a second or more after the last mark sent is
// sent at once; a later print within that second is sent once the second is up (so the mark is
// never more than a second behind history). Checked on the TRXUSDT trade recording against that
// schedule computed here from the recording alone, at every print and every due time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LASOTA, replayVenue, TRX_TRADES, type ReplayVenue } from './harness.ts';

interface Send {
  time: number;
  price: number;
}

function schedule(prints: Array<{ time: number; price: number }>): Send[] {
  const sends: Send[] = [];
  let last = Number.NEGATIVE_INFINITY;
  let pending: number | null = null;
  for (const p of prints) {
    if (pending !== null && last + 1000 <= p.time) {
      last += 1000;
      sends.push({ time: last, price: pending });
      pending = null;
    }
    if (p.time - last >= 1000) {
      last = p.time;
      sends.push({ time: p.time, price: p.price });
    } else pending = p.price;
  }
  if (pending !== null) sends.push({ time: last + 1000, price: pending });
  return sends;
}

let v: ReplayVenue | undefined;
afterEach(() => {
  v?.close();
  v = undefined;
});

describe('the derived mark of a trades-only replay', () => {
  it('is the last print, sent at once or once its second is up, never left behind history', async () => {
    const prints = readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .map((f) => ({ time: Number(f[4]), price: Number(f[7]) }));
    const sends = schedule(prints);
    // the recording has prints left pending (else this test would prove nothing)
    expect(sends.filter((s) => !prints.some((p) => p.time === s.time)).length).toBeGreaterThan(5);
    v = await replayVenue([{ paths: [TRX_TRADES], opts: { market: 'um', symbol: 'TRXUSDT', kind: 'trades' } }], {
      symbols: ['TRXUSDT'],
      start: prints[0].time,
      until: sends.at(-1)!.time + 10,
    });
    const pair = v.exchange.pair('TRXUSDT')!;
    const times = [...new Set([...prints.map((p) => p.time), ...sends.map((s) => s.time)])].sort((a, b) => a - b);
    for (const t of times) {
      v.market.seek(t);
      const want = sends.filter((s) => s.time <= t).at(-1)!.price;
      expect([t, Number(pair.markPrice.toFixed(10))]).toEqual([t, want]);
    }
  });
});
