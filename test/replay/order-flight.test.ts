// The orders and answers in flight of a replay (src-main/replay/order-flight.ts): arrivals in
// time order and FIFO at equal times, nothing past the replay's end, answers the response latency
// after the command was applied, and every waiting sender told once when the queue is failed.
import { describe, expect, it } from 'vitest';
import { ConstantLatency } from '../../src-main/replay/models/constant-latency.ts';
import { OrderFlight } from '../../src-main/replay/order-flight.ts';

/** Runs every arrival due by `t`, as the replay market does after the history up to its time. */
function reach(f: OrderFlight, t: number): number[] {
  const times: number[] = [];
  for (let o = f.takeDue(t); o !== null; o = f.takeDue(t)) {
    times.push(o.at);
    o.act();
  }
  return times;
}

describe('OrderFlight', () => {
  it('applies a command at its arrival and answers the response latency later, in the order sent', () => {
    const f = new OrderFlight(new ConstantLatency(100, 30));
    expect(f.immediate(0)).toBe(false);
    const log: string[] = [];
    const answers: string[] = [];
    const send = (name: string, now: number) =>
      f.send(
        () => (log.push(`${name} applied`), name),
        now,
        10_000,
        (v) => answers.push(`${v} ok`),
        (e) => answers.push(`${name} ${String(e)}`),
      );
    expect(send('a', 0)).toBe(130);
    expect(send('b', 0)).toBe(130);
    expect(send('c', 5)).toBe(135);
    expect(f.size).toBe(3);
    expect(reach(f, 99)).toEqual([]);
    expect(reach(f, 100)).toEqual([100, 100]);
    expect(log).toEqual(['a applied', 'b applied']);
    expect(answers).toEqual([]);
    expect(reach(f, 130)).toEqual([105, 130, 130]);
    expect(answers).toEqual(['a ok', 'b ok']);
    expect(reach(f, 135)).toEqual([135]);
    expect(answers).toEqual(['a ok', 'b ok', 'c ok']);
    expect(f.size).toBe(0);
  });

  it("answers a command's error as its answer, and caps arrivals at the replay's end", () => {
    const f = new OrderFlight(new ConstantLatency(100, 50));
    const got: string[] = [];
    const back = f.send(
      () => {
        throw new Error('refused');
      },
      9_960,
      10_000,
      () => got.push('resolved'),
      (e) => got.push((e as Error).message),
    );
    expect(back).toBe(10_000);
    expect(reach(f, 10_000)).toEqual([10_000, 10_000]);
    expect(got).toEqual(['refused']);
  });

  it('with no latency runs at once; failing the queue tells each waiting sender once', () => {
    expect(new OrderFlight(new ConstantLatency(0, 0)).immediate(0)).toBe(true);
    const f = new OrderFlight(new ConstantLatency(0, 20));
    const got: string[] = [];
    f.send(
      () => 1,
      0,
      1_000,
      () => got.push('a ok'),
      (e) => got.push(`a ${String(e)}`),
    );
    f.send(
      () => 2,
      0,
      1_000,
      () => got.push('b ok'),
      (e) => got.push(`b ${String(e)}`),
    );
    // a's arrival applied, its answer still on the way; b not yet at the engine
    const a = f.takeDue(0)!;
    a.act();
    expect(f.size).toBe(2);
    f.failAll('closed');
    f.failAll('again');
    expect(got.sort()).toEqual(['a closed', 'b closed']);
    expect(f.size).toBe(0);
    expect(reach(f, 1_000)).toEqual([]);
  });
});
