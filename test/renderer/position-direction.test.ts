// One-way shorts: the service sends them as position_side 2 with a positive quantity (what
// src-main/trading/exchange.ts positionRecord writes after one-way netting); a negative
// quantity on side 1 must read as a short too. Everything that names a direction, sizes a
// close or signs a PnL goes through positionDirection().
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../src-shared/types.ts';
import { positionDirection } from '../../src-renderer/src/features/positions/position-direction.ts';
import { closeOrder } from '../../src-renderer/src/features/positions/close-position.ts';
import { livePnl } from '../../src-renderer/src/features/positions/positions-store.ts';
import { fmtSigned } from '../../src-renderer/src/lib/format.ts';
import { directionName, oneWayOnly, orderDirection } from '../../src-renderer/src/features/orders/order-labels.ts';
import { placementNotice } from '../../src-renderer/src/features/order-entry/placement-notice.ts';

const pos = (position_side: 1 | 2, quantity: number): PositionRecord =>
  ({ symbol: 'BTCUSDT', position_side, quantity, entry_price: 100, mark_price: 90, leverage: 10 }) as PositionRecord;

describe('positionDirection', () => {
  it('reads the service encoding (side 2, positive quantity) and the signed one (side 1, negative) as short', () => {
    expect(positionDirection(pos(2, 14))).toEqual({ long: false, name: 'short', size: 14, sign: -1 });
    expect(positionDirection(pos(1, -14))).toEqual({ long: false, name: 'short', size: 14, sign: -1 });
    expect(positionDirection(pos(2, -14))).toMatchObject({ long: false, size: 14 });
    expect(positionDirection(pos(1, 0.5))).toEqual({ long: true, name: 'long', size: 0.5, sign: 1 });
  });

  it('signs the live PnL by direction: a short gains when the mark falls, in both encodings', () => {
    expect(livePnl(pos(2, 2), 90)).toBe(20);
    expect(livePnl(pos(1, -2), 90)).toBe(20);
    expect(livePnl(pos(1, 2), 90)).toBe(-20);
  });

  it("starts from the service's PnL at the record's mark, not from the rounded average entry", () => {
    // 500 TRX bought at 0.25462 and 1,000 at 0.25461 (a replay of the TRXUSDT recording): the
    // entry is 0.25461333 (8 decimals), the service's PnL at 0.25451 is exactly -0.155
    const trx = {
      symbol: 'TRXUSDT',
      position_side: 1,
      quantity: 1500,
      entry_price: 0.25461333,
      mark_price: 0.25451,
      unrealized_pnl: -0.155,
      leverage: 20,
    } as PositionRecord;
    expect(fmtSigned(livePnl(trx), 2)).toBe(fmtSigned('-0.15500000', 2));
    expect(fmtSigned(livePnl(trx), 2)).toBe('-0.16');
    expect(livePnl(trx, 0.25452)).toBe(-0.14);
    expect(livePnl(trx, 0.25461)).toBe(-0.005);
  });
});

describe('closeOrder', () => {
  it('one-way: a short is closed by a buy on position_side 1, of the absolute size', () => {
    expect(closeOrder(pos(2, 14), 3, true)).toEqual({
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 2,
      type: 2,
      qty: '14.000',
    });
    expect(closeOrder(pos(1, -14), 3, true)).toMatchObject({ side: 1, position_side: 1, qty: '14.000' });
    expect(closeOrder(pos(1, 14), 3, true)).toMatchObject({ side: 2, position_side: 1 });
  });

  it('hedge: the order names the side it closes', () => {
    expect(closeOrder(pos(2, 0.05), 3, false)).toMatchObject({
      side: 1,
      position_side: 2,
      position_action: 2,
      qty: '0.050',
    });
    expect(closeOrder(pos(1, 0.05), 3, false)).toMatchObject({ side: 2, position_side: 1 });
  });
});

describe('order labels in one-way mode', () => {
  it('names one-way orders by side; hedge orders by position', () => {
    expect(directionName({ side: 2, position_side: 1, position_action: 1 }, true)).toBe('Sell');
    expect(directionName({ side: 1, position_side: 1, position_action: 2 }, true)).toBe('Buy (close)');
    expect(directionName({ side: 2, position_side: 1, position_action: 1, reduce_only: true }, true)).toBe(
      'Sell (reduce-only)',
    );
    expect(directionName({ side: 1, position_side: 2, position_action: 2 })).toBe('Close short');
  });

  it('tells a request only one-way mode accepts', () => {
    expect(oneWayOnly({ side: 2, position_side: 1, position_action: 1 })).toBe(true);
    expect(oneWayOnly({ side: 1, position_side: 1, position_action: 2 })).toBe(true);
    expect(oneWayOnly({ side: 1, position_side: 1, position_action: 1, reduce_only: true })).toBe(true);
    expect(oneWayOnly({ side: 1, position_side: 1, position_action: 1 })).toBe(false);
    expect(oneWayOnly({ side: 2, position_side: 2, position_action: 1 })).toBe(false);
    expect(oneWayOnly({ side: 2, position_side: 1, position_action: 2 })).toBe(false);
    expect(oneWayOnly({ side: 2, position_side: 2, position_action: 2 })).toBe(false);
  });

  it('order history: a record is named in the mode it was placed in, not the account mode now', () => {
    const named = (o: { side: 1 | 2; position_side: 1 | 2; position_action: 1 | 2 }, accountOneWay: boolean) =>
      orderDirection(o, accountOneWay ? 'one_way' : 'hedge');
    // one-way records read in a hedge account: a sell that opened a short, a buy that closed it
    expect(named({ side: 2, position_side: 1, position_action: 1 }, false)).toBe('Sell');
    expect(named({ side: 1, position_side: 1, position_action: 2 }, false)).toBe('Buy (close)');
    // hedge records read in a one-way account: the short side is never one-way
    expect(named({ side: 2, position_side: 2, position_action: 1 }, true)).toBe('Open short');
    expect(named({ side: 1, position_side: 2, position_action: 2 }, true)).toBe('Close short');
    // a buy that opens LONG reads the same in both modes: named by the mode now
    expect(named({ side: 1, position_side: 1, position_action: 1 }, false)).toBe('Open long');
    expect(named({ side: 1, position_side: 1, position_action: 1 }, true)).toBe('Buy');
    expect(named({ side: 2, position_side: 1, position_action: 2 }, false)).toBe('Close long');
    expect(named({ side: 2, position_side: 1, position_action: 2 }, true)).toBe('Sell (close)');
  });

  it('stop history: a hedge close stop (reduce_only, as the venue marks every close) keeps its hedge name', () => {
    const named = (
      c: { side: 1 | 2; position_side: 1 | 2; position_action: 1 | 2; reduce_only: boolean },
      accountOneWay: boolean,
    ) => orderDirection(c, accountOneWay ? 'one_way' : 'hedge');
    // the Stops tab's Waiting view names it "Close long": its History did "Sell (close)"
    expect(named({ side: 2, position_side: 1, position_action: 2, reduce_only: true }, false)).toBe('Close long');
    expect(named({ side: 2, position_side: 1, position_action: 2, reduce_only: true }, true)).toBe('Sell (close)');
    // a reduce-only open is one-way only, whatever the account's mode now
    expect(named({ side: 2, position_side: 1, position_action: 1, reduce_only: true }, false)).toBe(
      'Sell (reduce-only)',
    );
  });

  it("before the account's mode has loaded: a record one mode alone places in that mode, the rest by side", () => {
    type Rec = { side: 1 | 2; position_side: 1 | 2; position_action: 1 | 2; reduce_only?: boolean };
    const unknown = (o: Rec): string => orderDirection(o, undefined);
    // a one-way short's limit close, a buy on LONG: it read "Close long" in Open orders until the mode came
    expect(unknown({ side: 1, position_side: 1, position_action: 2 })).toBe('Buy (close)');
    expect(unknown({ side: 2, position_side: 1, position_action: 1 })).toBe('Sell');
    expect(unknown({ side: 2, position_side: 1, position_action: 1, reduce_only: true })).toBe('Sell (reduce-only)');
    expect(unknown({ side: 2, position_side: 2, position_action: 1 })).toBe('Open short');
    expect(unknown({ side: 1, position_side: 2, position_action: 2 })).toBe('Close short');
    // either mode places these: named by side, which holds in both
    expect(unknown({ side: 1, position_side: 1, position_action: 1 })).toBe('Buy');
    expect(unknown({ side: 2, position_side: 1, position_action: 2 })).toBe('Sell (close)');
    expect(unknown({ side: 2, position_side: 1, position_action: 2, reduce_only: true })).toBe('Sell (close)');
    // whatever the record, the name is one the account's mode, once read, may give it, and a buy never closes a long
    for (const side of [1, 2] as const)
      for (const position_side of [1, 2] as const)
        for (const position_action of [1, 2] as const) {
          const o = { side, position_side, position_action };
          expect([orderDirection(o, 'hedge'), orderDirection(o, 'one_way')]).toContain(unknown(o));
          if (side === 1) expect(unknown(o)).not.toBe('Close long');
        }
  });

  it('placement notices: a flip and a reduce-only sell are not "Open long"', () => {
    const r = (qty: string, quote: string) => ({
      order_id: '1',
      client_order_id: 'c',
      status: 3 as const,
      filled_qty: qty,
      filled_quote: quote,
    });
    const flip = {
      symbol: 'BTCUSDT',
      side: 2 as const,
      position_side: 1 as const,
      position_action: 1 as const,
      type: 2 as const,
      qty: '20',
    };
    expect(placementNotice(flip, r('20', '2000'), 1, 0).text).toBe('Sell 20 BTCUSDT: filled 20 at 100.0');
    expect(placementNotice({ ...flip, qty: '4', reduce_only: true }, r('4', '400'), 1, 0).text).toBe(
      'Sell 4 BTCUSDT (reduce-only): filled 4 at 100.0',
    );
    // the form sends a one-way reduce-only order as a close too: still named reduce-only
    const sent = { ...flip, qty: '4', position_action: 2 as const, reduce_only: true };
    expect(placementNotice(sent, r('4', '400'), 1, 0, true).text).toBe(
      'Sell 4 BTCUSDT (reduce-only): filled 4 at 100.0',
    );
    // a buy looks like a hedge "Open long" unless the caller says the mode
    const buy = { ...flip, side: 1 as const };
    expect(placementNotice(buy, r('20', '2000'), 1, 0).text).toMatch(/^Open long 20/);
    expect(placementNotice(buy, r('20', '2000'), 1, 0, true).text).toMatch(/^Buy 20 BTCUSDT:/);
    expect(placementNotice(buy, r('20', '2000'), 1, 0, false).text).toMatch(/^Open long 20/);
  });
});
