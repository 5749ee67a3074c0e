// JSON schemas shared by several routes (records of the spec, common parameters).
// Response schemas double as the OpenAPI document and as fast serialisers.

export const symbolParam = {
  type: 'string',
  pattern: '^[A-Za-z0-9]{2,30}$',
  description: 'Trading pair, e.g. BTCUSDT (case-insensitive)',
} as const;

export const tagParam = {
  type: 'string',
  enum: ['new', 'meme', 'innovation'],
  description: 'Only pairs with this tag',
} as const;

const decimalString = (description: string) => ({ type: 'string', description }) as const;

export const generalSymbolSchema = {
  $id: 'GeneralSymbol',
  type: 'object',
  description: 'Trading pair configuration, general list',
  required: [
    'id', 'symbol', 'base_asset', 'quote_asset', 'status', 'allow_market', 'price_precision',
    'qty_precision', 'quote_precision', 'tick_size', 'step_size', 'min_qty', 'max_qty', 'min_quote',
    'maker_fee_rate', 'taker_fee_rate', 'logo', 'sort_order', 'is_default', 'is_hot', 'is_gainer',
    'is_new', 'created_at', 'updated_at',
  ],
  properties: {
    id: { type: 'integer', description: 'Primary key ID' },
    symbol: { type: 'string', description: 'Trading pair' },
    base_asset: { type: 'string', description: 'Base asset' },
    quote_asset: { type: 'string', description: 'Quote asset' },
    status: { type: 'integer', enum: [1, 2, 3], description: '1=trading, 2=paused, 3=delisted' },
    allow_market: { type: 'boolean', description: 'Whether market orders are allowed' },
    price_precision: { type: 'integer', description: 'Price decimal precision' },
    qty_precision: { type: 'integer', description: 'Quantity decimal precision' },
    quote_precision: { type: 'integer', description: 'Quote amount decimal precision' },
    tick_size: decimalString('Minimum price increment'),
    step_size: decimalString('Minimum quantity increment'),
    min_qty: decimalString('Minimum order quantity'),
    max_qty: decimalString('Maximum order quantity'),
    min_quote: decimalString('Minimum order amount'),
    maker_fee_rate: decimalString('Maker fee rate'),
    taker_fee_rate: decimalString('Taker fee rate'),
    logo: { type: 'string', description: 'Logo URL (served by this service)' },
    sort_order: { type: 'integer', description: 'Sort weight, smaller means earlier' },
    is_default: { type: 'boolean', description: 'Included in default favorites' },
    is_hot: { type: 'boolean', description: 'Shown in hot list' },
    is_gainer: { type: 'boolean', description: 'Shown in gainers list' },
    is_new: { type: 'boolean', description: 'Shown in new listing list' },
    created_at: { type: 'integer', description: 'Creation time, ms' },
    updated_at: { type: 'integer', description: 'Update time, ms' },
  },
} as const;

export const futuresSymbolSchema = {
  $id: 'FuturesSymbol',
  type: 'object',
  description: 'Trading pair configuration, futures',
  required: [
    'symbol', 'base_asset', 'quote_asset', 'margin_asset', 'contract_type', 'status', 'max_leverage',
    'maintenance_margin_rate', 'maker_fee_rate', 'taker_fee_rate', 'price_precision', 'price_step',
    'qty_precision', 'qty_step', 'min_qty', 'max_qty', 'min_notional', 'market_price_protect_ratio',
    'price_merges', 'logo',
  ],
  properties: {
    symbol: { type: 'string', description: 'Trading pair' },
    base_asset: { type: 'string', description: 'Base asset' },
    quote_asset: { type: 'string', description: 'Quote asset' },
    margin_asset: { type: 'string', description: 'Margin asset' },
    contract_type: { type: 'integer', enum: [1, 2], description: '1=USDT-margined, 2=coin-margined' },
    status: { type: 'integer', enum: [1, 2], description: '1=enabled, 2=disabled' },
    max_leverage: { type: 'integer', description: 'Maximum leverage' },
    maintenance_margin_rate: decimalString('Maintenance margin rate (first tier)'),
    maker_fee_rate: decimalString('Maker fee rate'),
    taker_fee_rate: decimalString('Taker fee rate'),
    price_precision: { type: 'integer', description: 'Price precision' },
    price_step: decimalString('Price step'),
    qty_precision: { type: 'integer', description: 'Quantity precision' },
    qty_step: decimalString('Quantity step'),
    min_qty: decimalString('Minimum order quantity'),
    max_qty: decimalString('Maximum order quantity'),
    min_notional: decimalString('Minimum notional value'),
    market_price_protect_ratio: decimalString('Market price protection ratio'),
    price_merges: { type: 'array', items: { type: 'string' }, description: 'Price aggregation levels' },
    logo: { type: 'string', description: 'Logo URL (served by this service)' },
  },
} as const;
