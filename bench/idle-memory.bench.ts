// Idle-footprint benchmark (not a test). Run: npm run bench:idle-memory -- [--stage NAME]
//   [--node-flag --max-semi-space-size=8 | --node-defaults] [--settle 3]
// which bundles it with the service's code into plain JavaScript first (scripts/bench-built.mjs),
// as the app runs (from the TypeScript sources Node's type stripper adds ~17 MiB of its own).
//
// The service's memory at rest, one stage per child process (each started with --expose-gc and
// the same Node flags): what is loaded grows from stage to stage, so the differences are what
// each part costs (docs/reliability.md, "The idle footprint"):
//   imported  the service's code imported (src-main/service.ts), nothing started
//   venue     + startService on ':memory:' without the simulated market (books, candle rings,
//             the HTTP app with its routes, SQLite in memory)
//   folder    + a data folder on disk (SQLite's page cache, the WAL checkpointer)
//   first     + the simulated market of 12 pairs on a fresh folder: 30 days of history built first
//   market    the same folder started again (history already built): the everyday start
//   price-klines  the everyday start, then 12 pairs' mark / index / premium candles fed over 40 days
//             of market time (an update every 20 s, as the market publishes at speed 1 over that
//             long, in seconds here): every window up to 30m full, the longer ones filling; the
//             windows a long-running venue fills (docs/reliability.md, "Soak")
// The stages run with the Node flags the app starts with (those of package.json's serve script;
// `npm start` passes the same), or those given with --node-flag, or none with --node-defaults.
// Each figure is taken --settle seconds after the start (the first start's at least 30 s after),
// after two full collections. Also
// printed: the time from the process's start to the code imported, and startService's time
// (informative only; the machine may be shared).
//
// It fails (exit 1) when a stage's RSS is above its ceiling: the documented figure plus a
// margin wide enough for another machine's allocator and a loaded machine, narrow enough that
// a part loaded for nothing or a high-water mark that stays (tens of MiB) shows.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../src-main/service.ts';
import type { LocalVenue } from '../src-main/venue.ts';

/** The documented RSS of each stage (MiB) and how far above it a run may go. */
const STAGES = {
  imported: { documented: 94, what: "the service's code imported, nothing started" },
  venue: { documented: 142, what: '+ venue and HTTP app in memory, no market' },
  folder: { documented: 152, what: '+ a data folder on disk' },
  // at rest 30 s after a first start: the history's candle writer is a worker thread, whose V8
  // pages stay in the process for V8's memory reducer to give back (3 s after the start they are
  // 20-30 MiB more; docs/reliability.md, "The idle footprint")
  first: { documented: 196, what: '+ simulated market, first start (history built)', settleS: 30 },
  market: { documented: 166, what: '+ simulated market, history already built' },
  'price-klines': { documented: 212, what: "+ 12 pairs' price klines over 40 days of market time" },
} as const;
type Stage = keyof typeof STAGES;
const MARGIN = 1.2;
/** The price-klines stage: pairs fed, market days, ms of market time between updates. */
const PRICE_FEED = { pairs: 12, days: 40, everyMs: 20_000 };
/** The flags package.json's serve script gives Node (and its start script too, and scripts/start.mjs Electron). */
function appFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts.serve.split(/\s+/).filter((w) => w.startsWith('--'));
}

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  importMs: number;
  startMs: number;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : undefined;
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (b: number): string => (b / 1048576).toFixed(1);

/**
 * PRICE_FEED.days of mark and index updates for PRICE_FEED.pairs of the venue's pairs, from its
 * market time on, straight into its price klines (as its 'price' events would), and written to
 * its store as it goes: the windows as a venue running that long holds them.
 */
function feedPriceKlines(venue: LocalVenue): void {
  const symbols = [...venue.exchange.pairs.keys()].slice(0, PRICE_FEED.pairs);
  if (symbols.length < PRICE_FEED.pairs)
    throw new Error(`price-klines: ${symbols.length} pairs, ${PRICE_FEED.pairs} wanted`);
  const t0 = venue.clock.now();
  const steps = (PRICE_FEED.days * 86_400_000) / PRICE_FEED.everyMs;
  const index = symbols.map(() => 100);
  for (let k = 1; k <= steps; k++) {
    const time = t0 + k * PRICE_FEED.everyMs;
    for (let p = 0; p < symbols.length; p++) {
      index[p] *= 1 + 0.0004 * Math.sin(k * 0.37 + p); // moves, so candles differ
      venue.priceKlines.record({ symbol: symbols[p], index: index[p], mark: index[p] * 1.0002, time });
    }
    // written as the venue's 5 s flush would at 720x: one write of the changed candles a market hour
    if ((k * PRICE_FEED.everyMs) % 3_600_000 === 0) venue.priceKlines.flush();
  }
  venue.priceKlines.flush();
}

async function child(stage: Stage, dataDir: string, settleS: number): Promise<void> {
  const importMs = performance.now(); // since the process started: Node's own start and the imports
  let close = async (): Promise<void> => {};
  if (stage !== 'imported') {
    const svc = await startService({
      host: '127.0.0.1',
      port: 0,
      dataDir: stage === 'venue' ? ':memory:' : dataDir,
      simulate: stage === 'first' || stage === 'market' || stage === 'price-klines',
      rateLimit: false,
    });
    close = () => svc.close();
    if (stage === 'price-klines') feedPriceKlines(svc.venue);
  }
  const startMs = performance.now() - importMs;
  await sleep(settleS * 1000);
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  await sleep(100);
  gc();
  const u = process.memoryUsage();
  const s: Sample = { ...u, importMs, startMs };
  await close();
  process.send!(s);
}

function run(stage: Stage, dataDir: string, flags: string[], settleS: number): Promise<Sample> {
  const c = fork(fileURLToPath(import.meta.url), ['--role', 'child', stage, dataDir, String(settleS)], {
    execArgv: [...process.execArgv, ...flags, '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  process.on('exit', () => c.kill());
  return new Promise((resolve, reject) => {
    let got: Sample | null = null;
    c.on('message', (m: Sample) => (got = m));
    c.on('exit', (code) => (got !== null ? resolve(got) : reject(new Error(`stage ${stage}: exit ${code}`))));
  });
}

async function main(): Promise<void> {
  const only = arg('stage') as Stage | undefined;
  if (only !== undefined && !(only in STAGES)) throw new Error(`--stage: one of ${Object.keys(STAGES).join(', ')}`);
  const given = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node-flag' ? [a] : []));
  const flags = process.argv.includes('--node-defaults') ? [] : given.length > 0 ? given : appFlags();
  const settleS = Number(arg('settle') ?? '3');
  const dataRoot = mkdtempSync(join(tmpdir(), 'perpdesk-bench-idle-'));
  console.log(
    `idle memory bench: node ${process.version}, flags ${flags.length > 0 ? flags.join(' ') : "(Node's defaults)"}, settle ${settleS} s (a first start: at least 30 s)`,
  );
  let ok = true;
  try {
    for (const stage of Object.keys(STAGES) as Stage[]) {
      // the later stages need the folder the first start built
      if (
        only !== undefined &&
        only !== stage &&
        !((only === 'market' || only === 'price-klines') && stage === 'first')
      )
        continue;
      const dir = stage === 'folder' ? join(dataRoot, 'plain') : join(dataRoot, 'sim');
      const info: { documented: number; what: string; settleS?: number } = STAGES[stage];
      const s = await run(stage, dir, flags, Math.max(settleS, info.settleS ?? 0));
      const { documented, what } = info;
      const ceiling = documented * MARGIN;
      const pass = s.rss <= ceiling * 1048576;
      ok &&= pass;
      console.log(
        `  ${stage.padEnd(9)} rss ${mb(s.rss).padStart(6)} MiB (documented ${documented}, ceiling ${ceiling.toFixed(0)}) ` +
          `heap ${mb(s.heapUsed).padStart(5)} / ${mb(s.heapTotal).padStart(5)} MiB, external ${mb(s.external)} (array buffers ${mb(s.arrayBuffers)}) ` +
          `import ${s.importMs.toFixed(0)} ms, start ${s.startMs.toFixed(0)} ms  ${pass ? 'ok' : 'OVER'}  (${what})`,
      );
    }
  } finally {
    rmSync(dataRoot, { recursive: true, force: true });
  }
  console.log(`idle footprint within ${MARGIN}x of the documented figures: ${ok ? 'PASS' : 'FAIL'}`);
  if (!ok) process.exitCode = 1;
}

if (process.argv[2] === '--role' && process.argv[3] === 'child')
  await child(process.argv[4] as Stage, process.argv[5], Number(process.argv[6]));
else await main();
