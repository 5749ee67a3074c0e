// `npm run sweep` (run or resume a sweep, export its results) and `npm run sweep:worker` (a queue
// worker): docs/sweeps.md. Usage errors (a bad grid, an unknown symbol, a span outside the data,
// a bot that does not exist, an unreachable Redis) exit 2 with one line naming the cause, before
// any job starts; a sweep that ran exits 0 whatever its jobs did.
import { fork } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir, userFolder, userPath } from './paths.ts';
import { compileCacheEnv, defaultCacheDir } from './sweep/compile-cache.ts';
import {
  coordinatorHere,
  prepareSweep,
  removePack,
  runSweep,
  type Runner,
  type SweepRequest,
} from './sweep/coordinator.ts';
import { buildOnDisk, resumeMismatch } from './sweep/build-id.ts';
import { checkSetNames, GridError } from './sweep/grid.ts';
import { finalLine, listHint, notOkCounts } from './sweep/cli-lines.ts';
import { int, parse, USAGE, type Values } from './sweep/cli-options.ts';
import { sweepCsv, sweepView } from './sweep/results-view.ts';
import { PlanError } from './sweep/plan.ts';
import { LocalPool } from './sweep/pool.ts';
import { QueueError } from './sweep/queue-error.ts';
import type { SqliteSweepStore } from './sweep/sqlite-store.ts';
import { checkFolder, listsNothing, makeFolder, openStore } from './sweep/cli-store.ts';
import { stopWhenOrphaned } from './orphan-watch.ts';

/** --replay-datasets as ids; undefined when not given. */
function pinnedDatasets(v: Values): number[] | undefined {
  const pins = v['replay-datasets'];
  if (pins === undefined) return undefined;
  if (!/^[1-9]\d{0,14}(,[1-9]\d{0,14})*$/.test(pins))
    throw new PlanError(
      `--replay-datasets wants dataset ids (npm run data -- list) split by commas, e.g. 12,15; got '${pins}'`,
    );
  const datasets = pins.split(',').map(Number);
  if (new Set(datasets).size !== datasets.length)
    throw new PlanError(`--replay-datasets names a dataset twice: '${pins}'`);
  return datasets;
}

/**
 * --like ID: a new sweep of that sweep's bot (run from the folder it ran in), parameter sets and
 * options, on the data --replay (and --replay-datasets) give; its own pins are not carried over,
 * as they name datasets of its span.
 */
function likeRequest(v: Values, store: SqliteSweepStore, dataDir: string, id: string): SweepRequest {
  const spec = store.spec(id);
  if (spec === undefined) throw new PlanError(`--like ${id}: no sweep ${id} in ${dataDir} (npm run sweep -- --list)`);
  if (v.replay === undefined)
    throw new PlanError(`--like ${id} needs --replay: the other data, SYMBOL@FROM..TO (it ran on ${spec.replay})`);
  // its sets were stored before some names were refused (a column of the results' CSV)
  try {
    checkSetNames(spec.sets);
  } catch (err) {
    if (err instanceof GridError)
      throw new PlanError(`--like ${id}: its parameter sets cannot run again: ${err.message}`);
    throw err;
  }
  const t = spec.template;
  const datasets = pinnedDatasets(v);
  return {
    dataDir,
    cwd: t.cwd,
    bot: spec.bot,
    replay: v.replay,
    ...(datasets === undefined ? {} : { datasets }),
    split: spec.split,
    sets: { sets: spec.sets, defaults: spec.defaults ?? {} },
    balance: t.balance,
    lockstep: t.lockstep,
    speed: t.speed,
    queueModel: t.queueModel,
    orderLatency: t.orderLatency,
    responseLatency: t.responseLatency,
    dataLatency: t.dataLatency,
    positionMode: t.positionMode,
    timeoutMs: t.timeoutMs,
    seed: t.seed,
    runner: v.queue ?? 'local',
  };
}

function request(v: Values, dataDir: string): SweepRequest {
  if (v.bot === undefined) throw new PlanError('--bot is required: the command that runs your bot ("node my-bot.ts")');
  if (v.replay === undefined)
    throw new PlanError('--replay is required: SYMBOL@FROM..TO (BTCUSDT@2025-01-06..2025-01-12)');
  const qm = v['queue-model'];
  if (qm !== 'pessimistic' && qm !== 'probabilistic')
    throw new PlanError(`--queue-model must be pessimistic or probabilistic, got '${qm}'`);
  const pm = v['position-mode'];
  if (pm !== 'hedge' && pm !== 'one_way') throw new PlanError(`--position-mode must be hedge or one_way, got '${pm}'`);
  let speed = 1;
  if (v.speed !== undefined) {
    speed = Number(v.speed);
    if (!Number.isFinite(speed) || speed < 0.1 || speed > 10_000)
      throw new PlanError(`--speed must be a number from 0.1 to 10000, got '${v.speed}'`);
  }
  const datasets = pinnedDatasets(v);
  return {
    dataDir,
    cwd: userFolder(),
    bot: v.bot,
    replay: v.replay,
    ...(datasets === undefined ? {} : { datasets }),
    split: v.split,
    grid: v.grid,
    balance: v.balance,
    lockstep: v.speed === undefined,
    speed,
    queueModel: qm,
    orderLatency: int('order-latency', v['order-latency'], 0, 60_000),
    responseLatency: int('response-latency', v['response-latency'], 0, 60_000),
    dataLatency: int('data-latency', v['data-latency'], 0, 60_000),
    positionMode: pm,
    timeoutMs: int('timeout', v.timeout, 1, 86_400) * 1000,
    seed: int('seed', v.seed, 0, 2 ** 31),
    runner: v.queue ?? 'local',
  };
}

async function makeRunner(v: Values): Promise<Runner> {
  if (v.queue !== undefined) {
    // BullMQ and the Redis client load only for a queue
    const { QueueRunner } = await import('./sweep/queue.ts');
    return QueueRunner.connect(v.queue, { packUrl: v['pack-url'], log: (l) => console.log(l) });
  }
  const workers = v.workers === undefined ? availableParallelism() : int('workers', v.workers, 1, 256);
  return new LocalPool(workers);
}

/** A supervised worker's word that it lacks a pack (runQueueWorker's sayLack, over the fork's IPC). */
interface LackMessage {
  lacksPack: string;
  line: string;
}

/** Set in the environment of superviseWorkers' processes: another program's fork is not one. */
const SUPERVISED = 'PERPDESK_SWEEP_SUPERVISED';

const isLackMessage = (m: unknown): m is LackMessage =>
  typeof m === 'object' && m !== null && typeof (m as LackMessage).lacksPack === 'string';

/** A supervised worker's word that Redis went away or is back (runQueueWorker's sayRedis). */
interface RedisMessage {
  redis: 'away' | 'back';
  line: string;
}

const isRedisMessage = (m: unknown): m is RedisMessage =>
  typeof m === 'object' && m !== null && typeof (m as RedisMessage).redis === 'string';

/**
 * The worker processes of `--concurrency N` (worker-supervisor.ts), forks of this CLI. What a
 * worker lacks (a dataset pack) it says through this process, which prints it once per pack for
 * all of them, replacements included: with --concurrency N the line came N times.
 */
async function superviseForks(n: number, args: string[], stallMs: number): Promise<number> {
  const { superviseWorkers } = await import('./sweep/worker-supervisor.ts');
  const toldLack = new Set<string>();
  // Redis away and back, once each for all the processes (each of them sees it: it came N times)
  let away = false;
  const onMessage = (m: unknown) => {
    if (isRedisMessage(m)) {
      if (away !== (m.redis === 'away')) console.log(m.line);
      away = m.redis === 'away';
      return;
    }
    if (!isLackMessage(m) || toldLack.has(m.lacksPack)) return;
    toldLack.add(m.lacksPack);
    console.log(m.line);
  };
  const run = superviseWorkers({
    n,
    stallMs,
    log: (l) => console.log(l),
    // a replacement loads the code on disk: one of another build is not started beside the others
    build: () => buildOnDisk(),
    start: () => {
      const k = fork(process.argv[1], args, {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: { ...process.env, [SUPERVISED]: '1' },
      });
      k.on('message', onMessage);
      return k;
    },
  });
  process.once('SIGINT', run.stop);
  process.once('SIGTERM', run.stop);
  return run.done;
}

/**
 * The sweep --resume names (else the newest unfinished one). A sweep that ran on a queue is not
 * resumed on the local pool unless --workers says so: the results its workers finished while no
 * coordinator ran wait in Redis, and only a resume with --queue collects them.
 */
function resumeId(argv: string[], v: Values, store: SqliteSweepStore, dataDir: string): string {
  const given = resumeGiven(argv);
  const id = given ?? store.lastUnfinished() ?? '';
  const spec = id === '' ? undefined : store.spec(id);
  if (spec === undefined)
    throw new PlanError(
      given === undefined
        ? `no unfinished sweep, nor a done one with error jobs, in ${dataDir}`
        : `no sweep ${given} in ${dataDir}`,
    );
  const live = runningHint(store, id);
  if (live !== undefined) throw new PlanError(`${live}: stop it (Ctrl-C) before resuming it`);
  const other = resumeMismatch(id, spec);
  if (other !== null) throw new PlanError(other);
  if (spec.runner !== 'local' && v.queue === undefined && v.workers === undefined)
    throw new PlanError(
      `sweep ${id} ran on the queue ${spec.runner}: the results its workers finished wait there; resume it ` +
        `with --queue ${spec.runner} to collect them (or with --workers N to run its pending jobs here, ` +
        `leaving those results in Redis)`,
    );
  return id;
}

/** The sweep `--resume ID` names; undefined for a bare --resume. */
function resumeGiven(argv: string[]): string | undefined {
  return argv.find((a, i) => i > 0 && argv[i - 1] === '--resume' && !a.startsWith('--'));
}

/** What says a sweep runs now under a live coordinator; undefined when it does not. */
function runningHint(store: SqliteSweepStore, id: string): string | undefined {
  const s = store.summary(id);
  if (s?.state !== 'running') return undefined;
  const ago = s.heartbeat_at === null ? '' : `, heard from ${Math.round((Date.now() - s.heartbeat_at) / 1000)} s ago`;
  return `sweep ${id} is running (its coordinator is alive${ago})`;
}

/**
 * --remove ID: the sweep, its jobs and results, its dataset pack, and, when it ran on a queue, its
 * jobs in that Redis (removeQueueJobs); refused while it runs. Redis first: a Redis that cannot be
 * reached refuses the removal (nothing removed, unless --forget-queue), and a removal cut short
 * leaves the sweep here to be removed again.
 */
async function removeSweep(store: SqliteSweepStore, id: string, dataDir: string, forgetQueue: boolean): Promise<void> {
  const s = store.summary(id);
  if (s === undefined) throw new PlanError(`no sweep ${id} in ${dataDir}`);
  const live = runningHint(store, id);
  if (live !== undefined) throw new PlanError(`${live}: stop it (Ctrl-C) before removing it`);
  const queue = store.spec(id)!.runner;
  let onQueue = '';
  if (queue !== 'local' && !forgetQueue) {
    const { removeQueueJobs } = await import('./sweep/queue-remove.ts');
    const { shownUrl } = await import('./sweep/redis-url.ts');
    const n = await removeQueueJobs(queue, id, s.jobs, (l) => console.log(l)).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      throw new QueueError(
        `sweep ${id} ran on the queue ${shownUrl(queue)}, whose jobs of it could not be removed (${why}); nothing removed ` +
          `(with --forget-queue it is removed here, its jobs left in that Redis)`,
      );
    });
    onQueue = `, and its ${n} job${n === 1 ? '' : 's'} from the queue ${shownUrl(queue)}`;
  }
  store.remove(id);
  const pack = join(dataDir, 'sweeps', id);
  if (existsSync(pack)) rmSync(pack, { recursive: true, force: true });
  console.log(
    `perpdesk sweep ${id}: removed (${s.state}, ${s.done}/${s.jobs} jobs done) with its results and data pack${onQueue}`,
  );
}

async function main(argv: string[]): Promise<number> {
  const worker = argv[0] === 'worker';
  const { values: v } = parse(worker ? argv.slice(1) : argv, worker);
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  if (worker) {
    if (v.queue === undefined) throw new PlanError('--queue redis://HOST:PORT is required');
    stopWhenOrphaned('perpdesk sweep worker');
    const concurrency =
      v.concurrency === undefined ? availableParallelism() : int('concurrency', v.concurrency, 1, 256);
    const stallMs = int('stall-ms', v['stall-ms'], 500, 3_600_000);
    const cacheGiven = v['cache-dir'] === undefined ? undefined : userPath(v['cache-dir']);
    const cacheDir = cacheGiven ?? defaultCacheDir();
    makeFolder(cacheDir, 'the cache folder', '--cache-dir');
    // Redis reached here, once, as the coordinator does (makeRunner): an unreachable one is one
    // line and exit 2, before any worker process starts
    const { reachRedis } = await import('./sweep/redis-url.ts');
    await reachRedis(v.queue);
    // this process, its worker processes and their bots share Node's compile cache (compile-cache.ts)
    const cache = compileCacheEnv(cacheDir);
    Object.assign(process.env, cache);
    if (cache.NODE_COMPILE_CACHE !== undefined) enableCompileCache(cache.NODE_COMPILE_CACHE);
    if (concurrency > 1) {
      // one venue at a time per Node process uses one core: N at once are N processes
      const pass = ['--stall-ms', String(stallMs), ...(cacheGiven === undefined ? [] : ['--cache-dir', cacheGiven])];
      return superviseForks(concurrency, ['worker', '--queue', v.queue, '--concurrency', '1', ...pass], stallMs);
    }
    const { runQueueWorker } = await import('./sweep/queue.ts');
    await runQueueWorker({
      url: v.queue,
      concurrency: 1,
      cacheDir: cacheGiven,
      stallMs,
      log: (l: string) => console.log(l),
      // one of superviseWorkers' processes: it says the line once for all of them
      sayLack:
        process.send === undefined || process.env[SUPERVISED] !== '1'
          ? undefined
          : (sha256, line) => process.send?.({ lacksPack: sha256, line } satisfies LackMessage),
      sayRedis:
        process.send === undefined || process.env[SUPERVISED] !== '1'
          ? undefined
          : (redis, line) => process.send?.({ redis, line } satisfies RedisMessage),
    });
    return 0;
  }
  const dataDir = v['data-dir'] === undefined ? defaultDataDir() : userPath(v['data-dir']);
  // a command on stored sweeps reads: a folder without a sweeps store has none, and none is made
  // for it; a new sweep's store is opened once the sweep passed its checks (a refused one makes nothing)
  const none = `no sweeps in ${dataDir}`;
  const onStored = v.list || v.remove !== undefined || v.export !== undefined || v.resume || v.like !== undefined;
  if (onStored && listsNothing(dataDir)) {
    if (v.list) {
      console.log(none);
      return 0;
    }
    throw new PlanError(nothingStored(argv, v, dataDir));
  }
  if (!onStored) checkFolder(dataDir);
  let store: SqliteSweepStore | undefined = onStored ? openStore(dataDir) : undefined;
  try {
    if (store !== undefined && v.list) {
      const sweeps = store.list();
      if (sweeps.length === 0) console.log(none);
      for (const s of sweeps)
        console.log(
          `${s.id}  ${s.state.padEnd(11)}  ${s.done}/${s.jobs} done, ${notOkCounts(s)}  ${s.replay}  ${s.bot}` +
            listHint(s, v['data-dir'], store.spec(s.id)!.runner, store.spec(s.id)!.build),
        );
      return 0;
    }
    if (store !== undefined && v.remove !== undefined) {
      await removeSweep(store, v.remove, dataDir, v['forget-queue'] === true);
      return 0;
    }
    if (store !== undefined && v.export !== undefined) {
      if (store.summary(v.export) === undefined) throw new PlanError(`no sweep ${v.export} in ${dataDir}`);
      if (v.format === 'csv') process.stdout.write(sweepCsv(store, v.export));
      else if (v.format === 'json') console.log(JSON.stringify(sweepView(store, v.export), null, 2));
      else throw new PlanError(`--format must be csv or json, got '${v.format}'`);
      return 0;
    }
    // the sweep to resume, then the runner: an unreachable Redis is refused before anything is
    // planned or stored
    const resumed = store !== undefined && v.resume ? resumeId(argv, v, store, dataDir) : undefined;
    // a stop before the run's own handlers below (reaching Redis, packing the data, trying the
    // venues): one line, exit 130, and a new sweep not stored yet leaves nothing, its pack removed
    const early: { runner?: Runner; packing?: string } = {};
    const stopEarly = (signal: NodeJS.Signals) => {
      void early.runner?.stop();
      const packing = early.packing;
      if (packing !== undefined) removePack(dataDir, packing);
      if (resumed !== undefined)
        console.log(
          `perpdesk sweep ${resumed}: stopped (${signal}) before its run began; nothing ran, it is as it was`,
        );
      else
        console.log(
          `perpdesk sweep${packing === undefined ? '' : ` ${packing}`}: stopped (${signal}) before the sweep was ` +
            `stored: nothing recorded${packing === undefined ? '' : `, its dataset pack removed`}`,
        );
      store?.close();
      process.exit(130);
    };
    process.on('SIGINT', stopEarly);
    process.on('SIGTERM', stopEarly);
    const runner = await makeRunner(v);
    early.runner = runner;
    let id: string;
    let sweeps: SqliteSweepStore;
    if (resumed !== undefined && store !== undefined) {
      id = resumed;
      sweeps = store;
      // the jobs that could not run (infrastructure, not the bot) run again, with the others left
      const errors = sweeps.retryErrors(id);
      if (errors > 0)
        console.log(`perpdesk sweep ${id}: running its ${errors} error job${errors === 1 ? '' : 's'} again`);
    } else {
      // the local pool's workers warm up while the data is packed and the venues tried
      const req =
        store === undefined || v.like === undefined ? request(v, dataDir) : likeRequest(v, store, dataDir, v.like);
      const prepared = await prepareSweep(req, {
        onChecked: () => runner.warm?.(),
        onPacking: (packed) => (early.packing = packed),
      });
      id = prepared.id;
      if (store === undefined) {
        try {
          store = openStore(dataDir);
        } catch (err) {
          removePack(dataDir, id);
          throw err;
        }
      }
      sweeps = store;
      sweeps.createSweep(id, prepared.spec, prepared.jobs, coordinatorHere(), Date.now());
      const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
      console.log(
        `perpdesk sweep ${id}: ${count(prepared.jobs.length, 'job')} (${count(prepared.spec.sets.length, 'parameter set')}` +
          `${prepared.note === undefined ? '' : `; ${prepared.note}`})`,
      );
    }
    // a resume on a queue is recorded: the results of its jobs wait there from now on, which
    // --list, the API's commands, a --resume without --queue and --remove then name. One on
    // --workers leaves the queue recorded: the results its workers finished may still wait there
    if (resumed !== undefined && v.queue !== undefined) sweeps.setRunner(id, v.queue);
    const doneBefore = sweeps.summary(id)!.done;
    // where the results of this run's unfinished jobs wait: the resume hint names that queue
    const queue = v.queue ?? (sweeps.spec(id)!.runner === 'local' ? undefined : sweeps.spec(id)!.runner);
    const finish = (ran: number, reruns = 0) =>
      console.log(finalLine(sweeps.summary(id)!, ran, v['data-dir'], queue, reruns));
    let interrupts = 0;
    const stop = () => {
      interrupts++;
      // the first Ctrl-C stops the run (the queue's connections closed within a few seconds)
      if (interrupts === 1) {
        void runner.stop();
        return;
      }
      // a second one waits for nothing more: the sweep marked stopped, the summary, exit 130
      const s = sweeps.summary(id)!;
      sweeps.setState(id, s.done === s.jobs ? 'done' : 'stopped', Date.now());
      if (process.stderr.isTTY) process.stderr.write('\n');
      finish(s.done - doneBefore);
      sweeps.close();
      process.exit(130);
    };
    process.off('SIGINT', stopEarly);
    process.off('SIGTERM', stopEarly);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    stopWhenOrphaned(`perpdesk sweep ${id}: its coordinator`);
    const r = await runSweep(sweeps, id, runner, {
      out: (l) => console.log(l),
      progress: (t) => process.stderr.write(t),
      tty: process.stderr.isTTY === true,
    });
    await runner.stop();
    // taken over: the other coordinator's run is the one to follow (its line says what is done)
    if (r.takenOver) return 1;
    finish(r.ran, r.reruns);
    return interrupts > 0 ? 130 : 0;
  } finally {
    store?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof PlanError || err instanceof QueueError) {
      console.error(`perpdesk sweep: ${err.message}`);
      process.exit(2);
    }
    console.error('perpdesk sweep: failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);

/**
 * What a command on a stored sweep (--remove, --export, --resume, --like) says on a folder with no
 * sweeps store: the line it says when the store has no such sweep.
 */
function nothingStored(argv: string[], v: Values, dataDir: string): string {
  if (v.like !== undefined) return `--like ${v.like}: no sweep ${v.like} in ${dataDir} (npm run sweep -- --list)`;
  const id = v.remove ?? v.export;
  if (id !== undefined) return `no sweep ${id} in ${dataDir}`;
  const given = resumeGiven(argv);
  return given === undefined
    ? `no unfinished sweep, nor a done one with error jobs, in ${dataDir}`
    : `no sweep ${given} in ${dataDir}`;
}
