// Command-line options of the headless service (`npm run serve -- ...`) and the desktop app.
import {
  AccountFieldError,
  checkAccountFields,
  CREDENTIAL_RULE,
  DEFAULT_PAPER_BALANCE,
  MAX_PAPER_BALANCE,
  MAX_PAPER_USDT,
} from './accounts/credentials.ts';
import { isIP } from 'node:net';
import { parseFixed } from '../src-shared/decimal.ts';
import { MAX_LATENCY_MS } from './replay/models/constant-latency.ts';

export { DEFAULT_PAPER_BALANCE };

export interface AccountSpec {
  apiKey: string;
  apiSecret: string;
  /** 1e-8 USDT units. */
  balance: bigint;
  /** Position mode to put the account in (hedge is the default of a new account); absent: unchanged. */
  positionMode?: 'hedge' | 'one_way';
}

export interface CliOptions {
  host: string;
  port: number;
  /** --port was given (the default port is not): npm start's fallback then takes it as given. */
  portGiven: boolean;
  dataDir?: string;
  seed?: number;
  speed?: number;
  accounts: AccountSpec[];
  /** false with --no-sim: a quiet venue whose book holds only what clients place. */
  simulate: boolean;
  /** --volatility / --intensity: multipliers of the simulated market's defaults. */
  simVolatility?: number;
  simIntensity?: number;
  /** --fast: the simulated market runs as fast as the CPU allows, every step simulated. */
  simFast?: boolean;
  /** --start: market time (ms UTC) a new venue's clock starts from (its history ends there). */
  simStart?: number;
  /** --replay: the whole service is a replay of recorded data (docs/replay.md). */
  replay?: ReplayCliSpec;
  help: boolean;
}

/** What --replay and its companions ask for; checked against the datasets when the venue opens. */
interface ReplayCliSpec {
  symbols: string[];
  /** ms UTC. */
  start: number;
  until?: number;
  /** --replay-datasets: the ids of the datasets to read (docs/replay.md "Choosing the datasets"). */
  datasets?: number[];
  queueModel?: 'pessimistic' | 'probabilistic';
  lockstep: boolean;
  /** Starting balance of the local account, 1e-8 USDT units. */
  balance?: bigint;
  /** --order-latency: order entry latency, ms of history. */
  orderLatency?: number;
  /** --data-latency: WebSocket market-data latency, ms of history. */
  dataLatency?: number;
  /** --response-latency: order response latency, ms of history. */
  responseLatency?: number;
}

export const USAGE = `Usage: npm run serve -- [options]

  --host H                 interface to listen on (default 127.0.0.1)
  --port N                 port, 0 picks a free one (default 8787)
  --data-dir DIR           folder of the database (default: the OS user-data folder)
  --seed N                 seed of the simulated market, kept for later starts (default: the data
                           folder's last seed, else 1)
  --speed X                market clock speed factor, 0.1 to 10000 (default 1)
  --account KEY:SECRET[:BALANCE[:MODE]]
                           create or update a paper account with this API key, secret and USDT
                           balance (default 10000), MODE hedge (default) or one_way (what Binance
                           bots expect, see docs/binance.md); KEY and SECRET: each
                           ${CREDENTIAL_RULE}; BALANCE at most ${MAX_PAPER_USDT}; may repeat,
                           each KEY once
  --volatility X           multiply every pair's simulated volatility by X (0.1 to 10, default 1)
  --intensity X            multiply how often simulated takers trade by X (0.1 to 10, default 1)
  --no-sim                 no simulated market: the book holds only what clients place
  --fast                   run the simulated market as fast as the CPU allows, every step simulated
                           (reproducible from the seed; --speed applies once fast mode is turned off)
  --start TIME             market time a new data folder's simulated market starts from (UTC,
                           2025-01-06 or 2025-01-06T00:00Z; default: now); with --seed (and --fast)
                           a run is reproducible from its command line
  --replay SYM@TIME[,SYM2...]
                           replay imported data instead of the simulated market, from TIME (UTC,
                           2021-05-16, 2021-05-16T00:00Z, 2021-05-16T00:00:00Z or
                           2021-05-16T00:00:00.061Z; a TIME earlier on the UTC day of the data's
                           first event starts at that event); several symbols are replayed
                           together when their datasets overlap (docs/replay.md)
  --until TIME             end of the replay (default: the end of the data)
  --replay-datasets ID[,ID2...]
                           read these datasets (their ids: npm run data -- list), each for its
                           symbol's role: the main data (a pinned depth, trades or klines dataset
                           is what the pair is replayed from), mark, index, premium index or
                           funding; the roles not pinned are picked as without it
  --queue-model M          pessimistic or probabilistic (default), how a resting order's place in
                           the historical queue moves
  --lockstep               the replay clock moves only when a client steps it
  --balance X              starting USDT balance of the replay's local account (default 10000)
  --order-latency MS       an order sent at historical time t reaches the replay's matching engine
                           at t + MS (0 to 60000, default 0)
  --response-latency MS    an order's answer and its owner's account events come MS ms of history
                           after the replay's engine applied it (0 to 60000, default 0)
  --data-latency MS        the replay's WebSocket market data reach clients MS ms of history late
                           (0 to 60000, default 0)
  --help                   this text`;

export class CliError extends Error {}

function parseAccount(spec: string): AccountSpec {
  const parts = spec.split(':');
  if (parts.length < 2 || parts.length > 4)
    throw new CliError(`--account wants KEY:SECRET[:BALANCE[:MODE]], got '${spec}'`);
  const [apiKey, apiSecret, balanceText, mode] = parts;
  if (mode !== undefined && mode !== 'hedge' && mode !== 'one_way')
    throw new CliError(`--account MODE must be hedge or one_way, got '${mode}'`);
  let balance: bigint;
  try {
    // an empty BALANCE before a MODE (KEY:SECRET::one_way) means the default balance
    balance = checkAccountFields(
      apiKey,
      apiSecret,
      balanceText === '' && mode !== undefined ? undefined : balanceText,
    ).balance;
  } catch (err) {
    if (!(err instanceof AccountFieldError)) throw err;
    throw new CliError(`--account ${err.field} ${err.detail}` + (err.got === undefined ? '' : `, got '${err.got}'`));
  }
  // the most a paper account is made with (credentials.ts): a bad command line, before the data
  // folder is made (before, the start failed on it with exit code 1, leaving an empty folder)
  if (balance > MAX_PAPER_BALANCE)
    throw new CliError(`--account BALANCE must be at most ${MAX_PAPER_USDT} USDT, got '${balanceText}'`);
  return mode === undefined ? { apiKey, apiSecret, balance } : { apiKey, apiSecret, balance, positionMode: mode };
}

const REPLAY_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z)?$/;

/** A UTC time as the replay options write it: a date, or a date and time ending in Z (ms allowed); ms, or null. */
export function parseReplayTime(text: string): number | null {
  const m = REPLAY_TIME.exec(text);
  if (m === null) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = m.slice(1).map((x) => x ?? undefined) as string[];
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
  // Date.UTC rolls 2021-02-30 over to March: refuse what does not read back the same
  const back = new Date(t);
  if (
    back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    return null;
  return t;
}

/**
 * The earliest --start: a new venue's history (market/sim/history.ts, 30 days and a minute) ends
 * there and must not reach before 1970. Before, `--start 1970-01-01` built its history at negative
 * times, which every route's start_time refuses (`must be >= 0`) and klines listed newest first.
 */
const EARLIEST_START = Date.UTC(1970, 1, 1);
const TIME_RULE = 'a UTC time like 2021-05-16, 2021-05-16T00:00Z, 2021-05-16T00:00:00Z or 2021-05-16T00:00:00.061Z';
const REPLAY_SYMBOL = /^[A-Z0-9]{2,30}$/;

/** `ID[,ID2,...]`: dataset ids, each once. */
function parseDatasetIds(text: string): number[] {
  const parts = text.split(',');
  for (const p of parts)
    if (!/^[1-9]\d{0,14}$/.test(p))
      throw new CliError(
        `--replay-datasets wants dataset ids (npm run data -- list) split by commas, e.g. 12,15; got '${text}'`,
      );
  const ids = parts.map(Number);
  if (new Set(ids).size !== ids.length) throw new CliError(`--replay-datasets names a dataset twice: '${text}'`);
  return ids;
}

/** `SYM@TIME[,SYM2,...]`. */
function parseReplaySpec(text: string): { symbols: string[]; start: number } {
  const at = text.indexOf('@');
  if (at < 0)
    throw new CliError(`--replay wants SYMBOL@TIME[,SYMBOL2...], e.g. BTCUSDT@2021-05-16T00:00Z; got '${text}'`);
  const first = text.slice(0, at);
  const [time, ...more] = text.slice(at + 1).split(',');
  const start = parseReplayTime(time);
  if (start === null) throw new CliError(`--replay TIME must be ${TIME_RULE}; got '${time}'`);
  const symbols = [first, ...more];
  for (const s of symbols)
    if (!REPLAY_SYMBOL.test(s))
      throw new CliError(`--replay symbols are 2 to 30 upper-case letters or digits (BTCUSDT); got '${s}'`);
  if (new Set(symbols).size !== symbols.length) throw new CliError(`--replay names a symbol twice: '${text}'`);
  return { symbols, start };
}

/** The options that take no value. */
const SWITCHES = new Set(['--no-sim', '--fast', '--lockstep', '--help', '-h']);

export function parseCli(argv: readonly string[]): CliOptions {
  const out: CliOptions = {
    host: '127.0.0.1',
    port: 8787,
    portGiven: false,
    accounts: [],
    simulate: true,
    help: false,
  };
  // replay companions, checked once every option is read
  let until: number | undefined;
  let datasets: number[] | undefined;
  let queueModel: ReplayCliSpec['queueModel'];
  let lockstep = false;
  let balance: bigint | undefined;
  let orderLatency: number | undefined;
  let dataLatency: number | undefined;
  let responseLatency: number | undefined;
  const simOnly: string[] = [];
  // the options of the simulator itself, which --no-sim leaves without one (--seed is kept for a
  // later simulated start of the folder, --start starts its clock)
  const simulatorOnly: string[] = [];
  // the value each option took: an option given twice (`--port 7430 ... --port 8787`, a script's
  // default and the user's own) is a bad command line; before, the last one won without a word
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takeValue = (): string => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new CliError(`${name} needs a value`);
      // the value left out (`--data-dir $UNSET --no-sim`: the shell drops an unset variable) takes
      // the next option as the value; before, a folder named --no-sim was made and simulated
      if (eq < 0 && v.startsWith('--'))
        throw new CliError(
          `${name} needs a value, got the option '${v}' after it (a value that starts with -- is written ${name}=${v})`,
        );
      const before = given.get(name);
      // --account repeats, one KEY each (checked below)
      if (before !== undefined && name !== '--account')
        throw new CliError(`${name} is given twice ('${before}', then '${v}'): give it once`);
      given.set(name, v);
      return v;
    };
    // a switch takes no value: `--fast=false` turned fast mode on (and `--no-sim=false` the
    // simulated market off) without a word
    if (eq > 0 && SWITCHES.has(name))
      throw new CliError(`${name} takes no value, got '${arg}': give ${name} alone or leave it out`);
    switch (name) {
      case '--host': {
        const v = takeValue();
        // Node listens on every interface for an empty host: `--host "$UNSET"` must not expose the
        // venue beyond this machine (binding elsewhere than loopback is explicit, 0.0.0.0)
        if (v.trim() === '')
          throw new CliError(
            `--host needs an address, got '${v}' (127.0.0.1 is the default; 0.0.0.0 listens on every interface)`,
          );
        // an IPv6 address written as in a URL (`[::1]`, `[::]`) is that address: Node's listen takes
        // no brackets and read `[::1]` as a host name that names nothing
        const inBrackets = /^\[([^\]]+)\]$/.exec(v)?.[1];
        out.host = inBrackets !== undefined && isIP(inBrackets) === 6 ? inBrackets : v;
        break;
      }
      case '--port': {
        const v = takeValue();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new CliError(`--port must be an integer from 0 to 65535, got '${v}'`);
        out.port = n;
        out.portGiven = true;
        break;
      }
      case '--data-dir':
        out.dataDir = takeValue();
        break;
      case '--seed': {
        const v = takeValue();
        if (!/^\d{1,15}$/.test(v)) throw new CliError(`--seed must be a non-negative integer, got '${v}'`);
        out.seed = Number(v);
        simOnly.push(name);
        break;
      }
      case '--speed': {
        const v = takeValue();
        const n = Number(v);
        // a plain decimal, as --volatility and --intensity (Number() alone took 0x10 as 16, 1e3 as 1000)
        if (!/^\d+(\.\d+)?$/.test(v) || n < 0.1 || n > 10_000)
          throw new CliError(`--speed must be a number from 0.1 to 10000, got '${v}'`);
        out.speed = n;
        break;
      }
      case '--account': {
        const a = parseAccount(takeValue());
        // one account per KEY: a second is a typo (it would reset the first's wallet at once)
        if (out.accounts.some((b) => b.apiKey === a.apiKey))
          throw new CliError(`--account names the key ${a.apiKey} twice: give each key once`);
        out.accounts.push(a);
        break;
      }
      case '--volatility':
      case '--intensity': {
        const v = takeValue();
        const n = Number(v);
        if (!/^\d+(\.\d+)?$/.test(v) || n < 0.1 || n > 10)
          throw new CliError(`${name} must be a number from 0.1 to 10, got '${v}'`);
        if (name === '--volatility') out.simVolatility = n;
        else out.simIntensity = n;
        simOnly.push(name);
        simulatorOnly.push(name);
        break;
      }
      case '--no-sim':
        out.simulate = false;
        simOnly.push(name);
        break;
      case '--fast':
        out.simFast = true;
        simOnly.push(name);
        simulatorOnly.push(name);
        break;
      case '--start': {
        const v = takeValue();
        const t = parseReplayTime(v);
        if (t === null) throw new CliError(`--start must be ${TIME_RULE}; got '${v}'`);
        // (--no-sim builds no history)
        if (t < EARLIEST_START && !argv.includes('--no-sim'))
          throw new CliError(
            `--start must be 1970-02-01 or later: the 30 days of history before it would reach before 1970, ` +
              `times no route takes; got '${v}'`,
          );
        out.simStart = t;
        simOnly.push(name);
        break;
      }
      case '--replay':
        if (out.replay !== undefined)
          throw new CliError('--replay may be given once (list several symbols after a comma)');
        out.replay = { ...parseReplaySpec(takeValue()), lockstep: false };
        break;
      case '--until': {
        const v = takeValue();
        const t = parseReplayTime(v);
        if (t === null) throw new CliError(`--until must be ${TIME_RULE}; got '${v}'`);
        until = t;
        break;
      }
      case '--replay-datasets':
        datasets = parseDatasetIds(takeValue());
        break;
      case '--queue-model': {
        const v = takeValue();
        if (v !== 'pessimistic' && v !== 'probabilistic')
          throw new CliError(`--queue-model must be pessimistic or probabilistic, got '${v}'`);
        queueModel = v;
        break;
      }
      case '--lockstep':
        lockstep = true;
        break;
      case '--balance': {
        const v = takeValue();
        const r = parseFixed(v, 8);
        if (!r.ok) throw new CliError(`--balance must be a positive USDT amount with at most 8 decimals, got '${v}'`);
        balance = r.value;
        break;
      }
      case '--order-latency':
      case '--response-latency':
      case '--data-latency': {
        const v = takeValue();
        const n = Number(v);
        if (!/^\d{1,6}$/.test(v) || n > MAX_LATENCY_MS)
          throw new CliError(`${name} must be an integer number of ms from 0 to ${MAX_LATENCY_MS}, got '${v}'`);
        if (name === '--order-latency') orderLatency = n;
        else if (name === '--response-latency') responseLatency = n;
        else dataLatency = n;
        break;
      }
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new CliError(`unknown option '${arg}'\n\n${USAGE}`);
    }
  }
  if (out.replay === undefined) {
    const stray =
      until !== undefined
        ? '--until'
        : datasets !== undefined
          ? '--replay-datasets'
          : queueModel !== undefined
            ? '--queue-model'
            : lockstep
              ? '--lockstep'
              : balance !== undefined
                ? '--balance'
                : orderLatency !== undefined
                  ? '--order-latency'
                  : responseLatency !== undefined
                    ? '--response-latency'
                    : dataLatency !== undefined
                      ? '--data-latency'
                      : null;
    if (stray !== null) throw new CliError(`${stray} goes with --replay`);
    if (!out.simulate && simulatorOnly.length > 0)
      throw new CliError(`${simulatorOnly[0]} is an option of the simulated market, not of --no-sim`);
    return out;
  }
  if (simOnly.length > 0) throw new CliError(`${simOnly[0]} is an option of the simulated market, not of --replay`);
  if (until !== undefined && until <= out.replay.start)
    throw new CliError('--until must be after the --replay start time');
  out.replay = {
    ...out.replay,
    lockstep,
    ...(until === undefined ? {} : { until }),
    ...(datasets === undefined ? {} : { datasets }),
    ...(queueModel === undefined ? {} : { queueModel }),
    ...(balance === undefined ? {} : { balance }),
    ...(orderLatency === undefined ? {} : { orderLatency }),
    ...(responseLatency === undefined ? {} : { responseLatency }),
    ...(dataLatency === undefined ? {} : { dataLatency }),
  };
  out.simulate = false;
  return out;
}
