// Margin calls (trading/margin-call.ts), worked by hand on BTCUSDT's first tier (maintenance 0.4 %
// of the notional): a margin ratio (maintenance / equity) of 80 % calls the account once, as a
// native `margin_call` account event and Binance's MARGIN_CALL on the facade's user stream; again
// only after the ratio came back under 70 %; never at the liquidation itself. The clock paused, the
// mark set by the test, the books the test's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import type { AccountEvent } from '../../../src-main/trading/events.ts';
import { placeBotOrder, placeOrder, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, quiet, startService, until, userStream, type Service } from './helpers.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
});
afterAll(async () => svc?.close());

/** An account of `usdt` with a long of 0.100 BTCUSDT at 96,000, 20x (margin 480, taker fee 4.80), isolated unless `cross`. */
function long(name: string, usdt: number, cross = false): Creds {
  const ex = svc.venue.exchange;
  setPrices(ex, 'BTCUSDT', { mark: 96000 });
  const c = account(svc.venue, name, usdt);
  if (!cross) setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
  const at = { symbol: 'BTCUSDT', type: OrderType.LIMIT, price: '96000.0', qty: '0.100' };
  placeBotOrder(ex, { ...at, side: Side.SELL, position_side: Side.SELL, position_action: PositionAction.OPEN });
  placeOrder(ex, c.id, {
    ...at,
    side: Side.BUY,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  return c;
}

/** The account's margin calls as the exchange announces them, after each commit. */
function calls(accountId: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  svc.venue.exchange.events.on('account', (e: AccountEvent) => {
    if (e.accountId === accountId && e.kind === 'margin_call') out.push(e.data as Record<string, unknown>);
  });
  return out;
}

const mark = (m: number): void => {
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: m });
  svc.venue.trading.group.commitNow();
};

describe('margin calls', () => {
  it('isolated: once at 80 %, not again until the ratio was under 70 %, none at the liquidation', () => {
    // equity = 480 + 0.1 x (m - 96,000), maintenance = 0.1 x m x 0.004: 80 % at m <= 91,658.29,
    // liquidation (100 %) at 91,566.27
    const c = long('mc-iso', 10_000);
    const got = calls(c.id);
    mark(92000); // 36.80 / 80: 46 %
    expect(got).toEqual([]);
    mark(91650); // 36.66 / 45: 81.47 %
    expect(got).toEqual([
      {
        margin_mode: MarginMode.ISOLATED,
        margin_ratio: 0.814667,
        wallet: '480.00000000',
        positions: [
          {
            symbol: 'BTCUSDT',
            position_side: PositionSide.LONG,
            quantity: 0.1,
            mark_price: '91650.00000000',
            unrealized_pnl: '-435.00000000',
            maintenance_margin: '36.66000000',
          },
        ],
        time: expect.any(Number),
      },
    ]);
    mark(91600); // 91.6 %: called already
    mark(91700); // 73.4 %: not under 70 %, still called
    mark(91650);
    expect(got).toHaveLength(1);
    mark(91800); // 36.72 / 60: 61.2 %, re-armed
    expect(got).toHaveLength(1);
    mark(91650);
    expect(got).toHaveLength(2);
    mark(91560); // the liquidation: no call
    expect(svc.venue.exchange.positions(c.id)).toEqual([]);
    expect(got).toHaveLength(2);
  });

  it('cross: one call for the account, its wallet the cross wallet; a position opened again is called again', () => {
    // a wallet of 995.20 after the fee; equity = 995.20 + 0.1 x (m - 96,000): 80 % at m <= 86,480.4
    const c = long('mc-cross', 1_000, true);
    const got = calls(c.id);
    mark(86600); // 34.64 / 55.20: 62.8 %
    expect(got).toEqual([]);
    mark(86450); // 34.58 / 40.20: 86.02 %
    expect(got).toMatchObject([
      {
        margin_mode: MarginMode.CROSS,
        margin_ratio: 0.860199,
        wallet: '995.20000000',
        positions: [
          { symbol: 'BTCUSDT', quantity: 0.1, mark_price: '86450.00000000', maintenance_margin: '34.58000000' },
        ],
      },
    ]);
    // closed at the mark's price and opened again: the new position's ratio is its own, called anew
    const ex = svc.venue.exchange;
    const at = { symbol: 'BTCUSDT', type: OrderType.LIMIT, price: '86450.0', qty: '0.100' };
    placeBotOrder(ex, { ...at, side: Side.BUY, position_side: Side.BUY, position_action: PositionAction.OPEN });
    placeOrder(ex, c.id, {
      ...at,
      side: Side.SELL,
      position_side: PositionSide.LONG,
      position_action: PositionAction.CLOSE,
    });
    expect(ex.positions(c.id)).toEqual([]);
    mark(86450);
    expect(got).toHaveLength(1);
    // opened again, 0.005 at 86,450 (fee 0.216125): a wallet of 35.661375; 80 % at m <= 79,716
    const again = { ...at, qty: '0.005' };
    placeBotOrder(ex, { ...again, side: Side.SELL, position_side: Side.SELL, position_action: PositionAction.OPEN });
    placeOrder(ex, c.id, {
      ...again,
      side: Side.BUY,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
    });
    mark(80000); // 1.60 / 3.41: 46.9 %
    expect(got).toHaveLength(1);
    mark(79700); // 1.594 / 1.911375: 83.4 %
    expect(got).toHaveLength(2);
  });
});

describe('the Binance user stream', () => {
  it('a margin call is MARGIN_CALL: cw and CROSSED for the cross positions, iw and ISOLATED without cw for one isolated', async () => {
    const cross = long('mc-bcross', 1_000, true);
    const iso = long('mc-biso', 10_000);
    const sc = await userStream(svc.base, cross);
    const si = await userStream(svc.base, iso);
    try {
      mark(86450);
      await until(() => sc.got.length >= 1 && si.got.length >= 1);
      await quiet();
      expect(sc.got).toEqual([
        {
          e: 'MARGIN_CALL',
          E: expect.any(Number),
          cw: '995.20000000',
          p: [
            {
              s: 'BTCUSDT',
              ps: 'LONG',
              pa: '0.100',
              mt: 'CROSSED',
              iw: '0',
              mp: '86450.00000000',
              up: '-955.00000000',
              mm: '34.58000000',
            },
          ],
        },
      ]);
      // the isolated long (margin 480) was liquidated at 86,450, far under its 91,566.27: no call
      expect(si.got.some((e) => e.e === 'MARGIN_CALL')).toBe(false);
    } finally {
      await sc.close();
      await si.close();
    }
  });

  it('an isolated position’s call has its margin as iw and no cw', async () => {
    const iso = long('mc-biso2', 10_000);
    const s = await userStream(svc.base, iso);
    try {
      mark(91650);
      await until(() => s.got.length >= 1);
      await quiet();
      expect(s.got).toEqual([
        {
          e: 'MARGIN_CALL',
          E: expect.any(Number),
          p: [
            {
              s: 'BTCUSDT',
              ps: 'LONG',
              pa: '0.100',
              mt: 'ISOLATED',
              iw: '480.00000000',
              mp: '91650.00000000',
              up: '-435.00000000',
              mm: '36.66000000',
            },
          ],
        },
      ]);
    } finally {
      await s.close();
    }
  });
});
