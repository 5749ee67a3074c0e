// JSON schemas of the trading routes (orders, trades, positions, account, bot orders): the
// records they answer, the parameters and bodies they accept, the strict-body check and the
// few request checks the routes share (signed account, listed symbol, time range).
//
// Record schemas list their properties in the spec's field order, built from the *_FIELDS
// arrays of src-shared/types.ts: the response serialiser writes keys in schema order, so the
// wire order follows the spec by construction. They are registered once on the root instance
// (tradingSchemas) and referenced by $id, so OpenAPI shows each record once.
// The strict JSON-body and query-number checks the routes hang on their schemas: strict-input.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type {
  CloseType,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
  TimeInForce,
  TradeRole,
} from '../../src-shared/enums.ts';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import {
  CLOSED_POSITION_RECORD_FIELDS,
  ORDER_RECORD_FIELDS,
  PLACEMENT_RESULT_FIELDS,
  POSITION_RECORD_FIELDS,
  TRADE_RECORD_FIELDS,
  type BotOrderRequest,
  type ClosedPositionRecord,
  type MyTradesPage,
  type OrderRecord,
  type OrderRequest,
  type AccountSummary,
  type PlacementResult,
  type PositionRecord,
  type TradeRecord,
} from '../../src-shared/types.ts';
import type { Venue } from '../services/venue.ts';
import { agree, intEnum, type Defaulted, ordered, ref, strEnum } from './schemas.ts';

// ---------------------------------------------------------------- parameters

/** Largest integer id or time a parameter may carry. */
const MAX_INT = Number.MAX_SAFE_INTEGER;

/**
 * A parameter with a default: optional in the schema (and in OpenAPI), but always present
 * once validated (the validator fills the default in), so its static type is not optional.
 */
export function defaulted<S extends TSchema>(schema: S): S & Defaulted {
  return Type.Optional(schema) as unknown as S & Defaulted;
}

export const symbolField = Type.String({
  pattern: '^[A-Za-z0-9]{2,30}$',
  description: 'Trading pair, e.g. BTCUSDT (case-insensitive)',
});

/** A positive wire decimal: no sign, no exponent, no leading zeros (src-shared/decimal.ts grammar). */
export const decimalField = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$', description });

export const clientOrderIdField = Type.String({
  minLength: 1,
  maxLength: 36,
  // Binance's characters (reference a.5), so one id works on both surfaces
  pattern: '^[.A-Z:/a-z0-9_-]{1,36}$',
  description:
    "Client order ID: 1 to 36 letters, digits, '.', ':', '/', '_' or '-' (Binance's set); unique among your live orders. " +
    "Generated when absent (api.<order id>, bot.<order id>: ids of that form are the venue's and refused, 1001).",
});

export const idField = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_INT, description });
export const timeField = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_INT, description });

export const sideField = intEnum([1, 2] as const satisfies readonly Side[], '1=buy, 2=sell');
export const positionSideField = intEnum([1, 2] as const satisfies readonly PositionSide[], '1=long, 2=short');
export const marginModeField = intEnum([1, 2] as const satisfies readonly MarginMode[], '1=isolated, 2=cross');
const orderTypeField = intEnum([1, 2] as const satisfies readonly OrderType[], '1=limit, 2=market');
const positionActionField = intEnum([1, 2] as const satisfies readonly PositionAction[], '1=open, 2=close');
export const orderStatusField = intEnum(
  [1, 2, 3, 4, 5, 6] as const satisfies readonly OrderStatus[],
  '1=NEW, 2=PARTIALLY_FILLED, 3=FILLED, 4=CANCELED, 5=REJECTED, 6=EXPIRED',
);
export const closeTypeField = intEnum(
  [1, 2, 3, 4, 5, 6] as const satisfies readonly CloseType[],
  '1=user close, 2=take profit, 3=stop loss, 4=liquidation, 5=ADL, 6=bankruptcy',
);
export const leverageField = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: "Leverage, 1 to the pair's max_leverage (see /fapi/v1/symbols); above it the answer is 3013",
});
export const positionModeField = strEnum(
  ['hedge', 'one_way'] as const satisfies readonly PositionMode[],
  'hedge (default) or one_way',
);

export const cursorField = Type.String({
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]*$',
  description: 'Opaque cursor: the next_cursor of the previous page (empty or absent = first page)',
});

export const pageLimit = (def: number, max: number) =>
  defaulted(
    Type.Integer({ minimum: 1, maximum: max, default: def, description: `Page size, default ${def}, max ${max}` }),
  );

// ---------------------------------------------------------------- bodies

export const orderBodyProperties = {
  symbol: symbolField,
  side: sideField,
  position_side: intEnum([1, 2] as const satisfies readonly PositionSide[], '1=long, 2=short (1 in one-way mode)'),
  position_action: positionActionField,
  type: orderTypeField,
  price: Type.Optional(decimalField('Limit price, on the tick; required for limit orders, refused for market orders')),
  qty: decimalField('Contract quantity, on the step, within min_qty..max_qty'),
  leverage: Type.Optional(leverageField),
  margin_mode: Type.Optional(marginModeField),
  time_in_force: Type.Optional(
    intEnum(
      [1, 2, 3, 4] as const satisfies readonly TimeInForce[],
      '1=GTC (default), 2=IOC, 3=FOK, 4=GTX (maker only); a market order is IOC unless FOK or GTX, decided within its price band',
    ),
  ),
  reduce_only: Type.Optional(Type.Boolean({ description: 'Reduce only' })),
  client_order_id: Type.Optional(clientOrderIdField),
};

export const orderBodySchema = Type.Object(orderBodyProperties, { additionalProperties: false });

/** PUT /fapi/v1/order: a resting limit order's new price and total quantity. */
export const amendBodySchema = Type.Object(
  {
    symbol: symbolField,
    order_id: Type.Optional(idField('Order ID (give this or client_order_id)')),
    client_order_id: Type.Optional(clientOrderIdField),
    price: decimalField('New limit price, on the tick'),
    qty: decimalField("New total quantity, filled part included, on the step, within the pair's min_qty..max_qty"),
  },
  { additionalProperties: false },
);

export const botOrderBodySchema = Type.Object(
  {
    ...orderBodyProperties,
    need_cache: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Keep the order in the in-memory order cache (listed and cancellable); default false',
      }),
    ),
  },
  { additionalProperties: false },
);

agree<typeof orderBodySchema, OrderRequest>(true);
agree<typeof botOrderBodySchema, BotOrderRequest>(true);

// ---------------------------------------------------------------- request checks shared by the trading routes

/** The signed account's id (the auth hook guarantees one on signed routes). */
export function accountIdOf(req: FastifyRequest): number {
  const a = req.account;
  if (a === null) throw new ApiError(Errors.API_KEY_MISSING);
  return a.id;
}

/** A symbol filter or parameter: upper-cased, and it must be listed (1101 otherwise). */
export function listedSymbol(venue: Venue, symbol: string): string {
  const s = symbol.toUpperCase();
  if (!venue.exchange.pair(s)) throw new ApiError(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${s}'`);
  return s;
}

export function checkTimeRange(start: number | undefined, end: number | undefined, names: [string, string]): void {
  if (start !== undefined && end !== undefined && start > end) {
    throw new ApiError(
      Errors.INVALID_PARAMETER,
      `Invalid query parameters: ${names[0]} ${start} is after ${names[1]} ${end}`,
    );
  }
}

// ---------------------------------------------------------------- records

const str = (description: string) => Type.String({ description });
const int = (description: string) => Type.Integer({ description });
const num = (description: string) => Type.Number({ description });

const orderRecordSchema = ordered(
  'OrderRecord',
  'An order (spec field order, then updated_at and user_id)',
  ORDER_RECORD_FIELDS,
  {
    id: str('Order ID'),
    client_order_id: str('Client order ID'),
    symbol: str('Trading pair'),
    side: sideField,
    type: orderTypeField,
    status: orderStatusField,
    price: str('Order price ("0" decimals for market orders)'),
    qty: str('Order quantity'),
    filled_qty: str('Filled quantity'),
    filled_quote: str('Filled amount, USDT'),
    avg_price: str('Average fill price'),
    total_fee: str('Accumulated fee, USDT'),
    fee_asset: str('Fee asset'),
    leverage: int('Leverage'),
    margin_mode: marginModeField,
    position_action: positionActionField,
    position_side: positionSideField,
    created_at: int('Creation time, ms'),
    updated_at: int('Update time, ms'),
    user_id: str('User ID'),
  },
);

const placementResultSchema = ordered('PlacementResult', 'Order placement result', PLACEMENT_RESULT_FIELDS, {
  order_id: str('Order ID'),
  client_order_id: str('Client order ID'),
  status: orderStatusField,
  filled_qty: str('Filled quantity'),
  filled_quote: str('Filled amount, USDT'),
});

const tradeRecordSchema = ordered('TradeRecord', 'A fill of one of your orders', TRADE_RECORD_FIELDS, {
  id: str('Trade ID'),
  order_id: str('Order ID'),
  symbol: str('Trading pair'),
  side: sideField,
  position_side: positionSideField,
  price: str('Trade price'),
  qty: str('Trade quantity'),
  quote_qty: str('Trade amount, USDT'),
  fee: str('Fee, USDT (notional x fee_rate)'),
  fee_asset: str('Fee asset'),
  fee_rate: str("Fee rate: the pair's maker or taker rate"),
  role: intEnum([1, 2] as const satisfies readonly TradeRole[], '1=maker, 2=taker'),
  is_close: Type.Boolean({ description: 'Whether the trade closes a position' }),
  realized_pnl: str('Realized price PnL of the closing part, USDT (fees apart)'),
  created_at: int('Trade time (market clock), ms'),
});

const positionRecordSchema = ordered(
  'PositionRecord',
  'A current position; numbers are JSON numbers',
  POSITION_RECORD_FIELDS,
  {
    id: str('Position ID'),
    user_id: int('User ID'),
    symbol: str('Trading pair'),
    position_side: positionSideField,
    margin_mode: marginModeField,
    leverage: int('Leverage'),
    quantity: num('Position quantity'),
    entry_price: num('Average entry price'),
    mark_price: num('Mark price'),
    liquidation_price: num('Liquidation price (0 when none)'),
    break_even_price: num('Break-even price'),
    maintenance_margin_rate: num('Tier maintenance margin rate'),
    margin: num('Isolated: position margin; cross: initial margin used'),
    margin_ratio: num('Margin ratio'),
    unrealized_pnl: num('Unrealized PnL at mark'),
    realized_pnl: num('Accumulated realized PnL'),
    total_funding_fee: num('Accumulated funding fee; positive=paid, negative=received'),
    open_fee: num('Accumulated opening fee'),
    close_fee: num('Accumulated closing fee'),
    created_at: int('Creation time, ms'),
    updated_at: int('Update time, ms'),
  },
);

const closedProps = <P extends TSchema>(positionId: P) => ({
  id: int('Primary key ID'),
  position_id: positionId,
  user_id: int('User ID'),
  symbol: str('Trading pair'),
  position_side: positionSideField,
  margin_mode: marginModeField,
  leverage: int('Leverage'),
  open_quantity: num('Total opening quantity'),
  close_quantity: num('Total closing quantity'),
  entry_price: num('Average entry price = open_amount / open_quantity'),
  exit_price: num('Average exit price = close_amount / close_quantity'),
  open_amount: num('Total opening amount, USDT'),
  close_amount: num('Total closing amount, USDT'),
  open_fee: num('Total opening fee'),
  close_fee: num(
    "Total closing fee: the closing fills' fees and, for a liquidated position, the liquidation clearance fee it paid the insurance fund",
  ),
  total_funding_fee: num('Total funding fee; positive=paid'),
  realized_pnl: num('Realized price PnL (fees and funding apart)'),
  close_type: closeTypeField,
  opened_at: int('Open time, ms'),
  closed_at: int('Close time, ms'),
  created_at: int('Creation time, ms'),
});

/** In the history list position_id is an integer (the spec's sample)... */
const closedPositionSchema = ordered(
  'ClosedPositionRecord',
  'A closed position (history list; position_id is an integer)',
  CLOSED_POSITION_RECORD_FIELDS,
  closedProps(int('Related position ID')),
);

/** ...and in the detail route a string (the spec says so). */
const closedPositionDetailSchema = ordered(
  'ClosedPositionDetail',
  'A closed position (detail route; position_id is a string)',
  CLOSED_POSITION_RECORD_FIELDS,
  closedProps(str('Related position ID')),
);

const accountSummarySchema = Type.Object(
  {
    user_id: int('User ID'),
    asset: Type.Literal('USDT', { description: 'Margin asset' }),
    wallet_balance: str('Deposits + realized PnL - fees - funding'),
    available_balance: str('What new orders may use'),
    frozen_margin: str('Margin and fees held by open orders'),
    position_margin: str('Initial margin of cross positions + isolated margin'),
    unrealized_pnl: str('Unrealized PnL of all positions at mark'),
    margin_balance: str('wallet_balance + unrealized_pnl'),
    total_deposits: str('Sum of paper deposits'),
    position_mode: strEnum(['hedge', 'one_way'] as const satisfies readonly PositionMode[], 'Position mode'),
  },
  {
    $id: 'AccountSummary',
    description: 'USDT balance and margin of the account (money as decimal strings, 8 decimals)',
  },
);

export type AccountSummaryWire = Static<typeof accountSummarySchema>;

// The records the routes answer are the shared wire types, field for field. The two closed
// position schemas each narrow position_id (integer in the list, string in the detail).
agree<typeof orderRecordSchema, OrderRecord>(true);
agree<typeof placementResultSchema, PlacementResult>(true);
agree<typeof accountSummarySchema, AccountSummary>(true);
agree<typeof tradeRecordSchema, TradeRecord>(true);
agree<typeof positionRecordSchema, PositionRecord>(true);
agree<typeof closedPositionSchema, ClosedPositionRecord & { position_id: number }>(true);
agree<typeof closedPositionDetailSchema, ClosedPositionRecord & { position_id: string }>(true);

export const orderRecordRef = ref<OrderRecord>('OrderRecord');
export const placementResultRef = ref<PlacementResult>('PlacementResult');
export const tradeRecordRef = ref<TradeRecord>('TradeRecord');
export const positionRecordRef = ref<PositionRecord>('PositionRecord');
// records.ts builds both forms as the shared ClosedPositionRecord (position_id string | number).
export const closedPositionRef = ref<ClosedPositionRecord>('ClosedPositionRecord');
export const closedPositionDetailRef = ref<ClosedPositionRecord>('ClosedPositionDetail');
export const accountSummaryRef = ref<AccountSummaryWire>('AccountSummary');

/** Cursor page of myTrades / allOrders. */
export const cursorPageSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    has_more: Type.Boolean({ description: 'Whether a further page exists' }),
    next_cursor: Type.String({ description: 'Cursor of the next page; empty on the last page' }),
    items: Type.Array(item),
  });

agree<ReturnType<typeof cursorPageSchema<typeof tradeRecordRef>>, MyTradesPage>(true);

/**
 * Registers the record schemas on the root instance (skip-override, like fastify-plugin), so
 * every route plugin can $ref them and OpenAPI lists them as components.
 */
export async function tradingSchemas(app: FastifyInstance): Promise<void> {
  for (const s of [
    orderRecordSchema,
    placementResultSchema,
    tradeRecordSchema,
    positionRecordSchema,
    closedPositionSchema,
    closedPositionDetailSchema,
    accountSummarySchema,
  ]) {
    app.addSchema(s);
  }
}
(tradingSchemas as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
