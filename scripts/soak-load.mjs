// The load of `npm run soak` (scripts/soak.mjs), in its own process: signed bots placing limit and
// market orders and cancelling on the native API; one bot doing the same through the Binance
// dialect (/binance, form bodies, Binance signing) with a listenKey user stream open; WebSocket
// clients subscribing to market streams, a fifth of them dropped and reconnected every 10 s; and,
// when the parent imported a recording, a hosted replay (POST /api/v1/replays) with a /ws client
// on it, closed and started anew every 5 minutes. Reports its counts to the parent over IPC.
// argv: url clients accounts-json [replay-json: {symbol, start}]
import WebSocket from 'ws';
import { buildSignedQuery, hmacSha256Hex } from '../src-shared/sign.ts';

const [url, clientsText, accountsJson, replayJson] = process.argv.slice(2);
const accounts = JSON.parse(accountsJson);
const nClients = Number(clientsText);
let placed = 0;
let failed = 0;
let binancePlaced = 0;
let userEvents = 0;
let replays = 0;
let replayPushes = 0;
const symbols = ['BTCUSDT', 'ETHUSDT'];
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  for (const c of sockets) c?.terminate();
  process.exit(0);
});

async function signed({ key, secret }, method, path, params, body) {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const qs = buildSignedQuery({ ...params, timestamp: Date.now(), recv_window: 60_000 }, secret, raw);
  const r = await fetch(`${url}${path}?${qs}`, {
    method,
    headers: { 'X-API-KEY': key, ...(raw ? { 'content-type': 'application/json' } : {}) },
    body: raw,
  });
  return r.json();
}

async function bot([key, secret], k) {
  const open = [];
  for (let i = 0; !stopping; i++) {
    const symbol = symbols[(i + k) % symbols.length];
    try {
      const prices = await (await fetch(`${url}/fapi/v1/complete_price?symbol=${symbol}`)).json();
      const mark = Number(prices?.data?.mark_price ?? prices?.data?.[0]?.mark_price ?? 0);
      const side = Math.random() < 0.5 ? 1 : 2;
      const action = Math.random() < 0.6 ? 1 : 2;
      const positionSide = (side === 1) === (action === 1) ? 1 : 2;
      const market = Math.random() < 0.3 || !(mark > 0);
      const qty = symbol === 'BTCUSDT' ? '0.002' : '0.050';
      const body = { symbol, side, position_side: positionSide, position_action: action, type: market ? 2 : 1, qty };
      if (!market) body.price = (mark * (side === 1 ? 0.995 : 1.005)).toFixed(symbol === 'BTCUSDT' ? 1 : 2);
      const r = await signed({ key, secret }, 'POST', '/fapi/v1/orders', {}, body);
      if (r.code === 0) {
        placed++;
        if (!market) open.push([symbol, r.data.order_id]);
      } else failed++;
      if (open.length > 20) {
        const [s, id] = open.shift();
        await signed({ key, secret }, 'DELETE', '/fapi/v1/order', { symbol: s, order_id: id });
      }
    } catch {
      failed++;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sockets = new Array(nClients).fill(null);
function connect(k) {
  if (stopping) return;
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
  sockets[k] = ws;
  ws.on('open', () => {
    const s = symbols[k % symbols.length];
    ws.send(
      JSON.stringify({
        method: 'SUBSCRIBE',
        params: [`depth@${s},20`, `depth_update@${s}`, `trade@${s}`, `price@${s}`, `kline@${s},1s`, `kline@${s},1m`],
        id: 1,
      }),
    );
  });
  ws.on('message', () => {});
  ws.on('error', () => {});
  ws.on('close', () => setTimeout(() => connect(k), 200));
}
for (let k = 0; k < nClients; k++) connect(k);
// churn: a few clients drop and reconnect every 10 s
setInterval(() => {
  for (let j = 0; j < Math.max(1, nClients / 5); j++) sockets[Math.floor(Math.random() * nClients)]?.terminate();
}, 10_000);

/** A signed Binance-dialect call: form body (or query for DELETE), HMAC over the parameters. */
async function binance([key, secret], method, path, params) {
  const text = new URLSearchParams({ ...params, timestamp: String(Date.now()), recvWindow: '60000' }).toString();
  const signedText = `${text}&signature=${hmacSha256Hex(secret, text)}`;
  const body = method === 'POST' ? signedText : undefined;
  const r = await fetch(`${url}/binance${path}${body === undefined ? `?${signedText}` : ''}`, {
    method,
    headers: { 'x-mbx-apikey': key, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body,
  });
  return r.json();
}

/** The Binance-dialect bot: limit orders near the mark that rest and are cancelled, and market round trips. */
async function binanceBot(account) {
  const open = [];
  for (let i = 0; !stopping; i++) {
    try {
      const prices = await (await fetch(`${url}/binance/fapi/v1/premiumIndex?symbol=ETHUSDT`)).json();
      const mark = Number(prices?.markPrice ?? 0);
      if (mark > 0) {
        // two resting limit buys, then a market buy and a market sell that closes it (hedge mode, LONG)
        const k = i % 4;
        const market = k >= 2;
        const params = {
          symbol: 'ETHUSDT',
          side: k === 3 ? 'SELL' : 'BUY',
          positionSide: 'LONG',
          quantity: '0.050',
          type: market ? 'MARKET' : 'LIMIT',
          ...(market ? {} : { price: (mark * 0.99).toFixed(2), timeInForce: 'GTC' }),
        };
        const r = await binance(account, 'POST', '/fapi/v1/order', params);
        if (typeof r.orderId === 'number') {
          binancePlaced++;
          if (!market) open.push(r.orderId);
        } else failed++;
        if (open.length > 10)
          await binance(account, 'DELETE', '/fapi/v1/order', { symbol: 'ETHUSDT', orderId: String(open.shift()) });
      }
    } catch {
      failed++;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The Binance user data stream of `account`, reopened whenever it closes (the churn closes it too). */
let userSocket = null;
async function userStream([key]) {
  if (stopping) return;
  try {
    const r = await (
      await fetch(`${url}/binance/fapi/v1/listenKey`, { method: 'POST', headers: { 'x-mbx-apikey': key } })
    ).json();
    const ws = new WebSocket(`${url.replace('http', 'ws')}/binance/private/ws?listenKey=${r.listenKey}`);
    userSocket = ws;
    ws.on('message', () => userEvents++);
    ws.on('error', () => {});
    ws.on('close', () => setTimeout(() => void userStream([key]), 500));
  } catch {
    setTimeout(() => void userStream([key]), 1000);
  }
}

/**
 * A hosted replay of the imported recording with a /ws client on it, closed and started anew every
 * 5 minutes (starting one builds a whole service: seconds of CPU, not a steady load).
 */
async function replayLoop({ symbol, start }) {
  let id = null;
  let ws = null;
  while (!stopping) {
    try {
      ws?.terminate();
      if (id !== null) await fetch(`${url}/api/v1/replays/${id}`, { method: 'DELETE' });
      const r = await (
        await fetch(`${url}/api/v1/replays`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ symbols: [symbol], start, speed: 1 }),
        })
      ).json();
      if (r.code !== 0) throw new Error(r.message);
      id = r.data.id;
      replays++;
      ws = new WebSocket(`${r.data.url.replace('http', 'ws')}/ws`);
      ws.on('open', () =>
        ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [`depth_update@${symbol}`, `trade@${symbol}`], id: 1 })),
      );
      ws.on('message', () => replayPushes++);
      ws.on('error', () => {});
    } catch {
      failed++;
    }
    await new Promise((r) => setTimeout(r, 300_000));
  }
}

setInterval(() => process.send?.({ placed, failed, binancePlaced, userEvents, replays, replayPushes }), 5_000);
// the user stream takes part in the churn
setInterval(() => userSocket?.terminate(), 20_000);
accounts.forEach((a, k) => void bot(a, k));
if (accounts.length > 0) {
  void binanceBot(accounts[0]);
  void userStream(accounts[0]);
}
if (replayJson) void replayLoop(JSON.parse(replayJson));
