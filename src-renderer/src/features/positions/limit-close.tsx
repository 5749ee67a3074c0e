// A position row's close at a limit price (beside its Close at market, as a venue's position row
// has both): "Limit" opens a price field in place, filled with the pair's last price (the mark
// before the first trade) and selected, so a price is typed over it or the arrows edit it.
// `Enter` places a reduce-only GTC limit order of the whole position at that price through the
// same API as any order (close-position.ts limitCloseOrders: a close, so the venue trims it as the
// position shrinks and cancels it when the position is gone); `Esc` cancels. Either puts the
// focus back on "Limit". A price that cannot be sent (empty, not a number, not above 0, off the
// tick) or the venue's refusal keeps the field open with the reason beside it, said by a live
// region; nothing is sent for a bad price. A price that crosses the book (a long's sell at or
// below the best bid, a short's buy at or above the best ask) is said under the field as it is
// typed, as the Modify dialog says it, since it fills at once as a taker: a warning, Enter still
// sends it (the book is the live one for the pair on screen, else read every 2 s while open).
import { useState, type KeyboardEvent, type RefObject } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { Side } from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import { refusalText } from '../../lib/frame.ts';
import { useServices } from '../../lib/use-services.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import { useInlineEdit } from '../../lib/use-inline-edit.ts';
import { useBestPrices } from '../../lib/use-best-prices.ts';
import { accountOneWay, limitCloseCrosses, limitCloseOrders, limitClosePrefill } from './close-position.ts';
import { positionDirection } from './position-direction.ts';

type Props = {
  p: PositionRecord;
  /** "long" / "short", as the row's other buttons name it. */
  name: string;
  pd: number;
  qd: number;
  /** Another action of the table is on its way: "Limit" is off. */
  disabled: boolean;
};

export function LimitClose({ p, name, pd, qd, disabled }: Props) {
  const s = useServices();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const editing = text !== null;
  const edit = useInlineEdit(editing);

  const close = (): void => {
    edit.closing(true);
    setText(null);
    setError(null);
  };
  const open = (): void => {
    const t = s.tickers.getState().tickers[p.symbol];
    setText(limitClosePrefill(t?.last, t?.mark ?? p.mark_price, pd));
  };
  const send = async (): Promise<void> => {
    if (sending) return;
    const pair = s.symbols.getState().bySymbol[p.symbol]?.futures;
    setSending(true);
    let placed = 0;
    let all = 1;
    try {
      const oneWay = await accountOneWay(s.account);
      const r = limitCloseOrders(p, text ?? '', qd, oneWay, { tick: pair?.price_step, maxQty: pair?.max_qty });
      if ('error' in r) {
        setError(r.error);
        return;
      }
      all = r.orders.length;
      for (const o of r.orders) {
        await s.api.placeOrder(o);
        placed++;
      }
      const o = r.orders[0];
      const verb = o.side === Side.SELL ? 'Sell' : 'Buy';
      s.toasts.getState().actions.push({
        kind: 'success',
        title: `Limit close placed: ${verb} ${fmt(positionDirection(p).size, qd)} ${p.symbol} @ ${fmt(o.price ?? '', pd)}, reduce-only`,
      });
      close();
      await s.orders.getState().actions.refresh().catch(dropServiceFailure);
    } catch (e) {
      // a position above max_qty is closed by several orders: those placed before the refusal stay
      const part = placed > 0 ? ` (${placed} of ${all} orders placed: they are in Open orders)` : '';
      setError(`Refused: ${refusalText(e)}${part}`);
    } finally {
      setSending(false);
    }
  };

  if (!editing)
    return (
      <button
        ref={edit.button}
        className="btn-small"
        disabled={disabled}
        onClick={open}
        aria-label={`Close at limit: ${p.symbol} ${name}`}
        title="Close the whole position with a reduce-only limit order (Enter places it, Esc cancels)"
      >
        Limit
      </button>
    );
  return (
    <LimitCloseField
      p={p}
      name={name}
      pd={pd}
      qd={qd}
      text={text}
      error={error}
      sending={sending}
      field={edit.field}
      onKeyDown={(e) => edit.keys(e, () => void send(), close)}
      onText={(t) => {
        setText(t);
        setError(null);
      }}
    />
  );
}

type FieldProps = Omit<Props, 'disabled'> & {
  text: string;
  error: string | null;
  sending: boolean;
  field: RefObject<HTMLInputElement | null>;
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void;
  onText: (text: string) => void;
};

/** The open price field and the line under it (a child, so the book is read only while it is open). */
function LimitCloseField({ p, name, pd, qd, text, error, sending, field, onKeyDown, onText }: FieldProps) {
  const crosses = limitCloseCrosses(p, text, useBestPrices(p.symbol), pd);
  const hint = `limit-close-hint-${p.symbol}-${p.position_side}`;
  const said = error ?? crosses;
  const cls = error !== null ? 'down limit-close-said' : crosses !== null ? 'warn-text limit-close-said' : 'sr-only';
  return (
    <span className="limit-close">
      <input
        ref={field}
        className="limit-close-price"
        aria-label={`Limit close price, ${p.symbol} ${name}, USDT`}
        aria-invalid={error !== null}
        aria-describedby={hint}
        inputMode="decimal"
        autoComplete="off"
        value={text}
        readOnly={sending}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <span id={hint} role="status" className={cls} title={said ?? undefined}>
        {said ?? `Enter places a reduce-only limit close of ${fmt(positionDirection(p).size, qd)}, Esc cancels`}
      </span>
    </span>
  );
}
