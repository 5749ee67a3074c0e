// The order form's price: the field (a limit price, a stop's optional limit price, "Market price"
// for a market order), Last beside it, and under it what the venue will refuse in it, each
// message named by the field (aria-describedby; a post-only order's price that would take, too)
// as is the side armed with B / S.
import type { DecimalInput } from '../../lib/decimal-input.ts';
import { NOT_A_NUMBER } from './order-model.ts';
import { fmt } from '../../lib/format.ts';

/** The id of the visually hidden "Open long armed" the price and size fields are described by. */
export const ARMED_ID = 'oe-armed';

/** aria-describedby of the ids given (undefined with none). */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const s = ids.filter((x): x is string => typeof x === 'string' && x !== '').join(' ');
  return s === '' ? undefined : s;
}

export interface PriceFieldProps {
  /** The field's text. */
  price: string;
  priceIn: DecimalInput;
  /** A limit price is typed (false: a market order's "Market price"). */
  priced: boolean;
  /** A stop's limit price (empty: a market order when it fires). */
  stop: boolean;
  /** Off the pair's tick (input-checks.ts), or null. */
  offTick: string | null;
  /** A post-only order this price makes take liquidity (input-checks.ts postOnlyCheck), or null. */
  postOnly?: string | null;
  last: number | undefined;
  pd: number;
  quote: string;
  /** A side is armed with B / S: the field is described by it. */
  armed: boolean;
  onPrice: (price: string) => void;
}

export function PriceField({
  price,
  priceIn,
  priced,
  stop,
  offTick,
  postOnly = null,
  last,
  pd,
  quote,
  armed,
  onPrice,
}: PriceFieldProps) {
  const invalid = priced && (priceIn.kind === 'invalid' || priceIn.kind === 'negative');
  return (
    <>
      <label className="field">
        <span className="field-label">Price</span>
        {priced ? (
          <input
            aria-label="Price"
            inputMode="decimal"
            value={price}
            aria-invalid={invalid || offTick !== null || postOnly !== null}
            aria-describedby={describedBy(
              invalid && 'price-invalid',
              offTick !== null && 'price-check',
              postOnly !== null && 'price-post-only',
              armed && ARMED_ID,
            )}
            placeholder={stop ? 'Market' : fmt(last, pd)}
            title={stop ? 'Empty: a market order when the trigger is reached; a price: a limit order there' : undefined}
            onChange={(e) => onPrice(e.target.value)}
          />
        ) : (
          <input aria-label="Price" disabled value="Market price" readOnly />
        )}
        <span className="unit">
          {priced && (
            <button
              className="link"
              type="button"
              aria-label="Use the last price"
              title="Use the last price"
              onClick={() => last && onPrice(last.toFixed(pd))}
            >
              Last
            </button>
          )}
          {quote}
        </span>
      </label>
      {invalid && (
        <p className="warn-text" id="price-invalid" data-testid="price-invalid">
          {priceIn.kind === 'negative' ? 'A price is above 0.' : `Not a price: ${NOT_A_NUMBER}.`}
        </p>
      )}
      {offTick !== null && (
        <p className="warn-text" id="price-check" data-testid="price-check">
          {offTick}
        </p>
      )}
      {postOnly !== null && (
        <p className="warn-text" id="price-post-only" data-testid="price-post-only">
          {postOnly}
        </p>
      )}
    </>
  );
}
