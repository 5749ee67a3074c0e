// A bot that trades a replay in lockstep (docs/replay.md, "Bots and determinism"), written only
// with the SDK (src-shared/sdk), the same one it would use on the live venue.
//
// It holds the replay clock over the WebSocket: each REPLAY step is answered once everything the
// step did was committed and pushed, so between two steps the market stands still and the bot
// sees it whole. Every `--trade-every` steps it reads the book and works one order: flat, it bids
// at the best bid (a maker order that waits in the historical queue); long, it offers its
// position at the best ask; an order still open from the last round is cancelled first. Nothing
// it does depends on the wall clock, so the same replay and the same options give the same fills.
//
// Run against a replay (`npm run serve -- --replay TRXUSDT@2025-04-14T00:00Z --lockstep
// --account replaybot01:replaysecret01:10000`, or a replay started from the live venue) of the
// TRXUSDT L2 and trade recording, imported first into the service's data folder (docs/data.md,
// "A recording's folder"):
//   npm run data -- import test/fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota --symbol TRXUSDT --market um
//   npm run example:replay -- --key replaybot01 --secret replaysecret01 [--url http://127.0.0.1:8787]
//                             [--symbol TRXUSDT] [--step-ms 100] [--steps 0 (to the end)] [--trade-every 20]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PerpdeskApiError, RestClient, WsClient, type ReplayState } from '../src-shared/sdk/index.ts';

export interface ReplayBotOptions {
  /** The replay venue, http://HOST:PORT. */
  url: string;
  key: string;
  secret: string;
  symbol: string;
  /** Market ms per step. */
  stepMs: number;
  /** Steps to run; 0 = until the replay finishes. */
  steps: number;
  /** Steps between two trading rounds; 0 = never trade (a pure stepping client). */
  tradeEvery: number;
  /** Order notional, USDT (rounded down to the pair's step; at least its minimum). */
  notional?: number;
  /** Wall ms to give up after (benchmarks); default none. */
  maxWallMs?: number;
}

export interface ReplayBotResult {
  steps: number;
  orders: number;
  cancels: number;
  wallMs: number;
  status: ReplayState;
}

/** Multiplies a decimal step by an integer, exactly, as a decimal string. */
function times(step: string, n: number): string {
  const [i, f = ''] = step.split('.');
  const units = BigInt(i + f) * BigInt(n);
  if (f.length === 0) return units.toString();
  const s = units.toString().padStart(f.length + 1, '0');
  return `${s.slice(0, s.length - f.length)}.${s.slice(s.length - f.length)}`;
}

/** The live venue's answer to the replay routes (docs/api.md, Errors). */
const NOT_A_REPLAY = 1108;

/** What a bot pointed at the live venue is told: what it is, and how to start a replay. */
function notAReplay(url: string): Error {
  return new Error(
    `${url} is not a replay (it is a live venue). Start one and give its address with --url: from this venue, ` +
      `its Replay dialog or POST ${url}/api/v1/replays, then the bot's account on the replay (POST /admin/v1/accounts ` +
      "at the replay's url: a replay has accounts of its own); or, with this venue stopped first (a replay on its own " +
      'takes the data folder, as the live venue does), ' +
      '`npm run serve -- --replay TRXUSDT@2025-04-14 --lockstep --account KEY:SECRET:10000` (docs/replay.md)',
  );
}

export async function runReplayBot(o: ReplayBotOptions): Promise<ReplayBotResult> {
  const rest = new RestClient({ baseUrl: o.url, apiKey: o.key, apiSecret: o.secret, recvWindow: 60_000 });
  const ws = new WsClient({ url: `${o.url.replace(/^http/, 'ws')}/ws`, requestTimeoutMs: 60_000 });
  const started = Date.now();
  let steps = 0;
  let orders = 0;
  let cancels = 0;
  ws.connect();
  try {
    await ws.whenReady();
    // a replay first: on the live venue its pairs are not the question (before, the default pair
    // read 'Unknown symbol(s): TRXUSDT' there)
    let status = (await rest.replay().catch((err: unknown) => {
      throw err instanceof PerpdeskApiError && err.code === NOT_A_REPLAY ? notAReplay(o.url) : err;
    })) as ReplayState;
    const [pair] = await rest.futuresSymbols({ symbols: [o.symbol] });
    if (pair === undefined) throw new Error(`${o.symbol} is not listed on this replay`);
    const openLong = { side: 1, position_side: 1, position_action: 1 } as const;
    const closeLong = { side: 2, position_side: 1, position_action: 2 } as const;
    while (!status.finished && (o.steps === 0 || steps < o.steps)) {
      if (o.maxWallMs !== undefined && Date.now() - started > o.maxWallMs) break;
      status = (await ws.replayStep(o.stepMs)) as ReplayState;
      steps++;
      if (o.tradeEvery === 0 || steps % o.tradeEvery !== 0) continue;
      const open = await rest.openOrders(o.symbol);
      if (open.length > 0) {
        cancels += (await rest.cancelAllOrders(o.symbol)).cancelled;
      }
      const book = await rest.depth(o.symbol, 5);
      const bid = book.bids[0]?.[0];
      const ask = book.asks[0]?.[0];
      if (bid === undefined || ask === undefined) continue;
      const position = (await rest.positions()).find(
        (p) => p.symbol === o.symbol && p.position_side === 1 && p.quantity > 0,
      );
      if (position === undefined) {
        const minLots = Math.max(1, Math.ceil(Number(pair.min_qty) / Number(pair.qty_step)));
        const lots = Math.max(
          minLots,
          Math.ceil(
            Math.max(o.notional ?? 100, Number(pair.min_notional) * 1.01) / Number(bid) / Number(pair.qty_step),
          ),
        );
        await rest.placeOrder({
          symbol: o.symbol,
          type: 1,
          price: bid,
          qty: times(pair.qty_step, lots),
          time_in_force: 1,
          ...openLong,
        });
      } else {
        await rest.placeOrder({
          symbol: o.symbol,
          type: 1,
          price: ask,
          qty: String(position.quantity),
          time_in_force: 1,
          ...closeLong,
        });
      }
      orders++;
    }
    await ws.replay({ action: 'release' });
    return { steps, orders, cancels, wallMs: Date.now() - started, status: (await rest.replay()) as ReplayState };
  } finally {
    ws.close();
  }
}

const USAGE = `Usage: npm run example:replay -- --key KEY --secret SECRET [options]

Trades a replay in lockstep: steps its clock and works one maker order (docs/replay.md).

  --key KEY           the account's API key (required)
  --secret SECRET     its secret (required)
  --url URL           the replay venue (default http://127.0.0.1:8787)
  --symbol SYMBOL     the pair (default TRXUSDT)
  --step-ms MS        market ms a step (default 100)
  --steps N           steps to run, 0 to the replay's end (default 0)
  --trade-every N     steps between two trading rounds, 0 never (default 20)
  -h, --help          this text

Each option may come from the environment instead: PERPDESK_KEY, PERPDESK_STEP_MS, ...`;

function usageError(message: string): never {
  console.error(`replay-bot: ${message} (--help for the options)`);
  process.exit(2);
}

/** The command line's options (run as a script), each else from PERPDESK_NAME, else its default. */
function commandLine(): (name: string, fallback?: string) => string {
  const text = { type: 'string' } as const;
  let given: Record<string, string | boolean | undefined>;
  try {
    given = parseArgs({
      options: {
        key: text,
        secret: text,
        url: text,
        symbol: text,
        'step-ms': text,
        steps: text,
        'trade-every': text,
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    return usageError(parseArgsProblem(err));
  }
  if (given.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return (name, fallback) => {
    const v = given[name] ?? process.env[`PERPDESK_${name.toUpperCase().replace(/-/g, '_')}`];
    if (typeof v === 'string' && v !== '') return v;
    if (fallback !== undefined) return fallback;
    return usageError(`--${name} is required`);
  };
}

/** The service's address without its trailing slash; one that is no http(s) URL (`localhost:8787`) is a usage error. */
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

/** A whole-number option of at least `min`; anything else is a usage error. */
function whole(name: string, v: string, min: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || !Number.isSafeInteger(n))
    return usageError(`--${name} must be a whole number${min > 0 ? ` from ${min}` : ''}, not '${v}'`);
  return n;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = commandLine();
  const opts: ReplayBotOptions = {
    url: httpUrl(arg('url', 'http://127.0.0.1:8787')),
    key: arg('key'),
    secret: arg('secret'),
    symbol: arg('symbol', 'TRXUSDT').toUpperCase(),
    stepMs: whole('step-ms', arg('step-ms', '100'), 1),
    steps: whole('steps', arg('steps', '0'), 0),
    tradeEvery: whole('trade-every', arg('trade-every', '20'), 0),
  };
  runReplayBot(opts).then(
    async (r) => {
      console.log(
        `replay-bot: ${r.steps} steps (${Math.round(r.steps / (r.wallMs / 1000))}/s), ${r.orders} orders, ${r.cancels} cancelled; replay at ${new Date(r.status.time).toISOString()}`,
      );
      const report = await new RestClient({ baseUrl: opts.url }).replayReport();
      for (const a of report.accounts) {
        console.log(
          `  account ${a.user_id}: ${a.fills} fills, realized ${a.realized_pnl}, fees ${a.fees}, net ${a.net_pnl}, max drawdown ${a.max_drawdown}`,
        );
      }
    },
    (err: unknown) => {
      console.error('replay-bot:', err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
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
