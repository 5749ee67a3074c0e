// The `npm run data` command line (data-cli.ts): the command, its options, and the usage errors
// (exit 2) said before anything is read or fetched.
import { DEFAULT_BASE_URL } from './data/download.ts';
import { givenSymbol, optionsProblem } from './data/kinds.ts';

export interface DataCliOptions {
  command: 'import' | 'download' | 'list' | 'delete' | 'help';
  paths: string[];
  kinds?: string;
  from?: string;
  to?: string;
  baseUrl?: string;
  out?: string;
  concurrency?: number;
  /** seconds a request may go without a byte (download) */
  idleTimeout?: number;
  noImport?: boolean;
  dataDir?: string;
  symbol?: string;
  market?: string;
  kind?: string;
  interval?: string;
}

class DataCliError extends Error {}

/** The options each command reads (--data-dir: every one); another is refused, not ignored. */
const COMMAND_OPTIONS: Record<Exclude<DataCliOptions['command'], 'help'>, readonly string[]> = {
  import: ['--data-dir', '--symbol', '--market', '--kind', '--interval'],
  download: [
    '--data-dir',
    '--symbol',
    '--market',
    '--kinds',
    '--from',
    '--to',
    '--base-url',
    '--out',
    '--concurrency',
    '--idle-timeout',
    '--no-import',
  ],
  list: ['--data-dir'],
  delete: ['--data-dir'],
};

export function parseDataCli(argv: readonly string[]): DataCliOptions {
  const out: DataCliOptions = { command: 'help', paths: [] };
  let command: string | undefined;
  const given: string[] = [];
  // the value each option took: an option given twice is bad usage (before, the last one won
  // without a word: `list --data-dir A --data-dir B` listed B)
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    // `--data-dir=DIR` is `--data-dir DIR`, as `npm run serve` and `npm run sweep` take it (before:
    // "unknown option --data-dir=DIR"); a value that starts with -- is written so
    const eq = argv[i].startsWith('--') ? argv[i].indexOf('=') : -1;
    const a = eq > 0 ? argv[i].slice(0, eq) : argv[i];
    if (a.startsWith('--')) given.push(a);
    const value = (): string => {
      const v = eq > 0 ? argv[i].slice(eq + 1) : argv[++i];
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new DataCliError(`${a} needs a value`);
      const before = values.get(a);
      if (before !== undefined) throw new DataCliError(`${a} is given twice ('${before}', then '${v}'): give it once`);
      values.set(a, v);
      return v;
    };
    if (eq > 0 && (a === '--help' || a === '--no-import'))
      throw new DataCliError(`${a} takes no value, got '${argv[i]}'`);
    switch (a) {
      case '-h':
      case '--help':
        return { ...out, command: 'help' };
      case '--data-dir':
        out.dataDir = value();
        break;
      case '--symbol':
        out.symbol = givenSymbol(value());
        break;
      case '--market':
        out.market = value();
        break;
      case '--kind':
        out.kind = value();
        break;
      case '--kinds':
        out.kinds = value();
        break;
      case '--from':
        out.from = value();
        break;
      case '--to':
        out.to = value();
        break;
      case '--base-url': {
        // the archive's address: an http(s) URL, or every file would fail alike once fetched
        const v = value();
        if (!URL.canParse(v) || !['http:', 'https:'].includes(new URL(v).protocol))
          throw new DataCliError(
            `--base-url must be an http:// or https:// address, e.g. ${DEFAULT_BASE_URL} (got '${v}')`,
          );
        out.baseUrl = v;
        break;
      }
      case '--out':
        out.out = value();
        break;
      case '--concurrency': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 16)
          throw new DataCliError(`--concurrency must be 1 to 16 (got '${v}')`);
        out.concurrency = Number(v);
        break;
      }
      case '--idle-timeout': {
        const v = value();
        if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0 || Number(v) > 3600)
          throw new DataCliError(`--idle-timeout must be seconds, more than 0 and at most 3600 (got '${v}')`);
        out.idleTimeout = Number(v);
        break;
      }
      case '--no-import':
        out.noImport = true;
        break;
      case '--interval':
        out.interval = value();
        break;
      default:
        if (a.startsWith('-')) throw new DataCliError(`unknown option ${a}`);
        if (command === undefined) command = a;
        else out.paths.push(a);
    }
  }
  // no command is bad usage (the help goes to stderr, exit 2); only --help is an answer (exit 0)
  if (command === undefined) throw new DataCliError('a command is needed: import, download, list or delete');
  if (command === 'help') return { ...out, command: 'help' }; // `npm run data -- help`, as --help
  if (command !== 'import' && command !== 'download' && command !== 'list' && command !== 'delete')
    throw new DataCliError(`unknown command ${command}`);
  out.command = command;
  const foreign = given.find((o) => !COMMAND_OPTIONS[command].includes(o));
  if (foreign !== undefined) throw new DataCliError(`${command} takes no ${foreign}`);
  if ((command === 'list' || command === 'download') && out.paths.length > 0)
    throw new DataCliError(
      `${command} takes no paths (got ${out.paths.map((x) => `'${x}'`).join(', ')})${command === 'download' ? '; use --out for the folder' : ''}`,
    );
  if (command === 'import' && out.paths.length === 0)
    throw new DataCliError('import needs at least one file or folder');
  if (command === 'import') {
    // a value no file can make right is a usage error, said once before any file is read
    const problem = optionsProblem(out);
    if (problem !== null) throw new DataCliError(problem);
  }
  if (command === 'download') {
    const missing = ['symbol', 'market', 'kinds', 'from', 'to'].filter(
      (k) => out[k as keyof DataCliOptions] === undefined,
    );
    if (missing.length > 0) throw new DataCliError(`download needs ${missing.map((m) => '--' + m).join(', ')}`);
  }
  if (command === 'delete' && out.paths.length !== 1) throw new DataCliError('delete needs one dataset id');
  // an id as `data list` writes it, the same on the folder and through a service (whose route
  // refuses 007, 0 and ids past 2^53 - 1): never read as another (007 as 7, 10^20 as a rounded one)
  if (command === 'delete' && !(/^[1-9]\d*$/.test(out.paths[0]) && Number.isSafeInteger(Number(out.paths[0]))))
    throw new DataCliError(
      `delete needs one dataset id, a whole number from 1 as data list gives it (got '${out.paths[0]}')`,
    );
  return out;
}
