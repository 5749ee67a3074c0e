// A liquidation's account event names its close order (order_id), and goes out only once that
// order is stored (turn-writer.ts: every private event waits for the commit of what it reports).
// A liquidation on a turn with no batch open yet (the simulated market's price step) emitted the
// event at once, before the close order was written: the forceOrder streams, which read the order
// back by that id, found none and pushed nothing (ccxt watchLiquidations saw no liquidation).
import { describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { MarginMode } from '../../src-shared/enums.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });

describe('liquidation event', () => {
  it('goes out after the commit that stores its close order, even when no batch was open', () => {
    const v = kit.venue(kit.dataDir('perpdesk-liqev-'));
    const u = kit.user(v, 'liqev0001', 10_000n * USDT);
    setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000 });
    houseLimit(v.exchange, 2, '96000.0', '0.100', 'BTCUSDT');
    placeOrder(v.exchange, u, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '0.100',
    });
    houseLimit(v.exchange, 1, '93000.0', '1.000');
    const seen: Array<{ id: string; stored: boolean }> = [];
    const kinds: string[] = [];
    v.exchange.events.on('account', (e: AccountEvent) => {
      if (e.accountId === u) kinds.push(e.kind);
      if (e.accountId !== u || e.kind !== 'liquidation') return;
      const id = (e.data as { order_id: string }).order_id;
      seen.push({ id, stored: v.trading.order(Number(id)) !== undefined });
    });
    // everything before is committed: the liquidation's turn opens no batch before it announces
    v.trading.group.commitNow();
    setPrices(v.exchange, 'BTCUSDT', { mark: 91_560 });
    v.trading.group.commitNow();
    expect(v.exchange.positions(u)).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.stored).toBe(true);
    // as docs/api.md says: the liquidation first, then its close order, fill, positions and balance
    expect(kinds).toEqual(['liquidation', 'order', 'fill', 'position', 'balance']);
  });
});
