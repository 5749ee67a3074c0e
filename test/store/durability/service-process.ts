// A real service process for the durability tests: start it on a data folder, call it (signed
// or not), page through lists, kill it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFixed } from '../../../src-shared/decimal.ts';
import { buildSignedQuery } from '../../../src-shared/sign.ts';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface Service {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** What the process printed on stderr so far. */
  stderr(): string;
  /** Settles with the exit code (null after a signal) once the process ended and its output closed. */
  exited: Promise<number | null>;
}

export interface StartOptions {
  /** How long to wait for the ready line; the process is killed when it does not come. */
  timeoutMs?: number;
  /** Node's own arguments, before the script (e.g. `['--import', preload]`). */
  nodeArgs?: string[];
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv;
}

/** The headless service (src-main/headless.ts) on port 0 with `args`, once it printed its ready line. */
export async function startService(args: string[], opts: StartOptions = {}): Promise<Service> {
  const { timeoutMs = 60_000, nodeArgs = [], env = {} } = opts;
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'src-main/headless.ts'), '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
    err += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code ?? child.signalCode}:\n${out}`));
    });
  });
  return { url, child, output: () => out, stderr: () => err, exited };
}

/** SIGKILL and wait for the exit. */
export function kill9(s: Service): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill('SIGKILL');
  });
}

export interface Creds {
  key: string;
  secret: string;
}

export async function signed(
  url: string,
  creds: Creds,
  method: string,
  path: string,
  params: Record<string, string | number> = {},
  body?: object,
): Promise<any> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const qs = buildSignedQuery({ ...params, timestamp: Date.now(), recv_window: 60_000 }, creds.secret, raw);
  const res = await fetch(`${url}${path}?${qs}`, {
    method,
    headers: { 'X-API-KEY': creds.key, ...(raw ? { 'content-type': 'application/json' } : {}) },
    body: raw,
  });
  return res.json();
}

export async function plain(url: string, method: string, path: string, body?: object): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Every item of a cursor-paged signed list. */
export async function all(
  url: string,
  creds: Creds,
  path: string,
  params: Record<string, string | number> = {},
): Promise<any[]> {
  const items: any[] = [];
  let cursor = '';
  for (let i = 0; i < 1000; i++) {
    const r = await signed(url, creds, 'GET', path, { ...params, limit: 500, ...(cursor ? { cursor } : {}) });
    if (r.code !== 0) throw new Error(`${path}: ${JSON.stringify(r)}`);
    items.push(...r.data.items);
    if (!r.data.has_more) return items;
    cursor = r.data.next_cursor;
  }
  throw new Error('too many pages');
}

/** A decimal string as 1e-8 units. */
export function units(s: string | number): bigint {
  const t = String(s);
  const r = parseFixed(t.replace(/^-/, ''), 8, { allowZero: true });
  if (!r.ok) throw new Error(`bad amount ${t}`);
  return t.startsWith('-') ? -r.value : r.value;
}
