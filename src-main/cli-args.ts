// Command-line options of the headless service (`npm run serve -- ...`) and the desktop app.
import { AccountFieldError, checkAccountFields, DEFAULT_PAPER_BALANCE } from './accounts/credentials.ts';

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
  dataDir?: string;
  seed?: number;
  speed?: number;
  accounts: AccountSpec[];
  /** false with --no-sim: a quiet venue whose book holds only what clients place. */
  simulate: boolean;
  /** --volatility / --intensity: multipliers of the simulated market's defaults. */
  simVolatility?: number;
  simIntensity?: number;
  help: boolean;
}

export const USAGE = `Usage: npm run serve -- [options]

  --host H                 interface to listen on (default 127.0.0.1)
  --port N                 port, 0 picks a free one (default 8787)
  --data-dir DIR           folder of the database (default: the OS user-data folder)
  --seed N                 seed of the simulated market (default: kept from the first start, else 1)
  --speed X                market clock speed factor, 0.1 to 10000 (default 1)
  --account KEY:SECRET[:BALANCE[:MODE]]
                           create or update a paper account with this API key, secret and USDT
                           balance (default 10000), MODE hedge (default) or one_way (what Binance
                           bots expect, see docs/binance.md); may repeat
  --volatility X           multiply every pair's simulated volatility by X (0.1 to 10, default 1)
  --intensity X            multiply how often simulated takers trade by X (0.1 to 10, default 1)
  --no-sim                 no simulated market: the book holds only what clients place
  --help                   this text`;

export class CliError extends Error {}

export function parseAccount(spec: string): AccountSpec {
  const parts = spec.split(':');
  if (parts.length < 2 || parts.length > 4) throw new CliError(`--account wants KEY:SECRET[:BALANCE[:MODE]], got '${spec}'`);
  const [apiKey, apiSecret, balanceText, mode] = parts;
  if (mode !== undefined && mode !== 'hedge' && mode !== 'one_way') throw new CliError(`--account MODE must be hedge or one_way, got '${mode}'`);
  let balance: bigint;
  try {
    // an empty BALANCE before a MODE (KEY:SECRET::one_way) means the default balance
    balance = checkAccountFields(apiKey, apiSecret, balanceText === '' && mode !== undefined ? undefined : balanceText).balance;
  } catch (err) {
    if (!(err instanceof AccountFieldError)) throw err;
    throw new CliError(`--account ${err.field} ${err.detail}` + (err.got === undefined ? '' : `, got '${err.got}'`));
  }
  return mode === undefined ? { apiKey, apiSecret, balance } : { apiKey, apiSecret, balance, positionMode: mode };
}

export function parseCli(argv: readonly string[]): CliOptions {
  const out: CliOptions = { host: '127.0.0.1', port: 8787, accounts: [], simulate: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takeValue = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new CliError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--host':
        out.host = takeValue();
        break;
      case '--port': {
        const v = takeValue();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new CliError(`--port must be an integer from 0 to 65535, got '${v}'`);
        out.port = n;
        break;
      }
      case '--data-dir':
        out.dataDir = takeValue();
        break;
      case '--seed': {
        const v = takeValue();
        if (!/^\d{1,15}$/.test(v)) throw new CliError(`--seed must be a non-negative integer, got '${v}'`);
        out.seed = Number(v);
        break;
      }
      case '--speed': {
        const v = takeValue();
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0.1 || n > 10_000) throw new CliError(`--speed must be a number from 0.1 to 10000, got '${v}'`);
        out.speed = n;
        break;
      }
      case '--account':
        out.accounts.push(parseAccount(takeValue()));
        break;
      case '--volatility':
      case '--intensity': {
        const v = takeValue();
        const n = Number(v);
        if (!/^\d+(\.\d+)?$/.test(v) || n < 0.1 || n > 10) throw new CliError(`${name} must be a number from 0.1 to 10, got '${v}'`);
        if (name === '--volatility') out.simVolatility = n;
        else out.simIntensity = n;
        break;
      }
      case '--no-sim':
        out.simulate = false;
        break;
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new CliError(`unknown option '${arg}'\n\n${USAGE}`);
    }
  }
  return out;
}
