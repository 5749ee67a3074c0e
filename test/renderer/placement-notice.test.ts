// The line the order form shows after an accepted request: natural text for fills, and a
// warning with the reason when the order ended without doing what was asked.
import { describe, expect, it } from 'vitest';
import type { OrderRequest, PlacementResult } from '../../src-shared/types.ts';
import { placementNotice } from '../../src-renderer/src/features/order-entry/placement-notice.ts';

const limit: OrderRequest = {
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 1,
  qty: '0.010',
  price: '95000.0',
  time_in_force: 1,
};
const result = (status: PlacementResult['status'], filled = '0', quote = '0'): PlacementResult => ({
  order_id: '7',
  client_order_id: 'c',
  status,
  filled_qty: filled,
  filled_quote: quote,
});

describe('placementNotice', () => {
  it('a market fill reads "filled 0.050 at 95,810.0" (the average price), once', () => {
    const n = placementNotice(
      { ...limit, type: 2, qty: '0.050', price: undefined, time_in_force: undefined },
      result(3, '0.050', '4790.5'),
      1,
      3,
    );
    expect(n).toMatchObject({ kind: 'ok', text: 'Open long 0.050 BTCUSDT: filled 0.050 at 95,810.0' });
  });

  it('a resting limit is placed; a partial fill says what filled and that the rest rests', () => {
    expect(placementNotice(limit, result(1), 1, 3)).toMatchObject({
      kind: 'ok',
      text: 'Open long 0.010 BTCUSDT at 95,000.0: placed',
    });
    expect(
      placementNotice({ ...limit, side: 2, position_side: 2, position_action: 2 }, result(2, '0.004', '380'), 1, 3),
    ).toMatchObject({
      kind: 'ok',
      text: 'Close short 0.010 BTCUSDT: filled 0.004 at 95,000.0, the rest placed',
    });
  });

  it('an expired post-only order is a warning that says why', () => {
    const n = placementNotice({ ...limit, time_in_force: 4 }, result(6), 1, 3);
    expect(n.kind).toBe('warn');
    expect(n.text).toBe(
      'Post-only order expired: it would have taken liquidity. Open long 0.010 BTCUSDT, nothing filled.',
    );
  });

  it('IOC, FOK and market orders that expire are warnings with their own reason', () => {
    const ioc = placementNotice({ ...limit, time_in_force: 2 }, result(6, '0.004', '380'), 1, 3);
    expect(ioc).toMatchObject({
      kind: 'warn',
      text: 'IOC order: the rest expired, no more to fill at the limit price. Open long 0.010 BTCUSDT: filled 0.004 at 95,000.0.',
    });
    expect(placementNotice({ ...limit, time_in_force: 3 }, result(6), 1, 3).text).toMatch(
      /^Fill-or-kill order expired: it could not fill completely/,
    );
    const market = placementNotice({ ...limit, type: 2 }, result(6), 1, 3);
    expect(market.kind).toBe('warn');
    expect(market.text).toMatch(/^Market order: expired, no more liquidity/);
  });

  it('rejected and cancelled outcomes are warnings', () => {
    expect(placementNotice(limit, result(5), 1, 3).kind).toBe('warn');
    expect(placementNotice(limit, result(4), 1, 3)).toMatchObject({
      kind: 'warn',
      text: 'Order cancelled, nothing filled. Open long 0.010 BTCUSDT.',
    });
  });
});

// A market order's fill was said twice to a screen reader: by this line (a live region) and by the
// fill toast (one too). The toast says more (the role, the fee, the PnL): a whole fill's line is
// shown, not announced; a line the toast does not say (placed, the rest placed, expired) still is.
describe('what the form announces', () => {
  const market = { ...limit, type: 2, qty: '0.050', price: undefined, time_in_force: undefined } as OrderRequest;
  it('a whole fill: not announced, the fill toast says it', () => {
    expect(placementNotice(market, result(3, '0.050', '4790.5'), 1, 3).live).toBe(false);
  });
  it('a placed order, a partial fill and an expiry: said by the form alone', () => {
    expect(placementNotice(limit, result(1), 1, 3).live).toBe(true);
    expect(placementNotice(limit, result(2, '0.005', '475'), 1, 3).live).toBe(true);
    expect(placementNotice(market, result(6, '0.010', '958'), 1, 3).live).toBe(true);
  });
});
