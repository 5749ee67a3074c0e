// Take-profit / stop-loss of one position: set, change or remove each trigger, each watching
// its own price, the mark or the last (a choice under each field, showing what the trigger watches
// now; before, one choice for both moved a stop-loss on the last price onto the take-profit's mark
// at Save). Shows the PnL each trigger would realise, and under each field as
// it is typed what the venue will refuse in it (off the tick, not a price above 0, on the wrong
// side of the watched price, named with its value: tpslChecks; the field marked aria-invalid);
// the placeholders name the watched price chosen. Said, not enforced: Save still sends, and the
// API's message shows (with its code) when it refuses. Prices may carry thousands separators
// (sent without them); what is still not a number is refused here, both fields' at once.
// The dialog owns the keyboard while open: the caller registers it as the workspace's 'tpsl'
// overlay (so the global shortcuts are inert even with the focus outside it), keys pressed in
// it never reach the global handler, and Enter saves only from the price fields (buttons keep
// their own Enter). A modal dialog (use-modal.ts): the focus starts in the take-profit field,
// Tab / Shift+Tab cycle inside, Esc closes it from anywhere in it, the focus then goes back to ✎.
// The store's triggers may be seconds old (a bot may have just set them through the API): the
// dialog reads them afresh when it opens (the fields take them unless already edited), and again
// before it saves; when they changed since it opened it saves nothing, says so and shows them.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { WorkingType } from '../../../../src-shared/enums.ts';
import { fmt, fmtSigned } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { FormDialog } from '../../layout/form-dialog.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { positionDirection } from './position-direction.ts';
import { positionKey, type TpSl } from './positions-store.ts';
import { WATCHED_NAMES } from '../order-entry/stop-order.ts';
import {
  sameTriggers,
  tpslChecks,
  tpslRequest,
  triggerPnl,
  triggerPrices,
  watchedPrice,
  watchOf,
  type TriggerWatch,
} from './tpsl-input.ts';

export function TpSlDialog({
  position,
  onClose,
  opener,
}: {
  position: PositionRecord;
  onClose: () => void;
  /** Takes the focus back when the button that opened the dialog is gone (its position closed). */
  opener?: RefObject<HTMLElement | null>;
}) {
  const s = useServices();
  const key = positionKey(position.symbol, position.position_side);
  // the live record (entry and size move with fills); the one clicked once it is gone
  const live = useSel(s.positions, (x) => x.positions.find((r) => positionKey(r.symbol, r.position_side) === key));
  const p = live ?? position;
  const { pd } = useDecimals()(p.symbol);
  const current = useSel(s.positions, (x) => x.tpsl[key]);
  const mark = useSel(s.tickers, (x) => x.tickers[p.symbol]?.mark ?? p.mark_price);
  const last = useSel(s.tickers, (x) => x.tickers[p.symbol]?.last);
  const tick = useSel(s.symbols, (x) => x.bySymbol[p.symbol]?.futures.price_step);
  const [tp, setTp] = useState(current?.takeProfit ?? '');
  const [sl, setSl] = useState(current?.stopLoss ?? '');
  const [watch, setWatch] = useState<TriggerWatch>(watchOf(current));
  const { busy, error, setError, send } = useSubmit();
  const first = useRef<HTMLInputElement>(null);
  // the triggers the fields started from (what Save may replace), and whether they were edited
  const base = useRef<TpSl | null>(current ?? null);
  const edited = useRef(false);
  const show = (t: TpSl | null): void => {
    setTp(t?.takeProfit ?? '');
    setSl(t?.stopLoss ?? '');
    setWatch(watchOf(t));
  };
  const edit = (): void => {
    edited.current = true;
    setError(null);
  };
  useEffect(() => {
    let live = true;
    s.positions
      .getState()
      .actions.loadTpSl(p.symbol, p.position_side)
      .then((fresh) => {
        // fields already typed in keep what was typed; Save then finds the change
        if (!live || edited.current) return;
        base.current = fresh;
        show(fresh);
      })
      .catch(() => {
        // the service cannot be reached: Save says so
      });
    return () => {
      live = false;
    };
  }, []);

  const d = positionDirection(p);
  const pnlAt = (price: string): number => triggerPnl(price, p.entry_price, d);
  const tpPnl = pnlAt(tp);
  const slPnl = pnlAt(sl);
  const checks = tpslChecks(
    { tp, sl },
    d.long,
    { tp: watchedPrice(watch.tp, mark, last), sl: watchedPrice(watch.sl, mark, last) },
    tick,
    pd,
  );
  // "above mark" / "below last": the side each trigger goes, of the price it watches
  const short = (w: WorkingType): string => (w === WorkingType.LAST_PRICE ? 'last' : 'mark');
  const onLast = watch.tp === WorkingType.LAST_PRICE || watch.sl === WorkingType.LAST_PRICE;
  /** A trigger's Mark / Last choice, its current one pressed. */
  const watchChoice = (which: keyof TriggerWatch, name: string) => (
    <div className="seg" role="group" aria-label={`${name} watches`}>
      <span className="muted small">Trigger on</span>
      {([WorkingType.MARK_PRICE, WorkingType.LAST_PRICE] as const).map((w) => (
        <button
          key={w}
          type="button"
          className={watch[which] === w ? 'active' : ''}
          aria-pressed={watch[which] === w}
          onClick={() => (setWatch((x) => ({ ...x, [which]: w })), edit())}
        >
          {w === WorkingType.MARK_PRICE ? 'Mark price' : 'Last price'}
        </button>
      ))}
    </div>
  );

  // closed while the dialog is open (its stop fired, a bot or another window closed it): nothing to
  // set; before, Save said its triggers "changed since this dialog opened" and to Save again
  const closed =
    live === undefined
      ? `This ${p.symbol} ${d.name} closed while the dialog was open: there is no position to set a take profit or stop loss on.`
      : null;

  const save = async (): Promise<void> => {
    if (busy || closed !== null) return;
    const prices = triggerPrices(tp, sl);
    if (!prices.ok) {
      setError(prices.error);
      return;
    }
    await send(async () => {
      const now = await s.positions.getState().actions.loadTpSl(p.symbol, p.position_side);
      if (!sameTriggers(now, base.current)) {
        base.current = now;
        setError(
          `The TP/SL of this position changed since this dialog opened (a bot or another window): now TP ${fmt(now?.takeProfit, pd)}, SL ${fmt(now?.stopLoss, pd)}. Nothing was saved; Save again to replace them with the fields.`,
        );
        return;
      }
      await s.positions.getState().actions.setTpSl(tpslRequest(p, prices, watch));
      // what is in force now, said back: each price and the price it watches, or that there is none
      const said = (x: string | null, w: WorkingType): string =>
        x ? `${fmt(Number(x), pd)} on the ${WATCHED_NAMES[w]}` : 'none';
      s.toasts.getState().actions.push({
        kind: 'success',
        title: `TP/SL saved for ${p.symbol} ${d.name}`,
        body: `TP ${said(prices.take_profit_price, watch.tp)} · SL ${said(prices.stop_loss_price, watch.sl)}`,
      });
      onClose();
    });
  };

  return (
    <FormDialog
      label="Take profit / stop loss"
      onClose={onClose}
      opener={opener}
      onSubmit={() => void save()}
      initial={first}
      error={closed ?? error}
      submitLabel="Save"
      submitDisabled={busy || closed !== null}
    >
      <h3>
        TP / SL · {p.symbol}{' '}
        <span className={d.long ? 'up' : 'down'} data-testid="tpsl-direction">
          {d.long ? 'Long' : 'Short'}
        </span>
      </h3>
      <p className="muted small">
        Entry {fmt(p.entry_price, pd)} · Mark {fmt(mark, pd)}
        {onLast ? ` · Last ${fmt(last, pd)}` : ''} · the whole position closes at market when the trigger is reached.
      </p>
      <label className="field">
        <span className="field-label">Take profit</span>
        <input
          ref={first}
          aria-label="Take profit price"
          inputMode="decimal"
          value={tp}
          aria-invalid={checks.tp !== null}
          placeholder={`${d.long ? 'above' : 'below'} ${short(watch.tp)}`}
          onChange={(e) => (setTp(e.target.value), edit())}
        />
        <span className="unit">
          <button type="button" className="link" aria-label="Clear take profit" onClick={() => (setTp(''), edit())}>
            clear
          </button>
        </span>
      </label>
      {checks.tp !== null && (
        <p className="warn-text" data-testid="tp-check">
          {checks.tp}
        </p>
      )}
      <p className="est">
        Est. PnL{' '}
        <b className={tpPnl >= 0 ? 'up' : 'down'} data-testid="tp-pnl">
          {fmtSigned(tpPnl, 2)}
        </b>{' '}
        USDT
      </p>
      {watchChoice('tp', 'Take profit')}
      <label className="field">
        <span className="field-label">Stop loss</span>
        <input
          aria-label="Stop loss price"
          inputMode="decimal"
          value={sl}
          aria-invalid={checks.sl !== null}
          placeholder={`${d.long ? 'below' : 'above'} ${short(watch.sl)}`}
          onChange={(e) => (setSl(e.target.value), edit())}
        />
        <span className="unit">
          <button type="button" className="link" aria-label="Clear stop loss" onClick={() => (setSl(''), edit())}>
            clear
          </button>
        </span>
      </label>
      {checks.sl !== null && (
        <p className="warn-text" data-testid="sl-check">
          {checks.sl}
        </p>
      )}
      <p className="est">
        Est. PnL{' '}
        <b className={slPnl >= 0 ? 'up' : 'down'} data-testid="sl-pnl">
          {fmtSigned(slPnl, 2)}
        </b>{' '}
        USDT
      </p>
      {watchChoice('sl', 'Stop loss')}
    </FormDialog>
  );
}
