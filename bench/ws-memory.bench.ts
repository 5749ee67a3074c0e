// WebSocket memory benchmark (not a test). Run: npm run bench:ws-memory -- [--clients 2000]
//   [--rounds 2] [--hold 3] [--target-mb 64]
//
// The service's RSS before and after N WebSocket clients connect, subscribe, receive pushes for
// --hold seconds and leave, --rounds times. The service runs in a child process of its own
// (startService: temp data dir, the 12 pairs simulated, as a user runs it, with 10 paper
// accounts) with --expose-gc; the clients are this process's raw sockets (lib/ws-churn.ts), so
// their memory is not counted. The clients cover what the hubs keep per connection:
//   6 in 10 on /ws, each on 3 market streams (depth, diff depth, trade, price and kline streams
//     of 6 symbols, spread over them); one in 20 also LOGINs and subscribes to its user stream;
//   4 in 10 on the Binance dialect: /binance/ws/<raw stream> plus a SUBSCRIBE, combined streams
//     (/binance/stream?streams=a/b/c), bookTicker plus a partial-depth SUBSCRIBE, and listenKey
//     user streams (/binance/private/ws?listenKey=), one listenKey per account.
// While they listen the accounts trade (market orders on the exchange), so the user streams push.
// Half of the clients leave with a close frame, half are cut off. Each figure is taken after a
// settle of 2 s and two full collections, so what is printed is what the service keeps, not
// garbage not yet collected. Also printed: the V8 heap, external and array-buffer memory, the
// /ws hub's counts, and the exchange's level/trade/account/setting listeners (the /ws hub and the
// Binance hub each attach theirs only while someone listens), which must be back to where they
// were after each round.
//
// Target (DESIGN section 6): after the clients leave, RSS within 64 MB of where it was before
// they came; the run exits 1 when it is missed or a hub kept anything. The structural side in
// detail is a test: test/api/ws/memory.test.ts.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OrderType, PositionAction, PositionSide, Side } from '../src-shared/enums.ts';
import { hmacSha256Hex, loginPayload } from '../src-shared/sign.ts';
import { ChurnClients, type ChurnSpec } from './lib/ws-churn.ts';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const N = Number(arg('clients', '2000'));
const ROUNDS = Number(arg('rounds', '2'));
const HOLD_S = Number(arg('hold', '3'));
const TARGET_MB = Number(arg('target-mb', '64'));
const EVENTS = ['level', 'trade', 'account', 'setting'] as const;

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  conns: number;
  streams: number;
  feeds: number;
  users: number;
  /** The exchange's listeners of each EVENTS kind. */
  listeners: number[];
}

interface Account {
  apiKey: string;
  apiSecret: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (b: number): string => (b / 1048576).toFixed(1);

async function server(accounts: Account[]): Promise<void> {
  const { startService } = await import('../src-main/service.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-bench-wsmem-'));
  const svc = await startService({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    rateLimit: false,
  });
  const hub = svc.app.wsHub;
  const ex = svc.venue.exchange;
  const balance = 1_000_000n * 100_000_000n; // 1 M USDT in 1e-8 units
  const ids = accounts.map(
    (a) => ex.execute({ kind: 'upsertAccount', spec: { ...a, kind: 'user', balance }, now: Date.now() }).id,
  );
  const gc = (globalThis as { gc?: () => void }).gc;
  let side: Side = Side.SELL;
  let refused = 0;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'trade') {
      // every account takes a little liquidity on each side: its user streams push
      side = side === Side.BUY ? Side.SELL : Side.BUY;
      for (const accountId of ids) {
        const input = {
          symbol: 'BTCUSDT',
          side,
          position_side: PositionSide.LONG,
          position_action: side === Side.BUY ? PositionAction.OPEN : PositionAction.CLOSE,
          type: OrderType.MARKET,
          qty: '0.002',
        };
        try {
          ex.execute({ kind: 'place', accountId, input });
        } catch (err) {
          refused++; // a close whose open did not fill: the next round trip goes on
          if (refused > 1000) throw err;
        }
      }
    } else if (m.type === 'sample') {
      await sleep(2000);
      gc?.();
      await sleep(100);
      gc?.();
      const u = process.memoryUsage();
      const f = hub.subs.footprint;
      const s: Sample = {
        rss: u.rss,
        heapUsed: u.heapUsed,
        heapTotal: u.heapTotal,
        external: u.external,
        arrayBuffers: u.arrayBuffers,
        conns: hub.connectionCount,
        streams: f.streams,
        feeds: f.feeds,
        users: f.users,
        listeners: EVENTS.map((k) => ex.events.count(k)),
      };
      process.send!({ type: 'sample', s });
    } else if (m.type === 'stop') {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: svc.url, symbols: [...ex.pairs.keys()].slice(0, 6) });
}

/** What client i of the round connects to and asks for. */
function specOf(i: number, symbols: string[], accounts: Account[], listenKeys: string[]): ChurnSpec {
  const sym = (k: number): string => symbols[(i + k) % symbols.length];
  const low = (k: number): string => sym(k).toLowerCase();
  const kinds = [
    (s: string) => `depth@${s},20`,
    (s: string) => `depth_update@${s}`,
    (s: string) => `trade@${s}`,
    (s: string) => `price@${s}`,
    (s: string) => `kline@${s},1m`,
  ];
  const acct = Math.floor(i / 10) % accounts.length;
  switch (i % 10) {
    case 6:
      return {
        path: `/binance/ws/${low(0)}@depth@100ms`,
        requests: [{ method: 'SUBSCRIBE', params: [`${low(1)}@aggTrade`], id: 1 }],
      };
    case 7:
      return {
        path: `/binance/stream?streams=${low(0)}@aggTrade/${low(1)}@markPrice/${low(2)}@kline_1m`,
        requests: [],
      };
    case 8:
      return {
        path: `/binance/ws/${low(0)}@bookTicker`,
        requests: [{ method: 'SUBSCRIBE', params: [`${low(0)}@depth20@100ms`], id: 1 }],
      };
    case 9:
      return { path: `/binance/private/ws?listenKey=${listenKeys[acct]}`, requests: [] };
    default: {
      const streams = [0, 1, 2].map((k) => kinds[(i + k) % kinds.length](sym(k)));
      const requests: ChurnSpec['requests'] = [{ method: 'SUBSCRIBE', params: streams, id: 1 }];
      if (i % 20 === 0) {
        const { apiKey, apiSecret } = accounts[acct];
        const timestamp = Date.now();
        const recv_window = 60_000; // the machine may be loaded: thousands of handshakes go first
        const signature = hmacSha256Hex(apiSecret, loginPayload(apiKey, timestamp, recv_window));
        requests.push({ method: 'LOGIN', params: { api_key: apiKey, timestamp, recv_window, signature }, id: 2 });
        requests.push({ method: 'SUBSCRIBE', params: ['user'], id: 3 });
      }
      return { path: '/ws', requests };
    }
  }
}

async function main(): Promise<void> {
  const watchdog = setTimeout(
    () => {
      console.error('ws-memory bench: took too long, giving up');
      process.exit(1);
    },
    (120 + ROUNDS * (HOLD_S + 60)) * 1000,
  );
  const accounts: Account[] = Array.from({ length: 10 }, () => ({
    apiKey: randomBytes(32).toString('hex'),
    apiSecret: randomBytes(32).toString('hex'),
  }));
  const child = fork(fileURLToPath(import.meta.url), ['--role', 'server', JSON.stringify(accounts)], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.on('exit', () => child.kill()); // a run that fails does not leave its service behind
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      const on = (m: { type: string } & Record<string, unknown>): void => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
    });
  const { url, symbols } = await next<{ url: string; symbols: string[] }>('ready');
  const listenKeys: string[] = [];
  for (const a of accounts) {
    const r = await fetch(`${url}/binance/fapi/v1/listenKey`, {
      method: 'POST',
      headers: { 'x-mbx-apikey': a.apiKey },
    });
    listenKeys.push(((await r.json()) as { listenKey: string }).listenKey);
  }
  const sample = async (): Promise<Sample> => {
    child.send({ type: 'sample' });
    return (await next<{ s: Sample }>('sample')).s;
  };
  const line = (what: string, s: Sample): void =>
    console.log(
      `  ${what.padEnd(30)} rss ${mb(s.rss).padStart(6)} MiB, heap ${mb(s.heapUsed).padStart(5)} / ${mb(s.heapTotal).padStart(5)} MiB, ` +
        `external ${mb(s.external).padStart(5)} MiB (array buffers ${mb(s.arrayBuffers)}), /ws hub: ${s.conns} connections, ` +
        `${s.streams} streams, ${s.feeds} feeds, ${s.users} users; exchange listeners ${s.listeners.join('/')}`,
    );
  console.log(
    `ws memory bench: node ${process.version}, ${N} clients (6 in 10 on /ws, 3 streams each, 1 in 20 with its user stream; ` +
      `4 in 10 on /binance: raw, combined and listenKey streams), ${ROUNDS} round(s), ${HOLD_S} s each`,
  );
  await sleep(3000); // the simulated market's first seconds
  const before = await sample();
  line('before any client', before);
  let worst = 0;
  let structural = true;
  for (let r = 1; r <= ROUNDS; r++) {
    const clients = new ChurnClients();
    await clients.connect(url.replace('http', 'ws'), N, (i) => specOf(i, symbols, accounts, listenKeys));
    for (let t = 0; t < HOLD_S; t++) {
      child.send({ type: 'trade' });
      await sleep(1000);
    }
    const receiving = clients.receiving();
    const connected = clients.size;
    const during = await sample();
    line(`round ${r}: ${connected} connected`, during);
    console.log(`  round ${r}: ${receiving} of ${connected} clients received pushes`);
    clients.close();
    const after = await sample();
    line(`round ${r}: all left`, after);
    worst = Math.max(worst, after.rss - before.rss);
    if (after.conns !== 0 || after.streams !== 0 || after.feeds !== 0 || after.users !== 0) structural = false;
    if (after.listeners.some((n, k) => n !== before.listeners[k])) structural = false;
    if (receiving < connected * 0.9) structural = false;
  }
  child.send({ type: 'stop' });
  await new Promise((r) => child.once('exit', r));
  clearTimeout(watchdog);
  const ok = worst <= TARGET_MB * 1048576 && structural;
  console.log(
    `RSS after the clients left: at most ${mb(worst)} MiB above before (target <= ${TARGET_MB} MB); ` +
      `hubs emptied and clients served: ${structural ? 'yes' : 'NO'}  ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) process.exitCode = 1;
}

if (process.argv[2] === '--role' && process.argv[3] === 'server')
  await server(JSON.parse(process.argv[4]) as Account[]);
else await main();
