// The queue worker's run slots and start lock (src-main/sweep/run-gate.ts): a job waiting with its
// venue ready gets a slot in turn, never before one is given back; the start lock is held by one
// job at a time, in the order asked; a closed gate tells the waiting jobs no.
import { describe, expect, it } from 'vitest';
import { RunGate } from '../../src-main/sweep/run-gate.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('RunGate', () => {
  it('gives N slots at once, then one per slot given back, first come first served', async () => {
    const g = new RunGate(2);
    expect(g.tryRun()).toBe(true);
    expect(g.tryRun()).toBe(true);
    expect(g.tryRun()).toBe(false);
    const order: string[] = [];
    void g.run().then((ok) => order.push(`a ${ok}`));
    void g.run().then((ok) => order.push(`b ${ok}`));
    await tick();
    expect(order).toEqual([]);
    g.done();
    await tick();
    expect(order).toEqual(['a true']);
    // a slot given back goes to the job already waiting, not to one asking now
    g.done();
    expect(g.tryRun()).toBe(false);
    await tick();
    expect(order).toEqual(['a true', 'b true']);
    g.done();
    expect(g.tryRun()).toBe(true);
  });

  it('holds the start lock for one at a time, in the order asked; a release twice frees it once', async () => {
    const g = new RunGate(1);
    const first = await g.lock();
    const order: string[] = [];
    const second = g.lock().then((release) => {
      order.push('second');
      return release;
    });
    void g.lock().then(() => order.push('third'));
    await tick();
    expect(order).toEqual([]);
    first();
    first();
    await tick();
    expect(order).toEqual(['second']);
    (await second)();
    await tick();
    expect(order).toEqual(['second', 'third']);
  });

  it('once closed, tells the waiting jobs and any later one no', async () => {
    const g = new RunGate(1);
    expect(g.tryRun()).toBe(true);
    const waiting = g.run();
    g.close();
    expect(await waiting).toBe(false);
    g.done();
    expect(await g.run()).toBe(false);
    expect(g.tryRun()).toBe(false);
    expect(() => new RunGate(0)).toThrow(/positive integer/);
  });
});
