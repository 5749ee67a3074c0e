// Which of the book's levels the order form's preview reads (use-order-model.ts hands them to
// order-model.ts): only those the order meets, so the form does not render on every book frame
// for an order that meets only the best price, or none.
import { OrderType, Side } from '../../../../src-shared/enums.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import type { OrderFormState } from './order-form-store.ts';

/**
 * Whether an order of `side` meets the book's levels beyond the best price `best` (the asks for a
 * buy, the bids for a sell): a market order with a size walks them from the best (a stop's meets
 * the book only when it fires), a limit price reaches those it crosses.
 */
export function bookReach(
  f: Pick<OrderFormState, 'type' | 'stop' | 'price' | 'qty' | 'sizeMode' | 'pct'>,
): (side: Side, best: number) => boolean {
  if (f.stop) return () => false;
  if (f.type === OrderType.MARKET) {
    const sized = f.sizeMode === 'pct' ? f.pct > 0 : f.qty.trim() !== '';
    return () => sized;
  }
  const limit = parseDecimalInput(f.price);
  const at = limit.kind === 'ok' ? limit.n : NaN;
  return (side, best) => (side === Side.BUY ? at >= best : at <= best);
}
