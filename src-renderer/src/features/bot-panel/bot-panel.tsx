// Bot orders: a form for every field of POST /fapi/v1/bot/orders (need_cache included), this
// machine's whitelist status, the raw request and answer of the last call, and the cached bot
// orders with cancel.
import { useEffect, useRef } from 'react';
import { fmt } from '../../lib/format.ts';
import { poll } from '../../lib/frame.ts';
import { keepFocus } from '../../layout/keep-focus.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { Drawer } from '../../layout/drawer.tsx';
import { RecordTable, When, type Column } from '../../layout/record-table.tsx';
import { directionName, sideClass, STATUS_NAMES } from '../orders/order-labels.ts';
import type { RawExchange } from '../../../../src-shared/sdk/rest-client.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import {
  MarginMode,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
} from '../../../../src-shared/enums.ts';
import { answerSummary, OMIT, restingOrder, type BotForm } from './bot-store.ts';
import { WHITELIST_FIELD_ID, WHITELIST_SECTION_ID } from '../settings/settings-panel.tsx';
import type { Services } from '../../lib/services.ts';
import { botPairOptions, botPairRefusal } from './bot-pairs.ts';
import './bot-panel.css';

const PAIR_REFUSAL_ID = 'bot-pair-refusal';

/** The HTTP status of an answered request (the raw pane colours everything else as a failure). */
const HTTP_OK = 200;

export function BotPanel() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'bots');
  if (!open) return null;
  return (
    <Drawer title="Bot orders" wide testId="bot-panel" onClose={() => s.workspace.getState().actions.close()}>
      <BotPanelBody />
    </Drawer>
  );
}

function BotPanelBody() {
  const s = useServices();
  const st = useSel(s.bots, (x) => x);
  const entries = useSel(s.symbols, (x) => x.entries);
  const decimals = useDecimals();
  const cachedHeading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const raw = useRef<HTMLDivElement>(null);
  const responseHeading = useRef<HTMLHeadingElement>(null);
  const f = st.form;
  const set = (change: Partial<BotForm>): void => st.actions.set(change);

  useEffect(() => {
    // the screen's pair; not an edit when it is the form's already (the last request stays shown)
    const symbol = s.workspace.getState().symbol;
    if (s.bots.getState().form.symbol !== symbol) st.actions.set({ symbol });
    return poll(() => st.actions.refresh(), 2000);
  }, [st.actions, s.workspace]);
  // The focus never falls to the page: Send, disabled while its request runs, has it back with
  // the answer; the answer's Cancel order, gone once used, hands it to the Response heading.
  useEffect(
    () =>
      keepFocus(
        form.current!,
        (el) => el,
        (el) => (usable(el) ? el : null),
      ),
    [],
  );
  useEffect(
    () =>
      keepFocus(
        raw.current!,
        (el) => el,
        (el) => (usable(el) ? el : responseHeading.current),
      ),
    [],
  );

  // the top bar's "Market paused" is under the drawer: said here too (a replay's clock reads
  // paused all along; its banner says whether it plays)
  const replay = useSel(s.replay, (r) => r.mode === 'replay');
  const paused = useSel(s.clock, (c) => c.paused) && !replay;

  const body = st.actions.body();
  const last = st.last;
  const resting = restingOrder(st);
  // a paused or delisted pair (the screen's, taken on opening) takes no bot order: said, and Send off
  const refusal = botPairRefusal(entries, f.symbol);
  return (
    <div className="bot-panel">
      {paused && (
        <p className="sim-paused" data-testid="bot-market-paused">
          <b>Market paused</b> (Settings): market time stands still and nothing trades but the orders sent; a bot order
          still matches the book as it stands.
        </p>
      )}
      <div className={`wl-status ${st.whitelist?.whitelisted ? 'ok' : 'bad'}`} data-testid="whitelist-status">
        {st.whitelist ? (
          <>
            This machine ({st.whitelist.ip}) is <b>{st.whitelist.whitelisted ? 'on' : 'not on'}</b> the bot whitelist.
          </>
        ) : (
          (st.whitelistError ?? 'Checking the whitelist…')
        )}
        <button className="link" onClick={() => editWhitelist(s)}>
          Edit whitelist
        </button>
      </div>
      <form
        ref={form}
        className="bot-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (refusal === null) void st.actions.submit();
        }}
      >
        <label>
          <span>symbol</span>
          <select aria-label="symbol" value={f.symbol} onChange={(e) => set({ symbol: e.target.value })}>
            {botPairOptions(entries, f.symbol).map((o) => (
              <option key={o.symbol} value={o.symbol} disabled={o.disabled}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>side</span>
          <select aria-label="side" value={f.side} onChange={(e) => set({ side: Number(e.target.value) as Side })}>
            <option value={Side.BUY}>1 buy</option>
            <option value={Side.SELL}>2 sell</option>
          </select>
        </label>
        <label>
          <span>position_side</span>
          <select
            aria-label="position_side"
            value={f.position_side}
            onChange={(e) => set({ position_side: Number(e.target.value) as PositionSide })}
          >
            <option value={PositionSide.LONG}>1 long</option>
            <option value={PositionSide.SHORT}>2 short</option>
          </select>
        </label>
        <label>
          <span>position_action</span>
          <select
            aria-label="position_action"
            value={f.position_action}
            onChange={(e) => set({ position_action: Number(e.target.value) as PositionAction })}
          >
            <option value={PositionAction.OPEN}>1 open</option>
            <option value={PositionAction.CLOSE}>2 close</option>
          </select>
        </label>
        <label>
          <span>type</span>
          <select aria-label="type" value={f.type} onChange={(e) => set({ type: Number(e.target.value) as OrderType })}>
            <option value={OrderType.LIMIT}>1 limit</option>
            <option value={OrderType.MARKET}>2 market</option>
          </select>
        </label>
        <label>
          <span>price</span>
          <input
            aria-label="price"
            inputMode="decimal"
            value={f.price}
            placeholder={f.type === OrderType.LIMIT ? 'required for limit' : 'omit for market'}
            onChange={(e) => set({ price: e.target.value })}
          />
        </label>
        <label>
          <span>qty</span>
          <input aria-label="qty" inputMode="decimal" value={f.qty} onChange={(e) => set({ qty: e.target.value })} />
        </label>
        <label>
          <span>leverage</span>
          <input
            aria-label="leverage"
            inputMode="numeric"
            value={f.leverage}
            placeholder="omit"
            onChange={(e) => set({ leverage: e.target.value })}
          />
        </label>
        <label>
          <span>margin_mode</span>
          <select
            aria-label="margin_mode"
            value={f.margin_mode}
            onChange={(e) => set({ margin_mode: Number(e.target.value) as BotForm['margin_mode'] })}
          >
            <option value={OMIT}>omit</option>
            <option value={MarginMode.ISOLATED}>1 isolated</option>
            <option value={MarginMode.CROSS}>2 cross</option>
          </select>
        </label>
        <label>
          <span>time_in_force</span>
          <select
            aria-label="time_in_force"
            value={f.time_in_force}
            onChange={(e) => set({ time_in_force: Number(e.target.value) as BotForm['time_in_force'] })}
          >
            <option value={OMIT}>omit</option>
            <option value={TimeInForce.GTC}>1 GTC</option>
            <option value={TimeInForce.IOC}>2 IOC</option>
            <option value={TimeInForce.FOK}>3 FOK</option>
            <option value={TimeInForce.GTX}>4 GTX</option>
          </select>
        </label>
        <label>
          <span>client_order_id</span>
          <input
            aria-label="client_order_id"
            value={f.client_order_id}
            placeholder="omit"
            onChange={(e) => set({ client_order_id: e.target.value })}
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            aria-label="reduce_only"
            checked={f.reduce_only}
            onChange={(e) => set({ reduce_only: e.target.checked })}
          />
          <span>reduce_only</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            aria-label="need_cache"
            checked={f.need_cache}
            onChange={(e) => set({ need_cache: e.target.checked })}
          />
          <span>need_cache</span>
        </label>
        {refusal !== null && (
          <p className="warn small bot-pair-refusal" id={PAIR_REFUSAL_ID} data-testid="bot-pair-refusal">
            {refusal}
          </p>
        )}
        <button
          type="submit"
          className="primary send"
          disabled={st.sending || refusal !== null}
          aria-describedby={refusal !== null ? PAIR_REFUSAL_ID : undefined}
        >
          {st.sending ? 'Sending…' : 'Send bot order'}
        </button>
      </form>

      <div className="raw" ref={raw}>
        <div>
          <h4>{last && !st.edited ? 'Last request' : 'Request (as it will be sent)'}</h4>
          <pre data-testid="bot-request">
            {last && !st.edited
              ? `${last.method} ${last.url.replace(s.api.baseUrl, '')}\n\n${pretty(last.requestBody)}`
              : `POST /fapi/v1/bot/orders\n\n${JSON.stringify(body, null, 2)}`}
          </pre>
        </div>
        <div>
          <h4 ref={responseHeading} tabIndex={-1}>
            Response{' '}
            {last && (
              <span className={last.status === HTTP_OK && (last.json as { code?: number })?.code === 0 ? 'up' : 'down'}>
                HTTP {last.status || 'failed'} · {last.elapsedMs} ms
              </span>
            )}
          </h4>
          <pre data-testid="bot-response">{last ? (last.networkError ?? pretty(last.text)) : '—'}</pre>
          {/* said by a screen reader: the focus stays on Send, so the answer is heard from here; each
              answer a new node, so the same refusal twice is said twice (the same text is no change) */}
          <span className="sr-only" role="status" data-testid="bot-answer-said">
            {last && <span key={answerKey(last)}>{answerSummary(last)}</span>}
          </span>
          {resting?.state === 'gone' && (
            <p className="dim small" data-testid="bot-answer-order-gone">
              Order {resting.orderId} is no longer open (filled or cancelled).
            </p>
          )}
          {resting && resting.state !== 'gone' && (
            // a resting order sent without need_cache is not in the table below: cancel it here
            <>
              <button
                className="btn-small"
                onClick={() => void st.actions.cancel({ symbol: resting.symbol, id: resting.orderId })}
              >
                Cancel order {resting.orderId}
              </button>
              {resting.state === 'untracked' && (
                <p className="dim small">
                  Sent without need_cache: the venue lists it nowhere, so it may have filled or been cancelled since.
                </p>
              )}
            </>
          )}
        </div>
      </div>

      {/* the focus comes here once the last row's Cancel is gone: it stays in the drawer */}
      <h4 ref={cachedHeading} tabIndex={-1}>
        Cached bot orders
      </h4>
      {st.cachedError && <p className="error small">{st.cachedError}</p>}
      <RecordTable
        testId="bot-orders-table"
        className="grid dense bot-orders"
        columns={botOrderColumns((o) => void st.actions.cancel(o), st.canceling)}
        rows={st.cached.map((o) => ({ o, ...decimals(o.symbol) }))}
        rowKey={(r) => r.o.id}
        rowAttrs={(r) => ({ 'data-testid': `bot-order-row-${r.o.id}` })}
        // a list that cannot be read (2101 off the whitelist, the service gone) is not an empty one
        empty={st.cachedError === null && <p className="empty">No cached bot orders.</p>}
        lastGone={cachedHeading}
      />
    </div>
  );
}

/**
 * Settings, the focus on the whitelist it is opened for (its field, or the section when the list
 * cannot be read here), not on the drawer's top, nine Tab stops away: once Settings is drawn, as
 * its drawer takes the focus when it opens.
 */
function editWhitelist(s: Services): void {
  // a step of the bot panel: closing Settings goes back to it
  s.workspace.getState().actions.open('settings', 'bots');
  requestAnimationFrame(() =>
    (document.getElementById(WHITELIST_FIELD_ID) ?? document.getElementById(WHITELIST_SECTION_ID))?.focus(),
  );
}

const answerKeys = new WeakMap<RawExchange, number>();
let answers = 0;

/** A key of its own for each answer (one object per call), the same for it at every render. */
function answerKey(x: RawExchange): number {
  let k = answerKeys.get(x);
  if (k === undefined) answerKeys.set(x, (k = ++answers));
  return k;
}

/** A control the focus can go back to: still on the page and not disabled. */
function usable(el: HTMLElement): boolean {
  return el.isConnected && !(el as HTMLButtonElement).disabled;
}

type BotOrderRow = { o: OrderRecord; pd: number; qd: number };

/** Columns of the cached bot orders, with a cancel button per order. */
function botOrderColumns(cancel: (o: OrderRecord) => void, canceling: ReadonlySet<string>): Column<BotOrderRow>[] {
  return [
    { head: 'Time', cls: 'dim', cell: ({ o }) => <When ms={o.created_at} /> },
    { head: 'ID', cls: 'dim', cell: ({ o }) => o.id },
    { head: 'Symbol', cls: 'sym', cell: ({ o }) => o.symbol },
    { head: 'Direction', cls: ({ o }) => sideClass(o.side), cell: ({ o }) => directionName(o) },
    {
      head: 'Price',
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd }) => (o.type === OrderType.LIMIT ? fmt(o.price, pd) : 'Market'),
    },
    { head: 'Qty', headClass: 'num', cls: 'num', cell: ({ o, qd }) => fmt(o.qty, qd) },
    { head: 'Filled', headClass: 'num', cls: 'num', cell: ({ o, qd }) => fmt(o.filled_qty, qd) },
    { head: 'Status', cell: ({ o }) => STATUS_NAMES[o.status] },
    {
      headClass: 'actions',
      cls: 'num actions',
      cell: ({ o }) => (
        <button
          className="btn-small"
          disabled={canceling.has(o.id)}
          onClick={() => cancel(o)}
          aria-label={`Cancel bot order ${o.id}`}
        >
          Cancel
        </button>
      ),
    },
  ];
}

function pretty(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON (JSON.parse throws nothing else): shown as it came
    return text;
  }
}
