// The order form: what the trader typed, and the last answer. Submitting builds the API's
// order body (hedge mode: open long = buy/long/open, open short = sell/short/open, close long
// = sell/long/close, close short = buy/short/close; one-way mode always uses position_side 1)
// and keeps the API's own message when the order is refused.
import { createStore } from 'zustand/vanilla';
import type { OrderRequest, PlacementResult } from '../../../../src-shared/types.ts';
import type { TimeInForce } from '../../../../src-shared/enums.ts';
import { PerpdeskApiError, type RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { errorText } from '../../lib/frame.ts';

export type FormAction = 'open' | 'close';
export type FormType = 1 | 2;
export type SizeMode = 'qty' | 'pct';

export interface OrderFormState {
  action: FormAction;
  type: FormType;
  price: string;
  qty: string;
  sizeMode: SizeMode;
  /** Size as a share of available margin (open) or of the position (close), 0..100. */
  pct: number;
  tif: TimeInForce;
  reduceOnly: boolean;
  submitting: 1 | 2 | null;
  /** The API's message of the last refused request. */
  error: string | null;
  errorCode: number | null;
  /** What the last accepted order did. */
  notice: string | null;
  /** Which side the keyboard last asked for (B / S); the view focuses the size field. */
  focus: { side: 1 | 2; seq: number } | null;
  actions: {
    set(change: Partial<Pick<OrderFormState, 'action' | 'type' | 'price' | 'qty' | 'sizeMode' | 'pct' | 'tif' | 'reduceOnly'>>): void;
    /** A price picked on the ladder or chart: switches to a limit order at that price. */
    pickPrice(price: string): void;
    focusSide(side: 1 | 2): void;
    /** Esc: clears what was typed and any message. */
    reset(): void;
    clearMessages(): void;
    /** A message of the form itself (nothing sent). */
    fail(message: string): void;
    submit(order: OrderRequest): Promise<PlacementResult | null>;
  };
}

const STATUS_TEXT: Record<number, string> = {
  1: 'placed',
  2: 'partially filled',
  3: 'filled',
  4: 'canceled',
  5: 'rejected',
  6: 'expired',
};

export function createOrderFormStore(api: RestClient) {
  let seq = 0;
  return createStore<OrderFormState>()((set, get) => ({
    action: 'open',
    type: 1,
    price: '',
    qty: '',
    sizeMode: 'qty',
    pct: 0,
    tif: 1,
    reduceOnly: false,
    submitting: null,
    error: null,
    errorCode: null,
    notice: null,
    focus: null,
    actions: {
      set: (change) => set({ ...change, error: null, errorCode: null }),
      pickPrice: (price) => set({ price, type: 1, error: null, errorCode: null }),
      focusSide: (side) => set({ focus: { side, seq: ++seq } }),
      reset: () => set({ price: '', qty: '', pct: 0, error: null, errorCode: null, notice: null, focus: null }),
      clearMessages: () => set({ error: null, errorCode: null, notice: null }),
      fail: (message) => set({ error: message, errorCode: null, notice: null }),
      async submit(order) {
        if (get().submitting !== null) return null;
        set({ submitting: order.side, error: null, errorCode: null, notice: null });
        try {
          const r = await api.placeOrder(order);
          const what = `${order.position_action === 1 ? 'Open' : 'Close'} ${order.position_side === 2 ? 'short' : 'long'}`;
          set({
            submitting: null,
            notice: `${what} ${order.qty} ${order.symbol}: ${STATUS_TEXT[r.status] ?? `status ${r.status}`}${Number(r.filled_qty) > 0 ? `, filled ${r.filled_qty}` : ''}`,
            qty: get().sizeMode === 'qty' ? get().qty : '',
          });
          return r;
        } catch (err) {
          set({ submitting: null, error: errorText(err), errorCode: err instanceof PerpdeskApiError ? err.code : null });
          return null;
        }
      },
    },
  }));
}
