// Market-data benchmark (not a test). Run: node_modules/.bin/node bench/market.bench.ts
// (BENCH_SECONDS=N changes the 5 s per load run.)
//
// One run, one machine, 127.0.0.1 only, ends by itself:
//   1. a service on a temp data dir, assembled as startService() does (openVenue + buildApp +
//      listen on 127.0.0.1 port 0) but with the per-IP rate limit off (it would answer 429 after
//      600 req/s) and an onRequest/onSend hook pair that times every klines request inside the
//      server (routing, validation, handler, body; not the socket write);
//   2. history: 20 pairs (the catalogue plus bench pairs) filled by KlineService.recordTrade over
//      1,600 minutes of market time, BTCUSDT densely, the others sparsely, so every pair has over
//      1,500 candles in 1s and 1m; the fill's trades/s and candles written/s include SQLite; and
//      the live rhythm (advance + one write transaction per 250 ms) against the bare builder;
//   3. the baseline: a bare Fastify hello-world app in this same process;
//   4. load runs with autocannon in a child process (so the client does not share the servers'
//      event loop): hello-world, the same bare app sending a constant body of the klines
//      answer's bytes (payload-matched baseline: 200 KiB answers are bound by bytes, not by
//      candles), GET /fapi/v1/klines?interval=1m&limit=1500, and the batch route with 20 pairs x
//      1500; each reports req/s, client latency and the server time p50/p99 per request, with
//      ratios to the hello-world baseline (and klines to the constant body).
// The DESIGN 6 budget is "1,500 candles answered in under 1 ms of server time".

import { simBench } from './sim.bench.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error autocannon 9 ships no type declarations (no @types/autocannon installed)
import autocannonUntyped from 'autocannon';
import { buildApp } from '../src-main/api/app.ts';
import { DEFAULT_CATALOGUE } from '../src-main/market/catalogue.ts';
import { CandleBuilder } from '../src-main/market/candles.ts';
import { KlineService } from '../src-main/market/kline-service.ts';
import { toNewSymbol } from '../src-main/market/seed-catalogue.ts';
import { CandlesRepo } from '../src-main/store/candles-repo.ts';
import { openVenue, type LocalVenue as Venue } from '../src-main/venue.ts';
import { INTERVALS } from '../src-shared/intervals.ts';
import { mulberry32 } from '../test/helpers/seeded-random.ts';
import { helloWorld, listenLocal } from './lib/servers.ts';
import { quantile } from './lib/stats.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = autocannonUntyped as (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
}) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const PAIRS = 20;
const HISTORY_MIN = 1_600;
const BENCH_FILE = fileURLToPath(import.meta.url);

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  mbps: number;
  bad: number;
}

// ------------------------------------------------------------------ client (child process)

async function clientMain(url: string): Promise<void> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const out: LoadResult = {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mbps: r.throughput.average / 1e6,
    bad: r.non2xx + r.errors + r.timeouts,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function load(url: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH_FILE, '--client', url], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_SECONDS: String(SECONDS) },
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon child exited with ${code}`));
      resolve(JSON.parse(text.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

// ------------------------------------------------------------------ server-time samples

const samples: number[] = [];
/** The body the payload-matched baseline sends (set once the klines answer is known). */
const staticBody = (() => {
  let body: Buffer = Buffer.alloc(0);
  return { get: () => body, set: (b: Buffer) => void (body = b) };
})();

// ------------------------------------------------------------------ history

interface TradeStream {
  time: Float64Array;
  price: Int32Array;
  qty: Int32Array;
  side: Int8Array;
}

/** `n` trades from `from`, `gapMs` apart on average, prices random-walking. */
function makeStream(from: number, n: number, gapMs: number, seed: number): TradeStream {
  const rnd = mulberry32(seed);
  const s: TradeStream = {
    time: new Float64Array(n),
    price: new Int32Array(n),
    qty: new Int32Array(n),
    side: new Int8Array(n),
  };
  let t = from;
  let p = 1_000_000;
  for (let i = 0; i < n; i++) {
    p += Math.floor(rnd() * 21) - 10;
    if (p < 1000) p = 1000;
    s.time[i] = Math.floor(t);
    s.price[i] = p;
    s.qty[i] = 1 + Math.floor(rnd() * 200);
    s.side[i] = rnd() < 0.5 ? 1 : 2;
    t += rnd() * 2 * gapMs;
  }
  return s;
}

/** One reused trade record (KlineService.recordTrade reads it during the call): no object per trade. */
const rec = { time: 0, priceTicks: 0, qtyLots: 0, takerSide: 1 };
function trade(time: number, priceTicks: number, qtyLots: number, takerSide: number): typeof rec {
  rec.time = time;
  rec.priceTicks = priceTicks;
  rec.qtyLots = qtyLots;
  rec.takerSide = takerSide;
  return rec;
}

/**
 * Fast-forward of history as the simulator does it: recordTrade only (closed candles are
 * written in batches of the service's flushAt), one advanceTo at the end.
 */
function fillHistory(klines: KlineService, symbol: string, now: number, gapMs: number, seed: number): number {
  const from = now - HISTORY_MIN * 60_000;
  const s = makeStream(from, Math.floor((now - from) / gapMs), gapMs, seed);
  let n = 0;
  for (let i = 0; i < s.time.length && s.time[i] < now; i++, n++)
    klines.recordTrade(symbol, trade(s.time[i], s.price[i], s.qty[i], s.side[i]));
  return n;
}

/**
 * Live rhythm: 5,000 trades per market second for 20 market seconds on one pair, advanceTo (so
 * one SQLite transaction) every 250 ms of market time, on its own venue and data dir. Baseline:
 * the bare CandleBuilder on the same stream (no service, no SQLite).
 */
function liveRate(): { service: number; builder: number } {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-bench-live-'));
  const v = openVenue({ dataDir: dir });
  const svc = new KlineService({ candles: new CandlesRepo(v.db), symbols: v.symbols, clock: v.clock }, { tickMs: 0 });
  const from = v.clock.now();
  const n = 100_000;
  const s = makeStream(from, n, 0.2, 7);
  const runService = (): number => {
    const t0 = performance.now();
    let next = from + 250;
    for (let i = 0; i < n; i++) {
      const t = s.time[i];
      if (t >= next) {
        svc.advanceTo(t);
        next = t + 250;
      }
      svc.recordTrade('BTCUSDT', trade(t, s.price[i], s.qty[i], s.side[i]));
    }
    svc.advanceTo(s.time[n - 1] + 1000);
    return n / ((performance.now() - t0) / 1000);
  };
  const runBuilder = (): number => {
    const closed: unknown[] = [];
    const b = new CandleBuilder({ onClose: (c) => closed.push(c) }); // keeps what the service keeps
    const t0 = performance.now();
    for (let i = 0; i < n; i++) b.trade(s.time[i], s.price[i], s.qty[i], s.side[i] as 1 | 2);
    b.advanceTo(s.time[n - 1] + 1000);
    return n / ((performance.now() - t0) / 1000);
  };
  runBuilder();
  const builder = runBuilder();
  const service = runService();
  svc.close();
  v.close();
  rmSync(dir, { recursive: true, force: true });
  return { service, builder };
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-bench-market-'));
  console.log(
    `market bench: node ${process.version}, ${SECONDS} s per load run, ${CONNECTIONS} connections, data dir ${dataDir}`,
  );

  // Bench pairs so that the batch route can ask for 20 distinct pairs.
  {
    const v = openVenue({ dataDir });
    const have = v.symbols.all().filter((s) => s.status === 1).length;
    const btc = DEFAULT_CATALOGUE[0];
    const extra = Array.from({ length: Math.max(0, PAIRS - have) }, (_, i) =>
      toNewSymbol({ ...btc, symbol: `BENCH${i + 1}USDT`, base: `BENCH${i + 1}`, status: 1 }, 1000 + i),
    );
    v.symbols.insertMissing(extra, Date.now());
    v.close();
  }

  const venue = openVenue({ dataDir });
  const own = (venue as Venue & { klines?: KlineService }).klines;
  const klines =
    own ??
    new KlineService({
      candles: new CandlesRepo(venue.db),
      symbols: venue.symbols,
      clock: venue.clock,
      exchange: venue.exchange,
    });
  if (!own) Object.assign(venue, { klines });
  const app = await buildApp({ venue, rateLimit: false });
  app.addHook('onRequest', async (req) => {
    (req as unknown as { t0: bigint }).t0 = process.hrtime.bigint();
  });
  app.addHook('onSend', async (req, _reply, payload) => {
    const t0 = (req as unknown as { t0?: bigint }).t0;
    if (t0 !== undefined && req.url.startsWith('/fapi/v1/klines'))
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    return payload;
  });
  const url = await listenLocal(app);

  const hello = helloWorld();
  hello.get('/same-bytes', async (_req, reply) => reply.type('application/json; charset=utf-8').send(staticBody.get()));
  const helloUrl = `${await listenLocal(hello)}/`;

  try {
    // ---- history
    const symbols = venue.symbols
      .all()
      .filter((s) => s.status === 1)
      .slice(0, PAIRS)
      .map((s) => s.symbol);
    if (symbols.length < PAIRS) throw new Error(`only ${symbols.length} trading pairs`);
    const now = venue.clock.now();
    klines.autoAdvance = false;
    // Pair by pair, each in time order; advanceTo only at the end (an advance moves every pair's
    // time, and a pair's later trades would then count at that time).
    let t0 = performance.now();
    const dense = fillHistory(klines, 'BTCUSDT', now, 200, 1);
    const denseMs = performance.now() - t0;
    t0 = performance.now();
    let sparse = 0;
    for (let i = 1; i < symbols.length; i++) sparse += fillHistory(klines, symbols[i], now, 10_000, i + 1);
    klines.advanceTo(now);
    const sparseMs = performance.now() - t0;
    klines.autoAdvance = true;
    const rows1 = klines.repo.count('BTCUSDT', '1s');
    let rows = 0;
    for (const s of symbols) for (const i of INTERVALS) rows += klines.repo.count(s, i);
    console.log('');
    console.log('history fast-forward (recordTrade only; closed candles written in batches; SQLite included)');
    const n = (x: number) => Math.round(x).toLocaleString('en');
    console.log(
      `  BTCUSDT, a trade per ~200 ms   ${n(dense)} trades in ${(denseMs / 1000).toFixed(2)} s = ` +
        `${n(dense / (denseMs / 1000))} trades/s (${n(rows1)} 1s candles)`,
    );
    console.log(
      `  ${symbols.length - 1} pairs, a trade per ~10 s    ${n(sparse)} trades in ${(sparseMs / 1000).toFixed(2)} s; ` +
        `${n(rows)} candle rows in all = ${n(rows / ((denseMs + sparseMs) / 1000))} rows/s`,
    );
    const live = liveRate();
    console.log(
      `  live rhythm (advance + one write per 250 ms, 5,000 trades/s of market time): ${n(live.service)} trades/s, ` +
        `x${(live.service / live.builder).toFixed(3)} of the bare CandleBuilder (${n(live.builder)} trades/s)`,
    );
    for (const s of [symbols[0], symbols[symbols.length - 1]]) {
      for (const i of ['1s', '1m'] as const) {
        const n = klines.klines(s, i, { limit: 1500 }).length;
        if (n !== 1500) throw new Error(`${s} ${i} has ${n} candles, want 1500`);
      }
    }

    // First-read cost of a pair nobody has read yet (SQLite load + first serialisation of 1,500 candles).
    samples.length = 0;
    await fetch(`${url}/fapi/v1/klines?symbol=${symbols[1]}&interval=1m&limit=1500`).then((r) => r.text());
    const coldMs = samples[0];

    const klinesUrl = `${url}/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1500`;
    const batchUrl = `${url}/fapi/v1/klines/batch?symbols=${symbols.join(',')}&interval=1m&limit=1500`;
    const one = await (await fetch(klinesUrl)).text();
    const batch = await (await fetch(batchUrl)).text();
    const oneRows = JSON.parse(one) as unknown[];
    const batchObj = JSON.parse(batch) as Record<string, unknown[]>;
    if (
      oneRows.length !== 1500 ||
      Object.keys(batchObj).length !== PAIRS ||
      Object.values(batchObj).some((v) => v.length !== 1500)
    ) {
      throw new Error('unexpected klines answer shape');
    }
    for (let i = 0; i < 200; i++) await (await fetch(klinesUrl)).text();
    // Payload-matched baseline: the hello-world app sending the same 1,500-candle body as a constant.
    const constant = Buffer.from(one);
    staticBody.set(constant);

    // ---- load runs
    const base = await load(helloUrl);
    const same = await load(`${helloUrl}same-bytes`);
    samples.length = 0;
    const k = await load(klinesUrl);
    const kServer = [...samples];
    samples.length = 0;
    const b = await load(batchUrl);
    const bServer = [...samples];

    const row = (name: string, r: LoadResult, server: number[] | null): void => {
      const srv = server
        ? `server p50 ${quantile(server, 0.5).toFixed(3)} ms p99 ${quantile(server, 0.99).toFixed(3)} ms`
        : '';
      console.log(
        `  ${name.padEnd(30)} ${Math.round(r.rps).toString().padStart(7)} req/s  x${(r.rps / base.rps).toFixed(3).padEnd(6)}` +
          ` client p50 ${String(r.p50).padStart(4)} ms p99 ${String(r.p99).padStart(4)} ms  ${r.mbps.toFixed(0).padStart(4)} MB/s  ${srv}` +
          (r.bad > 0 ? `  (${r.bad} non-2xx/errors)` : ''),
      );
    };
    console.log('');
    console.log(
      `load (autocannon in a child process, ${CONNECTIONS} connections, ${SECONDS} s each; x = req/s ratio to hello-world)`,
    );
    row('fastify hello-world (baseline)', base, null);
    row('fastify constant 1,500-candle body', same, null);
    row('klines 1m limit=1500', k, kServer);
    row(`klines/batch ${PAIRS} x 1500`, b, bServer);
    console.log('');
    console.log(
      `one response: ${(one.length / 1024).toFixed(0)} KiB (1,500 candles); batch: ${(batch.length / 1024 / 1024).toFixed(1)} MiB`,
    );
    console.log(
      `first read of a cold pair (SQLite load + first serialisation of 1,500 candles): ${coldMs?.toFixed(2)} ms`,
    );
    const p99 = quantile(kServer, 0.99);
    console.log(
      `budget (DESIGN 6): 1,500 candles in under 1 ms of server time: p99 ${p99.toFixed(3)} ms -> ${p99 < 1 ? 'met' : 'NOT met'}`,
    );
    console.log(`klines vs the constant body of the same bytes: x${(k.rps / same.rps).toFixed(3)} req/s`);

    console.log('');
    console.log(
      'simulator (bench/sim.bench.ts): sustained trades per second at high speed, against a bare exchange in the same run',
    );
    for (const line of await simBench()) console.log(`  ${line}`);
  } finally {
    await hello.close();
    await app.close();
    klines.close();
    venue.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--client') {
  await clientMain(process.argv[3]);
} else {
  await main();
}
