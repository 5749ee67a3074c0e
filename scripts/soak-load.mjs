// The load of `npm run soak` (scripts/soak.mjs), in its own process: signed bots placing limit and
// market orders and cancelling, and WebSocket clients subscribing to market streams, a few of
// them reconnecting every 10 s. Reports its counts to the parent over IPC. argv: url clients accounts-json
import WebSocket from 'ws';
import { buildSignedQuery } from '../src-shared/sign.ts';

const [url, clientsText, accountsJson] = process.argv.slice(2);
const accounts = JSON.parse(accountsJson);
const nClients = Number(clientsText);
let placed = 0;
let failed = 0;
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
setInterval(() => process.send?.({ placed, failed }), 5_000);
accounts.forEach((a, k) => void bot(a, k));
