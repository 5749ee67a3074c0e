// The Margin column of the open orders: what each resting order holds, as the venue computes it
// (src-main/trading/ledger.ts eachOpeningOrder and orderMargin). The order record carries no
// margin figure (spec/api.md; the account's frozen_margin is their sum), so it is worked out from
// the record, the positions and the pair's taker fee with the order form's own functions:
// openingParts() (the part of each order that would open) and openingHold() (its initial margin
// at the order's leverage, and that plus the taker fee, what the venue freezes).
// A close holds nothing; nor does a market order, which never rests. A reduce-only order is a
// close in its record: one another client sent as an open with reduce_only (one-way mode) the
// venue records with position_action 2, which in one-way mode means reduce-only.
import type { OrderRecord, PositionRecord } from '../../../../src-shared/types.ts';
import { openingParts } from '../order-entry/notional-cap.ts';
import { openingHold } from '../order-entry/preview.ts';

export interface OrderMargin {
  /** The part of what is left of the order that would open a position, base asset. */
  opens: number;
  /** Its initial margin at the order's leverage, quote asset. */
  margin: number;
  /** What the venue freezes for it: the margin plus the taker fee. */
  hold: number;
}

type MarginPosition = Pick<PositionRecord, 'symbol' | 'position_side' | 'quantity' | 'mark_price'>;

/**
 * Each resting opening order's margin, by order id; an order that holds none by its nature (a
 * close, a market order) is absent. `takerFeeOf`: the pair's taker fee rate (NaN when unknown:
 * the hold is then unknown too, the margin is not). `oneWay`: the account's position mode,
 * undefined until the account has loaded; an order whose opening part then differs between the
 * modes (in one-way mode an order against the net position opens only what the position does not
 * cover, in hedge mode all of it) gets NaN figures (unknown: the cell shows "—"), the others their
 * figure, the same in either mode.
 */
export function orderMargins(
  orders: readonly OrderRecord[],
  positions: readonly MarginPosition[],
  oneWay: boolean | undefined,
  takerFeeOf: (symbol: string) => number,
): Map<string, OrderMargin> {
  if (oneWay !== undefined) return marginsIn(orders, positions, oneWay, takerFeeOf);
  const hedge = marginsIn(orders, positions, false, takerFeeOf);
  const one = marginsIn(orders, positions, true, takerFeeOf);
  for (const [id, m] of hedge)
    if (one.get(id)?.opens !== m.opens) hedge.set(id, { opens: NaN, margin: NaN, hold: NaN });
  return hedge;
}

function marginsIn(
  orders: readonly OrderRecord[],
  positions: readonly MarginPosition[],
  oneWay: boolean,
  takerFeeOf: (symbol: string) => number,
): Map<string, OrderMargin> {
  const out = new Map<string, OrderMargin>();
  const byId = new Map(orders.map((o) => [o.id, o]));
  for (const symbol of new Set(orders.map((o) => o.symbol))) {
    const { parts } = openingParts({ symbol, positions, orders, mark: undefined }, oneWay);
    for (const p of parts) {
      const o = byId.get(p.id);
      if (o === undefined) continue;
      out.set(p.id, { opens: p.opens, ...openingHold(p.opens * p.price, o.leverage, takerFeeOf(symbol)) });
    }
  }
  return out;
}
