import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src-main/market/sim/rng.ts';

describe('Rng (xoshiro128**)', () => {
  it('matches the reference generator for the state 1, 2, 3, 4', () => {
    // values from an independent implementation of the published algorithm
    const r = new Rng(1, 2, 3, 4);
    expect([r.u32(), r.u32(), r.u32(), r.u32(), r.u32(), r.u32()]).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492,
    ]);
  });

  it('gives the same stream for the same seed and path, and unrelated streams otherwise', () => {
    const draw = (r: Rng) => Array.from({ length: 8 }, () => r.u32());
    expect(draw(Rng.stream(7, 'BTCUSDT', 'taker'))).toEqual(draw(Rng.stream(7, 'BTCUSDT', 'taker')));
    expect(draw(Rng.stream(7, 'BTCUSDT', 'taker'))).not.toEqual(draw(Rng.stream(8, 'BTCUSDT', 'taker')));
    expect(draw(Rng.stream(7, 'BTCUSDT', 'taker'))).not.toEqual(draw(Rng.stream(7, 'BTCUSDT', 'maker')));
    expect(draw(Rng.stream(7, 'BTCUSDT', 'taker'))).not.toEqual(draw(Rng.stream(7, 'ETHUSDT', 'taker')));
    // path parts are separated: ('AB','C') is not ('A','BC')
    expect(draw(Rng.stream(7, 'AB', 'C'))).not.toEqual(draw(Rng.stream(7, 'A', 'BC')));
  });

  it('a stream does not move when another stream is drawn from (adding a symbol shifts nothing)', () => {
    const alone = Rng.stream(3, 'SOLUSDT', 'price');
    const a = Array.from({ length: 5 }, () => alone.next());
    const busy = Rng.stream(3, 'SOLUSDT', 'price');
    const other = Rng.stream(3, 'NEWUSDT', 'price');
    const b: number[] = [];
    for (let i = 0; i < 5; i++) {
      other.normal();
      b.push(busy.next());
    }
    expect(b).toEqual(a);
  });

  it('draws have the right moments', () => {
    const r = Rng.stream(1, 'moments');
    const n = 200_000;
    let s = 0;
    let s2 = 0;
    let e = 0;
    let u = 0;
    for (let i = 0; i < n; i++) {
      const z = r.normal();
      s += z;
      s2 += z * z;
      e += r.exp();
      u += r.next();
    }
    expect(Math.abs(s / n)).toBeLessThan(0.01);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.02);
    expect(Math.abs(e / n - 1)).toBeLessThan(0.02);
    expect(Math.abs(u / n - 0.5)).toBeLessThan(0.005);
    // Pareto(1, 1.6): P(X > 2) = 2^-1.6
    let over = 0;
    for (let i = 0; i < n; i++) if (r.pareto(1, 1.6) > 2) over++;
    expect(Math.abs(over / n - Math.pow(2, -1.6))).toBeLessThan(0.01);
  });
});
