// A sweepable Binance bot written with ccxt (docs/sweeps.md): it trades through the Binance dialect
// of its job's venue (PERPDESK_BINANCE_URL), as it would trade on Binance, and moves the replay
// clock with one raw WebSocket message per step (`{"method":"REPLAY","params":{"action":"step",
// "ms":N},"id":K}` on PERPDESK_WS_URL): the one perpdesk-specific thing a bot in any language
// needs for a lockstep replay. Its strategy: a breakout of `lookback` steps' high (buy) or low
// (sell back to flat), `qty` BTC, one-way mode as Binance accounts are.
//
//   npm run sweep -- --bot "node examples/sweep-ccxt-bot.ts" --replay BTCUSDT@2025-01-06..2025-01-08 \
//     --split day --grid examples/sweep-ccxt-grid.json --position-mode one_way
// Parameters (PERPDESK_PARAMS, JSON): lookback (default 8), qty (0.01), step_minutes (15).
import ccxt from 'ccxt';
import WebSocket from 'ws';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`A ccxt bot for sweeps (docs/sweeps.md): a sweep runs it once per job, with its venue and parameters
in PERPDESK_BINANCE_URL, PERPDESK_WS_URL, PERPDESK_API_KEY, PERPDESK_API_SECRET, PERPDESK_SYMBOLS
and PERPDESK_PARAMS:

  npm run sweep -- --bot "node examples/sweep-ccxt-bot.ts" --replay BTCUSDT@2025-01-06..2025-01-08 \\
    --split day --grid examples/sweep-ccxt-grid.json --position-mode one_way

Parameters (PERPDESK_PARAMS, JSON): lookback (default 8), qty (0.01), step_minutes (15).`);
  process.exit(0);
}

/** What the bot cannot run without, in one line, exit 2 (it was a stack trace). */
function unusable(message: string): never {
  console.error(`sweep-ccxt-bot: ${message}`);
  process.exit(2);
}
const env = (k: string): string => {
  const v = process.env[k];
  if (v === undefined || v === '') return unusable(`${k} is not set (run it through npm run sweep)`);
  return v;
};
const params = (() => {
  try {
    return JSON.parse(process.env.PERPDESK_PARAMS ?? '{}') as Record<string, unknown>;
  } catch (err) {
    return unusable(`PERPDESK_PARAMS is not JSON: ${(err as Error).message}`);
  }
})();
const lookback = Number(params.lookback ?? 8);
const qty = Number(params.qty ?? 0.01);
const stepMs = Number(params.step_minutes ?? 15) * 60_000;
const SYMBOL = `${env('PERPDESK_SYMBOLS').split(',')[0].replace(/USDT$/, '')}/USDT:USDT`;

const ex = new ccxt.binanceusdm({
  apiKey: env('PERPDESK_API_KEY'),
  secret: env('PERPDESK_API_SECRET'),
  options: { fetchCurrencies: false },
});
// perpdesk: every REST base points at the job venue's Binance dialect
for (const k of Object.keys(ex.urls.api))
  if (typeof ex.urls.api[k] === 'string')
    ex.urls.api[k] = ex.urls.api[k].replace(/^https:\/\/[^/]+/, env('PERPDESK_BINANCE_URL'));
// perpdesk: ccxt applies its USD-M error classes only on Binance's hosts
ex.exceptions.exact = { ...ex.exceptions.exact, ...(ex.exceptions as any).linear.exact };

/** The replay clock over the venue's WebSocket: one step, answered with the replay's status. */
function clock(url: string) {
  const ws = new WebSocket(url);
  let id = 0;
  const waiting = new Map<number, (m: any) => void>();
  ws.on('message', (raw) => {
    const m = JSON.parse(raw.toString());
    if (typeof m.id === 'number') waiting.get(m.id)?.(m);
  });
  const ready = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ready,
    async step(ms: number): Promise<{ finished: boolean; time: number }> {
      const k = ++id;
      const answer = new Promise<any>((resolve) => waiting.set(k, resolve));
      ws.send(JSON.stringify({ method: 'REPLAY', params: { action: 'step', ms }, id: k }));
      const m = await answer;
      waiting.delete(k);
      if (m.error) throw new Error(`REPLAY step refused: ${m.error.message}`);
      return m.result;
    },
    close: () => ws.close(),
  };
}

const c = clock(env('PERPDESK_WS_URL'));
await c.ready;
await ex.loadMarkets();
if ((await ex.fetchPositionMode(SYMBOL)).hedged) await ex.setPositionMode(false);
const mids: number[] = [];
let long = false;
let orders = 0;
// ccxt gives an order without one a random client id (its broker prefix and a uuid), which the
// venue keeps: the same job run twice would differ in it, and so in its digest (docs/sweeps.md)
const orderId = () => `sweep-ccxt-bot-${orders + 1}`;
for (;;) {
  const s = await c.step(stepMs);
  if (s.finished) break;
  const book = await ex.fetchOrderBook(SYMBOL, 5);
  const bid = book.bids[0]?.[0];
  const ask = book.asks[0]?.[0];
  if (bid === undefined || ask === undefined) continue;
  const mid = (Number(bid) + Number(ask)) / 2;
  const past = mids.slice(-lookback);
  mids.push(mid);
  if (past.length < lookback) continue;
  if (!long && mid > Math.max(...past)) {
    await ex.createOrder(SYMBOL, 'market', 'buy', qty, undefined, { newClientOrderId: orderId() });
    long = true;
    orders++;
  } else if (long && mid < Math.min(...past)) {
    await ex.createOrder(SYMBOL, 'market', 'sell', qty, undefined, { reduceOnly: true, newClientOrderId: orderId() });
    long = false;
    orders++;
  }
}
console.log(`sweep-ccxt-bot: ${mids.length} steps, ${orders} orders, lookback ${lookback}`);
c.close();
