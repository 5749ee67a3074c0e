// The terminal `npm run serve` runs in is closed (its window, a dropped ssh session): the kernel
// sends SIGHUP. The service closes as at SIGTERM (docs/headless.md, Exit codes): exit code 0, the
// folder released. Before, Node's default ended it at once, exit code 129, the lock, the WAL and
// service.json left, and the next start said the run did not stop cleanly.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../store/durability/service-process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the headless service hung up (SIGHUP)', () => {
  it('closes as at SIGTERM: exit code 0, no lock, WAL or service.json left', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-hangup-')), 'data');
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      [join(root, 'src-main/headless.ts'), '--port', '0', '--no-sim', '--data-dir', dataDir],
      { cwd: root, env: { ...process.env, PERPDESK_AS_DESKTOP: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const take = (b: Buffer) => {
      out += b.toString();
      if (/is listening on http/.test(out) && !child.killed) child.kill('SIGHUP');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const kill = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    clearTimeout(kill);
    expect(out).toContain('is listening on http');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(out).toContain('perpdesk: SIGHUP, closing');
    for (const f of ['perpdesk.lock', 'perpdesk.db-wal', 'service.json'])
      expect(existsSync(join(dataDir, f))).toBe(false);
  }, 120_000);
});
