// The latency gate both WebSocket hubs hold a replay's pushes in (src-main/api/ws/latency-gate.ts):
// nothing before stamp + latency, build order kept, snapshot merging, nothing kept once released.
import { describe, expect, it } from 'vitest';
import { LatencyGate } from '../../../src-main/api/ws/latency-gate.ts';

function clocked(ms: number) {
  const clock = { t: 1_000 };
  const gate = new LatencyGate<string>(ms, () => clock.t);
  const sent: string[] = [];
  const release = () => gate.release((x) => sent.push(x));
  return { clock, gate, sent, release };
}

describe('LatencyGate', () => {
  it('holds nothing with latency 0 and says so', () => {
    const g = new LatencyGate<string>(0, () => 0);
    expect(g.active).toBe(false);
    expect(new LatencyGate<string>(-5, () => 0).active).toBe(false);
    expect(new LatencyGate<string>(1, () => 0).active).toBe(true);
  });

  it('releases an item exactly when market time reaches its stamp + the latency, not a ms before', () => {
    const { clock, gate, sent, release } = clocked(250);
    gate.hold('a'); // stamp 1000, due 1250
    clock.t = 1100;
    gate.hold('b'); // due 1350
    clock.t = 1249;
    expect(release()).toBe(0);
    expect(sent).toEqual([]);
    clock.t = 1250;
    expect(release()).toBe(1);
    expect(sent).toEqual(['a']);
    clock.t = 1349;
    release();
    expect(sent).toEqual(['a']);
    clock.t = 5000;
    release();
    expect(sent).toEqual(['a', 'b']);
    expect(gate.size).toBe(0);
  });

  it('uses the stamp given (the command time) and the `now` given to release', () => {
    const { gate, sent } = clocked(100);
    gate.hold('old', 500); // due 600
    gate.hold('now'); // due 1100
    expect(gate.release((x) => sent.push(x), 600)).toBe(1);
    expect(sent).toEqual(['old']);
    gate.release((x) => sent.push(x), 1099);
    expect(sent).toEqual(['old']);
  });

  it('keeps build order: an item is not released ahead of one held before it', () => {
    const { clock, gate, sent, release } = clocked(100);
    gate.hold('first', 2_000); // due 2100
    gate.hold('second', 1_000); // due 1100, but behind 'first'
    clock.t = 1_500;
    release();
    expect(sent).toEqual([]);
    clock.t = 2_100;
    release();
    expect(sent).toEqual(['first', 'second']);
  });

  it('holdOrMerge replaces a held item of the same due time that matches, in its place', () => {
    const { clock, gate, sent, release } = clocked(10);
    gate.hold('trade-1');
    gate.holdOrMerge(
      'depth-A',
      (h) => h.startsWith('depth'),
      (h) => `${h}+A`,
    );
    gate.holdOrMerge(
      'depth-B',
      (h) => h.startsWith('depth'),
      (h) => `${h}+B`,
    );
    clock.t += 1; // another market time: no merge with the earlier due
    gate.holdOrMerge(
      'depth-C',
      (h) => h.startsWith('depth'),
      (h) => `${h}+C`,
    );
    expect(gate.size).toBe(3);
    clock.t += 100;
    release();
    expect(sent).toEqual(['trade-1', 'depth-A+B', 'depth-C']);
  });

  it('keeps nothing once released or cleared, over many items', () => {
    const { clock, gate, sent, release } = clocked(5);
    for (let i = 0; i < 5000; i++) {
      gate.hold(`x${i}`);
      clock.t++;
      release();
    }
    clock.t += 10;
    release();
    expect(sent.length).toBe(5000);
    expect(sent[4999]).toBe('x4999');
    expect(gate.size).toBe(0);
    const internals = gate as unknown as { items: unknown[]; dues: unknown[] };
    expect(internals.items.length).toBe(0);
    expect(internals.dues.length).toBe(0);
    gate.hold('y');
    gate.clear();
    expect(gate.size).toBe(0);
    clock.t += 100;
    expect(release()).toBe(0);
  });

  it('drops an item whose send throws and keeps the rest held in order', () => {
    const { clock, gate, sent } = clocked(1);
    gate.hold('boom');
    gate.hold('later', clock.t + 100);
    clock.t += 1;
    expect(() =>
      gate.release((x) => {
        if (x === 'boom') throw new Error('send failed');
        sent.push(x);
      }),
    ).toThrow('send failed');
    expect(gate.size).toBe(1);
    clock.t += 200;
    gate.release((x) => sent.push(x));
    expect(sent).toEqual(['later']);
  });

  it("holds nothing past the replay's end: an item due after `until` is due at `until`", () => {
    const clock = { t: 9_900 };
    const gate = new LatencyGate<string>(500, () => clock.t, 10_000);
    const sent: string[] = [];
    gate.hold('early', 9_400); // due 9900
    gate.hold('late'); // 10400, due at the end: 10000
    gate.holdOrMerge(
      'late2',
      () => true,
      (h) => `${h}+`,
      9_950,
    ); // due 10000 too: merged into 'late'
    expect(gate.release((x) => sent.push(x))).toBe(1);
    expect(sent).toEqual(['early']);
    clock.t = 10_000; // a finished replay's time stays here
    gate.release((x) => sent.push(x));
    expect(sent).toEqual(['early', 'late+']);
    expect(gate.size).toBe(0);
  });
});
