// The kinds of Binance public market-data files (data.binance.vision) a dataset can hold, and
// how each is stored: candle kinds as verbatim decimal strings per candle, trade kinds in
// compact blocks (trade-codec.ts), everything else as time-keyed events.
//
// A dataset is one (market, symbol, kind, interval) series; interval is '' for every kind but
// the four candle kinds. The markets and kinds themselves are src-shared/dataset-kinds.ts (the
// screen's Data dialog offers the same).

import {
  CANDLE_KINDS,
  isKind,
  isMarket,
  KINDS,
  MARKETS,
  type Kind,
  type Market,
} from '../../src-shared/dataset-kinds.ts';
import { INTERVALS, isInterval, type Interval } from '../../src-shared/intervals.ts';

export type Storage = 'candles' | 'trades' | 'events';

export function storageOf(kind: Kind): Storage {
  if (CANDLE_KINDS.has(kind)) return 'candles';
  if (kind === 'aggTrades' || kind === 'trades') return 'trades';
  return 'events';
}

/** Which kinds exist in which market of the archive. */
function kindInMarket(kind: Kind, market: Market): boolean {
  return market !== 'spot' || kind === 'klines' || kind === 'aggTrades' || kind === 'trades' || kind === 'depth';
}

export interface DatasetKey {
  readonly market: Market;
  readonly symbol: string;
  readonly kind: Kind;
  /** A candle interval for the candle kinds, '' otherwise. */
  readonly interval: Interval | '';
}

const SYMBOL = /^[A-Z0-9_]{2,40}$/;

/**
 * A symbol as a user gives it for an import or download (`--symbol`, the route's `symbol`): in any
 * case, as the trading routes take it, so `btcusdt` is BTCUSDT. One holding anything but letters,
 * digits or _ is left as given, for keyProblem to refuse naming what the user wrote.
 */
export function givenSymbol(symbol: string): string {
  return /^[A-Za-z0-9_]+$/.test(symbol) ? symbol.toUpperCase() : symbol;
}

/** Checks a dataset key: the message says what is wrong, or null when it is whole. */
export function keyProblem(k: { market?: string; symbol?: string; kind?: string; interval?: string }): string | null {
  if (!isMarket(k.market))
    return `market must be one of ${MARKETS.join(', ')} (got ${JSON.stringify(k.market ?? null)})`;
  if (!isKind(k.kind)) return `kind must be one of ${KINDS.join(', ')} (got ${JSON.stringify(k.kind ?? null)})`;
  if (typeof k.symbol !== 'string' || !SYMBOL.test(k.symbol)) {
    return `symbol must be 2 to 40 capital letters, digits or _ (got ${JSON.stringify(k.symbol ?? null)})`;
  }
  if (!kindInMarket(k.kind, k.market)) return `the ${k.market} archive has no ${k.kind} files`;
  if (CANDLE_KINDS.has(k.kind)) {
    if (k.interval === undefined || k.interval === '') return `${k.kind} needs an interval (${INTERVALS.join(', ')})`;
    if (!isInterval(k.interval)) return intervalProblem(k.interval);
  } else if (k.interval !== undefined && k.interval !== '') {
    return `${k.kind} has no interval (got ${JSON.stringify(k.interval)})`;
  }
  return null;
}

function intervalProblem(interval: string): string {
  return `interval must be one of ${INTERVALS.join(', ')} (got ${JSON.stringify(interval)})`;
}

/**
 * Checks the values given as options (`--market`, `--kind`, `--interval`, `--symbol`) on their
 * own, before any file is read: a value no file can make right. The message names the option;
 * null when every given value can be used.
 */
export function optionsProblem(o: {
  market?: string;
  symbol?: string;
  kind?: string;
  interval?: string;
}): string | null {
  if (o.market !== undefined && !isMarket(o.market))
    return `--market must be one of ${MARKETS.join(', ')} (got ${JSON.stringify(o.market)})`;
  if (o.kind !== undefined && !isKind(o.kind))
    return `--kind must be one of ${KINDS.join(', ')} (got ${JSON.stringify(o.kind)})`;
  if (o.symbol !== undefined && !SYMBOL.test(o.symbol))
    return `--symbol must be 2 to 40 capital letters, digits or _ (got ${JSON.stringify(o.symbol)})`;
  if (o.interval !== undefined && !isInterval(o.interval)) return `--${intervalProblem(o.interval)}`;
  if (o.kind !== undefined && o.market !== undefined && !kindInMarket(o.kind as Kind, o.market as Market))
    return `the ${o.market} archive has no ${o.kind} files (--market ${o.market} with --kind ${o.kind})`;
  if (o.kind !== undefined && o.interval !== undefined && !CANDLE_KINDS.has(o.kind as Kind))
    return `--kind ${o.kind} has no interval (--interval is for ${[...CANDLE_KINDS].join(', ')})`;
  return null;
}
