import { readFileSync } from 'node:fs';
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
import { SPEC_RECORDS, words } from '../helpers/spec-records.ts';

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

// The code's field arrays against the spec's tables (transcribed in test/helpers/spec-records.ts).
const SPEC_FIELDS: Record<string, { actual: readonly string[]; expected: string }> = {
  PriceRecord: { actual: PRICE_RECORD_FIELDS, expected: SPEC_RECORDS.PriceRecord.fields },
  GeneralSymbol: { actual: GENERAL_SYMBOL_FIELDS, expected: SPEC_RECORDS.GeneralSymbol.fields },
  FuturesSymbol: { actual: FUTURES_SYMBOL_FIELDS, expected: SPEC_RECORDS.FuturesSymbol.fields },
  OrderRecord: { actual: ORDER_RECORD_FIELDS, expected: SPEC_RECORDS.OrderRecord.fields },
  PlacementResult: { actual: PLACEMENT_RESULT_FIELDS, expected: SPEC_RECORDS.PlacementResult.fields },
  TradeRecord: { actual: TRADE_RECORD_FIELDS, expected: SPEC_RECORDS.TradeRecord.fields },
  PositionRecord: { actual: POSITION_RECORD_FIELDS, expected: SPEC_RECORDS.PositionRecord.fields },
  ClosedPositionRecord: { actual: CLOSED_POSITION_RECORD_FIELDS, expected: SPEC_RECORDS.ClosedPositionRecord.fields },
  BotOrderRequest: { actual: BOT_ORDER_REQUEST_FIELDS, expected: SPEC_RECORDS.BotOrderRequest.fields },
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

// The JSON types of the real answers are checked against the spec in test/api/spec-json-types.test.ts.

// The spec's own field tables, copied verbatim (test/fixtures/spec/README.md says from where):
// a check of the arrays that does not go through the hand transcription above.
const SPEC_EXCERPT = new URL('../fixtures/spec/api-records.md', import.meta.url);

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

describe('field arrays against the spec excerpt', () => {
  const md = readFileSync(SPEC_EXCERPT, 'utf8');
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
    expect([...ORDER_RECORD_FIELDS]).toEqual([
      ...specTable(md, '### Order (open order record)'),
      'updated_at',
      'user_id',
    ]);
  });
});
