// The load clients' frame reader (ws-frame-reader.ts): whatever way TCP splits the server's bytes into
// reads, it yields the same messages with their E, answers pings, and refuses what a server
// must not send. The benchmark's latency figures are only as good as this reader.
import { describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { FrameReader } from './ws-frame-reader.ts';

// ws's own server-side framing (its Sender export has no typings)
const { Sender } = wsModule as unknown as { Sender: { frame(d: Buffer, o: object): Buffer[] } };
const wsFrame = (payload: string, opcode = 1, fin = true): Buffer =>
  Buffer.concat(Sender.frame(Buffer.from(payload), { fin, opcode, mask: false, readOnly: false, rsv1: false }));

const push = (E: number, pad = 0): string =>
  JSON.stringify({ stream: 'depth_update@BTCUSDT', data: { e: 'depthUpdate', E, s: 'BTCUSDT', pad: 'x'.repeat(pad) } });

interface Seen {
  messages: Array<{ E: number; text: string; now: number }>;
  pings: string[];
  closes: number;
  errors: string[];
}

function reader(): { r: FrameReader; seen: Seen } {
  const seen: Seen = { messages: [], pings: [], closes: 0, errors: [] };
  const r = new FrameReader({
    message: (E, payload, now) => seen.messages.push({ E, text: payload.toString('utf8'), now }),
    ping: (payload) => seen.pings.push(payload.toString('utf8')),
    close: () => seen.closes++,
    error: (what) => seen.errors.push(what),
  });
  return { r, seen };
}

/** Feeds `bytes` cut at `cuts`, each read through one reused buffer (as net's onread does), read i at time i. */
function feed(bytes: Buffer, cuts: number[]): Seen {
  const { r, seen } = reader();
  const shared = Buffer.alloc(bytes.length);
  let from = 0;
  [...cuts, bytes.length].forEach((to, i) => {
    const n = bytes.copy(shared, 0, from, to);
    r.read(shared.subarray(0, n), i);
    shared.fill(0xee); // the caller reuses its buffer: carried bytes must have been copied
    from = to;
  });
  return seen;
}

const small = [wsFrame(push(123)), wsFrame(push(456, 300)), wsFrame('hi', 9), wsFrame('{"id":1,"result":null}')];
// a fragmented message: E in the first fragment, a pong between the fragments
const fragmented = [
  wsFrame(push(1000, 50).slice(0, 70), 1, false),
  wsFrame('', 10),
  wsFrame(push(1000, 50).slice(70), 0, true),
];
const expected = [
  { E: 123, text: push(123) },
  { E: 456, text: push(456, 300) },
  { E: -1, text: '{"id":1,"result":null}' },
  { E: 1000, text: push(1000, 50) },
];

describe('FrameReader', () => {
  it('reads every frame kind from one read', () => {
    const big = push(789, 70_000); // a 64-bit length header
    const seen = feed(Buffer.concat([...small, wsFrame(big), ...fragmented]), []);
    expect(seen.errors).toEqual([]);
    expect(seen.messages.map(({ E, text }) => ({ E, text }))).toEqual([
      ...expected.slice(0, 3),
      { E: 789, text: big },
      expected[3],
    ]);
    expect(seen.pings).toEqual(['hi']);
  });

  it('gives the same messages for a split at every byte offset, timed at the completing read', () => {
    const bytes = Buffer.concat([...small, ...fragmented]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const seen = feed(bytes, [cut]);
      expect(seen.messages.map(({ E, text }) => ({ E, text }))).toEqual(expected);
      // the message that the cut split completes in read 1, those before it in read 0
      const upTo = (k: number): number => small.slice(0, k).reduce((a, f) => a + f.length, 0);
      const ends = [upTo(1), upTo(2), upTo(4), bytes.length];
      expect(seen.messages.map((m) => m.now)).toEqual(ends.map((e) => (e <= cut ? 0 : 1)));
      expect(seen.pings).toEqual(['hi']);
    }
  });

  it('reads a stream delivered one byte per read', () => {
    const bytes = Buffer.concat([...small, ...fragmented]);
    const seen = feed(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
    );
    expect(seen.messages.map(({ E, text }) => ({ E, text }))).toEqual(expected);
    expect(seen.errors).toEqual([]);
  });

  it('refuses a masked server frame and a reserved opcode, and sees a close', () => {
    const masked = Buffer.concat(
      Sender.frame(Buffer.from('x'), { fin: true, opcode: 1, mask: true, readOnly: false, rsv1: false }),
    );
    expect(feed(masked, []).errors).toEqual(['masked server frame']);
    expect(feed(wsFrame('x', 3), []).errors).toEqual(['reserved opcode 3']);
    expect(feed(wsFrame('', 8), []).closes).toBe(1);
  });
});
