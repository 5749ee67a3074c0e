// Order entry: open or close, limit or market, time in force, reduce-only (where it means
// something: one-way mode; close orders are always reduce-only), leverage (up to the pair's
// maximum) and margin mode, size as a quantity or a share of available margin (or of the
// position, when closing; capped at the pair's max_qty), and a preview of cost, margin, fee
// and estimated liquidation price for each side. Prices and sizes may carry thousands
// separators; what is still not a number is refused here, not sent. A refused order shows the
// API's own message. Keyboard: B / S arm a side and focus the size, Enter sends it once, Enter
// with nothing armed says how; after each request the focus leaves the form so the global
// shortcuts work again. B / S select the whole size so typing replaces it (the size a send
// used stays, as after a click, ready to repeat with Enter or to be typed over).
// Max and % sizes respect the leverage's notional cap (notional-cap.ts) with the side's
// position and open orders counted. With the market connection lost the buttons are
// disabled (prices on screen are stale); in Close, a side with no position is disabled and
// says so.
import { useEffect, useRef, useState } from 'react';
import type { OrderRequest } from '../../../../src-shared/types.ts';
import type { TimeInForce } from '../../../../src-shared/enums.ts';
import { fmt, fmtSigned, num, toStep } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { marketDown } from '../../lib/connection-status.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import { useLiveSummary } from '../account/use-live-summary.ts';
import { parseDecimalInput } from './decimal-input.ts';
import { positionDirection } from '../positions/position-direction.ts';
import { LeverageEditor } from './leverage-editor.tsx';
import { crossBacking, maxOpenQty, preview, type BackingPosition, type Preview } from './preview.ts';
import { notionalRoomQty, sideNotional } from './notional-cap.ts';
import { capKey } from './notional-caps-store.ts';
import { capOf, pctQty } from './size.ts';
import './order-entry.css';

const NOT_A_NUMBER = 'use digits and a decimal point, e.g. 90000.5 (thousands separators are fine)';

const TIF_NAMES: Record<TimeInForce, string> = { 1: 'GTC', 2: 'IOC', 3: 'FOK', 4: 'GTX' };
const TIF_TITLES: Record<TimeInForce, string> = {
  1: 'Good till cancelled: rests until filled or cancelled',
  2: 'Immediate or cancel: fills what it can, the rest expires',
  3: 'Fill or kill: fills completely or expires',
  4: 'Post only: expires if any part would take liquidity',
};

export function OrderEntry() {
  const s = useServices();
  const { symbol, entry, pd, qd } = useSymbolView();
  const f = useSel(s.orderForm, (x) => x);
  const a = f.actions;
  const session = useSel(s.session, (x) => x.status);
  // available at live marks (cross PnL counts), as the account panel shows it
  const summary = useLiveSummary();
  const setting = useSel(s.account, (x) => x.settings[symbol]);
  const positions = useSel(s.positions, (x) => x.positions);
  const positionsLoaded = useSel(s.positions, (x) => x.loaded);
  const openOrders = useSel(s.orders, (x) => x.orders);
  const down = useSel(s.connection, (c) => marketDown(c.state));
  const bestBid = useSel(s.book, (b) => b.bestBid);
  const bestAsk = useSel(s.book, (b) => b.bestAsk);
  const last = useSel(s.tickers, (t) => t.tickers[symbol]?.last);
  const tickers = useSel(s.tickers, (t) => t.tickers);
  const [editLeverage, setEditLeverage] = useState(false);
  const sizeInput = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const loggedIn = session === 'ready';
  // a paused or delisted pair takes no new orders (the API would answer 3001)
  const halted = entry !== undefined && entry.general.status !== 1;
  const oneWay = summary?.position_mode === 'one_way';

  useEffect(() => {
    if (loggedIn) s.account.getState().actions.loadSetting(symbol).catch((e: unknown) => s.orderForm.getState().actions.settingFailed(errorText(e)));
  }, [s, symbol, loggedIn]);

  // B / S: the whole size is selected, so what is typed replaces the last size
  useEffect(() => {
    if (!f.focus) return;
    sizeInput.current?.focus();
    sizeInput.current?.select();
  }, [f.focus]);

  // After each request the focus leaves the form (a field or the button clicked), so "/",
  // "1"-"9" and B / S act as shortcuts again and a stray Enter sends nothing.
  useEffect(() => {
    const el = document.activeElement;
    if (f.sent > 0 && el instanceof HTMLElement && root.current?.contains(el)) el.blur();
  }, [f.sent]);

  // A new pair has other steps: drop what was typed for the old one.
  const prevSymbol = useRef(symbol);
  useEffect(() => {
    if (prevSymbol.current !== symbol) a.reset();
    prevSymbol.current = symbol;
  }, [symbol, a]);

  const fut = entry?.futures;
  const leverage = setting?.leverage ?? 20;
  const maxNotional = useSel(s.notionalCaps, (x) => x.caps[capKey(symbol, leverage)]);
  // the cap of the leverage in force (once per pair and leverage)
  useEffect(() => {
    if (loggedIn && setting !== undefined) void s.notionalCaps.getState().actions.probe(symbol);
  }, [s, symbol, loggedIn, setting?.leverage]);
  const maxLeverage = setting?.maxLeverage ?? fut?.max_leverage ?? 125;
  const marginMode = setting?.marginMode ?? 2;
  const available = num(summary?.available_balance);
  const takerFee = num(fut?.taker_fee_rate);
  const makerFee = num(fut?.maker_fee_rate);
  const mmr = num(fut?.maintenance_margin_rate);
  const priceIn = parseDecimalInput(f.price);
  const qtyIn = parseDecimalInput(f.qty);
  const maxQty = fut?.max_qty ?? '';
  const refPrice = (side: 1 | 2): number => {
    if (f.type === 1 && priceIn.kind === 'ok') return priceIn.n;
    // a price that is not a number estimates nothing (never the market price in its place)
    if (f.type === 1 && priceIn.kind === 'invalid') return NaN;
    const book = side === 1 ? bestAsk : bestBid;
    return book > 0 ? book : (last ?? NaN);
  };
  // long or short from the record: a one-way short is position_side 2 with a positive quantity
  const positionOf = (long: boolean) => {
    const p = positions.find((x) => x.symbol === symbol && positionDirection(x).long === long);
    return p ? { qty: positionDirection(p).size, entry: p.entry_price, margin: p.margin } : null;
  };

  /**
   * The largest open of `side`: what the available margin buys at the leverage, within the
   * room the leverage's notional cap leaves beside the side's position and open orders.
   */
  const openableQty = (side: 1 | 2): number => {
    const price = refPrice(side);
    const existing = sideNotional({ symbol, positionSide: side, oneWay, positions, orders: openOrders, mark: tickers[symbol]?.mark });
    return Math.min(maxOpenQty(available, price, leverage, takerFee), notionalRoomQty(maxNotional, existing, price));
  };

  /** What one order of `side` could carry at most: the largest open (or the position), capped at max_qty, on the step. */
  const maxFor = (side: 1 | 2): number => {
    const whole = f.action === 'open' ? openableQty(side) : (positionOf(side === 2)?.qty ?? 0);
    const cap = Math.min(whole, capOf(maxQty));
    // floored to the step: a rounded-up Max would be refused
    return fut && Number.isFinite(cap) ? Number(toStep(cap, fut.qty_step) || 0) : cap;
  };

  /** The quantity each side would send, as a decimal string ('' when none or not a number). */
  const qtyFor = (side: 1 | 2): string => {
    if (f.sizeMode === 'qty') return qtyIn.kind === 'ok' ? qtyIn.value : '';
    if (!fut || f.pct <= 0) return '';
    const whole = f.action === 'open' ? openableQty(side) : (positionOf(side === 2)?.qty ?? 0);
    return pctQty({ pct: f.pct, base: whole, qtyStep: fut.qty_step, maxQty });
  };

  // The cross wallet that backs a new cross position of this pair and side (the reference
  // formula's WB - TMM1 + UPNL1), from the server's wallet and the live marks.
  const backingFor = (long: boolean): number => {
    const wallet = num(summary?.wallet_balance);
    if (!Number.isFinite(wallet)) return available;
    const isThis = (p: BackingPosition): boolean => p.symbol === symbol && (oneWay ? true : p.position_side === (long ? 1 : 2));
    return crossBacking(wallet, positions, isThis, (sym) => tickers[sym]?.mark);
  };

  const mk = (side: 1 | 2): Preview & { max: number; qty: string } => {
    const price = refPrice(side);
    const qty = qtyFor(side);
    const taker = f.type === 2 || (side === 1 ? price >= bestAsk : price <= bestBid);
    const p = preview({
      side,
      action: f.action,
      price,
      qty: num(qty),
      taker,
      leverage,
      marginMode,
      makerFee,
      takerFee,
      mmr,
      available,
      crossBacking: f.action === 'open' ? backingFor(side === 1) : undefined,
      position: f.action === 'open' ? positionOf(side === 1) : positionOf(side === 2),
    });
    return { ...p, max: maxFor(side), qty };
  };
  const previews = { buy: mk(1), sell: mk(2) };

  // Close: a side with no position has nothing to close (the venue would refuse it)
  const nothingToClose = (side: 1 | 2): string | null =>
    f.action === 'close' && loggedIn && positionsLoaded && positionOf(side === 2) === null ? `No ${side === 1 ? 'short' : 'long'} to close` : null;
  const noClose = { buy: nothingToClose(1), sell: nothingToClose(2) };

  const submit = async (side: 1 | 2): Promise<unknown> => {
    if (!fut || halted) return;
    if (down) return a.fail('Not sent: the market connection is lost; orders are disabled until it is back.');
    const none = side === 1 ? noClose.buy : noClose.sell;
    if (none !== null) return a.fail(`${none}.`);
    const open = f.action === 'open';
    const long = open ? side === 1 : side === 2;
    const qty = qtyFor(side);
    // Only what the API cannot say better is checked here: that something was typed at all,
    // and that it is a number (the API would answer with its pattern, not with what to do).
    if (f.type === 1 && priceIn.kind === 'empty') return a.fail('Enter a limit price (or click a price in the order book).');
    if (f.type === 1 && priceIn.kind === 'invalid') return a.fail(`Price "${priceIn.text}" is not a number: ${NOT_A_NUMBER}.`);
    if (f.type === 1 && priceIn.kind === 'ok' && !(priceIn.n > 0)) return a.fail('Enter a limit price above 0.');
    if (f.sizeMode === 'qty' && qtyIn.kind === 'invalid') return a.fail(`Size "${qtyIn.text}" is not a number: ${NOT_A_NUMBER}.`);
    if (qty === '' || !(num(qty) > 0)) return a.fail(f.sizeMode === 'pct' ? 'The percentage gives no whole quantity step: raise it.' : 'Enter a size.');
    const order: OrderRequest = {
      symbol,
      side,
      position_side: oneWay ? 1 : long ? 1 : 2,
      position_action: open ? 1 : 2,
      type: f.type,
      qty,
    };
    if (f.type === 1 && priceIn.kind === 'ok') {
      order.price = priceIn.value;
      order.time_in_force = f.tif;
    }
    if (open) {
      order.leverage = leverage;
      order.margin_mode = marginMode;
      // hedge mode refuses a reduce-only open (3010) and makes every close reduce-only
      if (oneWay && f.reduceOnly) order.reduce_only = true;
    }
    await a.submit(order, { pd, qd, oneWay });
  };

  // Enter in the price or size field sends the side armed with B / S, once; with nothing
  // armed it says how. Buttons, the checkbox and the select keep their own Enter.
  const onKeyDown = (e: React.KeyboardEvent): void => {
    if (e.key !== 'Enter') return;
    const t = e.target;
    if (!(t instanceof HTMLInputElement) || t.type !== 'text') return;
    e.preventDefault();
    if (f.submitting !== null) return;
    if (f.focus) void submit(f.focus.side);
    else a.showHint();
  };

  const setMode = async (mode: 1 | 2): Promise<void> => {
    a.clearMessages();
    try {
      await s.account.getState().actions.setMarginMode(symbol, mode);
    } catch (e) {
      a.settingFailed(errorText(e));
    }
  };

  const buyLabel = f.action === 'open' ? 'Open long' : 'Close short';
  const sellLabel = f.action === 'open' ? 'Open short' : 'Close long';
  const base = entry?.general.base_asset ?? '';
  const quote = entry?.general.quote_asset ?? 'USDT';
  const pctMode = f.sizeMode === 'pct';
  const pctOf = f.action === 'open' ? '% of available margin' : '% of position';

  return (
    <div className="order-entry" data-testid="order-entry" data-size-mode={f.sizeMode} onKeyDown={onKeyDown} ref={root}>
      <div className="oe-tabs" role="tablist" aria-label="Open or close">
        {(['open', 'close'] as const).map((act) => (
          <button key={act} role="tab" aria-selected={f.action === act} className={f.action === act ? 'active' : ''} onClick={() => a.setAction(act)}>
            {act === 'open' ? 'Open' : 'Close'}
          </button>
        ))}
      </div>

      <div className="oe-settings">
        <div className="seg" role="group" aria-label="Margin mode">
          {([2, 1] as const).map((m) => (
            <button key={m} className={marginMode === m ? 'active' : ''} aria-pressed={marginMode === m} disabled={!loggedIn} onClick={() => void setMode(m)}>
              {m === 2 ? 'Cross' : 'Isolated'}
            </button>
          ))}
        </div>
        <button className="lev-button" data-testid="leverage-button" disabled={!loggedIn} onClick={() => setEditLeverage((v) => !v)} title={`Leverage, up to ${maxLeverage}x`}>
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
        />
      )}
      {f.settingError && (
        <p className="oe-error" role="alert" data-testid="setting-error">
          {f.settingError}
        </p>
      )}

      <div className="oe-types" role="tablist" aria-label="Order type">
        {([1, 2] as const).map((t) => (
          <button key={t} role="tab" aria-selected={f.type === t} className={f.type === t ? 'active' : ''} onClick={() => a.set({ type: t })} disabled={t === 2 && entry?.general.allow_market === false}>
            {t === 1 ? 'Limit' : 'Market'}
          </button>
        ))}
        <span className="avail" title="Available margin">
          Avail <b data-testid="available-balance">{fmt(summary?.available_balance, 2)}</b> {quote}
        </span>
      </div>

      <label className="field">
        <span className="field-label">Price</span>
        {f.type === 1 ? (
          <input
            aria-label="Price"
            inputMode="decimal"
            value={f.price}
            aria-invalid={priceIn.kind === 'invalid'}
            placeholder={fmt(last, pd)}
            onChange={(e) => a.set({ price: e.target.value })}
          />
        ) : (
          <input aria-label="Price" disabled value="Market price" readOnly />
        )}
        <span className="unit">
          {f.type === 1 && (
            <button className="link" type="button" tabIndex={-1} onClick={() => last && a.set({ price: last.toFixed(pd) })}>
              Last
            </button>
          )}
          {quote}
        </span>
      </label>

      {priceIn.kind === 'invalid' && f.type === 1 && (
        <p className="warn-text" data-testid="price-invalid">
          Not a price: {NOT_A_NUMBER}.
        </p>
      )}

      <label className={`field${pctMode ? ' pct-active' : ''}`}>
        <span className="field-label">{pctMode ? 'Size %' : 'Size'}</span>
        {f.sizeMode === 'qty' ? (
          <input
            ref={sizeInput}
            aria-label="Size"
            inputMode="decimal"
            value={f.qty}
            aria-invalid={qtyIn.kind === 'invalid'}
            placeholder={`min ${fut?.min_qty ?? ''}`}
            onChange={(e) => a.set({ qty: e.target.value })}
          />
        ) : (
          <input
            ref={sizeInput}
            aria-label="Size"
            aria-description={pctOf}
            inputMode="numeric"
            value={f.pct === 0 ? '' : String(f.pct)}
            placeholder={pctOf}
            onChange={(e) => a.set({ pct: Math.max(0, Math.min(100, Number(e.target.value.replace(/[^\d.]/g, '')) || 0)) })}
          />
        )}
        <span className="unit">
          <button
            className={`link${pctMode ? ' pct-on' : ''}`}
            type="button"
            aria-label="Size unit"
            title={pctMode ? `Size is a percentage (${pctOf}): click for a quantity in ${base}` : 'Switch between a quantity and a percentage'}
            onClick={() => a.set({ sizeMode: f.sizeMode === 'qty' ? 'pct' : 'qty' })}
          >
            {f.sizeMode === 'qty' ? base : '%'} ⇄
          </button>
        </span>
      </label>
      {qtyIn.kind === 'invalid' && f.sizeMode === 'qty' && (
        <p className="warn-text" data-testid="size-invalid">
          Not a size: {NOT_A_NUMBER}.
        </p>
      )}

      <div className="pct-row">
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          aria-label="Size percentage"
          value={f.sizeMode === 'pct' ? f.pct : 0}
          onChange={(e) => a.set({ sizeMode: 'pct', pct: Number(e.target.value) })}
        />
        <div className="pct-marks">
          {[25, 50, 75, 100].map((p) => (
            <button key={p} type="button" onClick={() => a.set({ sizeMode: 'pct', pct: p })} className={f.sizeMode === 'pct' && f.pct === p ? 'active' : ''}>
              {p}%
            </button>
          ))}
        </div>
      </div>
      {pctMode && (
        <div className="pct-qty" data-testid="pct-qty">
          <span className="pct-badge">{f.pct}% {pctOf.slice(2)}</span> ≈ <b>{previews.buy.qty || '0'}</b> {base} {buyLabel.toLowerCase()} · <b>{previews.sell.qty || '0'}</b> {base}{' '}
          {sellLabel.toLowerCase()}
          {fut && capOf(maxQty) < Infinity && (previews.buy.qty === toMax(maxQty, fut.qty_step) || previews.sell.qty === toMax(maxQty, fut.qty_step)) && (
            <span className="warn-text"> (capped at the pair's maximum of {maxQty} {base} per order)</span>
          )}
        </div>
      )}

      <div className="oe-options">
        {f.type === 1 && (
          <label className="inline">
            <span>TIF</span>
            <select aria-label="Time in force" value={f.tif} onChange={(e) => a.set({ tif: Number(e.target.value) as TimeInForce })}>
              {([1, 2, 3, 4] as const).map((t) => (
                <option key={t} value={t} title={TIF_TITLES[t]}>
                  {TIF_NAMES[t]}
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
          {symbol} is {entry?.general.status === 2 ? 'paused' : 'delisted'}: it takes no new orders (open orders can still be cancelled).
        </p>
      )}
      {down && loggedIn && (
        <p className="oe-down small" data-testid="order-disconnected" role="status">
          Market connection lost: orders are disabled until it is back (prices on screen are stale).
        </p>
      )}
      <div className="oe-buttons">
        <button
          className={`buy${f.focus?.side === 1 ? ' focused' : ''}`}
          disabled={!loggedIn || halted || down || noClose.buy !== null || f.submitting !== null}
          onClick={() => void submit(1)}
          title="B"
        >
          {f.submitting === 1 ? 'Sending…' : buyLabel}
          {pctMode && f.submitting !== 1 && <span className="pct-tag"> · {f.pct}%</span>}
        </button>
        <button
          className={`sell${f.focus?.side === 2 ? ' focused' : ''}`}
          disabled={!loggedIn || halted || down || noClose.sell !== null || f.submitting !== null}
          onClick={() => void submit(2)}
          title="S"
        >
          {f.submitting === 2 ? 'Sending…' : sellLabel}
          {pctMode && f.submitting !== 2 && <span className="pct-tag"> · {f.pct}%</span>}
        </button>
      </div>

      {(noClose.buy !== null || noClose.sell !== null) && (
        <p className="muted small oe-noclose" data-testid="nothing-to-close">
          {noClose.buy !== null && noClose.sell !== null ? 'No position to close on this pair.' : (noClose.buy ?? noClose.sell)}
        </p>
      )}
      <div className="oe-preview" data-testid="order-preview">
        <PreviewColumn p={previews.buy} action={f.action} pd={pd} qd={qd} base={base} />
        <PreviewColumn p={previews.sell} action={f.action} pd={pd} qd={qd} base={base} />
      </div>

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
      {f.notice && (
        <div className={`oe-notice ${f.noticeKind}`} role="status" data-testid="order-notice" data-kind={f.noticeKind}>
          {f.notice}
        </div>
      )}
      {f.hint && (
        <div className="oe-hint" role="status" data-testid="order-hint">
          {f.hint}
        </div>
      )}
      {!loggedIn && session !== 'checking' && <LoginHint />}
    </div>
  );
}

function PreviewColumn({ p, action, pd, qd, base }: { p: Preview & { max: number; qty: string }; action: 'open' | 'close'; pd: number; qd: number; base: string }) {
  return (
    <dl>
      {action === 'open' ? (
        <>
          <div>
            <dt>Cost</dt>
            <dd>{fmt(p.cost, 2)}</dd>
          </div>
          <div>
            <dt>Margin</dt>
            <dd>{fmt(p.margin, 2)}</dd>
          </div>
          <div>
            <dt>Fee (est.)</dt>
            <dd>{fmt(p.fee, 4)}</dd>
          </div>
          <div>
            <dt>Est. liq. price</dt>
            <dd title={p.qty && !Number.isFinite(p.liquidation) ? 'No liquidation within a 100% price move against the position' : undefined}>{p.qty ? fmt(p.liquidation, pd) : '—'}</dd>
          </div>
          <div>
            <dt>Max</dt>
            <dd>
              {fmt(p.max, qd)} {base}
            </dd>
          </div>
        </>
      ) : (
        <>
          <div>
            <dt>Position</dt>
            <dd>
              {fmt(p.max, qd)} {base}
            </dd>
          </div>
          <div>
            <dt>Fee (est.)</dt>
            <dd>{fmt(p.fee, 4)}</dd>
          </div>
          <div>
            <dt>Est. PnL</dt>
            <dd className={p.pnl > 0 ? 'up' : p.pnl < 0 ? 'down' : ''}>{fmtSigned(p.pnl, 2)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}

/** max_qty written on the step, as pctQty() writes a capped quantity. */
function toMax(maxQty: string, step: string): string {
  return pctQty({ pct: 100, base: Infinity, qtyStep: step, maxQty });
}

export function LoginHint() {
  const s = useServices();
  const error = useSel(s.session, (x) => x.error);
  return (
    <div className="login-hint" data-testid="login-hint">
      {error && <p className="down">{error}</p>}
      <b>View only.</b> To trade, open the login link the service printed when it started
      (<code>http://127.0.0.1:PORT/#token=…</code>), or use the desktop app.
    </div>
  );
}
