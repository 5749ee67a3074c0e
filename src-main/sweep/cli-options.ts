// The sweep CLI's options (sweep-cli.ts): read with Node's parseArgs, then checked against what
// the command does with them. An option the command would take and ignore (a worker's option
// given to the coordinator, --workers with --queue, a run option with --resume or --list) is
// refused in one line (exit 2), as `npm run data` does; so are an unknown option and an option
// without its value, in the CLI's own words.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { PlanError } from './plan.ts';

export const USAGE = `Usage:
  npm run sweep -- --bot CMD --replay SYM[,SYM2]@FROM..TO [options]    run a sweep
  npm run sweep -- --resume [ID] [--workers N | --queue redis://HOST:PORT]   finish a stopped sweep, or run
                        a done one's error jobs again
  npm run sweep -- --like ID --replay SPEC [--replay-datasets IDS]     a new sweep of ID's bot, parameter
                        sets and options on other data (out-of-sample: the sets a sweep ranked, on days
                        it did not see)
  npm run sweep -- --list | --export ID [--format csv|json]             stored sweeps
  npm run sweep -- --remove ID [--forget-queue]                        delete a sweep not running
  npm run sweep:worker -- --queue redis://HOST:PORT [--concurrency N]      take jobs from the queue

  --bot CMD             the bot's command line ("node examples/sweep-bot.ts"), run once per job
  --replay SPEC         BTCUSDT@2025-01-06..2025-01-12 (dates: whole UTC days) or with times
                        BTCUSDT@2025-01-06T08:00Z..2025-01-06T20:00Z
  --replay-datasets ID[,ID2...]
                        the datasets each replay reads, by id (npm run data -- list), each for its
                        symbol's role; the others are picked as without it (docs/replay.md)
  --split S             day (default), week, none, or a number of hours (6h)
  --grid FILE           the parameter sets (docs/sweeps.md, The grid file); none: one empty set
  --workers N           local worker processes (default: one per core, ${availableParallelism()} here)
  --queue URL           run on BullMQ over Redis instead (redis://HOST:PORT[/DB])
  --data-dir DIR        the data folder (datasets in, results out; default: the OS user-data folder)
  --balance X           the bot's starting USDT (default 10000)
  --speed X             play each replay at X instead of lockstep (the bot steps by default)
  --queue-model M       pessimistic or probabilistic (default)
  --order-latency MS, --response-latency MS, --data-latency MS   (default 0; docs/replay.md)
  --position-mode M     hedge (default) or one_way (Binance bots)
  --timeout SECONDS     a job's wall-time bound; the bot is killed past it (default 600)
  --seed N              handed to the bot as PERPDESK_SEED (default 1)
  --pack-url URL        (with --queue) where workers without the data fetch it: the coordinator
                        serves it there (http://HOST:PORT, this machine's reachable address)
  --forget-queue        (--remove) remove a queue sweep even though its Redis cannot be reached
                        (its jobs there are left); without it they are removed from Redis too
  --concurrency N       (worker) jobs at once (default: one per core)
  --cache-dir DIR       (worker) where fetched dataset packs are kept
  --stall-ms MS         (worker) a worker silent this long is taken for dead and its job run
                        again elsewhere (default 30000)`;

const OPTIONS = {
  bot: { type: 'string' },
  replay: { type: 'string' },
  'replay-datasets': { type: 'string' },
  split: { type: 'string', default: 'day' },
  grid: { type: 'string' },
  workers: { type: 'string' },
  queue: { type: 'string' },
  'data-dir': { type: 'string' },
  balance: { type: 'string', default: '10000' },
  speed: { type: 'string' },
  'queue-model': { type: 'string', default: 'probabilistic' },
  'order-latency': { type: 'string', default: '0' },
  'response-latency': { type: 'string', default: '0' },
  'data-latency': { type: 'string', default: '0' },
  'position-mode': { type: 'string', default: 'hedge' },
  timeout: { type: 'string', default: '600' },
  seed: { type: 'string', default: '1' },
  'pack-url': { type: 'string' },
  resume: { type: 'boolean' },
  like: { type: 'string' },
  list: { type: 'boolean' },
  export: { type: 'string' },
  remove: { type: 'string' },
  'forget-queue': { type: 'boolean' },
  format: { type: 'string', default: 'json' },
  concurrency: { type: 'string' },
  'cache-dir': { type: 'string' },
  'stall-ms': { type: 'string', default: '30000' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function int(name: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new PlanError(`--${name} must be an integer from ${min} to ${max}, got '${v}'`);
  return Number(v);
}

type Name = keyof typeof OPTIONS;
const isOption = (w: string) => w === '-h' || (w.startsWith('--') && w.slice(2).split('=')[0] in OPTIONS);

/** The options a sweep run reads (its job template and runner). */
const RUN: readonly Name[] = [
  ...['bot', 'replay', 'replay-datasets', 'split', 'grid', 'balance', 'speed', 'queue-model', 'order-latency'],
  ...['response-latency', 'data-latency', 'position-mode', 'timeout', 'seed'],
] as Name[];
const RUNNER: readonly Name[] = ['workers', 'queue', 'pack-url', 'data-dir'];
/** What each command takes (help aside). */
const TAKES: Record<string, readonly Name[]> = {
  'sweep:worker': ['queue', 'concurrency', 'cache-dir', 'stall-ms'],
  '--list': ['list', 'data-dir'],
  '--export': ['export', 'format', 'data-dir'],
  '--remove': ['remove', 'forget-queue', 'data-dir'],
  // a sweep resumes with its own options: only the runner is chosen again
  '--resume': ['resume', ...RUNNER],
  // another sweep's bot, sets and options: only the data and the runner are chosen again
  '--like': ['like', 'replay', 'replay-datasets', ...RUNNER],
  'a sweep run': [...RUN, ...RUNNER],
};
/** What a stray word after each command's options is told. */
const STRAY_HINT: Record<string, string> = {
  'sweep:worker':
    'sweep:worker takes options only (npm run sweep:worker -- --queue redis://HOST:PORT ' +
    '[--concurrency N] [--cache-dir DIR] [--stall-ms MS]); see --help',
  '--list': '--list takes no value (npm run sweep -- --list); see --help',
  '--export': '--export takes one sweep ID (npm run sweep -- --export ID [--format csv|json]); see --help',
  '--remove': '--remove takes one sweep ID (npm run sweep -- --remove ID [--forget-queue]); see --help',
  '--resume': '--resume takes at most one sweep ID (npm run sweep -- --resume [ID]); see --help',
  '--like':
    '--like takes one sweep ID, and several pairs are one --replay value (--replay BTCUSDT,ETHUSDT@FROM..TO); see --help',
  'a sweep run':
    'a bot command with arguments is one quoted --bot value (--bot "node examples/sweep-bot.ts"); see --help',
};
/** Why an option does not go with a command, when its name does not say it. */
const WHY: Partial<Record<Name, string>> = {
  concurrency: "a queue worker's option: npm run sweep:worker -- --queue URL --concurrency N",
  'cache-dir': "a queue worker's option: npm run sweep:worker -- --queue URL --cache-dir DIR",
  'stall-ms': "a queue worker's option: npm run sweep:worker -- --queue URL --stall-ms MS",
  queue: 'it uses the queue the sweep ran on',
};

/** The command the words ask for (a worker's, or the coordinator's one of list, export, remove, resume, run). */
function commandOf(worker: boolean, given: ReadonlySet<string>): string {
  if (worker) return 'sweep:worker';
  const asked = ['--list', '--export', '--remove', '--resume', '--like'].filter((c) => given.has(c.slice(2)));
  if (asked.length > 1) throw new PlanError(`${asked.join(' and ')} are separate commands: give one`);
  return asked[0] ?? 'a sweep run';
}

/** Refuses what the command would take and ignore; PlanError naming it. */
function checkGiven(command: string, given: ReadonlySet<string>): void {
  if (given.has('help')) return;
  const foreign = [...given].find((o) => !TAKES[command].includes(o as Name));
  if (foreign !== undefined) {
    const why =
      command === '--resume' && RUN.includes(foreign as Name)
        ? 'a sweep resumes with its own options'
        : command === '--like' && RUN.includes(foreign as Name)
          ? "it runs the other sweep's bot, parameter sets and options; only --replay and --replay-datasets are chosen again"
          : WHY[foreign as Name];
    throw new PlanError(`${command} takes no --${foreign}${why === undefined ? '' : ` (${why})`}`);
  }
  if (given.has('workers') && given.has('queue'))
    throw new PlanError('--workers runs the jobs here, --queue on queue workers: give one of them');
  if (given.has('pack-url') && !given.has('queue'))
    throw new PlanError('--pack-url serves the data to queue workers: it goes with --queue');
}

/**
 * Node's words for a value that begins with a dash (`--balance -5`: "ambiguous... use
 * '--balance=-XYZ'") are not the CLI's: such a word is taken as the option's value (and the value
 * then refused in the option's own terms), unless it is itself an option (then the value is missing).
 */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i];
    const o = w.startsWith('--') && !w.includes('=') ? OPTIONS[w.slice(2) as Name] : undefined;
    const next = argv[i + 1];
    if (o?.type === 'string' && next?.startsWith('-') && !isOption(next)) {
      out.push(`${w}=${next}`);
      i++;
    } else out.push(w);
  }
  return out;
}

/** parseArgs' errors in the CLI's words. */
function parseError(err: unknown, argv: readonly string[]): PlanError {
  const code = (err as { code?: string }).code;
  const msg = err instanceof Error ? err.message : String(err);
  const name = /'(--?[\w-]+)/.exec(msg)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new PlanError(`unknown option ${name || argv.join(' ')}; see --help`);
  if (/does not take an argument/.test(msg)) return new PlanError(`${name} takes no value`);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return new PlanError(`${name} needs a value; see --help`);
  return new PlanError(msg);
}

export type Values = ReturnType<typeof parse>['values'];

/** The options of `npm run sweep` (worker false) or `npm run sweep:worker`, checked; PlanError for bad usage. */
export function parse(argv: string[], worker = false) {
  const args = joinDashValues(argv);
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    throw parseError(err, argv);
  }
  // the one word an option does not take is the ID after --resume; any other is refused, not
  // dropped: `--bot node examples/sweep-bot.ts` unquoted would otherwise run `node` alone. A
  // worker takes no bot (nor --bot): its hint is its own options, as each command's is
  const given = new Set(parsed.tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])));
  // an option given twice: parseArgs keeps the last without a word (`--data-dir A ... --data-dir B`
  // ran the sweep on B's datasets and stored it there)
  const values = new Map<string, string>();
  for (const t of parsed.tokens) {
    if (t.kind !== 'option' || t.value === undefined) continue;
    const before = values.get(t.name);
    if (before !== undefined)
      throw new PlanError(`--${t.name} is given twice ('${before}', then '${t.value}'): give it once`);
    values.set(t.name, t.value);
  }
  const command = commandOf(worker, given);
  const stray = parsed.tokens.find((t) => t.kind === 'positional' && args[t.index - 1] !== '--resume');
  if (stray?.kind === 'positional') throw new PlanError(`unexpected argument '${stray.value}': ${STRAY_HINT[command]}`);
  checkGiven(command, given);
  return parsed;
}
