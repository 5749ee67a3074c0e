// The answers of the facade's account routes (routes/account.ts, position-margin.ts,
// user-stream.ts, history.ts's income; translate/account.ts and margin.ts write them), by
// "METHOD path": what each sends, field by field in its order. Documentation, not a serializer
// (response-fields.ts).
import { Type, type TProperties, type TSchema } from 'typebox';
import { always, bool, DONE, int, list, MARKET_MS, num, obj, oneOf, oneOrAll, str, SYMBOL } from './response-fields.ts';

const usdt8 = (what: string) => str(`${what}, USDT, 8 decimals`);
const POSITION_SIDE = oneOf(['BOTH', 'LONG', 'SHORT'], 'BOTH (one-way account), LONG or SHORT (hedge account)');
const UPDATE_TIME = int("Market time of the position's last change, ms; 0 for an entry without a position");

/** A v3 positionRisk entry (translate/account.ts binancePosition). */
const RISK: TProperties = {
  symbol: SYMBOL,
  positionSide: POSITION_SIDE,
  positionAmt: str("Position, signed (a short's negative), at the quantity precision; '0' for an empty entry"),
  entryPrice: str('Entry price, 8 decimals'),
  breakEvenPrice: str('Break-even price (fees included), 8 decimals'),
  markPrice: str('Mark price, 8 decimals'),
  unRealizedProfit: usdt8('Unrealized profit at the mark'),
  liquidationPrice: str("Liquidation price at the pair's price precision; zero (e.g. '0.0') when none"),
  isolatedMargin: str("Isolated: margin + unrealized profit, 8 decimals; '0' for a cross position"),
  notional: str('Position value at the mark, signed as positionAmt, 8 decimals'),
  marginAsset: always('USDT', 'Always USDT'),
  isolatedWallet: str("Isolated: the position's margin, 8 decimals; '0' for a cross position"),
  initialMargin: usdt8('Initial margin of the position (notional / leverage)'),
  maintMargin: usdt8('Maintenance margin'),
  positionInitialMargin: usdt8('Initial margin of the position'),
  openOrderInitialMargin: usdt8('Initial margin of the open orders that would open or add to it'),
  adl: int('Place in the auto-deleveraging queue, 0 to 4 (0 for an empty entry)'),
  bidNotional: usdt8("Open buy orders' remaining value"),
  askNotional: usdt8("Open sell orders' remaining value"),
  updateTime: UPDATE_TIME,
};
/** A v2 positionRisk entry (translate/account.ts positionRiskV2): Binance's v2 fields in its order. */
const RISK_V2: TProperties = {
  entryPrice: RISK.entryPrice,
  breakEvenPrice: RISK.breakEvenPrice,
  marginType: oneOf(['cross', 'isolated'], 'cross or isolated'),
  isAutoAddMargin: always('false', "Always 'false'"),
  isolatedMargin: RISK.isolatedMargin,
  leverage: str('Leverage (an integer in a string)'),
  liquidationPrice: RISK.liquidationPrice,
  markPrice: RISK.markPrice,
  maxNotionalValue: str('Largest position value at this leverage (an integer in a string)'),
  positionAmt: RISK.positionAmt,
  notional: RISK.notional,
  isolatedWallet: RISK.isolatedWallet,
  symbol: SYMBOL,
  unRealizedProfit: RISK.unRealizedProfit,
  positionSide: POSITION_SIDE,
  updateTime: UPDATE_TIME,
};
/** positions[] of GET /fapi/v3/account (translate/account.ts accountPosition). */
const ACCOUNT_POSITION_V3 = obj(
  {
    symbol: SYMBOL,
    positionSide: POSITION_SIDE,
    positionAmt: RISK.positionAmt,
    unrealizedProfit: RISK.unRealizedProfit,
    isolatedMargin: RISK.isolatedMargin,
    notional: RISK.notional,
    isolatedWallet: RISK.isolatedWallet,
    initialMargin: RISK.initialMargin,
    maintMargin: RISK.maintMargin,
    updateTime: UPDATE_TIME,
  },
  'A position entry (a pair with a position or open orders)',
);
/** positions[] of GET /fapi/v2/account. */
const ACCOUNT_POSITION_V2 = obj(
  {
    symbol: SYMBOL,
    initialMargin: RISK.initialMargin,
    maintMargin: RISK.maintMargin,
    unrealizedProfit: RISK.unRealizedProfit,
    positionInitialMargin: RISK.positionInitialMargin,
    openOrderInitialMargin: RISK.openOrderInitialMargin,
    leverage: RISK_V2.leverage,
    isolated: bool('An isolated position'),
    entryPrice: RISK.entryPrice,
    breakEvenPrice: RISK.breakEvenPrice,
    maxNotional: RISK_V2.maxNotionalValue,
    bidNotional: RISK.bidNotional,
    askNotional: RISK.askNotional,
    positionSide: POSITION_SIDE,
    positionAmt: RISK.positionAmt,
    notional: RISK.notional,
    isolatedWallet: RISK.isolatedWallet,
    updateTime: UPDATE_TIME,
  },
  'A position entry (every listed pair: one-way one, hedge LONG and SHORT)',
);

const CROSS_WALLET = usdt8("Wallet less the isolated positions' wallets");
const CROSS_UPNL = usdt8('Unrealized profit of the cross positions');
/** The USDT entry of assets[] (translate/account.ts usdtAsset). */
const ASSET = obj(
  {
    asset: always('USDT', 'Always USDT'),
    walletBalance: usdt8('Wallet'),
    unrealizedProfit: usdt8('Unrealized profit of every position'),
    marginBalance: usdt8('Wallet + unrealized profit'),
    maintMargin: usdt8('Maintenance margin of the positions'),
    initialMargin: usdt8('Initial margin of the positions and open orders'),
    positionInitialMargin: usdt8('Initial margin of the positions'),
    openOrderInitialMargin: usdt8('Margin frozen by open orders'),
    crossWalletBalance: CROSS_WALLET,
    crossUnPnl: CROSS_UPNL,
    availableBalance: usdt8('Available for new orders'),
    maxWithdrawAmount: usdt8('Available (as availableBalance)'),
    marginAvailable: always(true, 'Always true'),
    updateTime: MARKET_MS('Now'),
  },
  'The USDT asset',
);

/** GET /fapi/v1/accountConfig (translate/account.ts accountConfig); v2 account begins with it, without dualSidePosition. */
const CONFIG: TProperties = {
  feeTier: always(0, "Always 0: Binance's regular tier"),
  canTrade: always(true, 'Always true'),
  canDeposit: always(true, 'Always true'),
  canWithdraw: always(true, 'Always true'),
  dualSidePosition: bool('Hedge mode (true) or one-way (false)'),
  updateTime: always(0, 'Always 0'),
  multiAssetsMargin: always(false, 'Always false'),
  tradeGroupId: always(-1, 'Always -1'),
};
const { dualSidePosition: _mode, ...CONFIG_HEAD } = CONFIG;

const TOTALS: TProperties = {
  totalInitialMargin: ASSET.properties.initialMargin,
  totalMaintMargin: ASSET.properties.maintMargin,
  totalWalletBalance: ASSET.properties.walletBalance,
  totalUnrealizedProfit: ASSET.properties.unrealizedProfit,
  totalMarginBalance: ASSET.properties.marginBalance,
  totalPositionInitialMargin: ASSET.properties.positionInitialMargin,
  totalOpenOrderInitialMargin: ASSET.properties.openOrderInitialMargin,
  totalCrossWalletBalance: CROSS_WALLET,
  totalCrossUnPnl: CROSS_UPNL,
  availableBalance: ASSET.properties.availableBalance,
  maxWithdrawAmount: ASSET.properties.maxWithdrawAmount,
  assets: list(ASSET, 'One entry: USDT'),
};

/** The one entry of GET /fapi/v2|v3/balance (translate/account.ts balanceAnswer). */
const BALANCE = obj(
  {
    accountAlias: str('pd<account id>'),
    asset: always('USDT', 'Always USDT'),
    balance: ASSET.properties.walletBalance,
    crossWalletBalance: CROSS_WALLET,
    crossUnPnl: CROSS_UPNL,
    availableBalance: ASSET.properties.availableBalance,
    maxWithdrawAmount: ASSET.properties.maxWithdrawAmount,
    marginAvailable: always(true, 'Always true'),
    updateTime: MARKET_MS('Now'),
  },
  'The USDT balance',
);

const BRACKETS = obj(
  {
    symbol: SYMBOL,
    notionalCoef: always(1, 'Always 1'),
    brackets: list(
      obj(
        {
          bracket: int('Tier, from 1'),
          initialLeverage: int('Highest leverage in the tier'),
          notionalCap: num('Upper notional bound, USDT'),
          notionalFloor: num('Lower notional bound, USDT'),
          maintMarginRatio: num('Maintenance margin rate'),
          cum: num('Maintenance amount, USDT'),
        },
        'A tier (numbers, as Binance sends them)',
      ),
      'Tiers, lowest first',
    ),
  },
  "A pair's leverage brackets",
);

const INCOME_TYPES = ['REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE', 'TRANSFER', 'INSURANCE_CLEAR'];
const INCOME = obj(
  {
    symbol: str("Pair; '' for a transfer"),
    incomeType: oneOf(INCOME_TYPES, 'The types the venue produces (the other Binance types answer [])'),
    income: usdt8('Amount, signed'),
    asset: always('USDT', 'Always USDT'),
    info: str('The income type'),
    time: MARKET_MS('When'),
    tranId: int(
      'Id: the trade id x 10 + 1 (REALIZED_PNL) / 2 (COMMISSION), payment x 10 + 3, transfer x 10 + 4, fee x 10 + 5',
    ),
    tradeId: str("Trade id in a string (REALIZED_PNL, COMMISSION); '' for the others"),
  },
  "An income entry, its fields in Binance's order",
);

const LISTEN_KEY = obj({ listenKey: str("The account's user stream key (one an account, 60 minutes)") }, 'The key');

/** The account routes' 200 answers, by "METHOD path" under /binance. */
export const ACCOUNT_ANSWERS: Record<string, TSchema | null> = {
  'GET /fapi/v3/positionRisk': list(
    obj(RISK, 'A position entry'),
    'One-way: an entry a pair with a position or open orders; hedge: LONG and SHORT entries, each with a position or orders',
  ),
  'GET /fapi/v2/positionRisk': list(
    obj(RISK_V2, "A position entry, v2's fields (no margins, order notionals or ADL quantile)"),
    'Every listed pair, or the one sent, empty entries too: one-way one entry a pair, hedge LONG and SHORT',
  ),
  'GET /fapi/v3/account': obj(
    { ...TOTALS, positions: list(ACCOUNT_POSITION_V3, 'Pairs with a position or open orders') },
    'Account',
  ),
  'GET /fapi/v2/account': obj(
    { ...CONFIG_HEAD, ...TOTALS, positions: list(ACCOUNT_POSITION_V2, 'Every listed pair') },
    'Account',
  ),
  'GET /fapi/v3/balance': list(BALANCE, 'One entry: USDT'),
  'GET /fapi/v2/balance': list(BALANCE, 'One entry: USDT'),
  'GET /fapi/v1/leverageBracket': oneOrAll(BRACKETS, 'Leverage brackets'),
  'GET /fapi/v1/symbolConfig': list(
    obj(
      {
        symbol: SYMBOL,
        marginType: oneOf(['CROSSED', 'ISOLATED'], 'CROSSED or ISOLATED'),
        isAutoAddMargin: always('false', "Always 'false'"),
        leverage: int('Leverage'),
        maxNotionalValue: RISK_V2.maxNotionalValue,
      },
      "The account's setting on a pair",
    ),
    'One entry a pair (one with symbol)',
  ),
  'POST /fapi/v1/leverage': obj(
    { leverage: int('Leverage'), maxNotionalValue: RISK_V2.maxNotionalValue, symbol: SYMBOL },
    'The leverage as set',
  ),
  'POST /fapi/v1/marginType': DONE('success'),
  'GET /fapi/v1/positionSide/dual': obj({ dualSidePosition: CONFIG.dualSidePosition }, 'Position mode'),
  'POST /fapi/v1/positionSide/dual': DONE('success'),
  // null: no success answer (Single-Asset Mode is the only one: -4171 already set, -1130 for true)
  'POST /fapi/v1/multiAssetsMargin': null,
  'GET /fapi/v1/multiAssetsMargin': obj({ multiAssetsMargin: always(false, 'Always false') }, 'Multi-assets mode'),
  'GET /fapi/v1/accountConfig': obj(CONFIG, 'Account configuration'),
  'GET /fapi/v1/adlQuantile': list(
    obj(
      {
        symbol: SYMBOL,
        adlQuantile: obj(
          {
            LONG: int('Quantile of the long side, 0 to 4'),
            SHORT: int('Quantile of the short side, 0 to 4'),
            BOTH: Type.Optional(int("One-way: the position's quantile; hedge with isolated positions only: 0")),
            HEDGE: Type.Optional(int('Hedge with a cross position: 0')),
          },
          'LONG and SHORT, then BOTH or HEDGE',
        ),
      },
      "A pair's quantiles",
    ),
    'The pairs the account holds a position on',
  ),
  'GET /fapi/v1/commissionRate': obj(
    { symbol: SYMBOL, makerCommissionRate: str('Maker fee rate'), takerCommissionRate: str('Taker fee rate') },
    "The pair's fee rates",
  ),
  'POST /fapi/v1/positionMargin': obj(
    {
      amount: num('The amount, a JSON number'),
      code: always(200, 'Always 200 (success)'),
      msg: always('Successfully modify position margin.', "Always 'Successfully modify position margin.'"),
      type: int('1: added, 2: removed'),
    },
    'The margin changed',
  ),
  'GET /fapi/v1/positionMargin/history': list(
    obj(
      {
        symbol: SYMBOL,
        type: int('1: added, 2: removed'),
        deltaType: always('USER_ADJUST', 'Always USER_ADJUST'),
        amount: usdt8('Amount'),
        asset: always('USDT', 'Always USDT'),
        time: MARKET_MS('When'),
        positionSide: POSITION_SIDE,
      },
      'A margin change',
    ),
    'Oldest first',
  ),
  'GET /fapi/v1/income': list(INCOME, 'Oldest first'),
  'POST /fapi/v1/listenKey': LISTEN_KEY,
  'PUT /fapi/v1/listenKey': LISTEN_KEY,
  'DELETE /fapi/v1/listenKey': obj({}, 'Always {}'),
};
