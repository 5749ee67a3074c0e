// A Binance USD-M bot written with ccxt, run against perpdesk: the only perpdesk-specific lines
// are the few marked "perpdesk" below (the base URL, and ccxt's USD-M error table, which ccxt
// keys to Binance's own hosts). Everything else is what the bot would run on Binance.
//
// It reads the book, sizes its orders from the pair's filters (0.002 BTC, or the pair's minimum
// quantity and notional at the price when more: a replay of 2021 prices needs more for 100 USDT),
// sets 5x leverage, quotes a post-only bid 0.5% under the mid, watches its
// orders on the user stream, moves the bid to 0.3% under (editOrder), takes that size at
// market, protects it with a stop-loss 2% under (an algo order, as on Binance), prints the open
// interest, the position and the balance, then cancels what is left and closes the position, in one-way mode (Binance's default; the bot
// switches a hedge-mode account first). It ends itself: ccxt's close() leaves the user stream's
// listen-key keep-alive timer running (see the end), so the script exits once it is done.
//
//   npm run serve -- --port 8787 --account k1234567:s1234567:10000
//   npm run example:ccxt -- --key k1234567 --secret s1234567 [--url http://127.0.0.1:8787]
import { parseArgs } from 'node:util';
import ccxt from 'ccxt';

const USAGE = `Usage: npm run example:ccxt -- --key KEY --secret SECRET [--url URL]

A Binance USD-M bot written with ccxt, run against perpdesk's /binance dialect (docs/binance.md).

  --key KEY         the account's API key (required)
  --secret SECRET   its secret (required)
  --url URL         the service (default http://127.0.0.1:8787)
  -h, --help        this text`;

function usageError(message: string): never {
  console.error(`ccxt-bot: ${message} (--help for the options)`);
  process.exit(2);
}

const a = (() => {
  try {
    return parseArgs({
      options: {
        key: { type: 'string' },
        secret: { type: 'string' },
        url: { type: 'string', default: 'http://127.0.0.1:8787' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    return usageError(parseArgsProblem(err));
  }
})();
if (a.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!a.key || !a.secret) usageError(`--${a.key ? 'secret' : 'key'} is required`);
// http://127.0.0.1:8787/ names the same service as http://127.0.0.1:8787; one that is no http(s)
// URL (`localhost:8787`) is a usage error, where ccxt said 'InvalidArgumentError: Invalid URL protocol'
const url = (() => {
  let scheme = '';
  try {
    scheme = new URL(a.url!).protocol;
  } catch {
    // not a URL at all: refused below
  }
  if (scheme !== 'http:' && scheme !== 'https:')
    return usageError(
      `--url must be the service's http:// or https:// address, such as http://127.0.0.1:8787, not '${a.url}'`,
    );
  return a.url!.replace(/\/+$/, '');
})();
const SYMBOL = 'BTC/USDT:USDT';
/** The size the bot trades, BTC, unless the pair's filters ask for more at the price (orderSize). */
const SIZE = 0.002;

const ex = new ccxt.pro.binanceusdm({ apiKey: a.key, secret: a.secret, options: { fetchCurrencies: false } });
// perpdesk: every REST base and the WebSocket base point at the service's /binance prefix
for (const k of Object.keys(ex.urls.api))
  if (typeof ex.urls.api[k] === 'string') ex.urls.api[k] = ex.urls.api[k].replace(/^https:\/\/[^/]+/, `${url}/binance`);
(ex.urls.api as any).ws.future = `${url.replace(/^http/, 'ws')}/binance/ws`;
// perpdesk: ccxt applies its USD-M error classes only on Binance's hosts
ex.exceptions.exact = { ...ex.exceptions.exact, ...(ex.exceptions as any).linear.exact };

async function main(): Promise<void> {
  await ex.loadHttpProxyAgent(); // ccxt pro in Node, before any ws:// URL

  await ex.loadMarkets();
  // Binance's default is one-way; a perpdesk account is hedge unless created with :one_way
  // (refused while the account holds a position or an open order)
  if ((await ex.fetchPositionMode(SYMBOL)).hedged) await ex.setPositionMode(false);
  const book = await ex.fetchOrderBook(SYMBOL, 5);
  const mid = (Number(book.bids[0][0]) + Number(book.asks[0][0])) / 2;
  console.log(`${SYMBOL} bid ${book.bids[0][0]} ask ${book.asks[0][0]} (book id ${book.nonce})`);
  console.log('leverage', (await ex.setLeverage(5, SYMBOL)).leverage);
  // MIN_NOTIONAL holds for its opening orders (a reduce-only one is exempt): the lowest of them is
  // the bid, 0.5% under the mid; 5% under leaves room for the market to move meanwhile
  const amount = orderSize(ex.market(SYMBOL), mid * 0.95);
  if (amount !== SIZE) console.log(`order size ${amount} BTC (the pair's filters at ${book.bids[0][0]})`);

  const watching = ex.watchOrders(SYMBOL);
  // The user stream opens asynchronously (a listenKey, then its socket): an order placed before the
  // socket is open is never streamed (on Binance too), and `await watching` would wait forever.
  await ex.sleep(1000);
  const bid = await ex.createOrder(SYMBOL, 'limit', 'buy', amount, Number(ex.priceToPrecision(SYMBOL, mid * 0.995)), {
    postOnly: true,
  });
  console.log(
    `bid ${bid.id} ${bid.status} at ${bid.price}; stream says`,
    (await watching).map((o) => `${o.id}:${o.status}`).join(' '),
  );
  // move the quote: Binance's modify keeps the order id (it goes to the back of the queue at its new price)
  const moved = await ex.editOrder(
    bid.id as string,
    SYMBOL,
    'limit',
    'buy',
    amount,
    Number(ex.priceToPrecision(SYMBOL, mid * 0.997)),
  );
  console.log(`bid ${moved.id} moved to ${moved.price}`);

  const taken = await ex.createOrder(SYMBOL, 'market', 'buy', amount);
  console.log(`market buy ${taken.id} filled ${taken.filled} at ${taken.average}`);
  // a stop-loss: ccxt sends it to Binance's algo order route (a STOP_MARKET that fires on the last price)
  const stopPrice = Number(ex.priceToPrecision(SYMBOL, Number(taken.average) * 0.98));
  const stop = await ex.createOrder(SYMBOL, 'market', 'sell', amount, undefined, {
    stopLossPrice: stopPrice,
    reduceOnly: true,
  });
  const waiting = await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true });
  console.log(`stop-loss ${stop.id} at ${stopPrice}; ${waiting.length} stop waiting`);
  console.log(`open interest ${(await ex.fetchOpenInterest(SYMBOL)).openInterestAmount} BTC`);
  for (const p of await ex.fetchPositions([SYMBOL]))
    console.log(`position ${p.side} ${p.contracts} @ ${p.entryPrice}, uPnL ${p.unrealizedPnl}`);
  const bal = await ex.fetchBalance();
  console.log(`USDT free ${bal.USDT.free} used ${bal.USDT.used} total ${bal.USDT.total}`);

  await ex.cancelAllOrders(SYMBOL);
  await ex.cancelAllOrders(SYMBOL, { trigger: true });
  await ex.createOrder(SYMBOL, 'market', 'sell', amount, undefined, { reduceOnly: true });
  const fills = await ex.fetchMyTrades(SYMBOL, undefined, 5);
  console.log('last fills', fills.map((t) => `${t.side} ${t.amount}@${t.price} fee ${t.fee?.cost}`).join(', '));

  await ex.close();
  // ccxt's close() closes the sockets but not the listen-key keep-alive that watchOrders started
  // (binance.js authenticate(): a setTimeout of options.listenKeyRefreshRate, 20 minutes, that
  // nothing clears), which would keep Node running for those 20 minutes: the bot is done, exit.
  process.exit(0);
}

main().catch((err: unknown) => {
  // ccxt's NetworkError without an answer (refused, unknown host, timed out); its rate-limit
  // subclass (DDoSProtection) is an answer, said as it is below
  if (err instanceof ccxt.NetworkError && !(err instanceof ccxt.DDoSProtection)) {
    console.error(
      `ccxt-bot: cannot reach perpdesk at ${url} (${err.message}).\n` +
        `  Start the service (npm run serve -- --account KEY:SECRET:10000), or pass the address of a running one with\n` +
        `  --url http://127.0.0.1:PORT (the port \`npm run serve\` printed; the default is 8787).`,
    );
  } else console.error('ccxt-bot:', err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exit(1);
});

/**
 * SIZE, raised to the pair's smallest order where its filters ask for more (Binance's LOT_SIZE
 * minQty and MIN_NOTIONAL, ccxt's limits.amount.min and limits.cost.min) at `price`, in whole
 * steps of its quantity (precision.amount, a step size: ccxt's TICK_SIZE mode for Binance).
 */
function orderSize(
  m: { precision: { amount?: number }; limits: { amount?: { min?: number }; cost?: { min?: number } } },
  price: number,
): number {
  const step = m.precision.amount ?? 0.001;
  const least = Math.max(SIZE, m.limits.amount?.min ?? 0, (m.limits.cost?.min ?? 0) / price);
  const steps = Math.ceil(least / step - 1e-9);
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return Number((steps * step).toFixed(decimals));
}

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
