// `npm run sweep:worker -- --concurrency N` (N > 1): N single-job worker processes of the CLI,
// each replaced when it dies, saying so (why: its exit code or signal; what becomes of its jobs);
// one that keeps dying soon after its start is replaced later each time, then given up on, with
// the others stopped and a non-zero exit; one that dies after the code on disk changed is not
// replaced by a process of the new build beside the others' (docs/sweeps.md, Many machines). Until
// 2026-12-07 a dead process was replaced a second later without a word, and one that kept crashing
// for ever, and a replacement ran whatever build was on disk.
import type { ChildProcess } from 'node:child_process';

/** A worker process that dies sooner than this after its start dies "soon" (a crash in a row). */
const STEADY_MS = 60_000;
/** Deaths in a row of one of the N processes, each soon after its start, that give up the worker. */
const CRASHES_IN_A_ROW = 5;

export interface SuperviseOptions {
  /** How many worker processes run at once. */
  n: number;
  /** Starts one worker process (a fork of the CLI). */
  start: () => ChildProcess;
  log: (line: string) => void;
  /** The workers' --stall-ms: the jobs a dead one held go back to the queue that long after. */
  stallMs: number;
  /** The wait before a replacement, doubled for each death in a row soon after a start; 1 s. */
  delayMs?: number;
  /**
   * The build of the code on disk now (build-id.ts buildOnDisk), which a process started now
   * runs: read at the start and at each death; a dead process is not replaced by one of another
   * build than its siblings'.
   */
  build?: () => string | undefined;
}

export interface Supervision {
  /** The exit code: 2 when a worker met a usage error, 1 when they kept dying, else 0. */
  done: Promise<number>;
  /** Stops every worker process (SIGTERM: each ends its running job) and replaces none. */
  stop: () => void;
}

const lifetime = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`);
const seconds = (ms: number) => `${ms >= 1000 ? Math.round(ms / 1000) : (ms / 1000).toFixed(2)} s`;
const nth = (k: number) => `${k}${k === 1 ? 'st' : k === 2 ? 'nd' : k === 3 ? 'rd' : 'th'}`;

/** Why a dead worker process is not replaced: the code on disk is of another build than the others'. */
function changed(was: string | undefined, now: string | undefined, left: number): string {
  const what =
    `the code on disk is now build ${now ?? '(none: not a checkout)'}, not the build ${was} these worker ` +
    'processes started with (another commit, or local changes, under src-main, src-shared, package.json or ' +
    `package-lock.json), and a new one would run it beside the others, handing back the jobs of build ${was}'s sweeps`;
  return left === 0
    ? `${what}. No worker process is left: the worker stops (exit code 1); start it again to run build ${now}`
    : `${what}. ${left} worker process${left === 1 ? '' : 'es'} of build ${was} run${left === 1 ? 's' : ''} on; ` +
        `to run build ${now}, stop this worker (Ctrl-C: they end their running jobs) and start it again`;
}

/**
 * Runs o.n worker processes until stop(); a worker process that exits 2 (a usage error, which
 * would repeat in every replacement) stops the others too.
 */
export function superviseWorkers(o: SuperviseOptions): Supervision {
  const delayMs = o.delayMs ?? 1000;
  const kids = new Set<ChildProcess>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  let code = 0;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  /** The build the worker processes run (undefined: not known, outside a checkout). */
  const build = o.build?.();
  const stop = () => {
    stopping = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const k of kids) k.kill('SIGTERM');
    if (kids.size === 0) finish(code);
  };
  /** One of the n places: its processes' deaths in a row, each soon after its start. */
  const startOne = (slot: { soon: number }) => {
    if (stopping) return;
    const k = o.start();
    const at = Date.now();
    kids.add(k);
    k.once('exit', (exit, signal) => {
      kids.delete(k);
      if (stopping) {
        if (kids.size === 0) finish(code);
        return;
      }
      if (exit === 2) {
        // its line (stderr) says the usage error
        code = 2;
        stop();
        return;
      }
      const lived = Date.now() - at;
      const how =
        signal !== null ? `died (${signal})` : exit === 0 ? 'stopped (exit code 0)' : `died (exit code ${exit})`;
      const died =
        `perpdesk sweep worker: worker process ${k.pid} ${how} ${lifetime(lived)} after its start; the jobs it ` +
        `held go back to the queue once their locks lapse (--stall-ms ${o.stallMs})`;
      const now = o.build?.();
      if (now !== build) {
        o.log(`${died}; not replaced: ${changed(build, now, kids.size)}`);
        if (kids.size === 0) {
          code = 1;
          stop();
        }
        return;
      }
      slot.soon = lived < STEADY_MS ? slot.soon + 1 : 0;
      if (slot.soon >= CRASHES_IN_A_ROW) {
        o.log(
          `${died}. It is the ${nth(slot.soon)} in a row to die within ${STEADY_MS / 1000} s of its start: giving up ` +
            '(the other worker processes stop, ending their running jobs); the lines above say why they die',
        );
        code = 1;
        stop();
        return;
      }
      const wait = slot.soon === 0 ? delayMs : delayMs * 2 ** (slot.soon - 1);
      o.log(
        `${died}; a new one starts in ${seconds(wait)}` +
          (slot.soon === 0
            ? ''
            : ` (the ${nth(slot.soon)} in a row to die within ${STEADY_MS / 1000} s of its start; at the ` +
              `${nth(CRASHES_IN_A_ROW)} the worker gives up)`),
      );
      const t = setTimeout(() => {
        timers.delete(t);
        startOne(slot);
      }, wait);
      timers.add(t);
    });
  };
  for (let i = 0; i < o.n; i++) startOne({ soon: 0 });
  return { done, stop };
}
