// What the exchange announces after each command, in order, for the WebSocket hub, candles
// and the simulator. Listeners run synchronously after the command's state is stored; a
// throwing listener is isolated (logged) and never breaks the exchange.
import { MarginMode } from '../../src-shared/enums.ts';

export interface TradeEvent {
  readonly symbol: string;
  readonly tradeId: number;
  readonly priceTicks: number;
  readonly qtyLots: number;
  /** 1 buy, 2 sell: the taker's side. */
  readonly takerSide: number;
  /** Market time, ms. */
  readonly time: number;
}

export interface LevelEvent {
  symbol: string;
  updateId: number;
  /** 1 bid, 2 ask. */
  side: number;
  priceTicks: number;
  totalLots: number;
}

/** A pair's mark and index after a price update (the market's feed), in market time. */
export interface PriceEvent {
  symbol: string;
  mark: number;
  index: number;
  time: number;
}

/**
 * The kinds of account event and what each one's `data` is: the `user` stream's `{kind, data}`
 * (docs/api.md, the /ws description in the OpenAPI document is written from this table).
 */
export const ACCOUNT_EVENT_KINDS = {
  order: 'the order record (the fields of GET /fapi/v1/openOrders), on every change of an order',
  fill: 'the trade record of a fill (the fields of GET /fapi/v1/myTrades)',
  position: "the account's whole position list (GET /fapi/v1/position/list; [] when flat)",
  balance: 'the account summary (GET /fapi/v1/account)',
  liquidation:
    '{symbol, position_side, quantity, mark_price, bankruptcy_price, order_id, liquidation_fee, time}: a position was liquidated (order_id: its liquidation close order, autoclose-<order_id>; liquidation_fee: the clearance fee it paid the insurance fund)',
  funding: '{symbol, position_side, funding_rate, mark_price, amount, time}: a funding payment (amount > 0 received)',
  margin_call: `{margin_mode, margin_ratio, wallet, positions: [{symbol, position_side, quantity, mark_price, unrealized_pnl, maintenance_margin}], time}: the margin ratio of the cross positions (margin_mode ${MarginMode.CROSS}, wallet: the cross wallet less isolated margins) or of one isolated position (margin_mode ${MarginMode.ISOLATED}, wallet: its margin) reached 0.8 (liquidation at 1); once, and again after it came back under 0.7; money as decimal strings`,
  conditional:
    'the conditional order record (the fields of GET /fapi/v1/conditional/openOrders), when it is placed, cancelled, fires (status 2, order_id: the order it placed) or is refused as it fires (status 4, reject_code and reject_reason)',
  margin:
    '{symbol, position_side, type, amount, margin, time}: margin added to (type 1) or removed from (type 2) an isolated position by hand; amount and the margin after it as decimal strings',
  setting: `{symbol, leverage, margin_mode, time}: the account's leverage or margin mode (${MarginMode.ISOLATED} isolated, ${MarginMode.CROSS} cross) on a pair changed, from any surface (REST, /binance, the screen), with or without a position; before the order, position and balance pushes it causes`,
} as const;

export interface AccountEvent {
  accountId: number;
  kind: keyof typeof ACCOUNT_EVENT_KINDS;
  /** The record as the API shows it (order record, trade record, position record, balance summary, ...). */
  data: unknown;
  /**
   * Market time of the command that produced it (the event goes out later, once committed): a
   * replay's response latency counts from here.
   */
  time?: number;
  /**
   * The command that produced it (TradingCore.commands): the events of one command share it, so a
   * listener that receives several commands' events at once (one commit) can tell them apart.
   */
  command?: number;
}

/** An account's leverage on a pair changed (the leverage command, or an order that set one), once committed. */
interface SettingEvent {
  accountId: number;
  symbol: string;
  leverage: number;
  marginMode: number;
}

export interface ExchangeListeners {
  trade: (e: TradeEvent) => void;
  level: (e: LevelEvent) => void;
  account: (e: AccountEvent) => void;
  setting: (e: SettingEvent) => void;
  price: (e: PriceEvent) => void;
}

export class EventBus {
  private readonly listeners: { [K in keyof ExchangeListeners]: Array<ExchangeListeners[K]> } = {
    trade: [],
    level: [],
    account: [],
    setting: [],
    price: [],
  };
  onError: (err: unknown) => void = (err) => console.error('perpdesk: event listener failed', err);
  private readonly watchers: Array<{ kind: keyof ExchangeListeners; fn: (listened: boolean) => void }> = [];

  on<K extends keyof ExchangeListeners>(kind: K, fn: ExchangeListeners[K]): () => void {
    const list = this.listeners[kind] as Array<ExchangeListeners[K]>;
    list.push(fn);
    if (list.length === 1) this.changed(kind, true);
    let on = true;
    return () => {
      const i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
      if (on && i >= 0 && list.length === 0) this.changed(kind, false);
      on = false;
    };
  }

  /**
   * Calls `fn` now and whenever `kind` goes from no listener to one (true) or back (false): the
   * producer of an event can stop building what nobody would hear (the engine's level events).
   */
  watch(kind: keyof ExchangeListeners, fn: (listened: boolean) => void): void {
    this.watchers.push({ kind, fn });
    fn(this.listeners[kind].length > 0);
  }

  private changed(kind: keyof ExchangeListeners, listened: boolean): void {
    for (const w of this.watchers) if (w.kind === kind) w.fn(listened);
  }

  /** Calls every listener of `kind` with `e`, but `unheard` (one that learns of `e` another way). */
  emit<K extends keyof ExchangeListeners>(kind: K, e: Parameters<ExchangeListeners[K]>[0], unheard?: unknown): void {
    const list = this.listeners[kind] as Array<(x: typeof e) => void>;
    for (let i = 0; i < list.length; i++) {
      if (list[i] === unheard) continue;
      try {
        list[i](e);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  has(kind: keyof ExchangeListeners): boolean {
    return this.listeners[kind].length > 0;
  }

  /** How many listeners a kind has (tests check that on-demand listeners go away). */
  count(kind: keyof ExchangeListeners): number {
    return this.listeners[kind].length;
  }
}
