// Versioned schema. Append only: a released migration is never edited, a change is a new entry
// (from 17 on in migrations-17.ts).
import { MIGRATIONS_FROM_17 } from './migrations-17.ts';

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
  // 2: trading: user orders, fills, positions, closed positions, per-pair account settings.
  // Money columns are integer counts of 1e-8 USDT; prices/quantities integer ticks/lots.
  `
  CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    client_order_id TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    symbol TEXT NOT NULL,
    side INTEGER NOT NULL,
    type INTEGER NOT NULL,
    tif INTEGER NOT NULL,
    price_ticks INTEGER NOT NULL,
    qty_lots INTEGER NOT NULL,
    filled_lots INTEGER NOT NULL,
    filled_quote INTEGER NOT NULL,
    status INTEGER NOT NULL,
    leverage INTEGER NOT NULL,
    margin_mode INTEGER NOT NULL,
    position_side INTEGER NOT NULL,
    position_action INTEGER NOT NULL,
    reduce_only INTEGER NOT NULL,
    frozen INTEGER NOT NULL,
    total_fee INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX orders_open ON orders(account_id, status) WHERE status IN (1, 2);
  CREATE INDEX orders_account ON orders(account_id, id);
  -- One row per account side of a trade; both sides of a user-vs-user trade share the trade id.
  CREATE TABLE trades (
    id INTEGER NOT NULL,
    order_id INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    side INTEGER NOT NULL,
    position_side INTEGER NOT NULL,
    price_ticks INTEGER NOT NULL,
    qty_lots INTEGER NOT NULL,
    quote INTEGER NOT NULL,
    fee INTEGER NOT NULL,
    fee_rate TEXT NOT NULL,
    role INTEGER NOT NULL,
    is_close INTEGER NOT NULL,
    realized_pnl INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE positions (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    side INTEGER NOT NULL,
    qty_lots INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    margin_mode INTEGER NOT NULL,
    leverage INTEGER NOT NULL,
    isolated_margin INTEGER NOT NULL,
    realized_pnl INTEGER NOT NULL,
    open_fee INTEGER NOT NULL,
    close_fee INTEGER NOT NULL,
    funding_fee INTEGER NOT NULL,
    open_qty_total INTEGER NOT NULL,
    close_qty_total INTEGER NOT NULL,
    open_amount INTEGER NOT NULL,
    close_amount INTEGER NOT NULL,
    tp_price INTEGER,
    tp_trigger INTEGER,
    sl_price INTEGER,
    sl_trigger INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, symbol, side)
  );
  CREATE TABLE closed_positions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    position_id INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    position_side INTEGER NOT NULL,
    margin_mode INTEGER NOT NULL,
    leverage INTEGER NOT NULL,
    open_quantity INTEGER NOT NULL,
    close_quantity INTEGER NOT NULL,
    open_amount INTEGER NOT NULL,
    close_amount INTEGER NOT NULL,
    open_fee INTEGER NOT NULL,
    close_fee INTEGER NOT NULL,
    total_funding_fee INTEGER NOT NULL,
    realized_pnl INTEGER NOT NULL,
    close_type INTEGER NOT NULL,
    opened_at INTEGER NOT NULL,
    closed_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX closed_positions_account ON closed_positions(account_id, closed_at, id);
  CREATE TABLE account_pair_settings (
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    leverage INTEGER NOT NULL,
    margin_mode INTEGER NOT NULL,
    PRIMARY KEY (account_id, symbol)
  );
  `,
  // 3: candles (klines), upserted by (symbol, interval, open_time). Prices in integer ticks,
  // volumes in integer lots; quote volumes are exact tick x lot sums that can pass 2^63 on a
  // month of a small-tick pair, so they are decimal integer strings.
  `
  CREATE TABLE candles (
    symbol TEXT NOT NULL,
    interval TEXT NOT NULL,
    open_time INTEGER NOT NULL,
    open INTEGER NOT NULL,
    high INTEGER NOT NULL,
    low INTEGER NOT NULL,
    close INTEGER NOT NULL,
    volume INTEGER NOT NULL,
    quote_volume TEXT NOT NULL,
    trades INTEGER NOT NULL,
    taker_buy_volume INTEGER NOT NULL,
    taker_buy_quote_volume TEXT NOT NULL,
    PRIMARY KEY (symbol, interval, open_time)
  ) WITHOUT ROWID;
  `,
  // 4: imported market data. A dataset is one (market, symbol, kind, interval) series
  // of Binance archive files; interval is '' except for the candle kinds. A file's rows are
  // written while its dataset_files row is 'staging' and become visible in one step when it turns
  // 'done' (readers join on it); a failed or interrupted file's rows are deleted. Candle values
  // are the archive's decimal strings verbatim; trades are varint blocks (data/trade-codec.ts);
  // other kinds are time-keyed rows of their validated columns. Times: candles ms, the rest µs.
  `
  CREATE TABLE datasets (
    id INTEGER PRIMARY KEY,
    market TEXT NOT NULL CHECK (market IN ('spot', 'um', 'cm')),
    symbol TEXT NOT NULL,
    kind TEXT NOT NULL,
    interval TEXT NOT NULL,
    specs TEXT NOT NULL,
    specs_source TEXT NOT NULL CHECK (specs_source IN ('catalogue', 'inferred', 'edited')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (market, symbol, kind, interval)
  );
  CREATE TABLE dataset_files (
    id INTEGER PRIMARY KEY,
    dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('staging', 'done')),
    rows INTEGER NOT NULL DEFAULT 0,
    first_key INTEGER,
    last_key INTEGER,
    first_time INTEGER,
    last_time INTEGER,
    price_dp INTEGER NOT NULL DEFAULT 0,
    qty_dp INTEGER NOT NULL DEFAULT 0,
    quote_dp INTEGER NOT NULL DEFAULT 0,
    imported_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX dataset_files_done ON dataset_files(dataset_id, sha256) WHERE state = 'done';
  CREATE TABLE dataset_candles (
    dataset_id INTEGER NOT NULL,
    open_time INTEGER NOT NULL,
    file_id INTEGER NOT NULL,
    close_time INTEGER NOT NULL,
    open TEXT NOT NULL,
    high TEXT NOT NULL,
    low TEXT NOT NULL,
    close TEXT NOT NULL,
    volume TEXT NOT NULL,
    quote_volume TEXT NOT NULL,
    count INTEGER NOT NULL,
    taker_buy_volume TEXT NOT NULL,
    taker_buy_quote_volume TEXT NOT NULL,
    PRIMARY KEY (dataset_id, open_time)
  ) WITHOUT ROWID;
  CREATE INDEX dataset_candles_file ON dataset_candles(file_id);
  CREATE TABLE dataset_trade_blocks (
    id INTEGER PRIMARY KEY,
    dataset_id INTEGER NOT NULL,
    file_id INTEGER NOT NULL,
    first_id INTEGER NOT NULL,
    last_id INTEGER NOT NULL,
    first_time INTEGER NOT NULL,
    last_time INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
  );
  CREATE INDEX dataset_trade_blocks_id ON dataset_trade_blocks(dataset_id, first_id);
  CREATE INDEX dataset_trade_blocks_time ON dataset_trade_blocks(dataset_id, last_time);
  CREATE INDEX dataset_trade_blocks_file ON dataset_trade_blocks(file_id);
  CREATE TABLE dataset_events (
    dataset_id INTEGER NOT NULL,
    time INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    file_id INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (dataset_id, time, seq)
  ) WITHOUT ROWID;
  CREATE INDEX dataset_events_file ON dataset_events(file_id);
  -- Missing data: [start_time, end_time) in ms; file_id set for a gap inside one file, NULL for
  -- gaps found across the dataset (recomputed on every import).
  CREATE TABLE dataset_gaps (
    dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    file_id INTEGER,
    start_time INTEGER NOT NULL,
    end_time INTEGER NOT NULL,
    detail TEXT NOT NULL
  );
  CREATE INDEX dataset_gaps_dataset ON dataset_gaps(dataset_id, start_time);
  `,
  // 5: orders expired by self-trade prevention (the taker met its own resting order) are marked,
  // for the Binance facade's EXPIRED_IN_MATCH; earlier rows read 0
  `
  ALTER TABLE orders ADD COLUMN expired_in_match INTEGER NOT NULL DEFAULT 0;
  `,
  // 6: funding history. funding_rates: a pair's rate and mark at each settlement (served as
  // Binance's /fapi/v1/fundingRate); funding_payments: each position's share of a settlement
  // (amount in 1e-8 USDT, positive = received), served as FUNDING_FEE income. Rate and mark are
  // kept as the market's numbers (REAL), as the position's funding total is derived from them.
  `
  CREATE TABLE funding_rates (
    id INTEGER PRIMARY KEY,
    symbol TEXT NOT NULL,
    time INTEGER NOT NULL,
    rate REAL NOT NULL,
    mark REAL NOT NULL
  );
  CREATE INDEX funding_rates_symbol ON funding_rates(symbol, time);
  CREATE TABLE funding_payments (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    position_side INTEGER NOT NULL,
    time INTEGER NOT NULL,
    rate REAL NOT NULL,
    mark REAL NOT NULL,
    amount INTEGER NOT NULL
  );
  CREATE INDEX funding_payments_account ON funding_payments(account_id, time);
  `,
  // 7: transfers into and out of an account's wallet (amount in 1e-8 USDT, positive = in), at
  // market time: kind 1 a paper deposit or withdrawal, 2 a paper reset (the difference to the new
  // balance), 3 an account created or set by the CLI / admin route (its balance, or the
  // difference to it), 4 the insurance fund covering a bankrupt wallet. Served as Binance's
  // TRANSFER (and INSURANCE_CLEAR) income; wallets moved before this migration have no rows.
  `
  CREATE TABLE transfers (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    time INTEGER NOT NULL,
    amount INTEGER NOT NULL
  );
  CREATE INDEX transfers_account ON transfers(account_id, time);
  `,
  // 8: mark / index / premium candles (market/price-klines.ts; Binance's markPriceKlines,
  // indexPriceKlines, premiumIndexKlines), so they survive a restart; at most the newest 1500
  // per (pair, interval) are kept. REAL: the market's prices, as the series are built from them.
  `
  CREATE TABLE price_klines (
    symbol TEXT NOT NULL,
    interval TEXT NOT NULL,
    open_time INTEGER NOT NULL,
    count INTEGER NOT NULL,
    mark_open REAL NOT NULL, mark_high REAL NOT NULL, mark_low REAL NOT NULL, mark_close REAL NOT NULL,
    index_open REAL NOT NULL, index_high REAL NOT NULL, index_low REAL NOT NULL, index_close REAL NOT NULL,
    premium_open REAL NOT NULL, premium_high REAL NOT NULL, premium_low REAL NOT NULL, premium_close REAL NOT NULL,
    PRIMARY KEY (symbol, interval, open_time)
  ) WITHOUT ROWID;
  `,
  // 9: open interest of each pair sampled every 5 minutes of market time (Binance's
  // openInterestHist): lots, and their value at the mark then (REAL, a display figure); the last
  // 30 days are kept.
  `
  CREATE TABLE open_interest (
    symbol TEXT NOT NULL,
    time INTEGER NOT NULL,
    lots INTEGER NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (symbol, time)
  ) WITHOUT ROWID;
  `,
  // 10: an imported file's own row count (rows counts those that were new to its dataset, which
  // the dataset's total sums), so a file imported again is reported with its rows; NULL for the
  // files imported before.
  `
  ALTER TABLE dataset_files ADD COLUMN read_rows INTEGER;
  `,
  // 11: liquidation clearance fees (trading/liquidation.ts), one row per liquidated position that
  // paid one: fee in 1e-8 USDT (positive = paid, to the insurance fund), at market time, stored in
  // the transaction that moves the wallet and the fund. The accounting identity counts them beside
  // the fills' fees; served as Binance's INSURANCE_CLEAR income. Liquidations before this
  // migration charged none.
  `
  CREATE TABLE liquidation_fees (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    position_side INTEGER NOT NULL,
    position_id INTEGER NOT NULL,
    time INTEGER NOT NULL,
    fee INTEGER NOT NULL
  );
  CREATE INDEX liquidation_fees_account ON liquidation_fees(account_id, time);
  `,
  // 12: margin moved by hand between the available balance and an isolated position
  // (trading/isolated-margin.ts; Binance's positionMargin history): type 1 added, 2 removed; amount
  // (> 0) and the position's isolated margin after the change in 1e-8 USDT, at market time, stored
  // in the commit that stores the position's new margin. The wallet does not move (it already holds
  // the isolated margins), so the accounting identity has no term for these rows.
  `
  CREATE TABLE isolated_margin_changes (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    position_side INTEGER NOT NULL,
    position_id INTEGER NOT NULL,
    type INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    margin INTEGER NOT NULL,
    time INTEGER NOT NULL
  );
  CREATE INDEX isolated_margin_changes_account ON isolated_margin_changes(account_id, id);
  `,
  // 13: the public tape (market/recent-trades.ts): each pair's last trades, whoever traded
  // (users, bots, the simulated market), so GET /fapi/v1/trades survives a restart. A pair's
  // trades live in the slots of its ring (0 .. kept - 1), a write overwrites the slot's older
  // trade, so the table never holds more than the ring: written at the market checkpoint (once a
  // second) and at a clean stop. Ticks, lots and market ms, as the ring keeps them.
  `
  CREATE TABLE public_trades (
    symbol TEXT NOT NULL,
    slot INTEGER NOT NULL,
    id INTEGER NOT NULL,
    price_ticks INTEGER NOT NULL,
    qty_lots INTEGER NOT NULL,
    taker_side INTEGER NOT NULL,
    time INTEGER NOT NULL,
    PRIMARY KEY (symbol, slot)
  ) WITHOUT ROWID;
  `,
  // 14: the long/short and taker statistics (Binance's globalLongShortAccountRatio,
  // topLongShortAccountRatio, topLongShortPositionRatio, takerlongshortRatio) beside each
  // open-interest sample (market/open-interest-history.ts): accounts net long / short, the top
  // traders' accounts and lots, the takers' lots bought / sold since the previous sample; NULL in
  // the samples taken before. open_taker_volume holds each pair's taker lots not yet in a sample
  // (one row a pair: those of ended windows, and of the newest trade's window ending at
  // window_end), so a restart loses none.
  `
  ALTER TABLE open_interest ADD COLUMN long_accounts INTEGER;
  ALTER TABLE open_interest ADD COLUMN short_accounts INTEGER;
  ALTER TABLE open_interest ADD COLUMN top_long_accounts INTEGER;
  ALTER TABLE open_interest ADD COLUMN top_short_accounts INTEGER;
  ALTER TABLE open_interest ADD COLUMN top_long_lots INTEGER;
  ALTER TABLE open_interest ADD COLUMN top_short_lots INTEGER;
  ALTER TABLE open_interest ADD COLUMN taker_buy_lots INTEGER;
  ALTER TABLE open_interest ADD COLUMN taker_sell_lots INTEGER;
  CREATE TABLE open_taker_volume (
    symbol TEXT PRIMARY KEY,
    buy_lots INTEGER NOT NULL,
    sell_lots INTEGER NOT NULL,
    window_end INTEGER,
    window_buy_lots INTEGER NOT NULL,
    window_sell_lots INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 15: liquidation close orders stored by builds that named them liq-<order id> take the name
  // every surface tells them apart by (trading/liquidation-client-id.ts: autoclose-<order id>),
  // so forceOrders lists them and the order answers show them as LIQUIDATION. Only the shape
  // those builds gave them is renamed: its own id in the name, MARKET (2), IOC (2), no price,
  // reduce-only, a close (position_action 2).
  `
  UPDATE orders SET client_order_id = 'autoclose-' || id
  WHERE client_order_id = 'liq-' || id AND type = 2 AND tif = 2 AND price_ticks = 0
    AND reduce_only = 1 AND position_action = 2;
  `,
  // 16: a one-way order sent reduce_only with position_action 1 is recorded as position_action 2
  // (trading/order-checks.ts: in one-way mode 2 is reduce-only), so its record tells that it never
  // opens; orders older builds stored with 1 say so too. Hedge mode refuses that pair (3010), so
  // every such row is a one-way order.
  `
  UPDATE orders SET position_action = 2 WHERE reduce_only = 1 AND position_action = 1;
  `,
  ...MIGRATIONS_FROM_17,
];
