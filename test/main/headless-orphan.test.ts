// `npm run serve` / `npm start` stopped with kill (docs/headless.md, Exit codes): npm runs the
// script through `sh -c` and signals only that shell, which does not pass the signal on. The
// service, left without its parent, stops as at SIGTERM (src-main/orphan-watch.ts); before, it ran
// on unseen, still listening and holding its data folder, so the next start was refused. Started
// with node itself (`nohup node scripts/serve.mjs &`) it runs on when its shell goes. Here the
// shell is the parent, with npm's environment or without it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../store/durability/service-process.ts';

const dirs: string[] = [];
const pids: number[] = [];

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(() => {
  for (const p of pids) if (alive(p)) process.kill(p, 'SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The headless service under `sh -c`, as npm starts it; its pid once it listens. */
async function serviceUnderShell(npm: boolean) {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-orphan-')), 'data');
  dirs.push(dataDir);
  const script = join(root, 'src-main/headless.ts');
  // '; true' keeps the shell as the service's parent (it does not exec the last command)
  const cmd = `'${process.execPath}' '${script}' --port 0 --no-sim --data-dir '${dataDir}'; true`;
  const env: NodeJS.ProcessEnv = { ...process.env, PERPDESK_AS_DESKTOP: '' };
  if (npm) env.npm_lifecycle_event = 'serve';
  else delete env.npm_lifecycle_event;
  const sh = spawn('sh', ['-c', cmd], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const s = { sh, out: '', pid: 0, dataDir };
  sh.stdout!.on('data', (b: Buffer) => (s.out += b.toString()));
  sh.stderr!.on('data', (b: Buffer) => (s.out += b.toString()));
  await until('the service to listen', () => /listening on http/.test(s.out), 90_000);
  s.pid = (JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8')) as { pid: number }).pid;
  pids.push(s.pid);
  expect(s.pid).not.toBe(sh.pid);
  expect(alive(s.pid)).toBe(true);
  return s;
}

describe('the headless service whose parent process goes', () => {
  it('started by npm run serve: closes as at SIGTERM once its shell is killed, the folder released', async () => {
    const s = await serviceUnderShell(true);
    s.sh.kill('SIGTERM');
    await until('the orphaned service to stop', () => !alive(s.pid), 30_000);
    expect(s.out).toContain(`perpdesk ${s.pid}: its parent process ${s.sh.pid} is gone; stopping`);
    expect(s.out).toContain('perpdesk: SIGTERM, closing');
    expect(existsSync(join(s.dataDir, 'perpdesk.lock'))).toBe(false);
    expect(existsSync(join(s.dataDir, 'perpdesk.db-wal'))).toBe(false);
  }, 180_000);

  it('started with node itself (nohup node ... &): runs on when its shell goes', async () => {
    const s = await serviceUnderShell(false);
    s.sh.kill('SIGTERM');
    // the npm-started service above noticed within about a second; give this one three
    await new Promise((r) => setTimeout(r, 3000));
    expect(alive(s.pid)).toBe(true);
    expect(s.out).not.toContain('is gone; stopping');
    process.kill(s.pid, 'SIGTERM');
    await until('the service to stop', () => !alive(s.pid), 30_000);
  }, 180_000);
});
