// The answers of the facade's public routes (routes/market-data.ts, futures-data.ts,
// insurance-balance.ts; translate/market.ts and klines.ts write them), by "METHOD path": what
// each sends, field by field in its order. Documentation, not a serializer (response-fields.ts).
import { Type, type TProperties, type TSchema } from 'typebox';
import { tuple } from '../schemas.ts';
import { always, bool, emptyList, int, list, MARKET_MS, obj, oneOf, oneOrAll, str, SYMBOL } from './response-fields.ts';

const SERVER_TIME = int('Wall-clock ms (the clock signatures are checked against)');
const price = (what: string) => str(`${what}, at the pair's price precision`);
const qty = (what: string) => str(`${what}, at the pair's quantity precision (base asset)`);
const mark8 = (what: string) => str(`${what}, 8 decimals (not rounded to the tick)`);

const filter = (type: string, fields: TProperties, description: string) =>
  obj({ filterType: always(type, type), ...fields }, description);
const FILTERS = list(
  Type.Union([
    filter(
      'PRICE_FILTER',
      { minPrice: str('The tick'), maxPrice: str('Highest price a book takes'), tickSize: str('Tick') },
      'Prices',
    ),
    filter(
      'LOT_SIZE',
      { minQty: str('Minimum quantity'), maxQty: str('Maximum quantity'), stepSize: str('Step') },
      'Quantities',
    ),
    filter(
      'MARKET_LOT_SIZE',
      { minQty: str('Minimum'), maxQty: str('Maximum'), stepSize: str('Step') },
      'Market orders',
    ),
    filter('MIN_NOTIONAL', { notional: str('Minimum order value, USDT') }, 'Order value'),
    filter('MAX_NUM_ORDERS', { limit: int('Open orders an account may have on the pair') }, 'Open orders'),
    filter('MAX_NUM_ALGO_ORDERS', { limit: int('Waiting algo orders an account may have on the pair') }, 'Algo orders'),
    filter(
      'PERCENT_PRICE',
      {
        multiplierUp: str('1 + the price-protection ratio'),
        multiplierDown: str('1 - the price-protection ratio'),
        multiplierDecimal: str('Decimals of the multipliers (a number in a string)'),
      },
      'Price protection band around the mark',
    ),
  ]),
  'In this order: PRICE_FILTER, LOT_SIZE, MARKET_LOT_SIZE, MIN_NOTIONAL, MAX_NUM_ORDERS, MAX_NUM_ALGO_ORDERS, PERCENT_PRICE',
);

const EXCHANGE_SYMBOL = obj(
  {
    symbol: SYMBOL,
    pair: str('The pair (the symbol)'),
    contractType: always('PERPETUAL', 'Always PERPETUAL'),
    deliveryDate: always(4133404800000, "Always 4133404800000 (Binance's date for a perpetual)"),
    onboardDate: int('When the pair was listed, ms'),
    status: oneOf(['TRADING', 'SETTLING', 'CLOSE'], 'TRADING; SETTLING when paused, CLOSE when delisted'),
    maintMarginPercent: str("The pair's maintenance margin rate, percent, 4 decimals"),
    requiredMarginPercent: str('100 / the maximum leverage, percent, 4 decimals'),
    baseAsset: str('Base asset'),
    quoteAsset: str('Quote asset'),
    marginAsset: str('Margin asset (USDT)'),
    pricePrecision: int('Price decimals'),
    quantityPrecision: int('Quantity decimals'),
    baseAssetPrecision: always(8, 'Always 8'),
    quotePrecision: always(8, 'Always 8'),
    underlyingType: always('COIN', 'Always COIN'),
    underlyingSubType: emptyList('Always []'),
    triggerProtect: always('0.0500', "Always '0.0500'"),
    liquidationFee: str('The rate a liquidation charges, 6 decimals'),
    marketTakeBound: str('The price-protection ratio of market orders'),
    maxMoveOrderLimit: always(10000, 'Always 10000'),
    filters: FILTERS,
    orderTypes: list(
      oneOf(
        ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
        'Type',
      ),
      'Order types, in this order (the *MARKET ones only where the pair takes market orders); the conditional ones are algo orders',
    ),
    timeInForce: list(oneOf(['GTC', 'IOC', 'FOK', 'GTX'], 'Time in force'), "Always ['GTC', 'IOC', 'FOK', 'GTX']"),
  },
  'One listed pair',
);

const RATE_LIMIT = obj(
  {
    rateLimitType: oneOf(['REQUEST_WEIGHT', 'ORDERS'], 'Kind'),
    interval: oneOf(['SECOND', 'MINUTE'], 'Unit of the window'),
    intervalNum: int('Units of the window'),
    limit: int('Requests a window (each weighs 1)'),
  },
  "One of the venue's limits in Binance's words: REQUEST_WEIGHT is the per-IP count of every request, ORDERS the per-key count of signed requests",
);

/** The spot / COIN-M exchangeInfo stubs: a futures-only venue lists no spot or COIN-M market. */
const EMPTY_INFO = obj(
  {
    timezone: always('UTC', 'Always UTC'),
    serverTime: SERVER_TIME,
    rateLimits: emptyList('Always []'),
    exchangeFilters: emptyList('Always []'),
    symbols: emptyList('Always []: no market of this kind'),
  },
  'No market of this kind (a stub, so that clients loading every market type start)',
);

const LEVELS = (side: string) =>
  list(tuple([price('Price'), qty('Quantity')]), `${side}: [price, quantity] levels, best first`);

/** A candle of trades: Binance's 12 columns, oldest first. */
const KLINE = tuple(
  [
    int('Open time, ms of market time'),
    price('Open'),
    price('High'),
    price('Low'),
    price('Close'),
    qty('Volume'),
    int('Close time (open time + interval - 1), ms'),
    str('Quote volume, USDT'),
    int('Trades'),
    qty('Taker buy volume'),
    str('Taker buy quote volume, USDT'),
    always('0', "Always '0' (ignore)"),
  ],
  '[openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyVolume, takerBuyQuoteVolume, "0"]',
);
const ZERO = always('0', "Always '0'");
/** A mark / index / premium candle: Binance's 12 columns, the figures to 8 decimals. */
const PRICE_KLINE = tuple(
  [
    int('Open time, ms of market time'),
    mark8('Open'),
    mark8('High'),
    mark8('Low'),
    mark8('Close'),
    ZERO,
    int('Close time (open time + interval - 1), ms'),
    ZERO,
    int('Price updates in the candle'),
    ZERO,
    ZERO,
    ZERO,
  ],
  '[openTime, open, high, low, close, "0", closeTime, "0", updates, "0", "0", "0"]',
);
const priceKlines = (what: string) => list(PRICE_KLINE, `${what} candles, oldest first`);

const TICKER_24H = obj(
  {
    symbol: SYMBOL,
    priceChange: price('Last price - open price'),
    priceChangePercent: str('Change in percent, 3 decimals'),
    weightedAvgPrice: str('Quote volume / volume'),
    lastPrice: price('Last price'),
    lastQty: qty("Last trade's quantity ('0' without a trade)"),
    openPrice: price('Price 24 h ago'),
    highPrice: price('High'),
    lowPrice: price('Low'),
    volume: qty('Volume'),
    quoteVolume: str('Quote volume, USDT'),
    openTime: MARKET_MS('Start of the 24 h'),
    closeTime: MARKET_MS('End of the 24 h (now)'),
    lastId: int('Id of the last trade, -1 without one'),
    count: int('Trades in the 24 h'),
  },
  "Rolling 24 h statistics (no firstId, which Binance sends: the venue's trade ids are venue-wide)",
);

const BOOK_TICKER = obj(
  {
    symbol: SYMBOL,
    bidPrice: price("Best bid ('0' when the side is empty)"),
    bidQty: qty("Its quantity ('0' when empty)"),
    askPrice: price("Best ask ('0' when the side is empty)"),
    askQty: qty("Its quantity ('0' when empty)"),
    time: MARKET_MS('Now'),
    lastUpdateId: int("The book's update id"),
  },
  'Best bid and ask',
);

const TRADE = obj(
  {
    id: int('Trade id'),
    price: price('Price'),
    qty: qty('Quantity'),
    quoteQty: str('Price x quantity, USDT'),
    time: MARKET_MS('Trade time'),
    isBuyerMaker: bool('The seller took (the buyer was the maker)'),
  },
  'A trade',
);

const LAST_PRICE = obj({ symbol: SYMBOL, price: price('Last price'), time: MARKET_MS('Now') }, 'Last price');

const PREMIUM_INDEX = obj(
  {
    symbol: SYMBOL,
    markPrice: mark8('Mark price'),
    indexPrice: mark8('Index price'),
    estimatedSettlePrice: mark8('Estimated settlement price (the index)'),
    lastFundingRate: str('Funding rate of the current period, 8 decimals'),
    interestRate: str('Interest rate, 8 decimals'),
    nextFundingTime: MARKET_MS('Next funding settlement (0 for a pair not trading: none settles)'),
    time: MARKET_MS('Time of the prices'),
  },
  'Mark price and funding',
);

const stamp = MARKET_MS('The sample: a boundary of the period');
/** The long/short routes' rows (routes/futures-data.ts), what `long` and `short` count. */
const LONG_SHORT = (what: string) =>
  Type.Array(
    Type.Object({
      symbol: SYMBOL,
      longShortRatio: str('longAccount / shortAccount, 4 decimals'),
      longAccount: str(`Long share of ${what}, 4 decimals`),
      shortAccount: str(`Short share of ${what}, 4 decimals`),
      timestamp: stamp,
    }),
    { description: 'Ascending; a sample whose short side is empty (nobody short, nobody at all) has no row' },
  );

const INSURANCE_GROUP = obj(
  {
    symbols: list(SYMBOL, 'Every listed pair (one fund backs them all)'),
    assets: list(
      obj(
        {
          asset: always('USDT', 'Always USDT'),
          marginBalance: str('The fund, USDT, 8 decimals'),
          updateTime: MARKET_MS('When it was read'),
        },
        "The fund's balance in one margin asset",
      ),
      'One entry: USDT',
    ),
  },
  'The insurance fund and the pairs it backs',
);

/** The public routes' 200 answers, by "METHOD path" under /binance. */
export const MARKET_ANSWERS: Record<string, TSchema> = {
  'GET /fapi/v1/ping': obj({}, 'Always {}'),
  'GET /fapi/v1/time': obj({ serverTime: SERVER_TIME }, 'Server time'),
  'GET /fapi/v1/exchangeInfo': obj(
    {
      timezone: always('UTC', 'Always UTC'),
      serverTime: SERVER_TIME,
      futuresType: always('U_MARGINED', 'Always U_MARGINED'),
      rateLimits: list(RATE_LIMIT, "The venue's rate limits (none when they are off)"),
      exchangeFilters: emptyList('Always []'),
      assets: list(
        obj(
          {
            asset: always('USDT', 'Always USDT'),
            marginAvailable: always(true, 'Always true'),
            autoAssetExchange: always('0', "Always '0'"),
          },
          'A margin asset',
        ),
        'One entry: USDT',
      ),
      symbols: list(EXCHANGE_SYMBOL, 'Every listed pair'),
    },
    'The venue: its pairs, their filters and order types',
  ),
  'GET /fapi/v1/depth': obj(
    {
      lastUpdateId: int("The book's update id after the last change the snapshot includes"),
      E: MARKET_MS('Message time'),
      T: MARKET_MS('Transaction time'),
      bids: LEVELS('Bids'),
      asks: LEVELS('Asks'),
    },
    'Order book snapshot',
  ),
  'GET /fapi/v1/trades': list(TRADE, 'Recent trades, oldest first'),
  'GET /fapi/v1/historicalTrades': list(TRADE, 'Trades from fromId (else the newest), oldest first'),
  'GET /fapi/v1/aggTrades': list(
    obj(
      {
        a: int('Aggregate trade id (the trade id: each trade is its own aggregate)'),
        p: price('Price'),
        q: qty('Quantity'),
        f: int('First trade id (the trade id)'),
        l: int('Last trade id (the trade id)'),
        T: MARKET_MS('Trade time'),
        m: bool('The seller took (the buyer was the maker)'),
      },
      'An aggregate trade: one trade',
    ),
    'Oldest first',
  ),
  'GET /fapi/v1/klines': list(KLINE, 'Candles, oldest first, the current one included'),
  'GET /fapi/v1/continuousKlines': list(KLINE, "The perpetual's candles, oldest first, the current one included"),
  'GET /fapi/v1/markPriceKlines': priceKlines('Mark price'),
  'GET /fapi/v1/indexPriceKlines': priceKlines('Index price'),
  'GET /fapi/v1/premiumIndexKlines': priceKlines('Premium index'),
  'GET /fapi/v1/ticker/24hr': oneOrAll(TICKER_24H, '24 h ticker'),
  'GET /fapi/v1/ticker/bookTicker': oneOrAll(BOOK_TICKER, 'Best bid and ask'),
  'GET /fapi/v1/ticker/price': oneOrAll(LAST_PRICE, 'Last price'),
  'GET /fapi/v2/ticker/price': oneOrAll(LAST_PRICE, 'Last price'),
  'GET /fapi/v1/premiumIndex': oneOrAll(PREMIUM_INDEX, 'Mark price and funding'),
  'GET /fapi/v1/fundingRate': list(
    obj(
      {
        symbol: SYMBOL,
        fundingTime: MARKET_MS('Settlement time'),
        fundingRate: str('Rate, 8 decimals'),
        markPrice: mark8('The mark the payments were computed from'),
      },
      'A settlement',
    ),
    'Funding settlements, oldest first',
  ),
  'GET /fapi/v1/fundingInfo': list(
    obj(
      {
        symbol: SYMBOL,
        adjustedFundingRateCap: str('Highest funding rate, 8 decimals'),
        adjustedFundingRateFloor: str('Lowest funding rate, 8 decimals'),
        fundingIntervalHours: int('Hours between settlements'),
        disclaimer: always(false, 'Always false'),
      },
      "A pair's funding limits",
    ),
    'Every listed pair',
  ),
  'GET /fapi/v1/openInterest': obj(
    { openInterest: qty('Open interest'), symbol: SYMBOL, time: MARKET_MS('Now') },
    'Open interest',
  ),
  'GET /api/v3/exchangeInfo': EMPTY_INFO,
  'GET /dapi/v1/exchangeInfo': EMPTY_INFO,
  'GET /sapi/v1/capital/config/getall': emptyList('Always []: no sapi currencies (a stub)'),
  'GET /sapi/v1/margin/allPairs': emptyList('Always []: no margin pairs (a stub)'),
  'GET /sapi/v1/margin/isolated/allPairs': emptyList('Always []: no isolated margin pairs (a stub)'),
  'GET /sapi/v1/system/status': obj(
    { status: always(0, 'Always 0 (normal) while the service runs'), msg: always('normal', 'Always normal') },
    'System status',
  ),
  'GET /futures/data/openInterestHist': list(
    obj(
      {
        symbol: SYMBOL,
        sumOpenInterest: qty('Open interest'),
        sumOpenInterestValue: str('Open interest at the mark of the sample, USDT, 8 decimals'),
        timestamp: stamp,
      },
      'A sample',
    ),
    'Ascending',
  ),
  'GET /futures/data/globalLongShortAccountRatio': LONG_SHORT(
    'the accounts holding a position on the pair, by net direction (an account hedged to zero is neither)',
  ),
  'GET /futures/data/topLongShortAccountRatio': LONG_SHORT(
    'the top traders (the fifth, rounded up, of the position holders with the largest margin balance), by net direction',
  ),
  'GET /futures/data/topLongShortPositionRatio': LONG_SHORT("the top traders' position lots"),
  'GET /futures/data/takerlongshortRatio': Type.Array(
    Type.Object({
      buySellRatio: str('buyVol / sellVol, 4 decimals'),
      buyVol: qty('Lots bought by takers in the period'),
      sellVol: qty('Lots sold by takers in the period'),
      timestamp: stamp,
    }),
    { description: 'Ascending; a period with no taker sell has no row' },
  ),
  'GET /fapi/v1/insuranceBalance': oneOrAll(INSURANCE_GROUP, 'Insurance fund'),
};
