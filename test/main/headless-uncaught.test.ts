// An error nobody caught in the headless service (docs/headless.md, "An error nobody caught"): a
// real service process (src-main/headless.ts), made to fail with Node's own preload hook
// (`node --import fixtures/provoke-error.mjs`: on SIGUSR2 it throws from a timer, or leaves a
// promise rejection unhandled). The process says what happened on stderr and in the data folder's
// logs/main.log, closes its store (no WAL left behind, the folder's lock and service.json gone)
// and exits with 70; the next start on the folder has what was acknowledged before.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kill9, root, signed, startService, type Creds, type Service } from '../store/durability/service-process.ts';

const provoke = join(root, 'test/main/fixtures/provoke-error.mjs');
const creds: Creds = { key: 'uncaughtkey1', secret: 'uncaughtsecret1' };
const dirs: string[] = [];
const services: Service[] = [];

afterAll(async () => {
  for (const s of services) await kill9(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The headless service on `dataDir` with the preload, once it listens. */
async function start(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const s = await startService(
    ['--no-sim', '--data-dir', dataDir, '--account', `${creds.key}:${creds.secret}:100000`],
    {
      timeoutMs: 90_000,
      nodeArgs: ['--import', provoke],
      env: { PERPDESK_AS_DESKTOP: '', ...env },
    },
  );
  services.push(s);
  return s;
}

/** Stderr without the service's JSON log lines. */
const plainLines = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('{"level"'));

describe('headless service: an error nobody caught', () => {
  for (const kind of ['exception', 'rejection'] as const) {
    const what = kind === 'exception' ? 'uncaught exception' : 'unhandled promise rejection';
    const message = kind === 'exception' ? 'provoked: thrown from a timer' : 'provoked: a rejection nobody handles';

    it(`an ${what} is said, the store closed cleanly, exit code 70; the next start has what was acknowledged`, async () => {
      const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-uncaught-')), 'data');
      dirs.push(dataDir);
      const db = join(dataDir, 'perpdesk.db');
      const a = await start(dataDir, { PROVOKE: kind });
      // something acknowledged just before the failure
      const set = await signed(a.url, creds, 'POST', '/fapi/v1/leverage', {}, { symbol: 'BTCUSDT', leverage: 7 });
      expect(set.code, JSON.stringify(set)).toBe(0);
      // the service is running: its WAL is there
      expect(existsSync(`${db}-wal`)).toBe(true);

      a.child.kill('SIGUSR2');
      const code = await a.exited;
      const lines = plainLines(a.stderr());
      expect(code, a.stderr()).toBe(70);
      expect(lines[0]).toBe(
        `perpdesk: ${what} (data folder ${dataDir}): ${message}; closing the service, exit code 70`,
      );
      expect(lines[1]).toBe(`perpdesk: ${what}: Error: ${message}`);
      const logFile = join(dataDir, 'logs', 'main.log');
      expect(lines).toContain(`perpdesk: the error is also in ${logFile}`);
      const log = readFileSync(logFile, 'utf8');
      expect(log).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ${what}\\n  Error: ${message}\\n +at `));
      // closed cleanly: the WAL checkpointed into the database and removed, the folder released
      expect(existsSync(`${db}-wal`)).toBe(false);
      expect(existsSync(join(dataDir, 'perpdesk.lock'))).toBe(false);
      expect(existsSync(join(dataDir, 'service.json'))).toBe(false);

      // the next start takes the folder at once (no WAL to check, no lock to wait for) with the change
      const b = await start(dataDir);
      try {
        const lev = await signed(b.url, creds, 'GET', '/fapi/v1/leverage', { symbol: 'BTCUSDT' });
        expect(lev.code, JSON.stringify(lev)).toBe(0);
        expect(lev.data.leverage).toBe(7);
      } finally {
        b.child.kill('SIGTERM');
        expect(await b.exited).toBe(0);
      }
    }, 240_000);
  }
});
