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
  /** Everything the process printed so far. */
  output(): string;
}

export async function startService(args: string[], timeoutMs = 60_000): Promise<Service> {
  const child = spawn(process.execPath, [join(root, 'src-main/headless.ts'), '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code ?? signal}:\n${out}`));
    });
  });
  return { url, child, output: () => out };
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
