// When the screen makes a margin call (src-renderer/src/features/positions/margin-call-rules.ts):
// once at 80 %, again only after the ratio came back under 70 %; one call for the cross positions,
// one per isolated position. The toast in the screen is e2e/notifications.spec.ts.
import { describe, expect, it } from 'vitest';
import { CALL_RATIO, REARM_RATIO, marginCalls } from '../../src-renderer/src/features/positions/margin-call-rules.ts';
import type { PositionRecord } from '../../src-shared/types.ts';
import { MarginMode, PositionSide } from '../../src-shared/enums.ts';

const pos = (symbol: string, side: PositionSide, mode: MarginMode, ratio: number, quantity = 0.1): PositionRecord =>
  ({ symbol, position_side: side, margin_mode: mode, margin_ratio: ratio, quantity }) as PositionRecord;
const { CROSS, ISOLATED } = MarginMode;
const { LONG, SHORT } = PositionSide;

describe('marginCalls', () => {
  it('calls once at the ratio, and again only after it came back under the re-arm ratio', () => {
    const called = new Set<string>();
    const at = (r: number): string[] => marginCalls([pos('BTCUSDT', LONG, ISOLATED, r)], called).map((c) => c.key);
    expect(at(CALL_RATIO - 0.001)).toEqual([]);
    expect(at(CALL_RATIO)).toEqual([`isolated:BTCUSDT:${LONG}`]);
    expect(at(0.95)).toEqual([]);
    // hovering about 80 %: no second call
    expect(at(0.75)).toEqual([]);
    expect(at(0.81)).toEqual([]);
    // back under 70 %, then up again: a second call
    expect(at(REARM_RATIO - 0.001)).toEqual([]);
    expect(at(0.82)).toEqual([`isolated:BTCUSDT:${LONG}`]);
  });

  it('makes one call for the cross positions at their highest ratio, one for each isolated position', () => {
    const called = new Set<string>();
    const calls = marginCalls(
      [
        pos('BTCUSDT', LONG, CROSS, 0.84),
        pos('ETHUSDT', SHORT, CROSS, 0.85),
        pos('BTCUSDT', SHORT, ISOLATED, 0.9),
        pos('SOLUSDT', LONG, ISOLATED, 0.5),
      ],
      called,
    );
    expect(calls.map((c) => [c.key, c.ratio, c.positions.map((p) => p.symbol)])).toEqual([
      ['cross', 0.85, ['BTCUSDT', 'ETHUSDT']],
      [`isolated:BTCUSDT:${SHORT}`, 0.9, ['BTCUSDT']],
    ]);
  });

  it('re-arms a position that closed, and never calls a closed one or one without a ratio', () => {
    const called = new Set<string>();
    expect(marginCalls([pos('BTCUSDT', LONG, CROSS, 0.9)], called)).toHaveLength(1);
    expect(marginCalls([], called)).toEqual([]);
    expect(called.size).toBe(0);
    expect(marginCalls([pos('BTCUSDT', LONG, CROSS, 0.9, 0), pos('ETHUSDT', LONG, CROSS, NaN)], called)).toEqual([]);
    expect(marginCalls([pos('BTCUSDT', LONG, CROSS, 0.9)], called)).toHaveLength(1);
  });
});
