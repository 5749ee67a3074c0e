// The API's enumerations (spec/api.md, DESIGN section 4).
//
// Each enum is a frozen `as const` object plus a same-named union of its values, because
// `erasableSyntaxOnly` rules out TypeScript `enum`. Wire values are the spec's integers
// (strings only where the wire uses strings: SymbolTag and PositionMode). Values are part
// of the public API: never renumber one, only add.

/** Any enum object of this module: upper-case names to wire values. */
export type EnumObject = Readonly<Record<string, number | string>>;
/** The union of an enum object's values. */
export type EnumValue<E extends EnumObject> = E[keyof E];

export const Side = Object.freeze({ BUY: 1, SELL: 2 } as const);
export type Side = EnumValue<typeof Side>;

export const OrderType = Object.freeze({ LIMIT: 1, MARKET: 2 } as const);
export type OrderType = EnumValue<typeof OrderType>;

/** GTX is post-only: the order expires if any part of it would take. */
export const TimeInForce = Object.freeze({ GTC: 1, IOC: 2, FOK: 3, GTX: 4 } as const);
export type TimeInForce = EnumValue<typeof TimeInForce>;

/**
 * The spec leaves the names open; DESIGN section 4 fixes them. EXPIRED covers the IOC/FOK
 * remainder, a GTX order that would take, self-trade prevention and liquidation.
 */
export const OrderStatus = Object.freeze({
  NEW: 1,
  PARTIALLY_FILLED: 2,
  FILLED: 3,
  CANCELED: 4,
  REJECTED: 5,
  EXPIRED: 6,
} as const);
export type OrderStatus = EnumValue<typeof OrderStatus>;

export const TradeRole = Object.freeze({ MAKER: 1, TAKER: 2 } as const);
export type TradeRole = EnumValue<typeof TradeRole>;

/** In one-way mode every order and position uses LONG (1); the sign of the net quantity tells the direction. */
export const PositionSide = Object.freeze({ LONG: 1, SHORT: 2 } as const);
export type PositionSide = EnumValue<typeof PositionSide>;

/** In one-way mode CLOSE behaves as reduce-only. */
export const PositionAction = Object.freeze({ OPEN: 1, CLOSE: 2 } as const);
export type PositionAction = EnumValue<typeof PositionAction>;

export const MarginMode = Object.freeze({ ISOLATED: 1, CROSS: 2 } as const);
export type MarginMode = EnumValue<typeof MarginMode>;

export const CloseType = Object.freeze({
  USER: 1,
  TAKE_PROFIT: 2,
  STOP_LOSS: 3,
  LIQUIDATION: 4,
  ADL: 5,
  BANKRUPTCY: 6,
} as const);
export type CloseType = EnumValue<typeof CloseType>;

/** `status` of the general trading-pair list, `/api/v1/symbols`. */
export const SymbolStatus = Object.freeze({ TRADING: 1, PAUSED: 2, DELISTED: 3 } as const);
export type SymbolStatus = EnumValue<typeof SymbolStatus>;

/** `status` of the futures trading-pair list, `/fapi/v1/symbols` (a different scale from SymbolStatus). */
export const FuturesSymbolStatus = Object.freeze({ ENABLED: 1, DISABLED: 2 } as const);
export type FuturesSymbolStatus = EnumValue<typeof FuturesSymbolStatus>;

export const ContractType = Object.freeze({ USDT_MARGINED: 1, COIN_MARGINED: 2 } as const);
export type ContractType = EnumValue<typeof ContractType>;

/**
 * Account position mode. Strings, not integers: the spec never puts the mode on the wire, so
 * the extension routes (DESIGN section 4) carry it as a readable word. Hedge is the default.
 */
export const PositionMode = Object.freeze({ HEDGE: 'hedge', ONE_WAY: 'one_way' } as const);
export type PositionMode = EnumValue<typeof PositionMode>;

/** `working_type` of a take-profit / stop-loss: the price its triggers watch (mark is the default). */
export const WorkingType = Object.freeze({ MARK_PRICE: 1, LAST_PRICE: 2 } as const);
export type WorkingType = EnumValue<typeof WorkingType>;

/**
 * `status` of a conditional order (POST /fapi/v1/conditional/order): 1 waiting for its trigger, 2
 * triggered (its order was placed: `order_id`), 3 cancelled before it fired, 4 fired but its order
 * was refused (`reject_code`, `reject_reason`: margin, nothing left to reduce, ...).
 */
export const ConditionalStatus = Object.freeze({ NEW: 1, TRIGGERED: 2, CANCELED: 3, REJECTED: 4 } as const);
export type ConditionalStatus = EnumValue<typeof ConditionalStatus>;

/** `trigger_direction` of a conditional order: 1 fires when the watched price rises to the trigger or above, 2 when it falls to it or below. */
export const TriggerDirection = Object.freeze({ RISES_TO: 1, FALLS_TO: 2 } as const);
export type TriggerDirection = EnumValue<typeof TriggerDirection>;

/** `type` of an isolated margin change (Binance's positionMargin `type`): 1 adds margin, 2 removes it. */
export const MarginChangeType = Object.freeze({ ADD: 1, REDUCE: 2 } as const);
export type MarginChangeType = EnumValue<typeof MarginChangeType>;

/** `tag` filter of the symbol lists. */
export const SymbolTag = Object.freeze({ NEW: 'new', MEME: 'meme', INNOVATION: 'innovation' } as const);
export type SymbolTag = EnumValue<typeof SymbolTag>;

// Per-enum caches so the validators on the request path do not rebuild a value list per call.
const valueSets = new WeakMap<EnumObject, ReadonlySet<unknown>>();
const nameMaps = new WeakMap<EnumObject, ReadonlyMap<unknown, string>>();

function valueSet(e: EnumObject): ReadonlySet<unknown> {
  let s = valueSets.get(e);
  if (s === undefined) {
    s = new Set<unknown>(Object.values(e));
    valueSets.set(e, s);
  }
  return s;
}

/** Whether `value` is one of the enum's wire values (strict: the string "1" is not 1). */
export function isOneOf<E extends EnumObject>(e: E, value: unknown): value is EnumValue<E> {
  return valueSet(e).has(value);
}

/** The enum's name for a wire value (`nameOf(Side, 2) === 'SELL'`), or undefined. */
export function nameOf<E extends EnumObject>(e: E, value: unknown): (keyof E & string) | undefined {
  let m = nameMaps.get(e);
  if (m === undefined) {
    m = new Map(Object.entries(e).map(([k, v]) => [v, k] as const));
    nameMaps.set(e, m);
  }
  return m.get(value) as (keyof E & string) | undefined;
}

/** The enum's wire values in declaration order, e.g. for a JSON schema's `enum`. */
export function valuesOf<E extends EnumObject>(e: E): EnumValue<E>[] {
  return Object.values(e) as EnumValue<E>[];
}

/** The opposite order side. */
export function oppositeSide(side: Side): Side {
  return side === Side.BUY ? Side.SELL : Side.BUY;
}
