// The order routes' own work, measured in bench/api.bench.ts's process beside its HTTP runs: the
// commands the routes send, through venue.submit (checks, matching, fills, candles, the turn
// writer), with no HTTP, hooks, validation or serialisation. For the signed route also what no
// framework can remove: the SQLite group commit (a commit every `perCommit` orders, as the HTTP
// run just before grouped them) and the HMAC-SHA256 signature check of query + body. For both
// routes also the venue's once-a-second market checkpoint (market time, the public tape's rows
// since the last one, at most a ring's worth a pair, the books' update ids) with the kline
// timer's current candles and their commit: a second's cost, so its share of an order is its
// cost over the HTTP run's answers a second (`perSecond`), run every `perSecond` orders (once at
// the end when the loop is shorter: past 1,000 trades a pair it writes the same rows).
//
// What it is for: a route costs at least the floor (the framework's bare POST) plus this work,
// so floor / (floor + work) is the highest ratio to the floor that route could reach on this
// machine, in this run. Each figure is CPU µs per order (this thread's CPU over N orders in one
// synchronous loop: no event-loop turn between them, so it is a lower bound: the same work
// between HTTP requests costs more, docs/benchmarks-log.md "thirteenth pass").
import type { ServiceHandle } from '../../src-main/service.ts';
import { verifySignature } from '../../src-main/api/signature.ts';
import { buildSignedQuery } from '../../src-shared/sign.ts';

const QTYS = ['0.002', '0.003', '0.005'];
const price = (ticks: number): string => `${Math.floor(ticks / 10)}.${ticks % 10}`;

/**
 * This thread's CPU µs. Not process.cpuUsage(): that counts every thread, and right after an HTTP
 * run V8's helper threads (the concurrent marking of the run's heap) and the WAL checkpointer's
 * worker are still finishing the run's work: on 12-02 at 16:22 a bot loop's first 4,000 orders
 * read 7.87 µs an order by the process's CPU and 3.05 by this thread's, the later ones 2-3 by
 * either. Leaving the loop's own share of those threads out can only raise the ceiling, which is
 * an upper bound.
 */
function cpuUs(): number {
  const c = process.threadCpuUsage();
  return c.user + c.system;
}

/** CPU µs of one market checkpoint as the service's timers run it, with its commit. */
function checkpointCpu(svc: ServiceHandle): number {
  const t0 = cpuUs();
  svc.venue.checkpointMarket();
  svc.venue.klines.checkpoint(false);
  svc.venue.trading.group.commitNow();
  return cpuUs() - t0;
}

/**
 * Runs `n` orders (`place(i)`), the market checkpoint every `perSecond` of them (at least once):
 * CPU µs per order without the checkpoint, and the checkpoint's share of an order at
 * `perSecond` orders a second.
 */
function withCheckpoints(
  svc: ServiceHandle,
  o: { n: number; perSecond: number },
  place: (i: number) => void,
): { order: number; checkpoint: number } {
  checkpointCpu(svc); // what the HTTP run left unsaved is not this loop's
  const every = Math.max(1, Math.min(o.n, Math.round(o.perSecond)));
  let spent = 0;
  let runs = 0;
  const group = svc.venue.trading.group;
  const t0 = cpuUs();
  for (let i = 0; i < o.n; i++) {
    place(i);
    if ((i + 1) % every === 0) {
      group.commitNow(); // the orders' pending rows, in their time: the checkpoint's commit holds only its own
      spent += checkpointCpu(svc);
      runs++;
    }
  }
  group.commitNow();
  const total = cpuUs() - t0;
  return { order: (total - spent) / o.n, checkpoint: spent / runs / Math.max(1, o.perSecond) };
}

export interface BotWork {
  /** submit() of the order, µs per order. */
  order: number;
  /** The market checkpoint's share, µs per order at the HTTP run's rate. */
  checkpoint: number;
}

/** Bot orders taking the seed at askTicks / bidTicks (as the HTTP bot run): CPU µs per order. */
export function botWork(
  svc: ServiceHandle,
  o: { symbol: string; askTicks: number; bidTicks: number; perSecond: number; n: number },
): BotWork {
  return withCheckpoints(svc, o, (i) => {
    const k = i >> 1;
    const buy = (i & 1) === 0;
    const off = k & 3;
    svc.venue.submit({
      kind: 'placeBot',
      input: {
        symbol: o.symbol,
        side: buy ? 1 : 2,
        position_side: buy ? 1 : 2,
        position_action: 1,
        type: 1,
        price: price(buy ? o.askTicks + off : o.bidTicks - off),
        qty: QTYS[k % 3],
      },
    });
  });
}

export interface SignedWork {
  /** submit() of the order and its share of the group commit, µs per order. */
  order: number;
  /** The signature check (HMAC-SHA256 of query + body, constant-time compare), µs per order. */
  hmac: number;
  /** The market checkpoint's share, µs per order at the HTTP run's rate. */
  checkpoint: number;
}

/**
 * The i-th signed order as the HTTP signed run places them: even i buys for the first account,
 * odd i sells for the second, around priceTicks (a unique client_order_id each).
 */
export function signedInput(o: { symbol: string; priceTicks: number }, i: number) {
  const k = i >> 1;
  const buy = (i & 1) === 0;
  const off = k & 3;
  return {
    symbol: o.symbol,
    side: buy ? 1 : 2,
    position_side: buy ? 1 : 2,
    position_action: 1,
    type: 1,
    price: price(buy ? o.priceTicks + off : o.priceTicks - off),
    qty: QTYS[k % 3],
    time_in_force: 1,
    client_order_id: `w${process.pid.toString(36)}-${i}-${Date.now().toString(36)}`,
  };
}

/** Signed orders as the HTTP signed run places them (two accounts crossing around priceTicks). */
export function signedWork(
  svc: ServiceHandle,
  o: {
    symbol: string;
    priceTicks: number;
    accounts: ReadonlyArray<{ id: number; apiSecret: string }>;
    perCommit: number;
    perSecond: number;
    n: number;
  },
): SignedWork {
  const group = svc.venue.trading.group;
  const per = Math.max(1, Math.round(o.perCommit));
  const bodies: string[] = [];
  const { order, checkpoint } = withCheckpoints(svc, o, (i) => {
    const input = signedInput(o, i);
    svc.venue.submit({ kind: 'place', accountId: o.accounts[i & 1].id, input });
    if ((i + 1) % per === 0) group.commitNow();
    if (i < 2000) bodies.push(JSON.stringify(input));
  });
  // the signature check of the same bodies (signed as the client signs them)
  const m = bodies.length;
  const now = Date.now();
  const signed = bodies.map((body, i) => {
    const q = buildSignedQuery({ timestamp: now, recv_window: 5000 }, o.accounts[i & 1].apiSecret, body);
    const at = q.lastIndexOf('&signature=');
    return { body, signed: q.slice(0, at), signature: q.slice(at + 11), secret: o.accounts[i & 1].apiSecret };
  });
  const t1 = cpuUs();
  for (const s of signed) {
    const bad = verifySignature({
      timestamp: String(now),
      recvWindow: '5000',
      signed: s.signed,
      body: s.body,
      signature: s.signature,
      secret: s.secret,
      now,
    });
    if (bad !== null) throw new Error(`api-work: the bench's own signature was refused (${bad.check})`);
  }
  return { order, hmac: (cpuUs() - t1) / m, checkpoint };
}

/** The routes' own work measured beside the HTTP runs, one figure per round. */
export interface Work {
  bot: BotWork[];
  signed: SignedWork[];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f = (x: number, d = 2): string => x.toFixed(d);

/**
 * Prints what no route can go below in this run: the floor's server CPU per request plus the
 * route's own work, and the floor's own latency (`floors`: the floor runs; none with BENCH_ONLY).
 */
export function reportWork(o: {
  work: Work;
  floors: ReadonlyArray<{ cpuPerReq: number; rps: number; lat: { p50: number; p99: number } }>;
  targets: { bot: number; signed: number; p99: number };
  connections: number;
}): void {
  const { work, floors, targets } = o;
  const bot = median(work.bot.map((w) => w.order));
  const botCheckpoint = median(work.bot.map((w) => w.checkpoint));
  const signed = median(work.signed.map((w) => w.order));
  const hmac = median(work.signed.map((w) => w.hmac));
  const signedCheckpoint = median(work.signed.map((w) => w.checkpoint));
  const checkpointNote = "market checkpoint's share at the HTTP run's req/s";
  console.log('');
  console.log(
    "the routes' own work in this process, no HTTP (bench/lib/api-work.ts), CPU µs per order, median over the rounds:",
  );
  if (work.bot.length > 0)
    console.log(
      `  bot order: ${f(bot, 1)} (submit: checks, matching, fills, candles) + ${f(botCheckpoint, 2)} ${checkpointNote}`,
    );
  if (work.signed.length > 0)
    console.log(
      `  signed order: ${f(signed, 1)} (submit and its share of the SQLite group commit) + ${f(hmac, 1)} signature check` +
        ` + ${f(signedCheckpoint, 2)} ${checkpointNote}`,
    );
  if (floors.length === 0) return;
  const floorCpu = median(floors.map((r) => r.cpuPerReq));
  const best = (w: number): string => `x${f(floorCpu / (floorCpu + w), 3)}`;
  console.log(
    `  highest CPU ratio a route could reach (floor / (floor + work + checkpoint), floor ${f(floorCpu, 1)} µs/req): ` +
      `bot ${best(bot + botCheckpoint)} (target ${targets.bot}), ` +
      `signed ${best(signed + hmac + signedCheckpoint)} (target ${targets.signed}); an upper bound still: ` +
      'the work measured in a loop, which between HTTP requests costs more (docs/benchmarks.md)',
  );
  const p99 = floors.map((r) => r.lat.p99);
  // closed loop: every connection sends its next request when the answer arrives, so the mean
  // latency is connections / req/s; p99 under the target needs more than connections / p99 req/s
  console.log(
    `  the floor's own latency at ${o.connections} connections: p50 ${f(median(floors.map((r) => r.lat.p50)))} ms, ` +
      `p99 ${f(median(p99))} ms (${f(Math.min(...p99))}-${f(Math.max(...p99))}); a closed loop's mean latency is ` +
      `connections / req/s, so p99 < ${targets.p99} ms needs over ${Math.round(o.connections / (targets.p99 / 1000))} req/s ` +
      `(the floor, doing nothing: ${Math.round(median(floors.map((r) => r.rps)))})`,
  );
}
