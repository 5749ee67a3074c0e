// What the sweep CLI prints that names a command: the commands are printed so that they run as
// printed (a copy and paste), with the sweep's --data-dir when it was given one.
import { shellWord } from '../../src-shared/shell-word.ts';
import { ownBuild } from './build-id.ts';
import type { SweepSummary } from './ports.ts';

/** An `npm run SCRIPT` command line as printed, its data folder when one was given: it runs as printed. */
function npmCommand(script: 'sweep' | 'data', args: readonly string[], dataDir: string | undefined): string {
  return `npm run ${script} -- ${[...args, ...(dataDir === undefined ? [] : ['--data-dir', dataDir])].map(shellWord).join(' ')}`;
}

/** A sweep command line as printed, its data folder when one was given: it runs as printed. */
function sweepCommand(args: readonly string[], dataDir: string | undefined): string {
  return npmCommand('sweep', args, dataDir);
}

/**
 * The first sweep to run (docs/sweeps.md's example): the import of the data it replays (the
 * repository's 15m candles of BTCUSDT's week of 2025-01-06), then the example bot over that week,
 * a job a day, over the example grid.
 */
const FIRST_SWEEP = {
  file: 'test/fixtures/binance/klines/binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv',
  bot: 'node examples/sweep-bot.ts',
  replay: 'BTCUSDT@2025-01-06..2025-01-12',
  grid: 'examples/sweep-grid.json',
} as const;

/** The first sweep's two commands (GET /api/v1/sweep-example), run from the repository as given. */
export interface FirstSweepCommands {
  /** Imports the data it replays into the folder. */
  import: string;
  /** Runs the example bot over it. */
  sweep: string;
}

/**
 * The first sweep's commands on a data folder, with `--data-dir` when it is not the CLI's default
 * one (`dataDir` undefined when it is): without it the import would fill the default folder, and
 * the service on another folder would show neither the data nor the sweep.
 */
export function firstSweepCommands(dataDir: string | undefined): FirstSweepCommands {
  const f = FIRST_SWEEP;
  return {
    import: npmCommand(
      'data',
      ['import', f.file, '--market', 'spot', '--symbol', 'BTCUSDT', '--interval', '15m'],
      dataDir,
    ),
    sweep: sweepCommand(['--bot', f.bot, '--replay', f.replay, '--split', 'day', '--grid', f.grid], dataDir),
  };
}

/** The command that finishes a sweep: its data folder when one was given, and the queue its results wait on. */
function resumeCommand(id: string, dataDir: string | undefined, queue: string | undefined): string {
  const args = ['--resume', id, ...(dataDir === undefined ? [] : ['--data-dir', dataDir])];
  return sweepCommand([...args, ...(queue === undefined ? [] : ['--queue', queue])], undefined);
}

/** What the service offers for a sweep (GET /api/v1/sweeps): its commands as the CLI prints them. */
export interface SweepCommands {
  /**
   * Finishes it (its jobs without a result) or runs its error jobs again; null while it runs, when
   * neither is left, or for a sweep of another build (the CLI refuses its resume: see rerun).
   */
  resume: string | null;
  /**
   * For a sweep with jobs left that another build than this checkout's started (its --resume is
   * refused here: it would mix two builds' figures): the command that runs it again as a new
   * sweep of this build (--like on its own span); null otherwise.
   */
  rerun: string | null;
  /** Deletes it with its results and its dataset pack; null while it runs. */
  remove: string | null;
  /** A new sweep of its bot, sets and options (--like), here on its own data: the page swaps in other data. */
  like: string;
}

/** Whether this checkout refuses to resume a sweep of build `build` (build-id.ts resumeMismatch). */
function ofOtherBuild(build: string | undefined, mine: string | undefined): boolean {
  return build !== undefined && mine !== undefined && build !== mine;
}

/**
 * A sweep's commands, runnable as given: with `--data-dir` when the folder is not the CLI's default
 * one (`dataDir` undefined when it is) and, to resume a sweep run on a queue, that queue. A sweep
 * another build started (`build`, stored with it) is not resumed from this checkout (`mine`): it
 * gets the command that runs it again as a new sweep instead.
 */
export function sweepCommands(
  s: SweepSummary,
  dataDir: string | undefined,
  runner: string,
  build?: string,
  mine: string | undefined = ownBuild(),
): SweepCommands {
  const like = sweepCommand(['--like', s.id, '--replay', s.replay], dataDir);
  if (s.state === 'running') return { resume: null, rerun: null, remove: null, like };
  const left = s.done < s.jobs || s.errors > 0;
  const other = ofOtherBuild(build, mine);
  return {
    resume: left && !other ? resumeCommand(s.id, dataDir, runner === 'local' ? undefined : runner) : null,
    rerun: left && other ? like : null,
    remove: sweepCommand(['--remove', s.id], dataDir),
    like,
  };
}

/**
 * A sweep's jobs not ok, by status apart: `1 failed` (the bot's failures), with `2 timeout` and
 * `1 error` (could not run) when there are any.
 */
export function notOkCounts(s: Pick<SweepSummary, 'failed' | 'timeouts' | 'errors'>): string {
  return (
    `${s.failed - s.timeouts - s.errors} failed` +
    (s.timeouts > 0 ? `, ${s.timeouts} timeout` : '') +
    (s.errors > 0 ? `, ${s.errors} error` : '')
  );
}

/**
 * A sweep's last line: its counts, the command that finishes it (jobs left) or runs its `error`
 * jobs again (done, some could not run), this run's count (and the jobs it ran again because their
 * worker process died) and where its results are.
 */
export function finalLine(
  s: SweepSummary,
  ran: number,
  dataDir: string | undefined,
  queue: string | undefined,
  reruns = 0,
): string {
  const resume = resumeCommand(s.id, dataDir, queue);
  return (
    `perpdesk sweep ${s.id}: ${s.done}/${s.jobs} jobs done (${s.ok} ok, ${notOkCounts(s)})` +
    (s.done < s.jobs ? `; finish with: ${resume}` : '') +
    (s.done === s.jobs && s.errors > 0
      ? `; run its ${s.errors} error job${s.errors === 1 ? '' : 's'} again with: ${resume}`
      : '') +
    ` (this run: ${ran}${reruns > 0 ? `, ${reruns} run again after their worker process died` : ''}); results: ${sweepCommand(['--export', s.id, '--format', 'csv'], dataDir)}, ` +
    `or GET /api/v1/sweeps/${s.id}`
  );
}

/**
 * What `--list` says after a sweep that has jobs to run: the command that finishes it (on its
 * queue when it ran on one: the results its workers finished wait there) or runs its `error` jobs
 * again, or, for a sweep another build started (its resume refused), the one that runs it again as
 * a new sweep; '' for one running or done without error jobs.
 */
export function listHint(
  s: SweepSummary,
  dataDir: string | undefined,
  runner: string,
  build?: string,
  mine: string | undefined = ownBuild(),
): string {
  const left = s.state === 'interrupted' || s.state === 'stopped' || (s.state === 'done' && s.errors > 0);
  if (left && ofOtherBuild(build, mine))
    return (
      `  (started by build ${build}, not this checkout's ${mine}: run it again as a new sweep with: ` +
      `${sweepCommand(['--like', s.id, '--replay', s.replay], dataDir)}, or resume it from a checkout of build ${build})`
    );
  const resume = resumeCommand(s.id, dataDir, runner === 'local' ? undefined : runner);
  if (s.state === 'interrupted') return `  (its coordinator is gone: ${resume}, or --remove ${s.id})`;
  if (s.state === 'stopped') return `  (finish with: ${resume})`;
  if (s.state === 'done' && s.errors > 0)
    return `  (run its ${s.errors} error job${s.errors === 1 ? '' : 's'} again with: ${resume})`;
  return '';
}
