// The Alerts tab's keyboard way to move a waiting alert (the chart's line drags, which the
// keyboard cannot): its level in the list is a button that opens an edit in place, the level
// selected; `Enter` saves (the side taken again from the last price, as a drag does), `Esc`
// cancels, and either puts the focus back on the level's button. A level refused keeps the edit
// open, said beside it and by the tab's live region. In the alert price fields `A` is no letter
// typed (no price has one): in the new alert's field it is what `A` does anywhere, the focus there.
import { useState, type KeyboardEvent } from 'react';
import { fmt } from '../../lib/format.ts';
import { useServices } from '../../lib/use-services.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { useInlineEdit } from '../../lib/use-inline-edit.ts';
import { condition, type PriceAlert } from './alert-rules.ts';

/** The level typed, as the decimal text an alert keeps, or why it is not one. */
export function levelOf(text: string, pd: number): { price: string } | { error: string } {
  const r = parseDecimalInput(text);
  if (r.kind === 'empty') return { error: 'Type the price to be told of.' };
  if (r.kind !== 'ok' || !(r.n > 0)) return { error: `"${text.trim()}" is not a price above 0.` };
  const [whole, frac = ''] = r.value.split('.');
  if (frac.length > pd) return { error: `At most ${pd} decimal${pd === 1 ? '' : 's'} on this pair.` };
  return { price: pd > 0 ? `${whole}.${frac.padEnd(pd, '0')}` : whole };
}

/**
 * `A` in an alert's price field: not typed (a second `A` typed "a" into the level, then refused:
 * '"a95969.7a96472.7" is not a price above 0.'). True when the key was taken.
 */
export function alertFieldKey(e: KeyboardEvent<HTMLInputElement>): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.key.toLowerCase() !== 'a') return false;
  e.preventDefault();
  return true;
}

/** A waiting alert's level in the list: a button that edits it in place (a fired one's text). */
export function AlertLevel({ a, pd, say }: { a: PriceAlert; pd: number; say: (text: string) => void }) {
  const s = useServices();
  /** The level typed while editing; null while not. */
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const editing = text !== null && a.fired === undefined;
  const edit = useInlineEdit(editing);
  const shown = `${condition(a)} ${fmt(a.price, pd)}`;

  const close = (byKey: boolean): void => {
    edit.closing(byKey);
    setText(null);
    setError(null);
  };
  const save = (): void => {
    const level = levelOf(text ?? '', pd);
    if ('error' in level) {
      setError(level.error);
      say(level.error);
      return;
    }
    if (level.price === a.price) return close(true);
    const r = s.alerts.getState().actions.move(a.id, level.price, s.tickers.getState().tickers[a.symbol]?.last ?? NaN);
    if (!r.ok) {
      setError(r.error);
      say(r.error);
      return;
    }
    say(`Alert moved: ${a.symbol} ${condition(r.alert)} ${fmt(level.price, pd)}`);
    close(true);
  };

  if (a.fired !== undefined) return <>{shown}</>;
  if (!editing)
    return (
      <button
        ref={edit.button}
        className="link-button"
        data-testid={`alert-edit-${a.id}`}
        aria-label={`Change alert price: ${a.symbol} ${shown}`}
        title="Change the price (Enter saves, Esc cancels)"
        onClick={() => setText(a.price)}
      >
        {shown}
      </button>
    );
  const hint = `alert-edit-hint-${a.id}`;
  return (
    <span className="alert-edit">
      <span aria-hidden="true">{condition(a)} </span>
      <input
        ref={edit.field}
        className="alert-price"
        data-testid={`alert-edit-price-${a.id}`}
        aria-label={`New price of the alert ${a.symbol} ${shown}, USDT`}
        aria-invalid={error !== null}
        aria-describedby={hint}
        inputMode="decimal"
        autoComplete="off"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => alertFieldKey(e) || edit.keys(e, save, () => close(true))}
        onBlur={() => close(false)}
      />
      <span id={hint} className={error === null ? 'sr-only' : 'down alert-edit-error'}>
        {error ?? 'Enter saves, Esc cancels'}
      </span>
    </span>
  );
}
