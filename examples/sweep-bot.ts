// A sweepable bot on the SDK (docs/sweeps.md): it reads its venue and its parameters from the
// environment a sweep gives every job (PERPDESK_URL, PERPDESK_WS_URL, PERPDESK_API_KEY, PERPDESK_API_SECRET,
// PERPDESK_PARAMS, PERPDESK_SYMBOLS), holds the replay clock in lockstep and trades a moving-average
// cross: each step of `step_minutes` of history it reads the book's mid, and while the fast mean is
// above the slow one it holds a long of `qty`, else it is flat (market orders). Nothing depends on
// the wall clock, so a job run twice gives the same fills. It exits 0 when the replay ends.
//
//   npm run sweep -- --bot "node examples/sweep-bot.ts" --replay BTCUSDT@2025-01-06..2025-01-12 \
//     --split day --grid examples/sweep-grid.json
// Parameters (PERPDESK_PARAMS, JSON): fast (default 4), slow (16), qty ("0.01"), step_minutes (15).
import { OrderType, PositionAction, PositionSide, Side } from '../src-shared/enums.ts';
import { RestClient, WsClient, type ReplayState } from '../src-shared/sdk/index.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`A bot for sweeps (docs/sweeps.md): a sweep runs it once per job, with its venue and parameters in
PERPDESK_URL, PERPDESK_WS_URL, PERPDESK_API_KEY, PERPDESK_API_SECRET, PERPDESK_SYMBOLS and PERPDESK_PARAMS:

  npm run sweep -- --bot "node examples/sweep-bot.ts" --replay BTCUSDT@2025-01-06..2025-01-12 \\
    --split day --grid examples/sweep-grid.json

Parameters (PERPDESK_PARAMS, JSON): fast (default 4), slow (16), qty ("0.01"), step_minutes (15).`);
  process.exit(0);
}

function env(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') {
    console.error(`sweep-bot: ${name} is not set (run it through npm run sweep)`);
    process.exit(2);
  }
  return v;
}

const url = env('PERPDESK_URL');
const params = (() => {
  try {
    return JSON.parse(process.env.PERPDESK_PARAMS ?? '{}') as Record<string, unknown>;
  } catch (err) {
    // one line, exit 2, as a missing variable (it was a stack trace)
    console.error(`sweep-bot: PERPDESK_PARAMS is not JSON: ${(err as Error).message}`);
    return process.exit(2);
  }
})();
const fast = Number(params.fast ?? 4);
const slow = Number(params.slow ?? 16);
const qty = String(params.qty ?? '0.01');
const stepMs = Number(params.step_minutes ?? 15) * 60_000;
const symbol = env('PERPDESK_SYMBOLS').split(',')[0];
if (!(fast >= 1 && slow > fast && stepMs > 0)) {
  console.error(`sweep-bot: wants 1 <= fast < slow and step_minutes > 0, got ${JSON.stringify(params)}`);
  process.exit(2);
}

const rest = new RestClient({
  baseUrl: url,
  apiKey: env('PERPDESK_API_KEY'),
  apiSecret: env('PERPDESK_API_SECRET'),
  recvWindow: 60_000,
});
const ws = new WsClient({ url: env('PERPDESK_WS_URL'), requestTimeoutMs: 60_000 });

const mean = (xs: number[], n: number) => xs.slice(-n).reduce((a, b) => a + b, 0) / n;

async function main(): Promise<void> {
  ws.connect();
  await ws.whenReady();
  const mids: number[] = [];
  let long = false;
  let orders = 0;
  let status = (await rest.replay()) as ReplayState;
  while (!status.finished) {
    status = (await ws.replayStep(stepMs)) as ReplayState;
    const book = await rest.depth(symbol, 5);
    const bid = book.bids[0]?.[0];
    const ask = book.asks[0]?.[0];
    if (bid === undefined || ask === undefined) continue;
    mids.push((Number(bid) + Number(ask)) / 2);
    if (mids.length < slow || status.finished) continue;
    const want = mean(mids, fast) > mean(mids, slow);
    if (want === long) continue;
    await rest.placeOrder({
      symbol,
      type: OrderType.MARKET,
      qty,
      side: want ? Side.BUY : Side.SELL,
      position_side: PositionSide.LONG,
      position_action: want ? PositionAction.OPEN : PositionAction.CLOSE,
    });
    long = want;
    orders++;
  }
  await ws.replay({ action: 'release' });
  console.log(`sweep-bot: ${mids.length} steps, ${orders} orders, fast ${fast} slow ${slow}`);
}

main()
  .then(() => {
    ws.close();
  })
  .catch((err: unknown) => {
    console.error('sweep-bot:', err instanceof Error ? err.message : err);
    ws.close();
    process.exit(1);
  });
