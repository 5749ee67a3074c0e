// Order entry: open or close, limit, market or stop (stop-fields.tsx, stop-order.ts; trailing: trailing-fields.tsx,
// trailing-stop.ts), time in force, reduce-only (one-way mode only),
// leverage and margin mode, size as a quantity or a share of margin (or of the position), and
// each side's preview. The math is order-model.ts, the form's state order-form-store.ts, the
// mirrored sides order-side.tsx, the size field size-field.tsx.
// Keeps true: what is not a number is refused here, not sent; Max and % stay under the
// leverage's notional cap; Enter sends the side armed with B / S once and disarms it, the focus
// staying in the field (its text selected: what is typed next is the next order's) or back on the
// side's button once the answer is in; the answer is said by live regions that are always there
// (a region added with its text is not announced); with the market connection lost the buttons are disabled.
import { useEffect, useRef, useState } from 'react';
import {
  MarginMode,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  SymbolStatus,
  TimeInForce,
  WorkingType,
  nameOf,
  valuesOf,
} from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import { refusalText } from '../../lib/frame.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { useLiveSummary } from '../account/use-live-summary.ts';
import { tabStop, tablistKeys } from '../../layout/tablist-keys.ts';
import { LeverageEditor } from './leverage-editor.tsx';
import { LoginHint } from './login-hint.tsx';
import { postOnlyCheck, priceCheck } from './input-checks.ts';
import { ARMED_ID, PriceField } from './price-field.tsx';
import { SidePreview, SideButton } from './order-side.tsx';
import { SizeField } from './size-field.tsx';
import { StopTrigger, StopWhen } from './stop-fields.tsx';
import { stopAction, stopRefusedAsTyped, stopRequest, stopTrigger, type StopWhat } from './stop-order.ts';
import { StopMode, TrailingFields, TrailingWhen } from './trailing-fields.tsx';
import { trailingDoes, trailingRequest, trailingSpec } from './trailing-stop.ts';
import { useOrderModel } from './use-order-model.ts';
import './order-entry.css';

const TIF_TITLES: Record<TimeInForce, string> = {
  [TimeInForce.GTC]: 'Good till cancelled: rests until filled or cancelled',
  [TimeInForce.IOC]: 'Immediate or cancel: fills what it can, the rest expires',
  [TimeInForce.FOK]: 'Fill or kill: fills completely at once, or is refused',
  [TimeInForce.GTX]: 'Post only: refused if any part would take liquidity',
};

/** The order kinds' tabs: [kind, name, title]. */
const KINDS = [
  [OrderType.LIMIT, 'Limit', 'Limit order: rests at its price (L)'],
  [OrderType.MARKET, 'Market', 'Market order: fills now at the book (M)'],
  ['stop', 'Stop', 'Stop: an order the venue holds until the mark or last price reaches a trigger'],
] as const;

export function OrderEntry() {
  const s = useServices();
  const { symbol, entry, pd, qd } = useSymbolView();
  const f = useSel(s.orderForm, (x) => x);
  const a = f.actions;
  const session = useSel(s.session, (x) => x.status);
  const summary = useLiveSummary();
  const setting = useSel(s.account, (x) => x.settings[symbol]);
  const down = useSel(s.connection, (c) => marketDown(c.state));
  const replayEnded = useSel(s.replay, (r) => r.link === 'ended');
  const last = useSel(s.tickers, (t) => t.tickers[symbol]?.last);
  const mark = useSel(s.tickers, (t) => t.tickers[symbol]?.mark);
  const model = useOrderModel();
  const [editLeverage, setEditLeverage] = useState(false);
  const sizeInput = useRef<HTMLInputElement>(null);
  const leverageButton = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const loggedIn = session === 'ready';
  // a paused or delisted pair takes no new orders (the API would answer 3001)
  const halted = entry !== undefined && entry.general.status !== SymbolStatus.TRADING;
  const { leverage, maxLeverage, marginMode, oneWay, priceIn, buy, sell } = model;
  // a stop's price field is its optional limit price (empty: a stop-market); a trailing stop has none
  const trailing = f.stop && f.trailing;
  const priced = f.stop ? !f.trailing : f.type === OrderType.LIMIT;
  const watched = f.working === WorkingType.LAST_PRICE ? last : mark;

  useEffect(() => {
    if (loggedIn)
      s.account
        .getState()
        .actions.loadSetting(symbol)
        .catch((e: unknown) => s.orderForm.getState().actions.settingFailed(refusalText(e)));
  }, [s, symbol, loggedIn]);

  // B / S: the whole size is selected, so what is typed replaces the last size
  useEffect(() => {
    if (!f.focus) return;
    sizeInput.current?.focus();
    sizeInput.current?.select();
  }, [f.focus]);
  // a side armed (B / S) with nothing to close or reduce, or whose position went meanwhile: not
  // armed (each Enter would only repeat the refusal), and the form says why
  const armedNone = f.focus === null ? null : (f.focus.side === Side.BUY ? buy : sell).nothingToClose;
  useEffect(() => {
    if (armedNone !== null) a.refuseSide(`${armedNone}.`);
  }, [armedNone, f.focus, a]);

  // A new pair has other steps: drop what was typed for the old one.
  const prevSymbol = useRef(symbol);
  useEffect(() => {
    if (prevSymbol.current !== symbol) a.reset();
    prevSymbol.current = symbol;
  }, [symbol, a]);

  const fut = entry?.futures;
  const base = entry?.general.base_asset ?? '';
  const quote = entry?.general.quote_asset ?? 'USDT';
  const offTick = fut && priced ? priceCheck(priceIn, fut.price_step) : null;
  const postOnlyTakes = postOnlyCheck(model.postOnlyTakes, pd);
  // what a trailing stop's rate, activation and sentences are read against
  const trailCtx = { working: f.working, watched, tick: fut?.price_step, pd };
  // the cap of the leverage in force (once per pair and leverage)
  useEffect(() => {
    if (loggedIn && setting !== undefined) void s.notionalCaps.getState().actions.probe(symbol);
  }, [s, symbol, loggedIn, setting?.leverage]);

  // the control the focus goes back to once the order is answered, if the focus fell to the page meanwhile
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = refocus.current;
    if (f.submitting !== null || el === null) return;
    refocus.current = null;
    const at = document.activeElement;
    if ((at === null || at === document.body) && el.isConnected && !(el as HTMLButtonElement).disabled) el.focus();
  }, [f.submitting]);

  // The side's button the focus is on: disabled for good while it has it (its position closed:
  // "No long to close"), the focus goes to the size, not to the page. Kept through a blur that
  // leaves the focus nowhere on a disabled button (the browser's own drop), dropped by any other.
  const sideFocus = useRef<HTMLButtonElement | null>(null);
  const closable = `${buy.nothingToClose === null} ${sell.nothingToClose === null}`;
  useEffect(() => {
    const el = sideFocus.current;
    if (f.submitting !== null || el === null || (el.isConnected && !el.disabled)) return;
    sideFocus.current = null;
    const at = document.activeElement;
    if (at === null || at === document.body || at === el) sizeInput.current?.focus();
  }, [f.submitting, closable]);
  const sideFocusEvents = {
    onFocus: (e: React.FocusEvent) => {
      sideFocus.current = e.target instanceof HTMLButtonElement ? e.target : null;
    },
    onBlur: (e: React.FocusEvent) => {
      if (e.relatedTarget !== null || !(e.target as HTMLButtonElement).disabled) sideFocus.current = null;
    },
  };

  const submit = async (side: Side): Promise<unknown> => {
    if (!fut || halted) return;
    if (down) return a.marketLost();
    // a stop's trigger (a trailing stop's rate and activation) is said first, as it is the first field
    const t = f.stop && !trailing ? stopTrigger(model.triggerIn, f.working, watched) : null;
    if (t !== null && !t.ok) return a.fail(t.error);
    const tr = trailing ? trailingSpec(model.callbackIn, model.activationIn, trailCtx, side) : null;
    if (tr !== null && !tr.ok) return a.fail(tr.error);
    const r = model.order(side);
    if (!r.ok) {
      // no limit price (or not one): the focus to the price field, the side kept armed, so the price
      // typed there and Enter send it (it stayed in the size, where Enter only said it again)
      const price =
        r.field === 'price' ? root.current?.querySelector<HTMLInputElement>('input[aria-label="Price"]') : null;
      price?.focus();
      price?.select();
      return a.fail(r.error);
    }
    const st =
      tr !== null
        ? { ok: true as const, request: trailingRequest(r.order, tr, f.working) }
        : f.stop
          ? stopRequest(r.order, model.triggerIn, f.working, watched, f.protect)
          : null;
    if (st !== null && !st.ok) return a.fail(st.error);
    // The order goes out and the keyboard stays where the trader is: in the field, its text selected
    // so that what is typed meanwhile is the next order's (B / S re-arm a side; the store disarms
    // this one as it sends, so a second Enter sends nothing), or on the side's button, which is
    // disabled while the order is on its way (the browser drops the focus to the page) and gets
    // the focus back with the answer.
    const el = document.activeElement;
    if (el instanceof HTMLInputElement && el.type === 'text' && root.current?.contains(el)) el.select();
    else if (el instanceof HTMLElement && root.current?.contains(el)) refocus.current = el;
    if (st !== null) return a.submitStop(st.request, { pd, qd, base });
    await a.submit(r.order, { pd, qd, oneWay, trimmedTo: (side === Side.BUY ? model.buy : model.sell).trimmedTo });
  };

  // Enter in the price or size field sends the side armed with B / S, once; with nothing
  // armed it says how. Buttons, the checkbox and the select keep their own Enter. B / S arm a side
  // in those fields too (no number has a letter): the hint's "press B" works where it is read.
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const t = e.target;
    if (!(t instanceof HTMLInputElement) || t.type !== 'text') return;
    const letter = e.key.toLowerCase();
    const orderField = ['Price', 'Size', 'Trigger price', 'Callback rate', 'Activation price'].includes(
      t.getAttribute('aria-label') ?? '',
    );
    if (orderField && (letter === 'b' || letter === 's') && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      a.focusSide(letter === 'b' ? Side.BUY : Side.SELL);
      return;
    }
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (f.submitting !== null) return;
    if (f.focus) void submit(f.focus.side);
    else a.showHint();
  };

  const setMode = async (mode: MarginMode): Promise<void> => {
    a.clearMessages();
    try {
      await s.account.getState().actions.setMarginMode(symbol, mode);
    } catch (e) {
      // the venue's words with its code, "(3014) Margin mode of …", as a refused leverage says it
      a.settingFailed(refusalText(e));
    }
  };

  const sides = [buy, sell] as const;
  // what a side's stop places when it fires, in its preview column ("buy 0.010 BTC at market")
  const stopWhat = (side: Side): StopWhat => {
    const r = model.order(side);
    if (r.ok) return r.order;
    return {
      side,
      position_side: PositionSide.LONG,
      position_action: f.action === 'open' ? PositionAction.OPEN : PositionAction.CLOSE,
      reduce_only: f.action === 'open' && oneWay && f.reduceOnly,
      type: model.type,
      price: priceIn.kind === 'ok' ? priceIn.value : '',
      qty: (side === Side.BUY ? buy : sell).qty,
    };
  };
  // a trailing stop's: how it fires, too ("when it falls 1.0% from its highest, sell ..."); "—"
  // for a price or size the venue will refuse as typed, never one rounded to the pair's decimals
  const stopDoes = (side: Side): { text: string; warn: boolean } => {
    const o = stopWhat(side);
    const does = trailing
      ? trailingDoes(o, model.callbackIn, model.activationIn, { ...trailCtx, qd, base })
      : { text: stopAction(o, pd, qd, base), warn: false };
    return does.warn || !stopRefusedAsTyped(o, fut) ? does : { text: '—', warn: false };
  };
  // the side an activation is read for: the one armed, else the only one with something to close
  const onlySide = buy.nothingToClose !== null ? Side.SELL : sell.nothingToClose !== null ? Side.BUY : null;
  const trailSide = f.focus?.side ?? onlySide;
  const armedSide = f.focus === null || armedNone !== null ? null : f.focus.side === Side.BUY ? buy : sell;

  return (
    <div className="order-entry" data-testid="order-entry" data-size-mode={f.sizeMode} onKeyDown={onKeyDown} ref={root}>
      <div className="oe-tabs" role="tablist" aria-label="Open or close" onKeyDown={tablistKeys}>
        {(['open', 'close'] as const).map((act) => (
          <button
            key={act}
            role="tab"
            aria-selected={f.action === act}
            tabIndex={tabStop(f.action === act)}
            className={f.action === act ? 'active' : ''}
            onClick={() => a.setAction(act)}
          >
            {act === 'open' ? 'Open' : 'Close'}
          </button>
        ))}
      </div>

      <div className="oe-settings">
        <div className="seg" role="group" aria-label="Margin mode">
          {[MarginMode.CROSS, MarginMode.ISOLATED].map((m) => (
            <button
              key={m}
              className={marginMode === m ? 'active' : ''}
              aria-pressed={marginMode === m}
              disabled={!loggedIn}
              onClick={() => void setMode(m)}
            >
              {m === MarginMode.CROSS ? 'Cross' : 'Isolated'}
            </button>
          ))}
        </div>
        <button
          ref={leverageButton}
          className="lev-button"
          data-testid="leverage-button"
          aria-expanded={editLeverage}
          aria-controls={editLeverage ? 'leverage-editor' : undefined}
          disabled={!loggedIn}
          onClick={() => setEditLeverage((v) => !v)}
          title={`Leverage, up to ${maxLeverage}x`}
          aria-label={`Leverage ${leverage}x`}
        >
          {leverage}x
        </button>
      </div>
      {editLeverage && (
        <LeverageEditor
          symbol={symbol}
          current={leverage}
          max={maxLeverage}
          onDone={(err) => {
            if (err !== null) return a.settingFailed(err);
            a.clearMessages();
            setEditLeverage(false);
          }}
          onCancel={() => setEditLeverage(false)}
          opener={leverageButton}
        />
      )}
      {f.settingError && (
        <p className="oe-error" role="alert" data-testid="setting-error">
          {f.settingError}
        </p>
      )}

      <div className="oe-types" role="tablist" aria-label="Order type" onKeyDown={tablistKeys}>
        {KINDS.map(([kind, name, title]) => {
          const on = kind === 'stop' ? f.stop : !f.stop && f.type === kind;
          return (
            <button
              key={kind}
              role="tab"
              aria-selected={on}
              tabIndex={tabStop(on)}
              className={on ? 'active' : ''}
              title={title}
              onClick={() => a.set(kind === 'stop' ? { stop: true } : { type: kind, stop: false })}
              disabled={kind === OrderType.MARKET && entry?.general.allow_market === false}
            >
              {name}
            </button>
          );
        })}
        <span className="avail" title={`Available margin: ${fmt(summary?.available_balance, 2)} ${quote}`}>
          Avail <b data-testid="available-balance">{fmt(summary?.available_balance, 2)}</b> {quote}
        </span>
      </div>

      {f.stop && <StopMode f={f} />}
      {f.stop && !f.trailing && (
        <StopTrigger f={f} triggerIn={model.triggerIn} watched={watched} tick={fut?.price_step} pd={pd} quote={quote} />
      )}
      {trailing && (
        <TrailingFields
          f={f}
          callbackIn={model.callbackIn}
          activationIn={model.activationIn}
          x={trailCtx}
          side={trailSide}
          quote={quote}
        />
      )}

      {/* a trailing stop has no limit price: no field (its Trigger / Trailing row says it places a market order) */}
      {!trailing && (
        <PriceField
          price={f.price}
          priceIn={priceIn}
          priced={priced}
          stop={f.stop}
          offTick={offTick}
          postOnly={postOnlyTakes}
          last={last}
          pd={pd}
          quote={quote}
          armed={armedSide !== null}
          onPrice={(price) => a.set({ price })}
        />
      )}

      <SizeField
        f={f}
        model={model}
        futures={fut}
        base={base}
        inputRef={sizeInput}
        opens={f.action === 'open' && !(oneWay && f.reduceOnly)}
        armed={armedSide !== null}
      />
      {/* what the price and size fields are described by: the side Enter sends (finding: the ring alone said it) */}
      <span id={ARMED_ID} className="sr-only" role="status">
        {armedSide !== null ? `${armedSide.label} armed: Enter sends it` : ''}
      </span>

      <div className="oe-options">
        {model.type === OrderType.LIMIT && (
          <label className="inline">
            <span>TIF</span>
            <select
              aria-label="Time in force"
              value={f.tif}
              onChange={(e) => a.set({ tif: Number(e.target.value) as TimeInForce })}
            >
              {valuesOf(TimeInForce).map((t) => (
                <option key={t} value={t} title={TIF_TITLES[t]}>
                  {nameOf(TimeInForce, t)}
                </option>
              ))}
            </select>
          </label>
        )}
        {f.action === 'open' && oneWay && (
          <label className="inline check" title="Only reduces the net position; never opens or flips it">
            <input type="checkbox" checked={f.reduceOnly} onChange={(e) => a.set({ reduceOnly: e.target.checked })} />
            <span>Reduce-only</span>
          </label>
        )}
        {f.action === 'close' && (
          <span className="muted small" data-testid="close-reduce-only">
            Close orders are always reduce-only: they only shrink the position.
          </span>
        )}
      </div>

      {halted && (
        <p className="oe-halted warn small" data-testid="order-halted">
          {symbol} is {entry?.general.status === SymbolStatus.PAUSED ? 'paused' : 'delisted'}: it takes no new orders
          (open orders can still be cancelled).
        </p>
      )}
      {down && loggedIn && (
        <p className="oe-down small" data-testid="order-disconnected" role="status">
          {replayEnded
            ? 'This replay has ended: it takes no more orders.'
            : 'Market connection lost: orders are disabled until it is back (prices on screen are stale).'}
        </p>
      )}
      <div className="oe-buttons" {...sideFocusEvents}>
        {sides.map((m) => (
          <SideButton
            key={m.side}
            m={m}
            armed={armedSide?.side === m.side}
            disabled={!loggedIn || halted || down || m.nothingToClose !== null || f.submitting !== null}
            sending={f.submitting === m.side}
            pct={f.sizeMode === 'pct' ? f.pct : null}
            onClick={() => void submit(m.side)}
          />
        ))}
      </div>

      {f.stop && !f.trailing && (
        <StopWhen f={f} triggerIn={model.triggerIn} watched={watched} tick={fut?.price_step} pd={pd} />
      )}
      {trailing && <TrailingWhen f={f} callbackIn={model.callbackIn} activationIn={model.activationIn} x={trailCtx} />}

      {/* nothing to close on either side: one line, no figures; on one side: that side's
          column says so in place of its figures */}
      {buy.nothingToClose !== null && sell.nothingToClose !== null ? (
        <p className="muted small oe-noclose" data-testid="nothing-to-close">
          No position to {f.action === 'open' ? 'reduce' : 'close'} on this pair.
        </p>
      ) : (
        <div className="oe-preview" data-testid="order-preview">
          {sides.map((m) => (
            <SidePreview
              key={m.side}
              m={m}
              action={f.action}
              pd={pd}
              qd={qd}
              base={base}
              stopDoes={f.stop ? stopDoes(m.side) : undefined}
            />
          ))}
        </div>
      )}

      {f.error && (
        <div className="oe-error" role="alert" data-testid="order-error">
          {f.errorCode !== null ? (
            <>
              <b>Order refused</b>
              {f.errorCode > 0 && <span className="code"> ({f.errorCode})</span>}: {f.error}
            </>
          ) : (
            f.error
          )}
        </div>
      )}
      {/* live regions that are always there, empty (no box) when silent: a screen reader says what comes into them */}
      <div
        className={f.notice ? `oe-notice ${f.noticeKind}` : 'oe-silent'}
        data-testid="order-notice"
        data-kind={f.notice ? f.noticeKind : undefined}
      >
        {/* a whole fill shown, not said: the fill toast says it, with more (it was said twice) */}
        <span role="status">{f.noticeLive ? f.notice : null}</span>
        {f.noticeLive ? null : f.notice}
      </div>
      <div className={f.hint ? 'oe-hint' : 'oe-silent'} role="status" data-testid="order-hint">
        {f.hint}
      </div>
      {!loggedIn && session !== 'checking' && <LoginHint />}
    </div>
  );
}
