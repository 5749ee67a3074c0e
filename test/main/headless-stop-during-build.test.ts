// Ctrl-C while a first start builds its simulated history (docs/headless.md, "Exit codes"): a real
// service process (src-main/headless.ts) on a new data folder gets SIGINT once the third pair is
// built. It stops after the pair under way, says so, closes the folder as a normal close does (no
// WAL, no lock, no service.json left) and exits 0; the next start builds the remaining pairs.
// Before, the signal handlers came only once the service listened: the process died at once
// (exit 130), the lock and the WAL left and a pair's history half written.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../store/durability/service-process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('headless service: a stop during the first start’s history build', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal} after the third pair: stops cleanly, exit 0, the built pairs kept`,
      { timeout: 120_000 },
      async () => {
        const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-stop-build-')), 'data');
        dirs.push(dataDir);
        const child = spawn(
          process.execPath,
          [join(root, 'src-main/headless.ts'), '--port', '0', '--data-dir', dataDir],
          {
            cwd: root,
            env: { ...process.env, PERPDESK_AS_DESKTOP: '' },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        let sent = false;
        const onData = (b: Buffer): void => {
          out += b.toString();
          if (!sent && /building simulated history 3\//.test(out)) {
            sent = true;
            child.kill(signal);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          child.on('close', (code, sig) => resolve({ code, signal: sig })),
        );
        expect(sent, out).toBe(true);
        expect(exit, out).toEqual({ code: 0, signal: null });
        expect(out).toContain(`perpdesk: ${signal}, closing (the start is stopped)`);
        expect(out).not.toMatch(/listening on/);
        for (const f of ['perpdesk.lock', 'perpdesk.db-wal', 'service.json'])
          expect(existsSync(join(dataDir, f)), f).toBe(false);
        const db = new DatabaseSync(join(dataDir, 'perpdesk.db'), { readOnly: true });
        try {
          const built = (db.prepare('SELECT COUNT(*) AS n FROM history_built').get() as { n: number }).n;
          expect(built).toBeGreaterThanOrEqual(3);
          expect(built).toBeLessThan(12);
        } finally {
          db.close();
        }
      },
    );
  }
});
