// Every state-changing command of the exchange as a typed object, and what each answers.
//
// Exchange.execute(command) is the one entry: routes, the simulator, the CLI/desktop bootstrap
// and tests send these. They are plain data (no closures), so a command log or a second API
// surface can build, store and replay them. Invariants: a command names its account
// explicitly (never taken from ambient state); money is bigint 1e-8 USDT, prices and
// quantities are decimal strings as on the wire, except the market-side commands: 'prices' and
// 'funding' carry the simulator's floats, 'houseOrder', 'houseTrim', 'houseGrow' and 'housePrint' (the replay's historical
// book, millions a run) the engine's ticks and lots.
import type { PositionMode, WorkingType } from '../../src-shared/enums.ts';
import type {
  AccountSummary,
  BotCancelResult,
  BotOrderRequest,
  OrderRecord,
  OrderRequest,
  PlacementResult,
  PositionRecord,
  ConditionalOrderRecord,
  ConditionalOrderRequest,
} from '../../src-shared/types.ts';
import type {
  MarginChangeResult,
  MarginModeSetting,
  PositionModeSetting,
} from '../../src-shared/types/position-settings.ts';
import type { MarginChange } from './isolated-margin.ts';
import type { AccountSpec, AccountState } from './ports.ts';

/** A take-profit / stop-loss trigger: its price (null removes it), and what it watches (the wire's working_type). */
export type TriggerSpec = { price: string | null; trigger: WorkingType } | undefined;

/** One open order of a user, by id or client id (the pair narrows a client id look-up). */
export interface CancelTarget {
  symbol?: string;
  orderId?: number;
  clientOrderId?: string;
}

/** A resting limit order's new price and total quantity (modify). */
export interface AmendTarget extends CancelTarget {
  price: string;
  qty: string;
}

/** A waiting conditional order and what to change: at least one of the three (conditional-amend.ts). */
export interface ConditionalAmendTarget extends CancelTarget {
  trigger_price?: string;
  price?: string;
  qty?: string;
}

/** A field of a wire request as it arrives: enum fields are any number until the exchange checks them. */
type Unchecked<T> = { [K in keyof T]: T[K] extends number | undefined ? number | Extract<T[K], undefined> : T[K] };

/** The wire's order request (src-shared/types.ts OrderRequest) before its enum fields are checked. */
export type OrderInput = Unchecked<OrderRequest>;
/** The wire's bot order request before its enum fields are checked. */
export type BotOrderInput = Unchecked<BotOrderRequest>;
/** The wire's conditional order request before its enum fields are checked. */
export type ConditionalInput = Unchecked<ConditionalOrderRequest>;

export type Command =
  | { kind: 'place'; accountId: number; input: OrderInput }
  | { kind: 'placeBot'; input: BotOrderInput; engineAccount?: number }
  | ({ kind: 'cancel'; accountId: number } & CancelTarget)
  /** Modifies a resting limit order (new price and total quantity), as Binance's modify (orders.ts amendOrder). */
  | ({ kind: 'amend'; accountId: number } & AmendTarget)
  | { kind: 'cancelAll'; accountId: number; symbol: string }
  /** A conditional order: held until its trigger is reached, then placed (conditional.ts). */
  | { kind: 'placeConditional'; accountId: number; input: ConditionalInput }
  | ({ kind: 'cancelConditional'; accountId: number } & CancelTarget)
  /** Modifies a waiting conditional order in place: trigger, limit price, qty (conditional-amend.ts). */
  | ({ kind: 'amendConditional'; accountId: number } & ConditionalAmendTarget)
  /** Cancels every waiting conditional order of the account (on `symbol` when given). */
  | { kind: 'cancelAllConditionals'; accountId: number; symbol?: string }
  /**
   * A house order in ticks and lots (the replay's historical book and prints): refused as a bot
   * order would be (pair not trading, size outside min/max, price outside the band), no margin,
   * never stored, cached or announced, and no decimal strings either way. GTC rests, IOC takes
   * what crosses and expires the rest. `account` is a house engine account (HOUSE_ACCOUNT and up).
   * `expireOwn`: the account's own orders on the other side that the order meets are cancelled as
   * it meets them and it goes on (self-trade prevention "expire maker": the replay's book moves a
   * level from one side to the other in one command); without it, meeting one ends the order
   * (the book's default, expire taker).
   */
  | {
      kind: 'houseOrder';
      symbol: string;
      account: number;
      side: 1 | 2;
      priceTicks: number;
      lots: number;
      tif: 1 | 2;
      expireOwn?: boolean;
    }
  /**
   * Reduces a resting house order to `lots` remaining in place, keeping its queue priority; 0
   * cancels it (as cancelBot). Numbers both ways (the replay's mirror sends millions).
   */
  | { kind: 'houseTrim'; symbol: string; orderId: number; lots: number }
  /**
   * Grows a resting house order to `lots` remaining, in place: only the last order of its level
   * may grow (nobody queues behind it, so this is the queue an added order would make, without
   * the order). Numbers both ways (the replay's mirror refills its levels with it).
   */
  | { kind: 'houseGrow'; symbol: string; orderId: number; lots: number }
  /**
   * A print between two house accounts at a price where nobody else's order is met (the replay's
   * print on a level its book places for it): `maker` places a GTC order of `rest` lots on the
   * resting side at the price (none when 0; `expireOwn` as in houseOrder), and `lots` trade at
   * the price, `taker` the aggressor on `takerSide`: the tape, the candles and the last price as
   * for any trade; the same as a houseOrder of lots + rest then a houseOrder IOC of lots, in one
   * command and without the engine matching what can only match the maker's new order. Refused
   * when it could meet another order: the resting side shows the price or better, or the
   * taker's side shows the price or through it other than the maker's own orders (those only
   * with expireOwn and rest > 0); and as those two house orders would be (size, band).
   */
  | {
      kind: 'housePrint';
      symbol: string;
      maker: number;
      taker: number;
      takerSide: 1 | 2;
      priceTicks: number;
      lots: number;
      rest: number;
      expireOwn: boolean;
    }
  | { kind: 'cancelBot'; symbol: string; orderId: number }
  /** Reduces a resting bot order to `lots` remaining, keeping its queue priority (0 cancels it). */
  | { kind: 'trimBot'; symbol: string; orderId: number; lots: number }
  | { kind: 'setLeverage'; accountId: number; symbol: string; leverage: number }
  | { kind: 'setMarginMode'; accountId: number; symbol: string; marginMode: number }
  | { kind: 'setPositionMode'; accountId: number; mode: PositionMode }
  | { kind: 'setTpSl'; accountId: number; symbol: string; positionSide: number; tp: TriggerSpec; sl: TriggerSpec }
  /** Adds margin to (type 1) or removes it from (type 2) an isolated position, `amount` units (isolated-margin.ts). */
  | ({ kind: 'adjustMargin'; accountId: number } & MarginChange)
  | { kind: 'deposit'; accountId: number; amount: bigint }
  | { kind: 'reset'; accountId: number; balance: bigint }
  | { kind: 'upsertAccount'; spec: AccountSpec; now: number }
  | { kind: 'rotateKey'; accountId: number; apiKey: string; apiSecret: string; now: number }
  | { kind: 'prices'; symbol: string; mark?: number; index?: number; fundingRate?: number; nextFundingTime?: number }
  | { kind: 'funding'; symbol: string; rate: number; mark: number; time: number };

/** What each command answers. */
interface CommandResults {
  place: PlacementResult;
  placeBot: PlacementResult;
  /** The order's id and the lots it took on entry. */
  houseOrder: { orderId: number; filledLots: number };
  /** The lots the order has left. */
  houseTrim: number;
  /** The lots the order has now. */
  houseGrow: number;
  /** The maker's resting order (0 when none rests) and the lots printed. */
  housePrint: { orderId: number; filledLots: number };
  cancel: OrderRecord;
  /** The order as the amendment left it (resting, filled, or cancelled by it). */
  amend: OrderRecord;
  /** How many orders were cancelled. */
  cancelAll: number;
  placeConditional: ConditionalOrderRecord;
  cancelConditional: ConditionalOrderRecord;
  amendConditional: ConditionalOrderRecord;
  /** How many were cancelled. */
  cancelAllConditionals: number;
  cancelBot: BotCancelResult;
  /** The lots the order has left. */
  trimBot: { order_id: string; remaining_lots: number };
  setLeverage: { symbol: string; leverage: number; max_notional: string };
  setMarginMode: MarginModeSetting;
  setPositionMode: PositionModeSetting;
  setTpSl: PositionRecord;
  adjustMargin: MarginChangeResult;
  deposit: AccountSummary;
  reset: AccountSummary;
  upsertAccount: AccountState;
  /** The new key and secret (the old key stops working at once). */
  rotateKey: { apiKey: string; apiSecret: string };
  prices: void;
  /** How many positions paid or received funding. */
  funding: number;
}

export type ResultOf<C extends Command> = CommandResults[C['kind']];
