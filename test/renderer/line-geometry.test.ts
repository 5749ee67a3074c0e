// The geometry of dragging an order's line on the chart (src-renderer/src/features/chart/line-geometry.ts):
// which line a press takes, and the price a line is dropped at. The drag itself is e2e/chart-drag.spec.ts.
import { describe, expect, it } from 'vitest';
import { GRAB_PX, lineAt, snapPrice } from '../../src-renderer/src/features/chart/line-geometry.ts';

const lines = [
  { id: 'order:1', price: 100, y: 40 },
  { id: 'order:2', price: 99, y: 47 },
  { id: 'order:3', price: 200, y: null },
];

describe('lineAt', () => {
  it('takes the nearest line within the grab distance', () => {
    expect(lineAt(lines, 40)?.id).toBe('order:1');
    expect(lineAt(lines, 43)?.id).toBe('order:1');
    // nearer to the second line than to the first
    expect(lineAt(lines, 44)?.id).toBe('order:2');
    expect(lineAt(lines, 47 + GRAB_PX)?.id).toBe('order:2');
  });

  it('takes nothing beyond the grab distance, and never a line off the chart', () => {
    expect(lineAt(lines, 40 - GRAB_PX - 1)).toBeNull();
    expect(lineAt(lines, 47 + GRAB_PX + 1)).toBeNull();
    expect(lineAt([{ id: 'order:3', price: 200, y: null }], 0)).toBeNull();
    expect(lineAt([], 10)).toBeNull();
  });
});

describe('snapPrice', () => {
  it('rounds to the nearest tick and prints the pair decimals', () => {
    expect(snapPrice(95012.34, 0.1, 1)).toBe('95012.3');
    expect(snapPrice(95012.36, 0.1, 1)).toBe('95012.4');
    expect(snapPrice(3.14159, 0.01, 2)).toBe('3.14');
    expect(snapPrice(101.7, 0.5, 1)).toBe('101.5');
    expect(snapPrice(101.8, 0.5, 1)).toBe('102.0');
    expect(snapPrice(12345, 10, 0)).toBe('12350');
  });

  it('keeps a fine tick exact on a large price (no binary float tail)', () => {
    expect(snapPrice(0.30000000000000004, 0.1, 1)).toBe('0.3');
    expect(snapPrice(0.0012345678, 0.0000001, 7)).toBe('0.0012346');
    expect(snapPrice(65432.123456, 0.00001, 5)).toBe('65432.12346');
  });

  it('gives no price for a place with none, below one tick, or a tick that is not one', () => {
    expect(snapPrice(null, 0.1, 1)).toBeNull();
    expect(snapPrice(NaN, 0.1, 1)).toBeNull();
    expect(snapPrice(0.04, 0.1, 1)).toBeNull();
    expect(snapPrice(-5, 0.1, 1)).toBeNull();
    expect(snapPrice(5, 0, 1)).toBeNull();
  });
});
