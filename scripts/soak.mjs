// `npm run soak -- [--minutes 3] [--speed 100] [--bots 4] [--clients 20] [--sample S] [--warmup M]
// [--max-p99 MS] [--no-replay] [--data-dir DIR] [--heap-snapshots M,M] [--alloc-profile M]`: runs the service with the simulated market at
// high speed under a load in a child process of its own (scripts/soak-load.mjs, so its memory is
// not counted): signed bots on the native REST API, a bot on the Binance dialect with a listenKey
// user stream, WebSocket clients on the market streams with a fifth of them dropped and
// reconnected every 10 s, and a hosted replay of the TRXUSDT depth recording in test/fixtures
// (POST /api/v1/replays, a /ws client on it) started anew every 5 minutes. Every --sample seconds (10
// for runs up to 5 minutes, else 60) it prints the service's RSS and heap, open descriptors (the most of a read each second),
// event-loop delay (p50/p99/max since the last line), the load's counts and the accounting
// identity of every paper account. At the end it names the event-loop stalls over 100 ms after
// the warm-up (the main thread's CPU and the collections' pauses in each). The last two options
// are for finding where memory goes (docs/reliability.md, "Soak"), not for a measuring run.
//
// It asserts, and exits 1 when one fails: the identity held at every sample; after the warm-up
// (--warmup minutes, a third of the run by default, at least 1 unless that leaves fewer than 3
// samples: caches fill, the JIT settles; one leaving fewer is refused before the run) the
// least-squares slope of RSS over the rest of the run, times its length, stays within
// max(16 MiB, 4% of RSS), and that of the descriptors within max(4, 10%); the event-loop delay
// p99 over the same window stays under --max-p99 ms (250 by default: the simulated market at 100x
// keeps p50 near 10 ms and p99 near 40 ms on a quiet 2-core machine). Default length 3 minutes;
// the lead runs the long one (`--minutes 30`). `--help` lists the options; an unknown one or a bad
// value is one line and exit code 2; a run stopped by SIGINT / SIGTERM (or killed) removes its
// temporary data folder.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { userPath } from '../src-main/paths.ts';
import { chooseWarmup, liveText, replayStartsText, stallsLine } from './soak-lines.mjs';

const USAGE = `Usage: npm run soak -- [options]   (docs/reliability.md, "Soak")

  --minutes N           length of the run (default 3)
  --speed X             the simulated market's speed, 0.1 to 10000 (default 100)
  --bots N              signed bots on the native REST API (default 4), plus one on /binance
  --clients N           WebSocket clients on the market streams (default 20)
  --sample S            seconds between two samples (default 10 for runs up to 5 minutes, else 60)
  --warmup M            minutes left out of the trends (default a third of the run, at least 1
                        when that leaves the trends 3 samples); one leaving fewer is refused
  --max-p99 MS          the bound of the event-loop delay p99 after the warm-up (default 250)
  --no-replay           no hosted replay in the load
  --data-dir DIR        the service's data folder (default: a new temporary one, removed at the end)
  --heap-snapshots M,M  write heap snapshots at these minutes (then it measures nothing else)
  --alloc-profile M     print what reached the old generation in minute M, by allocating site
  -h, --help            this text

Exit code 0 when every assertion held, 1 when one failed, 2 on bad usage, 130 or 143 when
stopped by SIGINT or SIGTERM (a temporary data folder is removed then too).`;

/** Bad usage: one line, exit 2. */
function usageError(message) {
  console.error(`soak: ${message} (npm run soak -- --help lists the options)`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: false,
    options: {
      minutes: { type: 'string' },
      speed: { type: 'string' },
      bots: { type: 'string' },
      clients: { type: 'string' },
      sample: { type: 'string' },
      warmup: { type: 'string' },
      'max-p99': { type: 'string' },
      'no-replay': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'heap-snapshots': { type: 'string' },
      'alloc-profile': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  usageError(String(err.message).split('\n')[0]);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
/** A positive number option (an integer when `integer`), within `max`. */
function opt(name, def, { integer = false, min = 0, max = Infinity } = {}) {
  const text = values[name];
  if (text === undefined) return def;
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v <= 0 || v < min || v > max || (integer && !Number.isInteger(v)))
    usageError(
      `--${name} wants a positive ${integer ? 'integer' : 'number'}${max < Infinity ? ` from ${min} to ${max}` : ''}, got '${text}'`,
    );
  return v;
}
const minutes = opt('minutes', 3);
const sampleS = opt('sample', minutes <= 5 ? 10 : 60);
// a warm-up that leaves the trends too few samples is refused now, not after the run
const { warmup: warmupMin, error: warmupError } = chooseWarmup(
  minutes,
  sampleS,
  values.warmup === undefined ? undefined : opt('warmup', 1),
);
if (warmupError !== null) usageError(warmupError);
/** The warm-up as printed: at most two decimals (a 4-minute run's is 1.33 min). */
const warmupText = String(Number(warmupMin.toFixed(2)));
const maxP99 = opt('max-p99', 250);
const withReplay = !values['no-replay'];
const speed = opt('speed', 100, { min: 0.1, max: 10_000 });
const bots = opt('bots', 4, { integer: true });
const clients = opt('clients', 20, { integer: true });
// --heap-snapshots 5.5,10.5: write a heap snapshot at these minutes (each forces full collections
// and blocks for seconds: a run with them measures what the heap holds, not RSS or delay)
const snapshotAt = (() => {
  const text = values['heap-snapshots'];
  if (text === undefined) return [];
  const list = text.split(',').map((m) => (m.trim() === '' ? NaN : Number(m)));
  if (list.some((m) => !Number.isFinite(m) || m < 0))
    usageError(`--heap-snapshots wants minutes separated by commas, got '${text}'`);
  return list;
})();
// --alloc-profile M: sample allocations from minute M for one minute (V8's sampling heap profiler,
// the objects a young collection freed left out: what reaches the old generation, live or garbage
// a full collection frees) and print the sites that allocated most of it
const allocAt = values['alloc-profile'] === undefined ? null : opt('alloc-profile', 0);
// a given folder is relative to the user's, as every command's paths are (paths.ts userPath)
const given = values['data-dir'] === undefined ? undefined : userPath(values['data-dir']);
const dataDir = given ?? mkdtempSync(join(tmpdir(), 'perpdesk-soak-'));

// A temporary data folder goes with the run however it ends. The service's first start (its
// history) holds the main thread for a minute or two, where no signal handler runs: until it is up,
// a signal ends the process at once, and a small watcher process (in a process group of its own,
// so a Ctrl-C in the terminal does not reach it) removes the folder when this process is gone,
// whatever ended it (kill -9 too). Once the service is up, SIGINT and SIGTERM stop the load and
// close the service before the folder goes (exit code 130 or 143); a second signal does not wait.
if (given === undefined) {
  const watcher = spawn(
    process.execPath,
    [
      '-e',
      "process.on('disconnect', () => { require('node:fs').rmSync(process.argv[1], { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); process.exit(0); });",
      dataDir,
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], detached: true },
  );
  watcher.unref();
  watcher.channel?.unref();
}
let service = null;
let load = null;
let stoppedBy = null;
const removeTemp = () => {
  if (given === undefined) rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
};
const onSignal = (signal) => {
  const code = signal === 'SIGINT' ? 130 : 143;
  load?.kill('SIGTERM');
  if (stoppedBy !== null) {
    removeTemp();
    process.exit(code);
  }
  stoppedBy = signal;
  console.log(`soak: ${signal}, stopping${given === undefined ? `; removing ${dataDir}` : ''}`);
  void (async () => {
    try {
      await service.replays?.closeAll();
      await service.close();
    } catch (err) {
      console.error(`soak: closing the service: ${err instanceof Error ? err.message : err}`);
    }
    removeTemp();
    process.exit(code);
  })();
};
/** Awaits a step of the run; once stopped, the run goes no further (the handler exits). */
async function step(promise) {
  let value;
  try {
    value = await promise;
  } catch (err) {
    if (stoppedBy === null) throw err;
  }
  if (stoppedBy !== null) await new Promise(() => {});
  return value;
}

const accounts = Array.from({ length: bots }, (_, k) => ({
  apiKey: `soakbot${String(k).padStart(4, '0')}`,
  apiSecret: `soaksecret${k}xx`,
  balance: 1_000_000n * 100_000_000n,
}));
console.log(
  `soak: ${minutes} min (warm-up ${warmupText} min, a sample every ${sampleS} s), speed ${speed}x, ${bots} bots + 1 on /binance, ` +
    `${clients} WebSocket clients, ${withReplay ? 'a hosted replay' : 'no replay'}, data ${dataDir}`,
);
// the service's code loads once the options are read: --help and a usage error answer at once
const { startService } = await import('../src-main/service.ts');
service = await startService({ dataDir, port: 0, speed, accounts, rateLimit: false, onProgress: () => {} });
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
console.log(`soak: service at ${service.url}`);
// the recording the hosted replay plays: TRXUSDT's depth, 2025-04-14 00:00:00-00:00:23 UTC
const REPLAY = { symbol: 'TRXUSDT', start: 1744588800100 };
if (withReplay) {
  const dir = fileURLToPath(
    new URL('../test/fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota/', import.meta.url),
  );
  const r = await step(
    service.venue.datasets.importFiles([join(dir, 'rest_depth_snapshot.csv'), join(dir, 'diff_depth_stream.csv')], {
      market: 'um',
      symbol: REPLAY.symbol,
      kind: 'depth',
    }),
  );
  for (const x of r) if (!x.ok) throw new Error(`soak: importing the replay's recording failed: ${x.error}`);
}

const MiB = (n) => `${(n / 1048576).toFixed(1)} MiB`;
/** RSS split as the kernel counts it (Linux): anonymous (heap, malloc), file-backed (code, mapped files), shared (SQLite's -shm). */
const rssSplit = () => {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { anon: kib('RssAnon'), file: kib('RssFile'), shmem: kib('RssShmem') };
  } catch {
    return { anon: NaN, file: NaN, shmem: NaN }; // not Linux
  }
};
/** V8's spaces, committed bytes: the young generation, the old one, large objects, the rest (code, trusted). */
const heapSpaces = () => {
  const out = { young: 0, old: 0, large: 0, rest: 0 };
  for (const sp of v8.getHeapSpaceStatistics()) {
    const n = sp.space_name;
    const k =
      n === 'new_space' || n === 'new_large_object_space'
        ? 'young'
        : n === 'old_space'
          ? 'old'
          : n === 'large_object_space'
            ? 'large'
            : 'rest';
    out[k] += sp.space_size;
  }
  return out;
};
// The live heap: what the last full collection of each sample's period left (not forced: a
// collection per sample would change what is measured).
const gcProfiler = new v8.GCProfiler();
gcProfiler.start();
let lastLive = NaN;
/** The live heap, and the collections since the last sample: full ones, and the time all of them took (ms). */
const collections = () => {
  const all = gcProfiler.stop().statistics;
  gcProfiler.start();
  const full = all.filter((x) => x.gcType === 'MarkSweepCompact');
  if (full.length > 0) lastLive = full[full.length - 1].afterGC.heapStatistics.usedHeapSize;
  return { live: lastLive, fullGcs: full.length, gcMs: all.reduce((a, x) => a + x.cost, 0) / 1000 };
};
const fds = () => {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return NaN; // not Linux
  }
};
// The descriptors are read every second and a sample takes the most since the last one. One read a
// sample aliased with the load's churn (a fifth of the WebSocket clients dropped every 10 s, back
// 200 ms later): while the sample's phase drifted through those 200 ms, minutes of samples read 4-5
// fewer sockets (63 against 68), a step the trend check read as a rise. A leak raises the most too.
let fdMost = fds();
setInterval(() => {
  fdMost = Math.max(fdMost, fds());
}, 1000).unref();
const fdsSinceLastSample = () => {
  const n = Math.max(fdMost, fds());
  fdMost = Number.NEGATIVE_INFINITY;
  return n;
};

/** deposits = wallet + fees + liquidation fees - realized PnL + funding paid, per user and local account. */
function identity() {
  const db = service.venue.db;
  service.venue.trading.group.sync();
  const q = (sql, ...a) => {
    const st = db.prepare(sql);
    st.setReadBigInts(true);
    return st.all(...a);
  };
  const broken = [];
  const rows = q("SELECT id, wallet_balance AS w, total_deposits AS d FROM accounts WHERE kind IN ('user', 'local')");
  for (const a of rows) {
    const [t] = q(
      'SELECT COALESCE(SUM(fee), 0) AS f, COALESCE(SUM(realized_pnl), 0) AS r FROM trades WHERE account_id = ?',
      a.id,
    );
    const [l] = q('SELECT COALESCE(SUM(fee), 0) AS f FROM liquidation_fees WHERE account_id = ?', a.id);
    const [f1] = q('SELECT COALESCE(SUM(funding_fee), 0) AS f FROM positions WHERE account_id = ?', a.id);
    const [f2] = q('SELECT COALESCE(SUM(total_funding_fee), 0) AS f FROM closed_positions WHERE account_id = ?', a.id);
    const rhs = a.w + t.f + l.f - t.r + f1.f + f2.f;
    if (a.d !== rhs) broken.push(`account ${a.id}: ${a.d} != ${rhs}`);
  }
  return { accounts: rows.length, broken };
}

load = fork(
  fileURLToPath(new URL('./soak-load.mjs', import.meta.url)),
  [
    service.url,
    String(clients),
    JSON.stringify(accounts.map((a) => [a.apiKey, a.apiSecret])),
    ...(withReplay ? [JSON.stringify(REPLAY)] : []),
  ],
  { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
let counts = { placed: 0, failed: 0, binancePlaced: 0, userEvents: 0, replays: 0, replayPushes: 0 };
load.on('message', (m) => {
  counts = m;
});

// Stalls: every gap of the event loop over 100 ms, with the main-thread collections and replay
// starts that overlap it, so a delay p99 over its bound says what held the loop.
const stalls = [];
const gcPauses = [];
const replayStarts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    if (e.duration >= 20) gcPauses.push({ t: e.startTime, ms: e.duration, kind: e.detail?.kind });
}).observe({ entryTypes: ['gc'] });
if (service.replays) {
  const host = service.replays;
  const start = host.start.bind(host);
  host.start = async (req) => {
    const t = performance.now();
    try {
      return await start(req);
    } finally {
      replayStarts.push({ t, ms: performance.now() - t });
    }
  };
}
// the main thread's CPU over a stall tells a long task (CPU close to the stall) from a thread
// the host did not run (CPU far below it)
const threadCpu = () => {
  const u = process.threadCpuUsage?.() ?? process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let tickAt = performance.now();
let tickCpu = threadCpu();
setInterval(() => {
  const now = performance.now();
  const cpu = threadCpu();
  if (now - tickAt > 120) stalls.push({ t: tickAt, ms: now - tickAt - 20, cpu: cpu - tickCpu });
  tickAt = now;
  tickCpu = cpu;
}, 20).unref();
const GC_KINDS = { 1: 'young', 2: 'young mark-sweep', 4: 'full', 8: 'incremental', 16: 'weak callbacks' };
/** What overlapped a stall: collections (their pause ms) and replay starts. */
const causes = (s) => {
  const parts = [`main thread on CPU ${s.cpu.toFixed(0)} ms`];
  for (const g of gcPauses)
    if (g.t < s.t + s.ms + 20 && g.t + g.ms > s.t) parts.push(`gc ${GC_KINDS[g.kind] ?? g.kind} ${g.ms.toFixed(0)} ms`);
  for (const r of replayStarts)
    if (r.t < s.t + s.ms + 20 && r.t + r.ms > s.t) parts.push(`replay start (${r.ms.toFixed(0)} ms)`);
  return parts.join(', ');
};

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// the whole window after the warm-up, for the p99 asserted
const window = monitorEventLoopDelay({ resolution: 10 });
const rows = [];
let cpuAt = { usage: process.cpuUsage(), t: performance.now() };
/** The service process's CPU time since the last sample, as a share of one core (%). */
const cpuShare = () => {
  const now = { usage: process.cpuUsage(), t: performance.now() };
  const used = now.usage.user - cpuAt.usage.user + (now.usage.system - cpuAt.usage.system);
  const share = (used / 1000 / (now.t - cpuAt.t)) * 100;
  cpuAt = now;
  return share;
};
let identityBroken = false;
const t0 = Date.now();
const t0Perf = performance.now();
const report = () => {
  const minute = (Date.now() - t0) / 60_000;
  const m = process.memoryUsage();
  const id = identity();
  if (id.broken.length > 0) identityBroken = true;
  const row = {
    minute,
    rss: m.rss,
    heap: m.heapUsed,
    heapTotal: m.heapTotal,
    ...collections(),
    cpu: cpuShare(),
    ...heapSpaces(),
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    ...rssSplit(),
    fds: fdsSinceLastSample(),
    p50: loop.percentile(50) / 1e6,
    p99: loop.percentile(99) / 1e6,
    max: loop.max / 1e6,
  };
  rows.push(row);
  loop.reset();
  const c = counts;
  console.log(
    `${minute.toFixed(2).padStart(6)} min: rss ${MiB(row.rss)} (anon ${MiB(row.anon)}, file ${MiB(row.file)}, shmem ${MiB(row.shmem)}), ` +
      `heap ${MiB(row.heap)} / ${MiB(row.heapTotal)} (live ${liveText(row.live, MiB)}; young ${MiB(row.young)}, old ${MiB(row.old)}, large ${MiB(row.large)}), external ${MiB(row.external)} (array buffers ${MiB(row.arrayBuffers)}), ` +
      `gc ${row.gcMs.toFixed(0)} ms (${row.fullGcs} full), cpu ${row.cpu.toFixed(0)}%, fds ${row.fds}, ` +
      `loop delay p50 ${row.p50.toFixed(1)} ms p99 ${row.p99.toFixed(1)} ms max ${row.max.toFixed(1)} ms, ` +
      `orders ${c.placed} (${c.failed} refused), /binance ${c.binancePlaced} (user events ${c.userEvents}), ` +
      `replays ${c.replays} (pushes ${c.replayPushes}), market ${new Date(service.venue.clock.now()).toISOString().slice(0, 16)}, ` +
      `identity ${id.broken.length === 0 ? `ok (${id.accounts} accounts)` : `BROKEN: ${id.broken.join('; ')}`}`,
  );
};

for (const m of snapshotAt)
  setTimeout(() => {
    const t = performance.now();
    const file = v8.writeHeapSnapshot(join(tmpdir(), `perpdesk-soak-${process.pid}-${m}min.heapsnapshot`));
    console.log(`soak: heap snapshot at ${m} min: ${file} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }, m * 60_000);
if (allocAt !== null)
  setTimeout(async () => {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
    });
    await new Promise((r) => setTimeout(r, 60_000));
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    // bytes by allocating function, with its caller chain (up to 4 frames)
    const byNode = new Map();
    const walk = (n, stack) => {
      const cf = n.callFrame;
      const here = `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(src-main|src-shared|node_modules)\//, '$1/')}:${cf.lineNumber + 1}`;
      const st = [here, ...stack].slice(0, 4);
      if (n.selfSize > 0) byNode.set(st.join(' < '), (byNode.get(st.join(' < ')) ?? 0) + n.selfSize);
      for (const c of n.children) walk(c, st);
    };
    walk(profile.head, []);
    const total = [...byNode.values()].reduce((a, b) => a + b, 0);
    console.log(
      `soak: allocations that reached the old generation, minute ${allocAt}-${allocAt + 1}: ${MiB(total)} sampled; the largest sites:`,
    );
    for (const [k, v] of [...byNode].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`  ${MiB(v).padStart(10)}  ${k}`);
  }, allocAt * 60_000);
report();
const samples = Math.round((minutes * 60) / sampleS);
for (let k = 1; k <= samples; k++) {
  await step(new Promise((r) => setTimeout(r, sampleS * 1000)));
  report();
  if (rows[rows.length - 1].minute >= warmupMin) window.enable(); // (a no-op once started)
}
window.disable();
load.kill('SIGTERM');
await service.replays?.closeAll();
await service.close();
if (given === undefined) rmSync(dataDir, { recursive: true, force: true });

/** Least-squares slope of y over x. */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, x) => a + x, 0) / n;
  const my = ys.reduce((a, y) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
const after = rows.filter((r) => r.minute >= warmupMin);
const failures = [];
if (identityBroken) failures.push('the accounting identity broke');
if (after.length < 3) failures.push(`only ${after.length} samples after the warm-up: run longer or sample more often`);
else {
  const span = after[after.length - 1].minute - after[0].minute;
  const xs = after.map((r) => r.minute);
  const rssGrowth =
    slope(
      xs,
      after.map((r) => r.rss),
    ) * span;
  const rssAllowed = Math.max(16 * 1048576, 0.04 * after[0].rss);
  const fdGrowth =
    slope(
      xs,
      after.map((r) => r.fds),
    ) * span;
  const fdAllowed = Math.max(4, 0.1 * after[0].fds);
  const p99 = window.percentile(99) / 1e6;
  console.log(
    `soak: after the ${warmupText}-min warm-up (${after.length} samples over ${span.toFixed(1)} min): RSS ${MiB(after[0].rss)} -> ` +
      `${MiB(after[after.length - 1].rss)}, trend ${rssGrowth >= 0 ? '+' : ''}${MiB(rssGrowth)} over the window (allowed ${MiB(rssAllowed)}); ` +
      `descriptors ${after[0].fds} -> ${after[after.length - 1].fds}, trend ${fdGrowth.toFixed(1)} (allowed ${fdAllowed.toFixed(1)}); ` +
      `loop delay p99 ${p99.toFixed(1)} ms (bound ${maxP99} ms); identity ${identityBroken ? 'BROKEN' : 'held at every sample'}`,
  );
  // where the trend is: V8's committed heap, buffers outside it, the rest of the anonymous memory
  // (malloc: SQLite, the allocator's arenas, native code), file-backed pages
  const trend = (f) =>
    slope(
      xs,
      after.map((r) => f(r)),
    ) * span;
  const signed = (n) => `${n >= 0 ? '+' : ''}${MiB(n)}`;
  // the live heap is known from the first full collection on
  const known = after.filter((r) => !Number.isNaN(r.live));
  const liveTrend =
    known.length < 2
      ? 'not known (fewer than 2 samples after a full collection)'
      : signed(
          slope(
            known.map((r) => r.minute),
            known.map((r) => r.live),
          ) * span,
        );
  console.log(
    `soak: RSS trend by part: V8 heap committed ${signed(trend((r) => r.heapTotal))} (young ${signed(trend((r) => r.young))}, ` +
      `old ${signed(trend((r) => r.old))}, large ${signed(trend((r) => r.large))}; live after full collections ${liveTrend}), external ${signed(trend((r) => r.external))}, ` +
      `other anonymous (malloc) ${signed(trend((r) => r.anon - r.heapTotal - r.external))}, file-backed ${signed(trend((r) => r.file))}, ` +
      `shared ${signed(trend((r) => r.shmem))}`,
  );
  if (rssGrowth > rssAllowed) failures.push(`RSS rises: +${MiB(rssGrowth)} over ${span.toFixed(1)} min`);
  if (fdGrowth > fdAllowed) failures.push(`descriptors rise: +${fdGrowth.toFixed(1)} over ${span.toFixed(1)} min`);
  if (!(p99 <= maxP99)) failures.push(`event-loop delay p99 ${p99.toFixed(1)} ms above ${maxP99} ms`);
}
const windowStalls = stalls.filter((s) => s.t >= t0Perf + warmupMin * 60_000);
console.log(stallsLine(windowStalls));
for (const s of [...windowStalls].sort((a, b) => b.ms - a.ms).slice(0, 8))
  console.log(`  ${((s.t - t0Perf) / 60_000).toFixed(2)} min: ${s.ms.toFixed(0)} ms: ${causes(s)}`);
{
  // of the stalls' time: the main thread's CPU, and the collections' pauses within them
  let cpu = 0;
  let gc = 0;
  for (const s of windowStalls) {
    cpu += Math.min(s.cpu, s.ms);
    for (const g of gcPauses) gc += Math.max(0, Math.min(g.t + g.ms, s.t + s.ms + 20) - Math.max(g.t, s.t));
  }
  const all = windowStalls.reduce((a, s) => a + s.ms, 0);
  const starts = replayStartsText(withReplay, replayStarts);
  console.log(
    windowStalls.length === 0
      ? `soak: ${starts}`
      : `soak: of the stalls' ${all.toFixed(0)} ms: main thread on CPU ${cpu.toFixed(0)} ms (collection pauses ${gc.toFixed(0)} ms), ` +
          `not running ${(all - cpu).toFixed(0)} ms (the host's other work); ${starts}`,
  );
}
const c = counts;
if (c.placed === 0 || c.binancePlaced === 0 || (withReplay && c.replays === 0))
  failures.push(`the load did not run in full: ${JSON.stringify(c)}`);
console.log(failures.length === 0 ? 'soak: PASS' : `soak: FAIL: ${failures.join('; ')}`);
process.exit(failures.length === 0 ? 0 : 1);
