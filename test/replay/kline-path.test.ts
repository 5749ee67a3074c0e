// The four prints of a klines replay's candle (docs/replay.md "Klines only: the path inside a
// candle"): whatever the candle's volume and taker-buy volume, the prints' buy and sell parts are
// never negative and add up to them, so the venue's candles keep history's volume and taker-buy
// volume. A candle of 8 lots, 7 of them bought, printed 1 + 1 + 1 + 4 bought and 1 + 1 + 1 sold
// (the close's sell part of -2 dropped): a volume of 10 lots where history has 8.
import { describe, expect, it } from 'vitest';
import { klinePath, type PathUnits } from '../../src-main/replay/kline-path.ts';
import type { HistCandle } from '../../src-main/replay/ports.ts';

/** Whole lots and ticks: the candle's figures are given as lot and tick counts. */
const UNITS: PathUnits = { ticks: (t) => Number(t), lots: (t) => Number(t) };
const MINUTE = 60_000;

function candle(volume: number, takerBuy: number): HistCandle {
  return {
    openTime: 0,
    closeTime: MINUTE - 1,
    open: '100',
    high: '103',
    low: '98',
    close: '101',
    volume: String(volume),
    takerBuyVolume: String(takerBuy),
  };
}

/** The candle's prints as parts of a side (buy 1, sell 2), the buy part first. */
function parts(volume: number, takerBuy: number): Array<{ time: number; side: 1 | 2; price: number; lots: number }> {
  return [...klinePath(UNITS, MINUTE, [candle(volume, takerBuy)][Symbol.iterator]())]
    .flatMap((p) => [
      { time: p.time, side: 1 as const, price: p.price, lots: p.buy },
      { time: p.time, side: 2 as const, price: p.price, lots: p.sell },
    ])
    .filter((p) => p.lots !== 0);
}

describe('the prints of a candle', () => {
  it('of 8 lots, 7 bought: 2 lots a print, the excess bought on the prints before the close', () => {
    expect(parts(8, 7)).toEqual([
      { time: 0, side: 1, price: 100, lots: 1 },
      { time: 0, side: 2, price: 100, lots: 1 },
      { time: 15_000, side: 1, price: 98, lots: 2 },
      { time: 30_000, side: 1, price: 103, lots: 2 },
      { time: 45_000, side: 1, price: 101, lots: 2 },
    ]);
  });

  it('add up to the volume and the taker-buy volume, a quarter of the volume a print', () => {
    for (let vol = 1; vol <= 60; vol++)
      for (let buy = 0; buy <= vol; buy++) {
        const ps = parts(vol, buy);
        const sum = (side: 1 | 2): number => ps.filter((p) => p.side === side).reduce((s, p) => s + p.lots, 0);
        expect({ vol, buy, volume: sum(1) + sum(2), bought: sum(1) }).toEqual({ vol, buy, volume: vol, bought: buy });
        // a quarter of the volume a print (the remainder on the close), each at its time
        for (let i = 0; i < 4; i++) {
          const at = ps.filter((p) => p.time === i * 15_000).reduce((s, p) => s + p.lots, 0);
          expect(at).toBe(i === 3 ? vol - 3 * Math.floor(vol / 4) : Math.floor(vol / 4));
        }
      }
  });
});
