// Starts the built headless service (out/main/headless.js) as a real process on 127.0.0.1,
// port 0, with a fresh data folder and a paper account (--account KEY:SECRET:BALANCE), and
// reads its URL and one-time login link from its output.
// A fresh data folder is a copy of the run's template (global-setup.ts) when there is one: a
// venue that has started once before, its simulated history built (a first start builds 30 days
// of it for 12 pairs, 15 to 40 s of a 2-core machine), so the service starts as a desktop app
// does on its second day. `fresh: true` starts on an empty folder instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface PaperAccount {
  apiKey: string;
  apiSecret: string;
  /** USDT, as given to --account. */
  balance: string;
}

export interface RunningService {
  url: string;
  /** `http://127.0.0.1:PORT/#token=...`, the one-time browser login the service prints at start (the fixture fails without it). */
  loginUrl: string;
  /** The paper account created with --account. */
  account: PaperAccount;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Stops the service; the data folder is deleted unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  /** Balance of the --account paper account (default 100000). */
  balance?: string;
  /** Reuse this data folder (a restart) instead of a fresh one. */
  dataDir?: string;
  /** An empty data folder, not a copy of the run's template: the venue's very first start. */
  fresh?: boolean;
  /**
   * A service of its own for a spec file (`test.use({ serviceOptions: { own: 'name' } })`): the
   * name is not passed on, it only makes the worker's options differ from the other files', so
   * the file's tests get a service (and a data folder) no other spec has used.
   */
  own?: string;
  /** Without the --account paper account (the template is built so). */
  noAccount?: boolean;
}

/** The environment variable naming the run's template data folder (set by global-setup.ts). */
export const TEMPLATE_ENV = 'PERPDESK_E2E_TEMPLATE';

/** A new data folder: a copy of the run's template, or empty when there is none or `fresh`. */
function newDataDir(fresh: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (!fresh && template) cpSync(template, dir, { recursive: true });
  return dir;
}

export async function startHeadless(opts: StartOptions = {}): Promise<RunningService> {
  const dataDir = opts.dataDir ?? newDataDir(opts.fresh ?? false);
  const account: PaperAccount = {
    apiKey: `e2e_${randomBytes(8).toString('hex')}`,
    apiSecret: randomBytes(24).toString('hex'),
    balance: opts.balance ?? '100000',
  };
  // a spec that gives its own --port (a restart on the port it had) gets that one: an option
  // given twice is a bad command line
  const ownPort = (opts.args ?? []).some((a) => a === '--port' || a.startsWith('--port='));
  const args = [
    join(root, 'out/main/headless.js'),
    ...(ownPort ? [] : ['--port', '0']),
    '--data-dir',
    dataDir,
    ...(opts.noAccount ? [] : ['--account', `${account.apiKey}:${account.apiSecret}:${account.balance}`]),
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // Ready when both lines are out: "listening on URL" and the one-time login link after it.
  const ready = new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not print its address and login link in 90 s:\n${out}`)),
      90_000,
    );
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      const login = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+)/.exec(out);
      if (m && login) {
        clearTimeout(timer);
        resolve([m[1], login[1]]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  let url: string;
  let loginUrl: string;
  try {
    [url, loginUrl] = await ready;
  } catch (err) {
    // a start that failed or hung leaves no process and, when the folder was ours, no folder behind
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    loginUrl,
    account,
    dataDir,
    process: child,
    output: () => out,
    async stop(keepData = false) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
