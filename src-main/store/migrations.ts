// Versioned schema. Append only: a released migration is never edited, a change is a new entry.
export const MIGRATIONS: readonly string[] = [
  // 1: trading-pair catalogue and key/value settings
  `
  CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    symbol TEXT NOT NULL UNIQUE,
    base_asset TEXT NOT NULL,
    quote_asset TEXT NOT NULL,
    margin_asset TEXT NOT NULL,
    contract_type INTEGER NOT NULL,
    status INTEGER NOT NULL,
    allow_market INTEGER NOT NULL,
    price_precision INTEGER NOT NULL,
    qty_precision INTEGER NOT NULL,
    quote_precision INTEGER NOT NULL,
    tick_size TEXT NOT NULL,
    step_size TEXT NOT NULL,
    min_qty TEXT NOT NULL,
    max_qty TEXT NOT NULL,
    min_notional TEXT NOT NULL,
    maker_fee_rate TEXT NOT NULL,
    taker_fee_rate TEXT NOT NULL,
    max_leverage INTEGER NOT NULL,
    maintenance_margin_rate TEXT NOT NULL,
    brackets TEXT NOT NULL,
    market_price_protect_ratio TEXT NOT NULL,
    price_merges TEXT NOT NULL,
    logo TEXT NOT NULL,
    sort_order INTEGER NOT NULL,
    is_default INTEGER NOT NULL,
    is_hot INTEGER NOT NULL,
    is_gainer INTEGER NOT NULL,
    is_new INTEGER NOT NULL,
    tags TEXT NOT NULL,
    initial_price TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  -- Paper accounts. Money is an integer count of 1e-8 USDT.
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    api_key TEXT NOT NULL UNIQUE,
    api_secret TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('user', 'local', 'house')),
    wallet_balance INTEGER NOT NULL,
    total_deposits INTEGER NOT NULL,
    position_mode TEXT NOT NULL DEFAULT 'hedge' CHECK (position_mode IN ('hedge', 'one_way')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
];
