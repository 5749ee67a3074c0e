// The pieces the facade's answer schemas are made of (response-schemas*.ts): a field of each JSON
// type with its description, a fixed value, one of a set, an always-empty list, one record or a
// list of them, and Binance's error object. Binance sends prices, quantities, rates and money as
// decimal strings, ids, times and counts as JSON integers.
//
// Invariant: these schemas document answers, they write none (response-schemas.ts: the facade's
// routes answer with JSON.stringify of what the handler returns, but POST /fapi/v1/order, whose
// serializer is compiled from ORDER_ANSWER); a test holds every answer to them (test/api/binance/
// answer-schemas.test.ts), so they say exactly which fields are sent, of which type, in which order.
import { Type, type TProperties, type TSchema } from 'typebox';

export const str = (description: string) => Type.String({ description });
export const int = (description: string) => Type.Integer({ description });
export const num = (description: string) => Type.Number({ description });
export const bool = (description: string) => Type.Boolean({ description });
/** A text that is one of `values`. */
export const oneOf = (values: readonly string[], description: string) =>
  Type.Unsafe<string>({ type: 'string', enum: [...values], description });
/** A field that always has this value. */
export const always = (value: string | number | boolean, description: string) =>
  Type.Unsafe<typeof value>({
    type: typeof value === 'number' ? 'integer' : typeof value,
    const: value,
    description,
  });
/** A field that is always null. */
export const alwaysNull = (description: string) => Type.Null({ description });
export const obj = (props: TProperties, description: string) => Type.Object(props, { description });
export const list = (item: TSchema, description: string) => Type.Array(item, { description });
/** A list that is always empty (a stub's). */
export const emptyList = (description: string) => Type.Unsafe<never[]>({ type: 'array', maxItems: 0, description });
/** One record when `symbol` is sent, else the list of every listed pair's. */
export const oneOrAll = (item: TSchema, description: string) =>
  Type.Union([item, Type.Array(item, { description: 'Without symbol: every listed pair' })], { description });

/** Binance's error: `{code, msg}`. */
export const ERROR = Type.Object(
  { code: Type.Integer({ description: "Binance's negative error code" }), msg: Type.String() },
  { description: "Binance's error: {code, msg}" },
);

/** The success answer of a change Binance answers with a code: `{code: 200, msg}`. */
export const DONE = (msg: string) =>
  obj({ code: always(200, 'Always 200 (success)'), msg: always(msg, `Always '${msg}'`) }, `{code: 200, msg: '${msg}'}`);

export const SYMBOL = str('Pair, e.g. BTCUSDT');
export const MARKET_MS = (what: string) => int(`${what}, ms of market time`);
