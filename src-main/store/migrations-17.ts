// Versioned schema, from migration 17 on (the earlier ones: migrations.ts, which lists these after
// them). Append only: a released migration is never edited, a change is a new entry.
export const MIGRATIONS_FROM_17: readonly string[] = [
  // 17: conditional orders (trading/conditional.ts): an order held until a watched price reaches its
  // trigger, then placed (order_id). Ticks and lots as the orders table; qty_lots 0 closes the
  // whole position, leverage and margin_mode 0 take the account's setting when it fires; a trailing
  // stop (callback_tenths > 0) keeps its activation and peak (0: none yet), its trigger following
  // the peak. Ids come from the orders' sequence. The waiting ones (status 1) are loaded at start.
  `
  CREATE TABLE conditional_orders (
    id INTEGER PRIMARY KEY,
    client_order_id TEXT NOT NULL,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    side INTEGER NOT NULL,
    position_side INTEGER NOT NULL,
    position_action INTEGER NOT NULL,
    type INTEGER NOT NULL,
    price_ticks INTEGER NOT NULL,
    qty_lots INTEGER NOT NULL,
    tif INTEGER NOT NULL,
    reduce_only INTEGER NOT NULL,
    leverage INTEGER NOT NULL,
    margin_mode INTEGER NOT NULL,
    trigger_ticks INTEGER NOT NULL,
    direction INTEGER NOT NULL,
    working_type INTEGER NOT NULL,
    callback_tenths INTEGER NOT NULL,
    activation_ticks INTEGER NOT NULL,
    peak_ticks INTEGER NOT NULL,
    activated_at INTEGER NOT NULL,
    status INTEGER NOT NULL,
    order_id INTEGER NOT NULL,
    reject_code INTEGER NOT NULL,
    reject_reason TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    triggered_at INTEGER NOT NULL
  );
  CREATE INDEX conditional_orders_account ON conditional_orders (account_id, id);
  CREATE INDEX conditional_orders_waiting ON conditional_orders (status) WHERE status = 1;
  `,
  // 18: the Binance dialect's listenKeys (api/binance/listen-keys.ts), one an account, and when each
  // expires (wall-clock ms): a restart keeps the key a client holds; an expired one is dropped at start.
  `
  CREATE TABLE listen_keys (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
    listen_key TEXT NOT NULL UNIQUE,
    expires_at INTEGER NOT NULL
  );
  `,
  // 19: indexes for the orders' and conditional orders' newest update time, read at start so the market clock restarts
  // above every stored record (store/record-times.ts; the other timed tables' indexes answer it already).
  'CREATE INDEX orders_updated ON orders(updated_at); CREATE INDEX conditional_orders_updated ON conditional_orders(updated_at);',
  // 20: the pairs whose simulated history was built to its end (end_time; 0: before this was recorded), in the commit of
  // their last candles (market/sim/history-writer.ts): a pair with candles and no row is a build cut short, built again.
  // A folder whose market has run counts every pair with a 1m candle as built, as those builds did.
  `
  CREATE TABLE history_built (symbol TEXT PRIMARY KEY, end_time INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO history_built (symbol, end_time) SELECT s.symbol, 0 FROM symbols s
  WHERE EXISTS (SELECT 1 FROM settings WHERE key = 'market_time')
    AND EXISTS (SELECT 1 FROM candles c WHERE c.symbol = s.symbol AND c.interval = '1m');
  `,
  // 21: a conditional order's price protection (trading/conditional-trigger.ts heldBack; Binance's priceProtect): 1 holds
  // a reached trigger back while the last price and the mark are apart. Those stored before had none.
  'ALTER TABLE conditional_orders ADD COLUMN price_protect INTEGER NOT NULL DEFAULT 0;',
];
