import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CloseType,
  ContractType,
  FuturesSymbolStatus,
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionMode,
  PositionSide,
  Side,
  SymbolStatus,
  SymbolTag,
  TimeInForce,
  TradeRole,
  isOneOf,
  nameOf,
  oppositeSide,
  valuesOf,
} from '../../src-shared/enums.ts';
import {
  BOT_ORDER_REQUEST_FIELDS,
  CLOSED_POSITION_RECORD_FIELDS,
  CandleIndex,
  FUTURES_SYMBOL_FIELDS,
  GENERAL_SYMBOL_FIELDS,
  ORDER_RECORD_FIELDS,
  ORDER_REQUEST_FIELDS,
  PLACEMENT_RESULT_FIELDS,
  POSITION_RECORD_FIELDS,
  PRICE_RECORD_FIELDS,
  TRADE_RECORD_FIELDS,
} from '../../src-shared/types.ts';
import type {
  BotOrderRequest,
  Candle,
  ClosedPositionRecord,
  FuturesSymbol,
  GeneralSymbol,
  OrderRecord,
  PlacementResult,
  PositionRecord,
  PriceRecord,
  TradeRecord,
} from '../../src-shared/types.ts';

const words = (s: string): string[] => s.trim().split(/\s+/);

describe('enums carry the spec and DESIGN section 4 wire values', () => {
  it.each([
    ['Side', Side, { BUY: 1, SELL: 2 }],
    ['OrderType', OrderType, { LIMIT: 1, MARKET: 2 }],
    ['TimeInForce', TimeInForce, { GTC: 1, IOC: 2, FOK: 3, GTX: 4 }],
    ['OrderStatus', OrderStatus, { NEW: 1, PARTIALLY_FILLED: 2, FILLED: 3, CANCELED: 4, REJECTED: 5, EXPIRED: 6 }],
    ['TradeRole', TradeRole, { MAKER: 1, TAKER: 2 }],
    ['PositionSide', PositionSide, { LONG: 1, SHORT: 2 }],
    ['PositionAction', PositionAction, { OPEN: 1, CLOSE: 2 }],
    ['MarginMode', MarginMode, { ISOLATED: 1, CROSS: 2 }],
    ['CloseType', CloseType, { USER: 1, TAKE_PROFIT: 2, STOP_LOSS: 3, LIQUIDATION: 4, ADL: 5, BANKRUPTCY: 6 }],
    ['SymbolStatus', SymbolStatus, { TRADING: 1, PAUSED: 2, DELISTED: 3 }],
    ['FuturesSymbolStatus', FuturesSymbolStatus, { ENABLED: 1, DISABLED: 2 }],
    ['ContractType', ContractType, { USDT_MARGINED: 1, COIN_MARGINED: 2 }],
    ['PositionMode', PositionMode, { HEDGE: 'hedge', ONE_WAY: 'one_way' }],
    ['SymbolTag', SymbolTag, { NEW: 'new', MEME: 'meme', INNOVATION: 'innovation' }],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toStrictEqual(expected);
    expect(Object.isFrozen(actual)).toBe(true);
  });
});

describe('enum helpers', () => {
  it('isOneOf accepts exactly the wire values, strictly typed', () => {
    for (const v of [1, 2, 3, 4, 5, 6]) expect(isOneOf(OrderStatus, v)).toBe(true);
    for (const v of [0, 7, -1, 1.5, '1', NaN, null, undefined, true, 'NEW', {}]) {
      expect(isOneOf(OrderStatus, v)).toBe(false);
    }
    expect(isOneOf(SymbolTag, 'meme')).toBe(true);
    expect(isOneOf(SymbolTag, 'MEME')).toBe(false);
    expect(isOneOf(SymbolStatus, 3)).toBe(true);
    expect(isOneOf(FuturesSymbolStatus, 3)).toBe(false);
    expect(isOneOf(PositionMode, 'one_way')).toBe(true);
    expect(isOneOf(PositionMode, 'oneway')).toBe(false);
  });

  it('isOneOf does not see inherited keys', () => {
    expect(isOneOf(Side, Object.prototype.toString)).toBe(false);
  });

  it('nameOf maps values back to names and refuses unknown values', () => {
    expect(nameOf(Side, 2)).toBe('SELL');
    expect(nameOf(OrderStatus, 6)).toBe('EXPIRED');
    expect(nameOf(CloseType, 5)).toBe('ADL');
    expect(nameOf(SymbolTag, 'innovation')).toBe('INNOVATION');
    expect(nameOf(OrderStatus, 7)).toBeUndefined();
    expect(nameOf(OrderStatus, '1')).toBeUndefined();
  });

  it('valuesOf lists values in declaration order', () => {
    expect(valuesOf(TimeInForce)).toEqual([1, 2, 3, 4]);
    expect(valuesOf(SymbolTag)).toEqual(['new', 'meme', 'innovation']);
  });

  it('oppositeSide flips', () => {
    expect(oppositeSide(Side.BUY)).toBe(2);
    expect(oppositeSide(Side.SELL)).toBe(1);
  });
});

// The spec's field tables, transcribed by hand (spec/api.md, "Resources and their fields").
const SPEC_FIELDS: Record<string, { actual: readonly string[]; expected: string }> = {
  PriceRecord: {
    actual: PRICE_RECORD_FIELDS,
    expected:
      'symbol index_price mark_price last_price funding_rate next_funding_time price_precision qty_precision timestamp',
  },
  GeneralSymbol: {
    actual: GENERAL_SYMBOL_FIELDS,
    expected: `id symbol base_asset quote_asset status allow_market price_precision qty_precision quote_precision
      tick_size step_size min_qty max_qty min_quote maker_fee_rate taker_fee_rate logo sort_order is_default is_hot
      is_gainer is_new created_at updated_at`,
  },
  FuturesSymbol: {
    actual: FUTURES_SYMBOL_FIELDS,
    expected: `symbol base_asset quote_asset margin_asset contract_type status max_leverage maintenance_margin_rate
      maker_fee_rate taker_fee_rate price_precision price_step qty_precision qty_step min_qty max_qty min_notional
      market_price_protect_ratio price_merges logo`,
  },
  OrderRecord: {
    actual: ORDER_RECORD_FIELDS,
    expected: `id client_order_id symbol side type status price qty filled_qty filled_quote avg_price total_fee
      fee_asset leverage margin_mode position_action position_side created_at updated_at user_id`,
  },
  PlacementResult: {
    actual: PLACEMENT_RESULT_FIELDS,
    expected: 'order_id client_order_id status filled_qty filled_quote',
  },
  TradeRecord: {
    actual: TRADE_RECORD_FIELDS,
    expected: `id order_id symbol side position_side price qty quote_qty fee fee_asset fee_rate role is_close
      realized_pnl created_at`,
  },
  PositionRecord: {
    actual: POSITION_RECORD_FIELDS,
    expected: `id user_id symbol position_side margin_mode leverage quantity entry_price mark_price liquidation_price
      break_even_price maintenance_margin_rate margin margin_ratio unrealized_pnl realized_pnl total_funding_fee
      open_fee close_fee created_at updated_at`,
  },
  ClosedPositionRecord: {
    actual: CLOSED_POSITION_RECORD_FIELDS,
    expected: `id position_id user_id symbol position_side margin_mode leverage open_quantity close_quantity
      entry_price exit_price open_amount close_amount open_fee close_fee total_funding_fee realized_pnl close_type
      opened_at closed_at created_at`,
  },
  BotOrderRequest: {
    actual: BOT_ORDER_REQUEST_FIELDS,
    expected: `symbol side position_side position_action type price qty leverage margin_mode time_in_force
      reduce_only client_order_id need_cache`,
  },
};

describe('field-name arrays follow the spec', () => {
  it.each(Object.entries(SPEC_FIELDS))('%s: names and order', (_name, { actual, expected }) => {
    expect([...actual]).toEqual(words(expected));
  });

  it('the general order body is the bot body without need_cache', () => {
    expect([...ORDER_REQUEST_FIELDS, 'need_cache']).toEqual([...BOT_ORDER_REQUEST_FIELDS]);
  });

  it('CandleIndex numbers the 12 candle elements in the spec order', () => {
    expect(Object.keys(CandleIndex)).toEqual(
      words(`OPEN_TIME CLOSE_TIME OPEN HIGH LOW CLOSE VOLUME QUOTE_VOLUME TRADES TAKER_BUY_BASE_VOLUME
        TAKER_BUY_QUOTE_VOLUME IS_CLOSED`),
    );
    expect(Object.values(CandleIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

// Samples typed with the interfaces: tsc keeps them in step with the interfaces, and the
// checks below hold them against the spec's Type column, so an interface field with the
// wrong JSON type shows up as a failure here (with the type-check run).
const samples: Record<string, object> = {
  PriceRecord: {
    symbol: 'BTCUSDT', index_price: '60000.1', mark_price: '60000.2', last_price: '60000.0',
    funding_rate: '0.000100', next_funding_time: 1_700_000_000_000, price_precision: 1, qty_precision: 3,
    timestamp: 1_700_000_000_000,
  } satisfies PriceRecord,
  GeneralSymbol: {
    id: 1, symbol: 'BTCUSDT', base_asset: 'BTC', quote_asset: 'USDT', status: SymbolStatus.TRADING,
    allow_market: true, price_precision: 1, qty_precision: 3, quote_precision: 2, tick_size: '0.1',
    step_size: '0.001', min_qty: '0.001', max_qty: '1000', min_quote: '5', maker_fee_rate: '0.0002',
    taker_fee_rate: '0.0005', logo: '', sort_order: 1, is_default: true, is_hot: true, is_gainer: false,
    is_new: false, created_at: 1, updated_at: 2,
  } satisfies GeneralSymbol,
  FuturesSymbol: {
    symbol: 'BTCUSDT', base_asset: 'BTC', quote_asset: 'USDT', margin_asset: 'USDT',
    contract_type: ContractType.USDT_MARGINED, status: FuturesSymbolStatus.ENABLED, max_leverage: 125,
    maintenance_margin_rate: '0.004', maker_fee_rate: '0.0002', taker_fee_rate: '0.0005', price_precision: 1,
    price_step: '0.1', qty_precision: 3, qty_step: '0.001', min_qty: '0.001', max_qty: '1000',
    min_notional: '5', market_price_protect_ratio: '0.05', price_merges: ['0.1', '1', '10'], logo: '',
  } satisfies FuturesSymbol,
  OrderRecord: {
    id: '1', client_order_id: 'c1', symbol: 'BTCUSDT', side: Side.BUY, type: OrderType.LIMIT,
    status: OrderStatus.PARTIALLY_FILLED, price: '60000.0', qty: '1.000', filled_qty: '0.500',
    filled_quote: '30000.00', avg_price: '60000.0', total_fee: '6.00', fee_asset: 'USDT', leverage: 20,
    margin_mode: MarginMode.CROSS, position_action: PositionAction.OPEN, position_side: PositionSide.LONG,
    created_at: 1, updated_at: 2, user_id: '7',
  } satisfies OrderRecord,
  PlacementResult: {
    order_id: '1', client_order_id: 'c1', status: OrderStatus.NEW, filled_qty: '0', filled_quote: '0',
  } satisfies PlacementResult,
  TradeRecord: {
    id: 't1', order_id: '1', symbol: 'BTCUSDT', side: Side.SELL, position_side: PositionSide.LONG,
    price: '60000.0', qty: '0.500', quote_qty: '30000.00', fee: '6.00', fee_asset: 'USDT', fee_rate: '0.0002',
    role: TradeRole.MAKER, is_close: true, realized_pnl: '12.50', created_at: 3,
  } satisfies TradeRecord,
  PositionRecord: {
    id: 'p1', user_id: 7, symbol: 'BTCUSDT', position_side: PositionSide.SHORT, margin_mode: MarginMode.ISOLATED,
    leverage: 20, quantity: 1, entry_price: 60000, mark_price: 60010.5, liquidation_price: 62736.32,
    break_even_price: 59976, maintenance_margin_rate: 0.005, margin: 3000, margin_ratio: 0.0123,
    unrealized_pnl: -10.5, realized_pnl: 0, total_funding_fee: -1.2, open_fee: 12, close_fee: 0,
    created_at: 1, updated_at: 2,
  } satisfies PositionRecord,
  ClosedPositionRecord: {
    id: 9, position_id: 12, user_id: 7, symbol: 'BTCUSDT', position_side: PositionSide.LONG,
    margin_mode: MarginMode.CROSS, leverage: 10, open_quantity: 1, close_quantity: 1, entry_price: 60000,
    exit_price: 61000.5, open_amount: 60000, close_amount: 61000.5, open_fee: 12, close_fee: 12.2,
    total_funding_fee: 0.5, realized_pnl: 975.8, close_type: CloseType.TAKE_PROFIT, opened_at: 1, closed_at: 2,
    created_at: 2,
  } satisfies ClosedPositionRecord,
  BotOrderRequest: {
    symbol: 'BTCUSDT', side: Side.BUY, position_side: PositionSide.LONG, position_action: PositionAction.OPEN,
    type: OrderType.LIMIT, price: '60000.0', qty: '0.001', leverage: 20, margin_mode: MarginMode.CROSS,
    time_in_force: TimeInForce.GTX, reduce_only: false, client_order_id: 'c', need_cache: true,
  } satisfies Required<BotOrderRequest>,
};

// The spec's Type column for each field (positions use JSON numbers, everything else strings).
const SPEC_TYPES: Record<string, string> = {
  PriceRecord: 's s s s s i i i i',
  GeneralSymbol: 'i s s s i b i i i s s s s s s s s i b b b b i i',
  FuturesSymbol: 's s s s i i i s s s i s i s s s s s a s',
  OrderRecord: 's s s i i i s s s s s s s i i i i i i s',
  PlacementResult: 's s i s s',
  TradeRecord: 's s s i i s s s s s s i b s i',
  PositionRecord: 's i s i i i n n n n n n n n n n n n n i i',
  ClosedPositionRecord: 'i i i s i i i n n n n n n n n n n i i i i',
  BotOrderRequest: 's i i i i s s i i i b s b',
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? 'a' : '?';
  if (typeof v === 'number') return Number.isInteger(v) ? 'i' : 'n';
  return typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : '?';
}

describe('record types match the spec JSON types', () => {
  it.each(Object.keys(SPEC_TYPES))('%s', (name) => {
    const sample = samples[name] as Record<string, unknown>;
    const spec = words(SPEC_TYPES[name]);
    const fields = words(SPEC_FIELDS[name].expected);
    expect(Object.keys(sample)).toEqual(fields);
    fields.forEach((f, i) => {
      const want = spec[i];
      const got = jsonType(sample[f]);
      // A JSON "number" may happen to be integral in a sample.
      expect({ f, type: want === 'n' && got === 'i' ? 'n' : got }).toEqual({ f, type: want });
    });
  });

  it('a candle is the 12-element tuple of the spec', () => {
    const c: Candle = [0, 59_999, '1.0', '2.0', '0.5', '1.5', '10', '15', 3, '4', '6', false];
    expect(c.map(jsonType).join(' ')).toBe('i i s s s s s s i s s b');
  });
});

// Parses the spec itself when the shared docs are next to the checkout, so a later spec
// edit that the arrays miss is caught. Skipped where the docs are absent.
const SPEC_PATH = new URL('../../../shared/spec/api.md', import.meta.url);
const haveSpec = existsSync(SPEC_PATH);

function specTable(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`heading not found: ${heading}`);
  const lines = markdown.slice(start).split('\n').slice(1);
  const rows: string[] = [];
  let inTable = false;
  for (const line of lines) {
    if (line.startsWith('|')) {
      inTable = true;
      rows.push(line);
    } else if (inTable) break;
  }
  return rows.slice(2).map((r) => r.split('|')[1].trim());
}

describe.skipIf(!haveSpec)('field arrays against spec/api.md itself', () => {
  const md = haveSpec ? readFileSync(SPEC_PATH, 'utf8') : '';
  it.each([
    ['### Price record', PRICE_RECORD_FIELDS],
    ['### Trading pair configuration, general list', GENERAL_SYMBOL_FIELDS],
    ['### Trading pair configuration, futures', FUTURES_SYMBOL_FIELDS],
    ['### Order placement result', PLACEMENT_RESULT_FIELDS],
    ['### Trade record', TRADE_RECORD_FIELDS],
    ['### Position (current)', POSITION_RECORD_FIELDS],
    ['### Historical position (closed)', CLOSED_POSITION_RECORD_FIELDS],
    ['### POST /fapi/v1/bot/orders', BOT_ORDER_REQUEST_FIELDS],
  ] as const)('%s', (heading, fields) => {
    expect([...fields]).toEqual(specTable(md, heading));
  });

  it('### Order (open order record), plus the sample-only updated_at and user_id', () => {
    expect([...ORDER_RECORD_FIELDS]).toEqual([...specTable(md, '### Order (open order record)'), 'updated_at', 'user_id']);
  });
});
