// risk/position.ts: a position's exact bookkeeping. Values worked out by hand.
import { describe, expect, it } from 'vitest';
import { applyClose, applyOpen, entryPrice, newPosition, sign } from '../../src-main/risk/position.ts';

const U = 100_000_000n; // 1 USDT in units

describe('positions', () => {
  it('opening fills add quantity, cost and fees; entry is cost / qty', () => {
    const p = newPosition({ id: 1, accountId: 7, symbol: 'BTCUSDT', side: 1, marginMode: 2, leverage: 20, now: 1000 });
    expect(applyOpen(p, 4, 380n * U, 7_600_000n, 1001)).toBe(0n); // cross locks no isolated margin
    applyOpen(p, 6, 576n * U, 28_800_000n, 1002);
    expect(p).toMatchObject({
      qty: 10,
      cost: 956n * U,
      openFee: 36_400_000n,
      openQtyTotal: 10,
      openAmount: 956n * U,
      updatedAt: 1002,
    });
    expect(entryPrice(p, 0.001)).toBeCloseTo(95_600, 6);
  });

  it('isolated margin is cost / leverage rounded up, and released in proportion', () => {
    const p = newPosition({ id: 2, accountId: 7, symbol: 'BTCUSDT', side: 1, marginMode: 1, leverage: 3, now: 0 });
    expect(applyOpen(p, 3, 100n, 0n, 0)).toBe(34n); // ceil(100 / 3)
    const r = applyClose(p, 1, 40n, 0n, 1);
    expect(r.released).toBe(11n); // floor(34 x 1 / 3)
    expect(p.isolatedMargin).toBe(23n);
    const last = applyClose(p, 2, 80n, 0n, 2);
    expect(last.released).toBe(23n); // the last close releases the rest
    expect(p.isolatedMargin).toBe(0n);
  });

  it('realized PnL over a life is exit amounts - entry amounts, to the unit, whatever the split', () => {
    const p = newPosition({ id: 3, accountId: 7, symbol: 'BTCUSDT', side: 1, marginMode: 2, leverage: 10, now: 0 });
    applyOpen(p, 3, 100n, 0n, 0); // cost 100 over 3 lots: not divisible
    const a = applyClose(p, 1, 40n, 0n, 1); // cost out floor(100/3) = 33 -> +7
    const b = applyClose(p, 1, 30n, 0n, 2); // cost out floor(67/2) = 33 -> -3
    const c = applyClose(p, 1, 35n, 0n, 3); // the rest, 34 -> +1
    expect([a.pnl, b.pnl, c.pnl]).toEqual([7n, -3n, 1n]);
    expect(a.pnl + b.pnl + c.pnl).toBe(40n + 30n + 35n - 100n);
    expect(c.flat).toBe(true);
    expect(p).toMatchObject({ qty: 0, cost: 0n, realizedPnl: 5n, closeQtyTotal: 3, closeAmount: 105n });
  });

  it('a short gains when it closes below its entry', () => {
    const p = newPosition({ id: 4, accountId: 7, symbol: 'ETHUSDT', side: 2, marginMode: 2, leverage: 10, now: 0 });
    applyOpen(p, 2, 200n * U, 0n, 0);
    const r = applyClose(p, 2, 190n * U, 5n, 1);
    expect(r.pnl).toBe(10n * U);
    expect(p.closeFee).toBe(5n);
    expect(sign(2)).toBe(-1n);
  });

  it('refuses a close of nothing or of more than the position', () => {
    const p = newPosition({ id: 5, accountId: 7, symbol: 'BTCUSDT', side: 1, marginMode: 2, leverage: 10, now: 0 });
    applyOpen(p, 2, 10n, 0n, 0);
    expect(() => applyClose(p, 0, 0n, 0n, 1)).toThrow(RangeError);
    expect(() => applyClose(p, 3, 10n, 0n, 1)).toThrow(RangeError);
    expect(p.qty).toBe(2); // unchanged
  });
});
