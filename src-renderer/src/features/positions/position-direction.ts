// Which way a position points, and its size. The service sends a short as position_side SHORT
// with a positive quantity in both modes (one-way netting keeps the net position on the side
// it points to); a negative quantity on side LONG (the other common encoding of a one-way short)
// is read as a short too, so the screen never shows a short as a long whichever it gets.
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { PositionSide } from '../../../../src-shared/enums.ts';

export interface PositionDirection {
  long: boolean;
  /** 'long' | 'short', for labels and class names. */
  name: 'long' | 'short';
  /** Absolute size in the base asset. */
  size: number;
  /** +1 long, -1 short: PnL = (price - entry) x size x sign. */
  sign: 1 | -1;
}

export function positionDirection(p: Pick<PositionRecord, 'position_side' | 'quantity'>): PositionDirection {
  const long = p.position_side !== PositionSide.SHORT && p.quantity >= 0;
  return { long, name: long ? 'long' : 'short', size: Math.abs(p.quantity), sign: long ? 1 : -1 };
}
