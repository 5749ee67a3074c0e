// kill -9 at random moments of funding settlements, liquidations (IOC closes, the insurance
// fund, ADL) and TP/SL closes, 20 times or more (until every kind of close is stored) over one
// data folder. A worker process (fixtures/risk-worker.ts) runs those commands on the venue for
// ever, printing the state each command leaves (read inside its batch) and when its commit is
// durable. After each kill the stored database must be exactly the state after some command at
// or after the last durable one (nothing acknowledged lost, no command half applied), the
// accounting identity must hold to the last unit for every account, every order's fills must add
// up to its filled quantity and every position to the net of its fills; the next run must start
// on it. The final database must hold every kind of close: TP (2), SL (3), liquidation (4),
// ADL (5), insurance fund (6).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenRules, snapshot, type Snapshot } from './fixtures/risk-snapshot.ts';
import { root } from './service-process.ts';

const RUNS = 20;
/** Runs go on past RUNS (each checked alike) until every kind of close is stored: on a loaded
 * machine a worker gets through fewer commands before its kill. */
const MAX_RUNS = 60;
const CLOSE_TYPES = [2, 3, 4, 5, 6];
const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-killloop-'));
const logDir = mkdtempSync(join(tmpdir(), 'perpdesk-killloop-log-'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
});

interface Run {
  applied: Map<number, { step: string; snap: Snapshot }>;
  lastAck: number;
}

/** Starts the worker, kills it `afterMs` after it is ready, and returns what it printed. */
function runOnce(seed: number, afterMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const logFile = join(logDir, `run-${seed}.log`);
    const child = spawn(
      process.execPath,
      [join(root, 'test/store/durability/fixtures/risk-worker.ts'), dataDir, String(seed), logFile],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const run: Run = { applied: new Map(), lastAck: Number.NEGATIVE_INFINITY };
    let err = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker not ready in 30 s: ${err}`));
    }, 30_000);
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout!.on('data', (b: Buffer) => {
      if (ready || !b.toString().includes('READY')) return;
      ready = true;
      clearTimeout(timer);
      setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`worker exited by itself (${code}): ${err}`));
      for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        if (line.startsWith('APPLIED ')) {
          const x = JSON.parse(line.slice(8)) as { i: number; step: string; snap: Snapshot };
          run.applied.set(x.i, { step: x.step, snap: x.snap });
        } else if (line.startsWith('ACK ')) run.lastAck = Number(line.slice(4));
      }
      resolve(run);
    });
  });
}

/** The kinds of close the stored database holds, ascending. */
function closeTypes(): number[] {
  const db = new DatabaseSync(join(dataDir, 'perpdesk.db'), { readOnly: true });
  try {
    return (
      db.prepare('SELECT DISTINCT close_type AS t FROM closed_positions ORDER BY 1').all() as Array<{ t: number }>
    ).map((x) => x.t);
  } finally {
    db.close();
  }
}

describe('kill -9 during funding, liquidation, ADL and TP/SL', () => {
  it(`${RUNS} runs or more: after each, nothing acknowledged is lost, nothing half applied, the identity holds`, async () => {
    let rng = 0x5eed;
    const next = () => {
      rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
      return rng / 2 ** 32;
    };
    let commands = 0;
    const killedIn = new Map<string, number>();
    let runs = 0;
    for (let r = 0; r < MAX_RUNS && (r < RUNS || closeTypes().length < CLOSE_TYPES.length); r++) {
      runs++;
      const afterMs = 50 + Math.floor(next() * 500);
      const run = await runOnce(r + 1, afterMs);
      expect(run.lastAck, `run ${r}: the worker acknowledged its start`).toBeGreaterThanOrEqual(-1);
      commands += Math.max(0, run.lastAck + 1);
      const last = Math.max(...run.applied.keys());
      killedIn.set(run.applied.get(last)!.step, (killedIn.get(run.applied.get(last)!.step) ?? 0) + 1);

      const db = new DatabaseSync(join(dataDir, 'perpdesk.db'), { readOnly: true });
      try {
        const stored = snapshot(db);
        const candidates = [...run.applied].filter(([i]) => i >= run.lastAck);
        const match = candidates.find(([, a]) => JSON.stringify(a.snap) === JSON.stringify(stored));
        expect(
          match,
          `run ${r} (killed ${afterMs} ms in, last durable command ${run.lastAck}): the stored state\n${JSON.stringify(stored)}\n` +
            `is none of the states after commands ${candidates.map(([i]) => i).join(', ')}:\n` +
            candidates.map(([i, a]) => `${i} ${a.step} ${JSON.stringify(a.snap)}`).join('\n'),
        ).toBeDefined();
        expect(brokenRules(db), `run ${r}`).toEqual([]);
      } finally {
        db.close();
      }
    }
    expect(commands).toBeGreaterThan(RUNS * 10);
    expect(closeTypes(), `every kind of close stored within ${MAX_RUNS} runs`).toEqual(CLOSE_TYPES);
    console.log(
      `kill loop: ${runs} kills after ${commands} durable commands; last command per kill: ${JSON.stringify([...killedIn])}`,
    );
  }, 300_000);
});
