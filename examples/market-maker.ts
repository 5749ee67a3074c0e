// A small market maker on perpdesk's public API, written only with the SDK in src-shared/sdk.
//
// It keeps an exact local order book (LocalOrderBook over the WebSocket, accurate mode), quotes
// one bid and one ask around the mid every few seconds with signed orders, and logs its fills
// from the private `user` channel. One-way position mode, so buys and sells net out.
//
// Run against a service (`npm run serve -- --account mmbotkey01:mmbotsecret01:50000`):
//   npm run example:mm -- --key mmbotkey01 --secret mmbotsecret01 [--url http://127.0.0.1:8787]
//                         [--symbol BTCUSDT] [--spread-ticks 20] [--every 3] [--duration 60]
import { hmacSha256Hex } from '../src-shared/sign.ts';
import { LocalOrderBook, WsClient, type DepthPush, type DepthUpdate } from '../src-shared/sdk/index.ts';
import { PerpdeskApiError, RestClient } from '../src-shared/sdk/rest-client.ts';

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : process.env[`PERPDESK_${name.toUpperCase().replace(/-/g, '_')}`];
  if (v === undefined || v === '') {
    if (fallback !== undefined) return fallback;
    console.error(`market-maker: --${name} is required`);
    process.exit(2);
  }
  return v;
}

const url = arg('url', 'http://127.0.0.1:8787');
const key = arg('key');
const secret = arg('secret');
const symbol = arg('symbol', 'BTCUSDT').toUpperCase();
const spreadTicks = Number(arg('spread-ticks', '20'));
const everySec = Number(arg('every', '3'));
const durationSec = Number(arg('duration', '0'));

const log = (...xs: unknown[]) => console.log(new Date().toISOString().slice(11, 23), ...xs);

const rest = new RestClient({ baseUrl: url, apiKey: key, apiSecret: secret, recvWindow: 10_000 });
const ws = new WsClient({ url: `${url.replace(/^http/, 'ws')}/ws` });
const book = new LocalOrderBook({ symbol, fetchSnapshot: () => rest.depth(symbol, 100) });

async function main(): Promise<void> {
  await rest.syncTime();
  const [pair] = await rest.futuresSymbols({ symbols: [symbol] });
  const tick = Number(pair.price_step);
  const decimals = pair.price_precision;
  await rest.setPositionMode('one_way').catch((err: unknown) => {
    // refused while something is open from an earlier run: keep whatever mode it is in
    if (!(err instanceof PerpdeskApiError && err.code === 3015)) throw err;
  });
  const step = Number(pair.qty_step);
  // the smallest size that clears both the minimum quantity and the minimum notional, plus 10%
  const sizeFor = (price: number) => {
    const lots = Math.max(Number(pair.min_qty), (Number(pair.min_notional) * 1.1) / price) / step;
    return (Math.ceil(lots) * step).toFixed(pair.qty_precision);
  };
  log(`quoting ${symbol} at ${url}: the minimum size each side, ${spreadTicks} ticks from the mid`);

  ws.on(`depth_update@${symbol}`, (d) => book.handleDelta(d as DepthUpdate));
  ws.on(`depth@${symbol},20`, (d) => book.handleSnapshotPush(d as DepthPush));
  ws.on('user', (msg) => {
    const m = msg as { kind: string; data: Record<string, unknown> };
    if (m.kind === 'fill') {
      const t = m.data;
      log(`FILL ${t.side === 1 ? 'buy ' : 'sell'} ${t.qty} @ ${t.price} fee ${t.fee} pnl ${t.realized_pnl} (${t.role === 1 ? 'maker' : 'taker'})`);
    }
  });
  ws.onReconnect(() => book.onReconnect());
  book.onStateChange((s) => log(`local book: ${s} (resyncs ${book.resyncCount})`));
  ws.connect();
  await ws.login(() => {
    const timestamp = rest.timestamp();
    return { api_key: key, timestamp, signature: hmacSha256Hex(secret, `api_key=${key}&timestamp=${timestamp}`) };
  });
  await ws.subscribe([`depth_update@${symbol}`, `depth@${symbol},20`, 'user']);
  book.start();

  const quote = async () => {
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (book.state !== 'live' || !bid || !ask) return;
    const mid = (Number(bid[0]) + Number(ask[0])) / 2;
    const buy = (Math.floor(mid / tick) - spreadTicks) * tick;
    const sell = (Math.ceil(mid / tick) + spreadTicks) * tick;
    await rest.cancelAllOrders(symbol);
    for (const [side, price] of [[1, buy], [2, sell]] as const) {
      try {
        await rest.placeOrder({
          symbol, side, position_side: 1, position_action: 1, type: 1, time_in_force: 4,
          price: price.toFixed(decimals), qty: sizeFor(price),
        });
      } catch (err) {
        log(`quote ${side === 1 ? 'bid' : 'ask'} refused:`, err instanceof Error ? err.message : err);
      }
    }
    log(`mid ${mid.toFixed(decimals)}  bid ${buy.toFixed(decimals)}  ask ${sell.toFixed(decimals)}`);
  };
  const timer = setInterval(() => void quote().catch((err: unknown) => log('quote failed:', err)), everySec * 1000);

  const stop = async () => {
    clearInterval(timer);
    await rest.cancelAllOrders(symbol).catch(() => undefined);
    ws.close();
    book.dispose();
    const acct = await rest.account().catch(() => null);
    if (acct) log(`stopped; wallet ${acct.wallet_balance} USDT, unrealized ${acct.unrealized_pnl}`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (durationSec > 0) setTimeout(() => void stop(), durationSec * 1000);
}

main().catch((err: unknown) => {
  console.error('market-maker:', err instanceof Error ? err.message : err);
  process.exit(1);
});
