// A bot for the sweep tests: what it does is its `mode` parameter (PERPDESK_PARAMS).
//   trade: buy at the first step of an hour, sell at the second, step to the end, exit 0 (nothing
//          after the last step: a bot still busy a second after the replay's end is stopped);
//   env: print the contract's variables (and NODE_COMPILE_CACHE), exit 0;  crash: throw after one step;  exit3: print a
//   line and exit 3;  hang: hold the connection and never step (the time bound ends it);
//   until-file: as hang, until the file `file` exists (the test makes it), then exit 0;
//   slow: trade, waiting `sleep_ms` of wall time before each step;  deposit: trade, depositing 500 USDT
//   after the first step's order.
import { existsSync } from 'node:fs';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { RestClient, WsClient, type ReplayState } from '../../../src-shared/sdk/index.ts';

const p = JSON.parse(process.env.PERPDESK_PARAMS ?? '{}') as {
  mode?: string;
  sleep_ms?: number;
  qty?: string;
  file?: string;
};
const mode = p.mode ?? 'trade';
const symbol = (process.env.PERPDESK_SYMBOLS ?? '').split(',')[0];

if (mode === 'env') {
  for (const k of Object.keys(process.env)
    .filter((k) => k.startsWith('PERPDESK_') || k === 'NODE_COMPILE_CACHE')
    .sort())
    console.log(`${k}=${process.env[k]}`);
  process.exit(0);
}
if (mode === 'exit3') {
  console.log('test-bot: giving up with 3');
  process.exit(3);
}

const rest = new RestClient({
  baseUrl: process.env.PERPDESK_URL!,
  apiKey: process.env.PERPDESK_API_KEY!,
  apiSecret: process.env.PERPDESK_API_SECRET!,
  recvWindow: 60_000,
});
const ws = new WsClient({ url: process.env.PERPDESK_WS_URL!, requestTimeoutMs: 60_000 });
ws.connect();
await ws.whenReady();
if (mode === 'hang') {
  console.log('test-bot: hanging');
  setInterval(() => undefined, 1000);
  await new Promise(() => undefined);
}
if (mode === 'until-file') {
  console.log(`test-bot: running until ${p.file} exists`);
  while (!existsSync(p.file!)) await new Promise((r) => setTimeout(r, 100));
  process.exit(0);
}
let steps = 0;
let status = (await rest.replay()) as ReplayState;
while (!status.finished) {
  if (mode === 'slow') await new Promise((r) => setTimeout(r, p.sleep_ms ?? 200));
  status = (await ws.replayStep(3_600_000)) as ReplayState;
  steps++;
  if (mode === 'crash') throw new Error('test-bot: boom at step 1');
  if (steps === 1 || steps === 2) {
    const buy = steps === 1;
    await rest.placeOrder({
      symbol,
      type: OrderType.MARKET,
      qty: p.qty ?? '0.01',
      side: buy ? Side.BUY : Side.SELL,
      position_side: PositionSide.LONG,
      position_action: buy ? PositionAction.OPEN : PositionAction.CLOSE,
    });
    if (buy && mode === 'deposit') await rest.deposit('500');
  }
}
console.log(`test-bot: ${steps} steps`);
ws.close();
