// The conditional order routes (`/fapi/v1/conditional/...`, signed) as the REST client's
// `conditionals` member: place, cancel one or all, read one, the waiting ones, the history.
import type {
  ConditionalCancelAllResult,
  ConditionalHistoryQuery,
  ConditionalOrderRecord,
  ConditionalOrderRequest,
  ConditionalPage,
} from '../types.ts';
import { bodyId, type Query } from './rest-request.ts';

/** A conditional order named by its id, or by the client id it was placed with. */
export type ConditionalRef = { id: string | number } | { clientOrderId: string };

type Signed = <T>(method: string, path: string, query?: Query, body?: unknown) => Promise<T>;

// an id given as a number goes as a number, so that one that is not finite (NaN) is refused
// unsent, as any query number is (as String(NaN) it went out as id=NaN and came back 1001)
const refQuery = (ref: ConditionalRef): Query =>
  'id' in ref ? { id: typeof ref.id === 'number' ? ref.id : String(ref.id) } : { client_order_id: ref.clientOrderId };

export class ConditionalOrders {
  private readonly signed: Signed;

  constructor(signed: Signed) {
    this.signed = signed;
  }

  /** Places one (`POST /fapi/v1/conditional/order`): held, freezing nothing, until its trigger is reached. */
  place(body: ConditionalOrderRequest): Promise<ConditionalOrderRecord> {
    return this.signed('POST', '/fapi/v1/conditional/order', undefined, body);
  }

  /** Cancels a waiting one (`DELETE /fapi/v1/conditional/order`); answers it with status 3. */
  cancel(ref: ConditionalRef, symbol?: string): Promise<ConditionalOrderRecord> {
    return this.signed('DELETE', '/fapi/v1/conditional/order', { ...refQuery(ref), symbol });
  }

  /** Cancels every waiting one, on `symbol` or on every pair (`DELETE /fapi/v1/conditional/allOpenOrders`). */
  cancelAll(symbol?: string): Promise<ConditionalCancelAllResult> {
    return this.signed('DELETE', '/fapi/v1/conditional/allOpenOrders', { symbol });
  }

  /**
   * Modifies a waiting one in place (`PUT /fapi/v1/conditional/order`): a new trigger price, a
   * stop-limit's limit price, a quantity; all or nothing. Answers it as modified.
   */
  async amend(
    ref: ConditionalRef,
    change: { trigger_price?: string; price?: string; qty?: string },
    symbol?: string,
  ): Promise<ConditionalOrderRecord> {
    const id =
      'id' in ref
        ? { id: bodyId('PUT /fapi/v1/conditional/order', 'id', ref.id) }
        : { client_order_id: ref.clientOrderId };
    return this.signed('PUT', '/fapi/v1/conditional/order', undefined, { symbol, ...id, ...change });
  }

  /** One, any status (`GET /fapi/v1/conditional/order`). */
  get(ref: ConditionalRef, symbol?: string): Promise<ConditionalOrderRecord> {
    return this.signed('GET', '/fapi/v1/conditional/order', { ...refQuery(ref), symbol });
  }

  /** The waiting ones, oldest first (`GET /fapi/v1/conditional/openOrders`). */
  open(symbol?: string): Promise<ConditionalOrderRecord[]> {
    return this.signed('GET', '/fapi/v1/conditional/openOrders', { symbol });
  }

  /** Every one, newest first, by cursor (`GET /fapi/v1/conditional/allOrders`). */
  history(query: ConditionalHistoryQuery = {}): Promise<ConditionalPage> {
    return this.signed('GET', '/fapi/v1/conditional/allOrders', { ...query });
  }
}
