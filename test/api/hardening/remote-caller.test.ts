// From a caller that is NOT on loopback: the service runs in a network
// namespace the test creates (its own loopback, plus 198.51.100.7 from TEST-NET-2 on it, routed
// nowhere; nothing leaves this machine or touches the host's interfaces), bound to 0.0.0.0, and
// a client in that namespace calls it from 198.51.100.7 and from 127.0.0.1. The one-time login
// token and the admin routes answer loopback callers only, whatever --host says. Needs root and
// `ip` (iproute2); skipped with the reason otherwise.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../../src-shared/errors.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const NS = `perpdesk-h13-${process.pid}`;
const REMOTE = '198.51.100.7';

function ip(...args: string[]): { ok: boolean; err: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  return { ok: r.status === 0, err: (r.stderr || r.error?.message || '').trim() };
}

function whyNot(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating a network namespace needs root';
  const v = ip('-V');
  if (!v.ok) return `the ip command (iproute2) is missing: ${v.err}`;
  const add = ip('netns', 'add', NS);
  if (!add.ok) return `this machine does not allow creating a network namespace: ${add.err}`;
  const lo = ip('-n', NS, 'link', 'set', 'lo', 'up');
  const addr = ip('-n', NS, 'addr', 'add', `${REMOTE}/32`, 'dev', 'lo');
  if (!lo.ok || !addr.ok) {
    ip('netns', 'del', NS);
    return `cannot set up the namespace's addresses: ${lo.err} ${addr.err}`;
  }
  const exec = ip('netns', 'exec', NS, 'true');
  if (!exec.ok) {
    ip('netns', 'del', NS);
    return `cannot run a process in a network namespace here: ${exec.err}`;
  }
  return null;
}

const skipReason = whyNot();
if (skipReason !== null) console.warn(`remote-caller tests skipped: ${skipReason}`);

const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-remote-'));
let server: ChildProcess | null = null;
let port = 0;
let token = '';

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  if (skipReason === null) ip('netns', 'del', NS);
  rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(async () => {
  if (skipReason !== null) return;
  server = spawn(
    'ip',
    [
      'netns',
      'exec',
      NS,
      process.execPath,
      join(root, 'src-main/headless.ts'),
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--no-sim',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no login line in 60 s:\n${out}`)), 60_000);
    const look = (b: Buffer) => {
      out += b.toString();
      const m = /:(\d+)\/#token=([A-Za-z0-9_-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        port = Number(m[1]);
        token = m[2];
        resolve();
      }
    };
    server!.stdout!.on('data', look);
    server!.stderr!.on('data', look);
    server!.on('exit', (code) => reject(new Error(`service exited ${code}:\n${out}`)));
  });
}, 90_000);

interface Job {
  local: string;
  host: string;
  method: string;
  path: string;
  body?: unknown;
}

/** Runs the requests from inside the namespace, in order. */
function call(jobs: Job[]): Array<{ status: number; body: any }> {
  const r = spawnSync(
    'ip',
    [
      'netns',
      'exec',
      NS,
      process.execPath,
      join(root, 'test/api/hardening/fixtures/netns-client.mjs'),
      JSON.stringify(jobs.map((j) => ({ ...j, port }))),
    ],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ status: number; body: string; error?: string }>).map((x) => {
    expect(x.error, 'request failed').toBeUndefined();
    return { status: x.status, body: JSON.parse(x.body) };
  });
}

describe.skipIf(skipReason !== null)('a caller that is not on loopback (service bound to 0.0.0.0)', () => {
  it('is refused the login token (403 / 2102), which stays usable from this machine, once', () => {
    const [remote, remoteAgain, local, localAgain] = call([
      { local: REMOTE, host: REMOTE, method: 'POST', path: '/api/v1/session', body: { token } },
      { local: REMOTE, host: REMOTE, method: 'POST', path: '/api/v1/session', body: { token } },
      { local: '127.0.0.1', host: '127.0.0.1', method: 'POST', path: '/api/v1/session', body: { token } },
      { local: '127.0.0.1', host: '127.0.0.1', method: 'POST', path: '/api/v1/session', body: { token } },
    ]);
    for (const r of [remote, remoteAgain]) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: Errors.LOOPBACK_ONLY.code, data: null });
      expect(r.body.message).toContain(REMOTE);
      expect(JSON.stringify(r.body)).not.toContain('api_secret');
    }
    expect(local.status).toBe(200);
    expect(local.body.code).toBe(0);
    expect(local.body.data.api_key).toMatch(/^local_/);
    expect(local.body.data.api_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(localAgain.body.code).toBe(Errors.TOKEN_INVALID.code);
  });

  it('is refused the admin routes too; public market data answers it', () => {
    const [admin, whitelist, time] = call([
      {
        local: REMOTE,
        host: REMOTE,
        method: 'POST',
        path: '/admin/v1/accounts',
        body: { api_key: 'remotekey01', api_secret: 'remotesecret01' },
      },
      { local: REMOTE, host: REMOTE, method: 'GET', path: '/admin/v1/whitelist' },
      { local: REMOTE, host: REMOTE, method: 'GET', path: '/fapi/v1/time' },
    ]);
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe(Errors.LOOPBACK_ONLY.code);
    expect(whitelist.body.code).toBe(Errors.LOOPBACK_ONLY.code);
    expect(time.status).toBe(200);
    expect(time.body.code).toBe(0);
  });
});
