// Route schemas are TypeBox values: plain JSON Schema at run time (Fastify's Ajv validates and
// serialises them, @fastify/swagger prints them) and, through Fastify's TypeBox type provider,
// the source of each route's request types (Static<>), so no hand-kept type sits beside them.
// The wire records of src-shared/types.ts stay the contract: every response schema that
// carries one is checked against it at compile time (the `agree` lists below and in
// trading-schemas.ts), so a schema and its shared type cannot drift apart.
//
// This module holds the helpers every route shares, the strict integer syntax of the API
// (docs/api-input-rules.md) and the trading-pair records.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject, type TProperties, type TSchema, type TUnsafe } from 'typebox';
import type { ContractType, FuturesSymbolStatus, SymbolStatus, SymbolTag } from '../../src-shared/enums.ts';
import type { FuturesSymbol, GeneralSymbol } from '../../src-shared/types.ts';

/** The Fastify instance route plugins receive: request and reply types come from the schemas. */
export type ApiInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

// ---------------------------------------------------------------- compile-time agreement

/**
 * True when A and B are assignable both ways and name the same keys: same fields, same
 * optionality, same types (the key check catches an optional field only one of them has,
 * which assignability alone lets through).
 */
export type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;

/** Compile-time check that a schema's Static<> is the shared wire type: `agree<S, T>(true)`. */
export function agree<S extends TSchema, T>(ok: Agree<Static<S>, T>): void {
  void ok;
}

/** The properties of `P` that carry a default (trading-schemas.ts defaulted). */
type DefaultedKeys<P extends TProperties> = { [K in keyof P]: P[K] extends Defaulted ? K : never }[keyof P];

/** What a client adds to a signed route's query when it signs (auth.ts signedQuerystring). */
type SigningParams = 'timestamp' | 'recv_window' | 'signature';

/**
 * What a client sends where object schema `S` validates (a body or a query): Static<S> with every
 * defaulted property optional again (the validator fills it in) and without a signed query's
 * timestamp, recv_window and signature (the client adds them when it signs).
 */
export type Sent<S extends TObject> = Omit<Static<S>, DefaultedKeys<S['properties']> | SigningParams> &
  Partial<Pick<Static<S>, DefaultedKeys<S['properties']> & keyof Static<S>>>;

/** Compile-time check that a body or query a client sends is what schema `S` takes: `agreeSent<S, T>(true)`. */
export function agreeSent<S extends TObject, T>(ok: Agree<Sent<S>, T>): void {
  void ok;
}

// ---------------------------------------------------------------- integers

/**
 * The one integer syntax of query and path parameters: an optional minus sign, then 0 or
 * digits without a leading zero. No '+', no exponent, no hex, no blanks, no fraction; the
 * value must also be a safe integer (|n| <= 2^53 - 1) and within the parameter's range.
 */
export const STRICT_INTEGER = /^-?(0|[1-9][0-9]*)$/;

// ---------------------------------------------------------------- small builders

/** An integer enum (`{type: 'integer', enum}`): the type keeps query coercion, the enum the 1001 message. */
export function intEnum<const V extends readonly number[]>(values: V, description?: string): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({
    type: 'integer',
    enum: [...values],
    ...(description === undefined ? {} : { description }),
  });
}

/** A string enum (`{type: 'string', enum}`). */
export function strEnum<const V extends readonly string[]>(values: V, description?: string): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({
    type: 'string',
    enum: [...values],
    ...(description === undefined ? {} : { description }),
  });
}

/**
 * A fixed-length array (`[market ms, equity]`) in JSON Schema 2020-12 form: `prefixItems` and
 * `items: false`. TypeBox's `Type.Tuple` writes the draft-07 form (`items: [...]` with
 * `additionalItems`), which OpenAPI 3.1 and 2020-12 validators refuse; fast-json-stringify
 * serialises both alike.
 */
export function tuple<const T extends readonly TSchema[]>(items: T, description?: string): TUnsafe<StaticTuple<T>> {
  return Type.Unsafe<StaticTuple<T>>({
    type: 'array',
    prefixItems: [...items],
    items: false,
    minItems: items.length,
    maxItems: items.length,
    ...(description === undefined ? {} : { description }),
  });
}

type StaticTuple<T extends readonly TSchema[]> = { [K in keyof T]: T[K] extends TSchema ? Static<T[K]> : never };

/** A reference to a schema registered by $id (one component in OpenAPI), typed as its record. */
export function ref<T>(id: string): TUnsafe<T> {
  return Type.Unsafe<T>({ $ref: `${id}#` });
}

/** Type-level mark of a parameter with a default (trading-schemas.ts defaulted): never absent after validation. */
export interface Defaulted {
  readonly '~defaulted': true;
}

/** A querystring that takes no parameter: any one is 1003. */
export const noQuery = Type.Object({}, { additionalProperties: false });

/**
 * An object schema whose properties follow `order` exactly (the spec's field order: the
 * serialiser writes keys in schema order). Every property is required.
 */
export function ordered<P extends TProperties>(
  id: string,
  description: string,
  order: readonly (keyof P & string)[],
  props: P,
): TObject<P> {
  const properties: TProperties = {};
  for (const k of order) properties[k] = props[k];
  if (Object.keys(props).length !== order.length || Object.keys(properties).length !== order.length) {
    throw new Error(`schema ${id}: properties differ from the field list`);
  }
  return Type.Object(properties as P, { $id: id, description });
}

// ---------------------------------------------------------------- parameters

export const symbolParam = Type.String({
  pattern: '^[A-Za-z0-9]{2,30}$',
  description: 'Trading pair, e.g. BTCUSDT (case-insensitive)',
});

export const tagParam = strEnum(
  ['new', 'meme', 'innovation'] as const satisfies readonly SymbolTag[],
  'Only pairs with this tag',
);

// ---------------------------------------------------------------- trading pairs

const decimalString = (description: string) => Type.String({ description });

export const generalSymbolSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Primary key ID' }),
    symbol: Type.String({ description: 'Trading pair' }),
    base_asset: Type.String({ description: 'Base asset' }),
    quote_asset: Type.String({ description: 'Quote asset' }),
    status: intEnum([1, 2, 3] as const satisfies readonly SymbolStatus[], '1=trading, 2=paused, 3=delisted'),
    allow_market: Type.Boolean({ description: 'Whether market orders are allowed' }),
    price_precision: Type.Integer({ description: 'Price decimal precision' }),
    qty_precision: Type.Integer({ description: 'Quantity decimal precision' }),
    quote_precision: Type.Integer({ description: 'Quote amount decimal precision' }),
    tick_size: decimalString('Minimum price increment'),
    step_size: decimalString('Minimum quantity increment'),
    min_qty: decimalString('Minimum order quantity'),
    max_qty: decimalString('Maximum order quantity'),
    min_quote: decimalString('Minimum order amount'),
    maker_fee_rate: decimalString('Maker fee rate'),
    taker_fee_rate: decimalString('Taker fee rate'),
    logo: Type.String({ description: 'Logo URL (served by this service)' }),
    sort_order: Type.Integer({ description: 'Sort weight, smaller means earlier' }),
    is_default: Type.Boolean({ description: 'Included in default favorites' }),
    is_hot: Type.Boolean({ description: 'Shown in hot list' }),
    is_gainer: Type.Boolean({ description: 'Shown in gainers list' }),
    is_new: Type.Boolean({ description: 'Shown in new listing list' }),
    created_at: Type.Integer({ description: 'Creation time, ms' }),
    updated_at: Type.Integer({ description: 'Update time, ms' }),
  },
  { $id: 'GeneralSymbol', description: 'Trading pair configuration, general list' },
);

export const futuresSymbolSchema = Type.Object(
  {
    symbol: Type.String({ description: 'Trading pair' }),
    base_asset: Type.String({ description: 'Base asset' }),
    quote_asset: Type.String({ description: 'Quote asset' }),
    margin_asset: Type.String({ description: 'Margin asset' }),
    contract_type: intEnum([1, 2] as const satisfies readonly ContractType[], '1=USDT-margined, 2=coin-margined'),
    status: intEnum([1, 2] as const satisfies readonly FuturesSymbolStatus[], '1=enabled, 2=disabled'),
    max_leverage: Type.Integer({ description: 'Maximum leverage' }),
    maintenance_margin_rate: decimalString('Maintenance margin rate (first tier)'),
    maker_fee_rate: decimalString('Maker fee rate'),
    taker_fee_rate: decimalString('Taker fee rate'),
    price_precision: Type.Integer({ description: 'Price precision' }),
    price_step: decimalString('Price step'),
    qty_precision: Type.Integer({ description: 'Quantity precision' }),
    qty_step: decimalString('Quantity step'),
    min_qty: decimalString('Minimum order quantity'),
    max_qty: decimalString('Maximum order quantity'),
    min_notional: decimalString('Minimum notional value'),
    market_price_protect_ratio: decimalString('Market price protection ratio'),
    price_merges: Type.Array(Type.String(), { description: 'Price aggregation levels' }),
    logo: Type.String({ description: 'Logo URL (served by this service)' }),
  },
  { $id: 'FuturesSymbol', description: 'Trading pair configuration, futures' },
);

export const generalSymbolRef = ref<GeneralSymbol>('GeneralSymbol');
export const futuresSymbolRef = ref<FuturesSymbol>('FuturesSymbol');

agree<typeof generalSymbolSchema, GeneralSymbol>(true);
agree<typeof futuresSymbolSchema, FuturesSymbol>(true);
