// Stream names of the /ws endpoint (DESIGN section 4) and their validation.
//
// Names are case-sensitive and canonical: pushes carry exactly the name that was subscribed,
// so a client routes them by the string it sent, and one name is one serialised message for
// every subscriber. Symbols are written as the venue lists them (upper case, `BTCUSDT`); a
// lower-case symbol is refused with a hint rather than silently mapped to another name, and a
// level is written as the list below writes it (`,020` is refused, not another name for `,20`).
// A delisted pair keeps its history streams (depth, trades, klines, as REST keeps those routes)
// but has no `price@`: like `complete_price` (7001), it has no price record (core/symbol.ts isListed).
//
//   depth@{symbol},{level}        level 5, 10, 20, 50 or 100          every 200 ms
//   depth_update@{symbol}                                              every 100 ms
//   trade@{symbol}                                                     every 100 ms (batched)
//   price@{symbol}                                                     every 1 s
//   kline@{symbol},{interval}     one of the 16 kline intervals        on change, throttled
//   user                          after a successful LOGIN             on every account event
//   bot                           caller IP on the bot whitelist       cached bot orders (need_cache)
//   replay                        on a replay venue                     its status, on every change
import { Errors, type ErrorDef } from '../../../src-shared/errors.ts';
import { INTERVALS, isInterval, type Interval } from '../../../src-shared/intervals.ts';
import { DEPTH_CHANNEL_LEVELS, type DepthChannelLevel } from '../../../src-shared/types.ts';
import { isListed, type SymbolRow } from '../../core/symbol.ts';

export type Channel =
  | { readonly kind: 'depth'; readonly symbol: string; readonly level: DepthChannelLevel }
  | { readonly kind: 'depth_update'; readonly symbol: string }
  | { readonly kind: 'trade'; readonly symbol: string }
  | { readonly kind: 'price'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: Interval }
  | { readonly kind: 'user' }
  | { readonly kind: 'bot' }
  | { readonly kind: 'replay' };

export type ParseResult =
  | { readonly ok: true; readonly channel: Channel }
  | { readonly ok: false; readonly error: ErrorDef; readonly message: string };

/** Longest stream name accepted; longer text is not echoed back in full. */
const MAX_STREAM_NAME = 64;

/** The allowed stream patterns, for error messages and documentation. */
export const STREAM_PATTERNS =
  'depth@{symbol},{level}, depth_update@{symbol}, trade@{symbol}, price@{symbol}, kline@{symbol},{interval}, user, bot, replay';

const SYMBOL = /^[A-Za-z0-9]{2,30}$/;

function fail(error: ErrorDef, message: string): ParseResult {
  return { ok: false, error, message };
}

function shown(text: string): string {
  return JSON.stringify(text.length > MAX_STREAM_NAME ? text.slice(0, MAX_STREAM_NAME) + '...' : text);
}

/**
 * Parses and validates one stream name. `rowOf` is the venue's pair of a symbol (its catalogue
 * row), undefined for a symbol it has not. Errors: 1001 for a malformed name, a bad depth level
 * or interval; 1100 for an unknown channel; 1101 for an unknown symbol, and for `price@` of a
 * delisted pair (no price record).
 */
export function parseStream(
  name: unknown,
  rowOf: (symbol: string) => Pick<SymbolRow, 'status'> | undefined,
): ParseResult {
  if (typeof name !== 'string')
    return fail(Errors.INVALID_PARAMETER, `Stream names are strings; got ${name === null ? 'null' : typeof name}`);
  if (name.length === 0 || name.length > MAX_STREAM_NAME) {
    return fail(
      Errors.INVALID_PARAMETER,
      `Stream name must have 1 to ${MAX_STREAM_NAME} characters; got ${shown(name)}`,
    );
  }
  if (name === 'user') return { ok: true, channel: { kind: 'user' } };
  if (name === 'bot') return { ok: true, channel: { kind: 'bot' } };
  if (name === 'replay') return { ok: true, channel: { kind: 'replay' } };
  const at = name.indexOf('@');
  if (at < 0) return fail(Errors.ROUTE_NOT_FOUND, `Unknown stream ${shown(name)}; streams are ${STREAM_PATTERNS}`);
  const kind = name.slice(0, at);
  const rest = name.slice(at + 1);
  const comma = rest.indexOf(',');
  const symbol = comma < 0 ? rest : rest.slice(0, comma);
  const arg = comma < 0 ? undefined : rest.slice(comma + 1);

  const wantsArg = kind === 'depth' || kind === 'kline';
  if (kind !== 'depth' && kind !== 'depth_update' && kind !== 'trade' && kind !== 'price' && kind !== 'kline') {
    return fail(
      Errors.ROUTE_NOT_FOUND,
      `Unknown channel ${shown(kind)} in ${shown(name)}; streams are ${STREAM_PATTERNS}`,
    );
  }
  if (!SYMBOL.test(symbol))
    return fail(Errors.INVALID_PARAMETER, `Malformed symbol in ${shown(name)}: 2 to 30 letters or digits`);
  const row = rowOf(symbol);
  if (row === undefined) {
    const upper = symbol.toUpperCase();
    const hint =
      upper !== symbol && rowOf(upper) !== undefined
        ? `; symbols are upper case: ${kind}@${upper}${arg === undefined ? '' : ',' + arg}`
        : '';
    return fail(Errors.SYMBOL_NOT_FOUND, `Unknown symbol '${symbol}' in ${shown(name)}${hint}`);
  }
  if (!wantsArg) {
    if (arg !== undefined)
      return fail(Errors.INVALID_PARAMETER, `${kind}@{symbol} takes no ',' argument; got ${shown(name)}`);
    if (kind === 'price' && !isListed(row)) {
      return fail(
        Errors.SYMBOL_NOT_FOUND,
        `Unknown symbol '${symbol}' in ${shown(name)}: the pair is delisted and has no price record`,
      );
    }
    return { ok: true, channel: { kind, symbol } };
  }
  if (kind === 'depth') {
    // the canonical spelling only: `,020` would be another name (and stream) for `,20`
    const level = DEPTH_CHANNEL_LEVELS.find((l) => String(l) === arg);
    if (level === undefined) {
      return fail(
        Errors.INVALID_PARAMETER,
        `Bad depth level in ${shown(name)}: use depth@${symbol},{level} with level ${DEPTH_CHANNEL_LEVELS.join(', ')}`,
      );
    }
    return { ok: true, channel: { kind, symbol, level } };
  }
  if (arg === undefined || !isInterval(arg)) {
    return fail(
      Errors.INVALID_PARAMETER,
      `Bad kline interval in ${shown(name)}: use kline@${symbol},{interval} with interval ${INTERVALS.join(', ')}`,
    );
  }
  return { ok: true, channel: { kind: 'kline', symbol, interval: arg } };
}
