// The order form: what the trader typed, the side the keyboard armed, and the last answer.
// Submitting builds the API's order body (hedge mode: open long = buy/long/open, open short =
// sell/short/open, close long = sell/long/close, close short = buy/short/close; one-way mode
// always uses position_side LONG) and keeps the API's own message when the order is refused.
// Invariants: the size is a base quantity unless a % control was used since the last reset
// (Esc, a symbol change or an Open/Close switch put it back to the quantity, so a typed "5"
// never means 5% by surprise); a side armed with B / S is disarmed by each request that goes
// out, as it goes out (not when its answer comes: a side armed meanwhile is the next order's), so
// one Enter sends one order; a notice clears on the next action or after `noticeMs`.
// A refused margin-mode or leverage change (settingError) clears the same way: on Esc, on the
// next action or after `noticeMs`. A request that never reached the service is not called a
// refusal ("Not sent: ..."); neither is an order kept back because the market connection is
// lost (marketLost). Both go away once the connection is back (connectionRestored); a refusal stays.
// The Stop kind (`stop`) keeps the limit / market choice it was switched from: a stop's own type
// follows its limit price field (empty: stop-market; emptied as the kind is chosen, so a price
// typed for a limit order is not taken for the stop's), and a price picked on the book or the chart
// goes to its trigger; submitStop sends a conditional order and says it in stop-order.ts' words.
// Its Trailing choice (`trailing`) makes it a trailing stop (trailing-stop.ts): a callback rate and
// an optional activation price in place of the trigger, a market order; a price picked then goes
// to the activation price, and Esc clears both as it clears the trigger.
import { createStore } from 'zustand/vanilla';
import type {
  ConditionalOrderRecord,
  ConditionalOrderRequest,
  OrderRequest,
  PlacementResult,
} from '../../../../src-shared/types.ts';
import { OrderType, Side, TimeInForce, WorkingType } from '../../../../src-shared/enums.ts';
import { PerpdeskApiError, type RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import {
  isNetworkFailure,
  isTimedOut,
  MARKET_LOST_TEXT,
  NO_ANSWER_TEXT,
  NOT_SENT_TEXT,
} from '../../lib/network-failure.ts';
import { placementNotice, type PlacementNotice } from './placement-notice.ts';
import { stopSentence } from './stop-order.ts';
import { trailingSentence } from './trailing-stop.ts';
import type { FormAction, FormType, SizeMode } from './form-kinds.ts';

/** What Enter in the form says when no side is armed. */
export const ENTER_HINT =
  'Press B for the buy side or S for the sell side (hedge mode: open long / open short, in Close: close short / close long), then Enter; or click a button.';

export interface OrderFormState {
  action: FormAction;
  type: FormType;
  /** The Stop kind: the order waits at the venue for its trigger (stop-order.ts). */
  stop: boolean;
  /** A stop's trigger price, as typed. */
  trigger: string;
  /** The price a stop's trigger watches: the mark (default) or the last trade. */
  working: WorkingType;
  /** A stop's price protection: held back while the last price and the mark are over 5 % apart. */
  protect: boolean;
  /** The Stop kind's Trailing choice: a trailing stop (trailing-stop.ts) in place of a trigger price. */
  trailing: boolean;
  /** A trailing stop's callback rate, a percent, as typed. */
  callback: string;
  /** A trailing stop's activation price, as typed (empty: it trails from placement). */
  activation: string;
  price: string;
  qty: string;
  sizeMode: SizeMode;
  /** Size as a share of each side's Max (open) or of the position (close, reduce-only), 0..100: order-model.ts sizePctBasis. */
  pct: number;
  tif: TimeInForce;
  reduceOnly: boolean;
  submitting: Side | null;
  /** The API's message of the last refused request, or the form's own. */
  error: string | null;
  errorCode: number | null;
  /** The last error is an order that never reached the service, or was kept back while the connection was lost (cleared when it is back). */
  notSent: boolean;
  /** A refused leverage or margin-mode change (or its load failing). */
  settingError: string | null;
  /** What the last accepted order did; 'warn' when it ended without doing what was asked. */
  notice: string | null;
  noticeKind: 'ok' | 'warn';
  /** Whether a screen reader is told the notice (PlacementNotice.live: not a whole fill, the fill toast says it). */
  noticeLive: boolean;
  /** A short help line (Enter with no side armed). */
  hint: string | null;
  /** The error is the refusal of a side armed with nothing to close (B / S): Enter keeps it, not the help line. */
  armRefused: boolean;
  /** The side the keyboard armed (B / S); the view focuses the size field. */
  focus: { side: Side; seq: number } | null;
  actions: {
    set(
      change: Partial<
        Pick<
          OrderFormState,
          | 'type'
          | 'stop'
          | 'trigger'
          | 'working'
          | 'protect'
          | 'trailing'
          | 'callback'
          | 'activation'
          | 'price'
          | 'qty'
          | 'sizeMode'
          | 'pct'
          | 'tif'
          | 'reduceOnly'
        >
      >,
    ): void;
    /** The Open / Close switch: the size goes back to a quantity. */
    setAction(action: FormAction): void;
    /** A price picked on the ladder or chart: switches to a limit order at that price (a stop: its trigger; a trailing one: its activation). */
    pickPrice(price: string): void;
    focusSide(side: Side): void;
    /** A side armed that cannot send (nothing to close or reduce): says why, and disarms it. */
    refuseSide(message: string): void;
    /** Esc or a new symbol: clears what was typed, the armed side and any message. */
    reset(): void;
    clearMessages(): void;
    /** A message of the form itself (nothing sent). */
    fail(message: string): void;
    /** An order kept back because the market connection is lost: "Not sent", cleared when it is back. */
    marketLost(): void;
    /** Enter with no side armed. */
    showHint(message?: string): void;
    /** A leverage or margin-mode change was refused: shown until the next action or `noticeMs`. */
    settingFailed(message: string): void;
    /** The connection is back: a "Not sent" error no longer says anything true. */
    connectionRestored(): void;
    /**
     * Sends; `pd` / `qd` are the pair's display decimals for the notice; `trimmedTo`, the quantity
     * the venue trims a close or reduce-only order to as it enters (the preview's), is what the
     * notice names (what was placed, not what was typed).
     */
    submit(
      order: OrderRequest,
      display?: { pd: number; qd: number; oneWay?: boolean; trimmedTo?: number },
    ): Promise<PlacementResult | null>;
    /** Sends a stop (a conditional order); `pd` / `qd` / `base` for the notice's sentence. */
    submitStop(
      request: ConditionalOrderRequest,
      display: { pd: number; qd: number; base: string },
    ): Promise<ConditionalOrderRecord | null>;
  };
}

export interface OrderFormOptions {
  /** How long a notice stays, ms (default 8000). */
  noticeMs?: number;
  /** Timer (tests inject one); returns its canceller. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

const defaultSchedule = (fn: () => void, ms: number): (() => void) => {
  const h = setTimeout(fn, ms);
  return () => clearTimeout(h);
};

// lib/frame.ts's errorText, inlined: frame.ts needs DOM types, and this store is unit-tested
// under the Node type-check
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const NO_MESSAGES = {
  error: null,
  errorCode: null,
  notSent: false,
  notice: null,
  hint: null,
  armRefused: false,
  settingError: null,
} as const;

export function createOrderFormStore(api: RestClient, opts: OrderFormOptions = {}) {
  const noticeMs = opts.noticeMs ?? 8000;
  const schedule = opts.schedule ?? defaultSchedule;
  let seq = 0;
  let cancelNotice: (() => void) | null = null;
  let cancelSetting: (() => void) | null = null;
  const dropTimer = (): void => {
    cancelNotice?.();
    cancelNotice = null;
    cancelSetting?.();
    cancelSetting = null;
  };
  return createStore<OrderFormState>()((set, get) => {
    /** Every user action clears the messages (and the notice's timer with them). */
    const act = (change: Partial<OrderFormState>): void => {
      dropTimer();
      set({ ...NO_MESSAGES, ...change });
    };
    /**
     * One request of the form on its way: the side disarmed as it goes out (the answer leaves
     * alone a side armed while it was on its way), then its notice, or the refusal's message.
     */
    const send = async <R>(
      side: Side,
      call: () => Promise<R>,
      notice: (r: R) => PlacementNotice,
    ): Promise<R | null> => {
      if (get().submitting !== null) return null;
      act({ submitting: side, focus: null });
      try {
        const r = await call();
        const n = notice(r);
        set({
          submitting: null,
          notice: n.text,
          noticeKind: n.kind,
          noticeLive: n.live,
          qty: get().sizeMode === 'qty' ? get().qty : '',
        });
        dropTimer();
        cancelNotice = schedule(() => {
          cancelNotice = null;
          set({ notice: null });
        }, noticeMs);
        return r;
      } catch (err) {
        // a time-out is not "not sent": the order may be at the venue (it stays said after a reconnect)
        const unanswered = isTimedOut(err);
        const down = !unanswered && isNetworkFailure(err);
        set({
          submitting: null,
          error: unanswered ? NO_ANSWER_TEXT : down ? NOT_SENT_TEXT : errorText(err),
          errorCode: !down && !unanswered && err instanceof PerpdeskApiError ? err.code : null,
          notSent: down,
        });
        return null;
      }
    };
    return {
      action: 'open',
      type: OrderType.LIMIT,
      stop: false,
      trigger: '',
      working: WorkingType.MARK_PRICE,
      protect: false,
      trailing: false,
      callback: '',
      activation: '',
      price: '',
      qty: '',
      sizeMode: 'qty',
      pct: 0,
      tif: TimeInForce.GTC,
      reduceOnly: false,
      submitting: null,
      error: null,
      errorCode: null,
      notSent: false,
      settingError: null,
      notice: null,
      noticeKind: 'ok',
      noticeLive: true,
      hint: null,
      armRefused: false,
      focus: null,
      actions: {
        // into the Stop kind it starts as a stop-market: a limit price typed for a plain limit order
        // would silently make it a stop-limit at a price meant for now, not for when it fires
        set: (change) => act(change.stop === true && !get().stop ? { price: '', ...change } : change),
        setAction: (action) => act({ action, sizeMode: 'qty', pct: 0 }),
        pickPrice: (price) => {
          const g = get();
          act(g.stop ? (g.trailing ? { activation: price } : { trigger: price }) : { price, type: OrderType.LIMIT });
        },
        focusSide: (side) => act({ focus: { side, seq: ++seq } }),
        refuseSide: (message) => act({ error: message, focus: null, armRefused: true }),
        reset: () =>
          act({ price: '', trigger: '', callback: '', activation: '', qty: '', pct: 0, sizeMode: 'qty', focus: null }),
        clearMessages: () => act({}),
        fail: (message) => act({ error: message }),
        marketLost: () => act({ error: MARKET_LOST_TEXT, notSent: true }),
        // Enter just after B / S was refused ("No short to close."): that reason stays, as the help
        // line would only say to press the key the trader has just pressed
        showHint: (message = ENTER_HINT) => {
          if (!get().armRefused) act({ hint: message });
        },
        settingFailed(message) {
          cancelSetting?.();
          set({ settingError: message });
          cancelSetting = schedule(() => {
            cancelSetting = null;
            set({ settingError: null });
          }, noticeMs);
        },
        connectionRestored() {
          if (get().notSent) set({ error: null, errorCode: null, notSent: false });
        },
        async submit(order, display = { pd: 2, qd: 3 }) {
          return send(
            order.side,
            () => api.placeOrder(order),
            (r) => {
              const t = display.trimmedTo;
              const placed = t !== undefined && Number.isFinite(t) ? { ...order, qty: String(t) } : order;
              return placementNotice(placed, r, display.pd, display.qd, display.oneWay);
            },
          );
        },
        async submitStop(request, display) {
          return send(
            request.side,
            () => api.conditionals.place(request),
            (r) => ({
              kind: 'ok',
              live: true,
              text:
                typeof r.callback_rate === 'string'
                  ? `Trailing stop ${r.symbol} #${r.id} placed. ${trailingSentence({ ...r, callback_rate: r.callback_rate }, display)}.`
                  : `Stop ${r.symbol} #${r.id} placed. ${stopSentence(r, display)}.`,
            }),
          );
        },
      },
    };
  });
}
