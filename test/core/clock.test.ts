// VirtualClock: market time at speed x wall time, standing still while paused, moved at once by
// advance() (running or paused), never backwards.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src-main/core/clock.ts';

describe('VirtualClock', () => {
  it('runs at its speed, stands still while paused, and advance() moves it either way', () => {
    let wall = 1_000;
    const c = new VirtualClock({ start: 50_000, speed: 2, wall: () => wall });
    wall += 100;
    expect(c.now()).toBe(50_200);
    c.advance(1_000); // running: the jump adds to the time run so far
    expect(c.now()).toBe(51_200);
    wall += 50;
    expect(c.now()).toBe(51_300);
    c.pause();
    wall += 10_000;
    expect(c.now()).toBe(51_300);
    // paused (a replay applying history event by event): each advance is exactly its ms
    c.advance(7);
    c.advance(0);
    c.advance(2.9);
    expect(c.now()).toBe(51_309);
    wall += 5_000;
    expect(c.now()).toBe(51_309);
    // resumed: it runs on from there, the wall time spent paused not counted
    c.resume();
    expect(c.now()).toBe(51_309);
    wall += 10;
    expect(c.now()).toBe(51_329);
    expect(() => c.advance(-1)).toThrow(RangeError);
  });
});
