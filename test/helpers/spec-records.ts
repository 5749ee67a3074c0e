// The spec's record tables (spec/api.md, "Resources and their fields"), transcribed by hand:
// each record's field names in order and the JSON type of each (the spec's Type column).
// Tests hold the code's field arrays (enums-types.test.ts) and the real answers of the routes
// (spec-json-types.test.ts) against them.

export const words = (s: string): string[] => s.trim().split(/\s+/);

/** JSON type letters: s string, i integer, n number (may be integral), b boolean, a string array. */
export interface SpecRecord {
  fields: string;
  types: string;
}

export const SPEC_RECORDS = {
  PriceRecord: {
    fields:
      'symbol index_price mark_price last_price funding_rate next_funding_time price_precision qty_precision timestamp',
    types: 's s s s s i i i i',
  },
  GeneralSymbol: {
    fields: `id symbol base_asset quote_asset status allow_market price_precision qty_precision quote_precision
      tick_size step_size min_qty max_qty min_quote maker_fee_rate taker_fee_rate logo sort_order is_default is_hot
      is_gainer is_new created_at updated_at`,
    types: 'i s s s i b i i i s s s s s s s s i b b b b i i',
  },
  FuturesSymbol: {
    fields: `symbol base_asset quote_asset margin_asset contract_type status max_leverage maintenance_margin_rate
      maker_fee_rate taker_fee_rate price_precision price_step qty_precision qty_step min_qty max_qty min_notional
      market_price_protect_ratio price_merges logo`,
    types: 's s s s i i i s s s i s i s s s s s a s',
  },
  OrderRecord: {
    fields: `id client_order_id symbol side type status price qty filled_qty filled_quote avg_price total_fee
      fee_asset leverage margin_mode position_action position_side created_at updated_at user_id`,
    types: 's s s i i i s s s s s s s i i i i i i s',
  },
  PlacementResult: {
    fields: 'order_id client_order_id status filled_qty filled_quote',
    types: 's s i s s',
  },
  TradeRecord: {
    fields: `id order_id symbol side position_side price qty quote_qty fee fee_asset fee_rate role is_close
      realized_pnl created_at`,
    types: 's s s i i s s s s s s i b s i',
  },
  PositionRecord: {
    fields: `id user_id symbol position_side margin_mode leverage quantity entry_price mark_price liquidation_price
      break_even_price maintenance_margin_rate margin margin_ratio unrealized_pnl realized_pnl total_funding_fee
      open_fee close_fee created_at updated_at`,
    types: 's i s i i i n n n n n n n n n n n n n i i',
  },
  ClosedPositionRecord: {
    fields: `id position_id user_id symbol position_side margin_mode leverage open_quantity close_quantity
      entry_price exit_price open_amount close_amount open_fee close_fee total_funding_fee realized_pnl close_type
      opened_at closed_at created_at`,
    types: 'i i i s i i i n n n n n n n n n n i i i i',
  },
  BotOrderRequest: {
    fields: `symbol side position_side position_action type price qty leverage margin_mode time_in_force
      reduce_only client_order_id need_cache`,
    types: 's i i i i s s i i i b s b',
  },
} as const satisfies Record<string, SpecRecord>;

/** The 12 elements of a candle (spec: candlestick array), by JSON type. */
export const SPEC_CANDLE_TYPES = 'i i s s s s s s i s s b';

/** The JSON type letter of a value (see SpecRecord). */
export function jsonType(v: unknown): string {
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'a' : '?';
  if (typeof v === 'number') return Number.isInteger(v) ? 'i' : 'n';
  return typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : '?';
}

/** Problems of `record` against the spec record `name`: field names and order, then each JSON type. */
export function specMismatches(name: keyof typeof SPEC_RECORDS, record: Record<string, unknown>): string[] {
  const spec = SPEC_RECORDS[name];
  const fields = words(spec.fields);
  const types = words(spec.types);
  const out: string[] = [];
  const keys = Object.keys(record);
  if (keys.join(' ') !== fields.join(' ')) out.push(`${name}: fields ${keys.join(' ')} != spec ${fields.join(' ')}`);
  fields.forEach((f, i) => {
    const got = jsonType(record[f]);
    const want = types[i];
    // a JSON "number" may happen to be integral
    if (got !== want && !(want === 'n' && got === 'i'))
      out.push(`${name}.${f}: ${got} (${JSON.stringify(record[f])}) != spec ${want}`);
  });
  return out;
}
