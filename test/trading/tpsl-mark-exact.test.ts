// Take-profit / stop-loss on the mark at a price whose float of ticks x tick is a hair beyond the
// price itself (970002 x 0.1 = 97000.20000000001): a mark at the trigger's price has reached it,
// so setting one there is refused as one past it is, and a mark that comes to it fires it.
import { describe, expect, it } from 'vitest';
import { PositionSide, WorkingType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import { houseLimit, placeOrder, setPrices, setTpSl } from '../helpers/exchange-commands.ts';
import { longQty, openLong } from './conditional-kit.ts';
import { btc, refusal, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user } = venueKit({ wall: T0, balance: 100_000n * USDT, simulate: false });
const MARK = WorkingType.MARK_PRICE;

describe('take-profit / stop-loss at the mark exactly', () => {
  it("a long's take-profit at the mark is refused, and one the mark later comes to fires", () => {
    expect(970002 * 0.1).toBeGreaterThan(97000.2); // the float this is about
    const v = venue();
    const u = user(v, 'tpsl-exact1');
    openLong(v, u);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000.2 });
    // (before, accepted: 96000.20000000001 is above the mark 96000.2)
    const e = refusal(() =>
      setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '96000.2', trigger: MARK }, undefined),
    );
    expect(e.def).toBe(Errors.INVALID_PARAMETER);
    expect(e.message).toBe("take_profit_price must be above the mark price 96000.2 for a long (got '96000.2')");
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.LONG, { price: '97000.2', trigger: MARK }, undefined);
    houseLimit(v.exchange, 1, '96990.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000.2 });
    // (before, the long stayed open with its take-profit waiting)
    expect(longQty(v, u)).toBe(0);
    expect(v.exchange.tpslList(u)).toEqual([]);
  });

  it("a short's stop-loss fires when the mark rises to its price exactly", () => {
    const v = venue();
    const u = user(v, 'tpsl-exact2');
    setPrices(v.exchange, 'BTCUSDT', { mark: 96000 });
    houseLimit(v.exchange, 1, '96000.0', '0.010');
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 2, position_action: 1, type: 2, qty: '0.010' }));
    setTpSl(v.exchange, u, 'BTCUSDT', PositionSide.SHORT, undefined, { price: '97000.2', trigger: MARK });
    houseLimit(v.exchange, 2, '97010.0', '0.010');
    setPrices(v.exchange, 'BTCUSDT', { mark: 97000.2 });
    expect(v.exchange.positions(u)).toEqual([]);
  });
});
