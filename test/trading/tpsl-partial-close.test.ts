// A take-profit / stop-loss fires one reduce-only market order for the whole position (as a
// Binance triggered close is one market order); what the book cannot fill stays open with no
// trigger (docs/api.md, POST /fapi/v1/position/tpsl). The user channel tells what happened: the
// close's order record (client_order_id sl-<id>, EXPIRED with what filled), its fill, and the
// position list with the rest.
import { describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setPrices, setTpSl } from '../helpers/exchange-commands.ts';
import { OrderStatus, WorkingType } from '../../src-shared/enums.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { paperVenues } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const venue = paperVenues(() => T0);

describe('a stop-loss the book fills only in part', () => {
  it('closes what it can, leaves the rest open without triggers, and the user channel shows both', () => {
    const v = venue();
    const ex = v.exchange;
    setPrices(ex, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    const u = v.accounts.upsert(
      { apiKey: 'slpart001', apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n },
      T0,
    ).id;
    const house = (side: 1 | 2, price: string, qty: string) =>
      placeBotOrder(
        ex,
        { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty },
        HOUSE_ACCOUNT,
      );
    house(2, '96000.0', '1.000');
    placeOrder(ex, u, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '1.000' });
    setTpSl(ex, u, 'BTCUSDT', 1, undefined, { price: '95000.0', trigger: WorkingType.MARK_PRICE });
    // the only bid: 0.4 at 95,000
    house(1, '95000.0', '0.400');
    const events: AccountEvent[] = [];
    ex.events.on('account', (e) => e.accountId === u && events.push(e));
    setPrices(ex, 'BTCUSDT', { mark: 94_990 });
    v.trading.group.commitNow(); // events go out once committed

    const of = (kind: AccountEvent['kind']) => events.filter((e) => e.kind === kind).map((e) => e.data as any);
    // the close: a market sell of the whole 1.0, 0.4 filled at 95,000, the rest expired (no bid left)
    const close = of('order').at(-1);
    expect(close).toMatchObject({
      client_order_id: `sl-${close.id}`,
      side: 2,
      type: 2,
      qty: '1.000',
      filled_qty: '0.400',
      status: OrderStatus.EXPIRED,
    });
    // its fill: 0.4 x (95,000 - 96,000) = -400 realized, taker fee 38,000 x 0.0005 = 19
    expect(of('fill').map((f) => [f.order_id, f.price, f.qty, f.realized_pnl, f.fee])).toEqual([
      [String(close.id), '95000.0', '0.400', '-400.00000000', '19.00000000'],
    ]);
    // the rest, 0.6, is still open, and has no trigger left
    expect(
      of('position')
        .at(-1)
        .map((p: any) => [p.position_side, p.quantity]),
    ).toEqual([[1, 0.6]]);
    expect(ex.tpslList(u)).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: null,
        stop_loss_price: null,
        working_type: 1,
        take_profit_working_type: null,
        stop_loss_working_type: null,
      },
    ]);
  });
});
