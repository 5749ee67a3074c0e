// Order history names a close order the venue forced for what it was (order-labels.ts
// orderTypeName): a liquidation's limit IOC read "Limit", an ADL close "Market", as if the trader
// had sent them.
import { describe, expect, it } from 'vitest';
import { orderTypeName } from '../../src-renderer/src/features/orders/order-labels.ts';

describe('orderTypeName', () => {
  it('Liquidation and ADL by the reserved client ids, else Limit / Market', () => {
    expect(orderTypeName({ type: 1, client_order_id: 'autoclose-812' })).toBe('Liquidation');
    expect(orderTypeName({ type: 2, client_order_id: 'adl_autoclose' })).toBe('ADL');
    expect(orderTypeName({ type: 1, client_order_id: 'api.812' })).toBe('Limit');
    expect(orderTypeName({ type: 2, client_order_id: 'autoclose-x' })).toBe('Market');
    expect(orderTypeName({ type: 1, client_order_id: 'my-autoclose-1' })).toBe('Limit');
  });
});
