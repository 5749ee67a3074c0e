// A small market maker on perpdesk's public API, written only with the SDK (src-shared/sdk).
//
// It keeps an exact local order book (LocalOrderBook over the WebSocket, accurate mode), quotes
// one post-only bid and one post-only ask around the mid every few seconds with signed orders,
// and logs its fills from the private `user` channel. It quotes only while the book is 'live':
// when the WebSocket drops the book leaves 'live' at once and the quotes are pulled.
//
// Position mode: it asks for one-way mode (buys and sells net into one position). The venue
// refuses the switch (3015) while the account has a position or an open order; it then runs in
// the account's hedge mode, where a bid opens a long or closes a short and an ask opens a
// short or closes a long (closing first, so the two sides still net out). It reads the mode
// the account really has (GET /fapi/v1/account) and logs it.
//
// Run against a service (`npm run serve -- --account mmbotkey01:mmbotsecret01:50000`, which
// listens on 127.0.0.1:8787; pass --url for another address):
//   npm run example:mm -- --key mmbotkey01 --secret mmbotsecret01 [--url http://127.0.0.1:8787]
//                         [--symbol BTCUSDT] [--spread-ticks 100] [--every 3] [--duration 60]
import { parseArgs } from 'node:util';
import {
  LocalOrderBook,
  PerpdeskApiError,
  RestClient,
  WsClient,
  hmacSha256Hex,
  type DepthPush,
  type DepthUpdate,
  type OrderRequest,
  type PositionRecord,
  type TradeRecord,
} from '../src-shared/sdk/index.ts';

const USAGE = `Usage: npm run example:mm -- --key KEY --secret SECRET [options]

Quotes a post-only bid and ask around the mid of its local book (docs/sdk.md).

  --key KEY           the account's API key (required)
  --secret SECRET     its secret (required)
  --url URL           the service (default http://127.0.0.1:8787)
  --symbol SYMBOL     the pair to quote (default BTCUSDT)
  --spread-ticks N    ticks between the mid and each quote (default 100)
  --every S           seconds from the end of one round of quotes to the next (default 3)
  --duration S        seconds to run, 0 until Ctrl-C (default 0)
  -h, --help          this text

Each option may come from the environment instead: PERPDESK_KEY, PERPDESK_SPREAD_TICKS, ...`;

function usageError(message: string): never {
  console.error(`market-maker: ${message} (--help for the options)`);
  process.exit(2);
}

const given = (() => {
  try {
    const text = { type: 'string' } as const;
    return parseArgs({
      options: {
        key: text,
        secret: text,
        url: text,
        symbol: text,
        'spread-ticks': text,
        every: text,
        duration: text,
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    return usageError(parseArgsProblem(err));
  }
})();
if (given.help) {
  console.log(USAGE);
  process.exit(0);
}

function arg(name: Exclude<keyof typeof given, 'help'>, fallback?: string): string {
  const v = given[name] ?? process.env[`PERPDESK_${name.toUpperCase().replace(/-/g, '_')}`];
  if (v === undefined || v === '') {
    if (fallback !== undefined) return fallback;
    return usageError(`--${name} is required`);
  }
  return v;
}

const url = httpUrl(arg('url', 'http://127.0.0.1:8787'));
const key = arg('key');
const secret = arg('secret');
const symbol = arg('symbol', 'BTCUSDT').toUpperCase();
/**
 * The service's address without its trailing slash; one that is no http(s) URL (`localhost:8787`,
 * `ws://...`) is a usage error (it crashed the bot with a stack trace from WsClient).
 */
function httpUrl(v: string): string {
  let scheme = '';
  try {
    scheme = new URL(v).protocol;
  } catch {
    // not a URL at all: refused below
  }
  if (scheme !== 'http:' && scheme !== 'https:')
    return usageError(
      `--url must be the service's http:// or https:// address, such as http://127.0.0.1:8787, not '${v}'`,
    );
  return v.replace(/\/+$/, '');
}
/** The longest wait a timer takes, ms (Node fires a longer one at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A number option: digits with an optional fraction ('whole': digits only), above 0 when
 * 'positive', and for the seconds ones no longer than a timer can wait; anything else is a usage error.
 */
function numberArg(
  name: 'spread-ticks' | 'every' | 'duration',
  fallback: string,
  kind: 'whole' | 'positive' | 'any',
): number {
  const v = arg(name, fallback);
  const n = Number(v);
  const shape = kind === 'whole' ? /^\d+$/ : /^\d+(\.\d+)?$/;
  const want = {
    whole: 'a whole number',
    positive: `a number of seconds above 0 (at most ${Math.floor(MAX_TIMER_MS / 1000)})`,
    any: `a number of seconds, 0 or more (at most ${Math.floor(MAX_TIMER_MS / 1000)})`,
  };
  if (!shape.test(v) || (kind === 'positive' && n <= 0) || (kind !== 'whole' && n * 1000 > MAX_TIMER_MS))
    return usageError(`--${name} must be ${want[kind]}, not '${v}'`);
  return n;
}
// 100 ticks: the simulated BTCUSDT index moves some 20 ticks every 100 ms step (docs/realism.md), so a
// quote 20 ticks from the mid (the default before) was often crossed before it reached the book
const spreadTicks = numberArg('spread-ticks', '100', 'whole');
const everySec = numberArg('every', '3', 'positive');
const durationSec = numberArg('duration', '0', 'any');

const log = (...xs: unknown[]) => console.log(new Date().toISOString().slice(11, 23), ...xs);

const rest = new RestClient({ baseUrl: url, apiKey: key, apiSecret: secret, recvWindow: 10_000 });
const ws = new WsClient({ url: `${url.replace(/^http/, 'ws')}/ws` });
const book = new LocalOrderBook({ symbol, fetchSnapshot: () => rest.depth(symbol, 100) });

type Mode = 'hedge' | 'one_way';
type Quote = Pick<OrderRequest, 'side' | 'position_side' | 'position_action'>;

/**
 * The order fields of a bid (side 1) or an ask (side 2). One-way: position_side 1, open; a
 * fill first reduces the opposite net position. Hedge: the side must match the position it
 * opens or closes; close the opposite position when it can take the whole quote, else open.
 */
function quoteFor(mode: Mode, side: 1 | 2, lots: number, step: number, positions: readonly PositionRecord[]): Quote {
  if (mode === 'one_way') return { side, position_side: 1, position_action: 1 };
  const opposite = side === 1 ? 2 : 1;
  const held = positions.find((p) => p.symbol === symbol && p.position_side === opposite)?.quantity ?? 0;
  if (Math.round(held / step) >= lots) return { side, position_side: opposite, position_action: 2 };
  return { side, position_side: side, position_action: 1 };
}

/** Switches to one-way mode when the account allows it; answers the mode the account has. */
async function settleMode(): Promise<Mode> {
  const before = (await rest.account()).position_mode;
  if (before !== 'one_way') {
    try {
      await rest.setPositionMode('one_way');
    } catch (err) {
      if (!(err instanceof PerpdeskApiError && err.code === 3015)) throw err;
      log(`one-way mode refused (${err.message}): staying in hedge mode`);
    }
  }
  return (await rest.account()).position_mode;
}

async function main(): Promise<void> {
  await rest.syncTime();
  const [pair] = await rest.futuresSymbols({ symbols: [symbol] });
  if (pair === undefined) throw new Error(`${symbol} is not listed at ${url}`);
  const tick = Number(pair.price_step);
  const decimals = pair.price_precision;
  const step = Number(pair.qty_step);
  // the smallest size that clears both the minimum quantity and the minimum notional, plus 10%
  const lotsFor = (price: number) =>
    Math.ceil(Math.max(Number(pair.min_qty), (Number(pair.min_notional) * 1.1) / price) / step);
  const mode = await settleMode();
  log(
    mode === 'one_way'
      ? `position mode: one-way (bid = buy, ask = sell, one net position on ${symbol})`
      : `position mode: hedge (bid = open long or close short, ask = open short or close long)`,
  );
  log(`quoting ${symbol} at ${url}: the minimum size each side, ${spreadTicks} ticks from the mid`);

  const fills = { buy: 0, sell: 0 };
  ws.on(`depth_update@${symbol}`, (d) => book.handleDelta(d as DepthUpdate));
  ws.on(`depth@${symbol},20`, (d) => book.handleSnapshotPush(d as DepthPush));
  ws.on('user', (msg) => {
    const m = msg as { kind: string; data: TradeRecord };
    if (m.kind !== 'fill' || m.data.symbol !== symbol) return;
    const t = m.data;
    fills[t.side === 1 ? 'buy' : 'sell']++;
    const what = `${t.is_close ? 'close' : 'open'} ${t.position_side === 1 ? 'long' : 'short'}`;
    log(
      `FILL ${t.side === 1 ? 'buy ' : 'sell'} ${t.qty} @ ${t.price} (${what}) fee ${t.fee} pnl ${t.realized_pnl} (${t.role === 1 ? 'maker' : 'taker'})`,
    );
  });
  book.followConnection(ws);
  book.onStateChange((s) => log(`local book: ${s} (resyncs ${book.resyncCount})`));
  // A lost connection is logged with its close code and reason; a service that hangs (or a
  // connection left half-open) is found by the client's default keep-alive: a PING every 15 s,
  // the connection dropped after 45 s without a frame (4000 ping timeout) and reconnected.
  let up = false;
  ws.onOpen(() => (up = true));
  ws.onClose((c) => {
    if (up && c.willReconnect) log(`websocket lost (${c.code}${c.reason === '' ? '' : ` ${c.reason}`}): reconnecting`);
    up = false;
  });
  ws.onStateChange((s) => {
    if (s !== 'reconnecting') log(`websocket: ${s}`);
  });
  // Socket error events carry nothing the state log does not say; real errors (a refused
  // re-login, a failed re-subscription) are logged.
  ws.onError((e) => {
    if (e instanceof Error) log('websocket error:', e.message);
  });
  ws.connect();
  await ws.login(() => {
    const timestamp = rest.timestamp();
    return { api_key: key, timestamp, signature: hmacSha256Hex(secret, `api_key=${key}&timestamp=${timestamp}`) };
  });
  await ws.subscribe([`depth_update@${symbol}`, `depth@${symbol},20`, 'user']);
  book.start();

  // Our quotes carry client ids with this prefix, so pulling them never touches orders the
  // account placed otherwise (by hand on the screen, by another bot).
  const tag = `mm-${process.pid.toString(36)}-`;
  let quoteNo = 0;
  const pullQuotes = async (): Promise<void> => {
    const mine = (await rest.openOrders(symbol)).filter((o) => o.client_order_id.startsWith(tag));
    await Promise.all(mine.map((o) => rest.cancelOrder(symbol, { orderId: o.id }).catch(() => undefined)));
  };

  /**
   * A quote's price from the book as it stands now, `spreadTicks` under the mid for a bid and over it
   * for an ask; null while the book is not live. Each quote is priced right before it is sent: priced
   * before the round's pull (openOrders, then the cancels) the simulated mid had moved meanwhile, and
   * about a third of the post-only quotes were refused as taking liquidity.
   */
  const priceNow = (side: 1 | 2): { mid: number; price: number } | null => {
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (book.state !== 'live' || !bid || !ask) return null;
    const mid = (Number(bid[0]) + Number(ask[0])) / 2;
    const price =
      side === 1 ? (Math.floor(mid / tick) - spreadTicks) * tick : (Math.ceil(mid / tick) + spreadTicks) * tick;
    return { mid, price };
  };

  let quoting = false;
  const notLive = async (): Promise<void> => {
    // Prices from a book that is not live may be stale: do not leave quotes resting on them.
    if (!quoting) return;
    quoting = false;
    await pullQuotes().then(
      () => log('book not live: quotes pulled'),
      (err: unknown) => log('book not live; pulling quotes failed:', err instanceof Error ? err.message : err),
    );
  };
  const quote = async () => {
    if (priceNow(1) === null) return notLive();
    await pullQuotes();
    const positions = mode === 'hedge' ? await rest.positions() : [];
    quoting = true;
    const sent = { mid: '', bid: '', ask: '' };
    for (const side of [1, 2] as const) {
      const at = priceNow(side);
      if (at === null) return notLive();
      const price = at.price.toFixed(decimals);
      const lots = lotsFor(at.price);
      sent.mid = at.mid.toFixed(decimals);
      sent[side === 1 ? 'bid' : 'ask'] = price;
      try {
        await rest.placeOrder({
          symbol,
          ...quoteFor(mode, side, lots, step, positions),
          type: 1,
          time_in_force: 4,
          price,
          qty: (lots * step).toFixed(pair.qty_precision),
          client_order_id: `${tag}${++quoteNo}`,
        });
      } catch (err) {
        log(`quote ${side === 1 ? 'bid' : 'ask'} refused:`, err instanceof Error ? err.message : err);
      }
    }
    log(`mid ${sent.mid}  bid ${sent.bid}  ask ${sent.ask}`);
  };
  // One round at a time: the next starts `everySec` after the last one ended, so rounds never
  // overlap, and stop() waits for the round in flight before it pulls the quotes.
  let stopping = false;
  let round: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    timer = setTimeout(() => {
      round = quote()
        .catch((err: unknown) => log('quote failed:', err instanceof Error ? err.message : err))
        .finally(() => {
          if (!stopping) schedule();
        });
    }, everySec * 1000);
  };
  schedule();

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearTimeout(timer);
    await round;
    await pullQuotes().catch(() => undefined);
    book.dispose();
    ws.close();
    const acct = await rest.account().catch(() => null);
    const held = await rest.positions().catch(() => []);
    const pos = held
      .filter((p) => p.symbol === symbol)
      .map((p) => `${p.position_side === 1 ? 'long' : 'short'} ${p.quantity}`)
      .join(', ');
    log(`stopped (${mode}); fills: ${fills.buy} buys, ${fills.sell} sells; ${symbol} position: ${pos || 'none'}`);
    if (acct) log(`wallet ${acct.wallet_balance} USDT, unrealized ${acct.unrealized_pnl}`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (durationSec > 0) setTimeout(() => void stop(), durationSec * 1000);
}

main().catch((err: unknown) => {
  if (err instanceof PerpdeskApiError && err.status === 0 && err.code === -1) {
    // RestClient's network failure (no HTTP answer at all)
    console.error(
      `market-maker: cannot reach perpdesk at ${url} (${err.message}).\n` +
        `  Start the service (npm run serve -- --account KEY:SECRET:50000), or pass the address of a running one with\n` +
        `  --url http://127.0.0.1:PORT (the port \`npm run serve\` printed; the default is 8787).`,
    );
  } else console.error('market-maker:', err instanceof Error ? err.message : err);
  process.exit(1);
});

/**
 * parseArgs' refusal in one line: what is wrong, and for a value that starts with '-' (read as an
 * option: `--duration -1`) how to give one (`--duration=-1`), without its guess between them; its
 * first letter lower case as the other messages ("Unknown option '--spread'" read so).
 */
function parseArgsProblem(err: unknown): string {
  const said = (err as Error).message
    .split('\n')
    .filter((l) => !l.startsWith('Did you forget'))
    .join(' ');
  return said.charAt(0).toLowerCase() + said.slice(1);
}
