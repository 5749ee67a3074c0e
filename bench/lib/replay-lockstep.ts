// Section 2 of bench/replay.bench.ts: lockstep over the WebSocket. The example bot
// (examples/replay-bot.ts) holds a replay venue's clock and steps it (10 ms of history a step,
// about one historical print each) over /ws with the SDK's WsClient, trading over REST every
// TRADE_EVERY steps, against a whole replay service (startService: HTTP, /ws, the venue) in this
// process. Reports steps per second (target 5,000 or more).
// Same-run baseline: the very same client (WsClient, one request in flight, awaited) against a
// bare `ws` WebSocketServer that answers each request at once with a status of the same size:
// the transport's floor. The ratio is what the step itself costs on top of the round trip
// (the market's events, the commit, the flush of the streams).
// Both run in this one process (server and client share its event loop, as a bot on the same
// machine shares its cores), each bounded by `seconds` of wall time.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { runReplayBot } from '../../examples/replay-bot.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { startService } from '../../src-main/service.ts';
import { WsClient } from '../../src-shared/sdk/index.ts';

const KEY = 'benchbot0001';
const SECRET = 'benchsecret0001';
const STEP_MS = 10;
const TRADE_EVERY = 1000;
const fmtN = (n: number): string => Math.round(n).toLocaleString('en-US');

async function echoBaseline(statusText: string, seconds: number): Promise<{ steps: number; ms: number }> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: '/ws' });
  wss.on('connection', (sock) => {
    sock.on('message', (raw) => {
      const { id } = JSON.parse(String(raw)) as { id: number };
      sock.send(`{"id":${id},"result":${statusText}}`);
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  const ws = new WsClient({ url: `ws://127.0.0.1:${port}/ws` });
  ws.connect();
  await ws.whenReady();
  const t0 = performance.now();
  let steps = 0;
  while (performance.now() - t0 < seconds * 1000) {
    await ws.replayStep(STEP_MS);
    steps++;
  }
  const ms = performance.now() - t0;
  ws.close();
  wss.close();
  await new Promise((r) => http.close(r));
  return { steps, ms };
}

export async function lockstepSection(data: ReplayData, symbol: string, start: number, seconds: number): Promise<void> {
  console.log(
    `replay, lockstep over the WebSocket: the example bot steps ${STEP_MS} ms of history a step, trades every ${TRADE_EVERY} steps; bound ${seconds} s a run`,
  );
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    accounts: [{ apiKey: KEY, apiSecret: SECRET, balance: 1_000_000n * 100_000_000n }],
    replay: { options: { symbols: [symbol], start }, data, lockstep: true },
  });
  let statusText: string;
  let r;
  try {
    statusText = JSON.stringify(svc.venue.replay!.status());
    r = await runReplayBot({
      url: svc.url,
      key: KEY,
      secret: SECRET,
      symbol,
      stepMs: STEP_MS,
      steps: 0,
      tradeEvery: TRADE_EVERY,
      notional: 1000,
      maxWallMs: seconds * 1000,
    });
  } finally {
    await svc.close();
  }
  const base = await echoBaseline(statusText, seconds);
  const baseRate = (base.steps / base.ms) * 1000;
  const rate = (r.steps / r.wallMs) * 1000;
  console.log(
    `  baseline, bare ws server answering at once (same client): ${fmtN(base.steps)} round trips in ${base.ms.toFixed(0)} ms = ${fmtN(baseRate)} /s`,
  );
  console.log(
    `  replay venue, example bot in lockstep:                    ${fmtN(r.steps)} steps in ` +
      `${r.wallMs} ms = ${fmtN(rate)} /s (${r.orders} orders, ${fmtN(r.status.events)} events applied)`,
  );
  console.log(
    `  ratio replay / baseline: ${(rate / baseRate).toFixed(3)}   target 5,000 steps/s: ${rate >= 5_000 ? 'met' : 'NOT met'}`,
  );
}
