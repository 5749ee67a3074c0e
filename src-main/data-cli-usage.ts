// `npm run data -- --help`: the data command's usage (data-cli.ts).

import { DEFAULT_BASE_URL } from './data/download.ts';
export const DATA_USAGE = `Usage: npm run data -- COMMAND [options]

Commands:
  import PATH...        import Binance archive files (.zip or .csv, with or without header;
                        folders are searched for them). Symbol, market, kind and interval come
                        from the archive's names and folders (spot/, futures/um/, futures/cm/,
                        then daily|monthly/KIND/SYMBOL[/INTERVAL]/SYMBOL-...-DATE.zip), a
                        recorder's CSV from its header line (L2 snapshot and diff stream: depth;
                        trade stream: trades; docs/data.md), or from:
    --symbol SYMBOL       e.g. BTCUSDT
    --market MARKET       spot, um or cm
    --kind KIND           klines, markPriceKlines, indexPriceKlines, premiumIndexKlines,
                          fundingRate, aggTrades, trades, bookTicker, bookDepth,
                          depth (L2 snapshots + diff-depth stream: JSON lines or CSV);
                          a recorder's .jsonl: depth, aggTrades, bookTicker, trades and
                          klines (its closed candles) read its streams of those kinds
    --interval INTERVAL   candle interval of the klines kinds (1m, 1h, ...)
  download              fetch files from the archive, verify each against its .CHECKSUM, then
                        import them (a second run fetches only what is missing):
    --symbol SYMBOL --market MARKET
    --kinds LIST          e.g. klines:1m,aggTrades,fundingRate,markPriceKlines:1m
    --from DATE --to DATE YYYY-MM-DD, inclusive, not after today (UTC); a whole month that
                          ended 7 days ago or more goes as one monthly file, others day by day
    --base-url URL        the archive (default ${DEFAULT_BASE_URL})
    --out DIR             where the zips go (default DATA_DIR/downloads)
    --concurrency N       requests at once, 1 to 16 (default 4)
    --idle-timeout S      give a request up when the archive sends nothing for S seconds
                          (default 30; tried 3 times per file)
    --no-import           fetch only
  list                  list the stored datasets
  delete ID             delete a stored dataset

Options:
  --data-dir DIR        the data folder (default: the OS user-data folder, as for serve)
  -h, --help, help      this text`;
