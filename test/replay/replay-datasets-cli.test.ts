// `npm run serve -- --replay SYM@TIME --replay-datasets ID,...` (docs/replay.md "Choosing the
// datasets"): a data folder holding BTCUSDT's candles of 2025-01-06..12 as USD-M 1h and spot 15m;
// the headless replay reads the pinned spot 15m ones and says what it reads, and a pin it cannot
// read is one line and exit code 2, as the replay's other refusals. Real processes.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../src-main/cli-args.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { root } from '../store/durability/service-process.ts';
import { KLINES } from './harness.ts';

const ids: Record<string, number> = {};
let dir: string;

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-datasets-cli-');
  const db = openDatabase({ dataDir: dir });
  try {
    const ds = new DatasetService(new DatasetsRepo(db));
    for (const [name, market, interval] of [
      ['um1h', 'um', '1h'],
      ['spot15m', 'spot', '15m'],
    ] as const) {
      const file = path.join(KLINES, `binance_spot_BTCUSDT_${interval}_2025-01-06_to_2025-01-12.csv`);
      const [r] = await ds.importFiles([file], { market, symbol: 'BTCUSDT', interval });
      if (!r.ok) throw new Error(String(r.error));
      ids[name] = r.datasetId!;
    }
    groupCommitOf(db).commitNow();
  } finally {
    db.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the headless service until it prints `until` (then stops it) or exits; its output and exit code. */
function serve(args: string[], until: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(root, 'src-main/headless.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PERPDESK_AS_DESKTOP: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const kill = setTimeout(() => child.kill('SIGKILL'), 90_000);
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    if (until.test(stdout)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('--replay-datasets', () => {
  it('is read as dataset ids, each once, and goes with --replay', () => {
    expect(parseCli(['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets', '12,15']).replay?.datasets).toEqual([
      12, 15,
    ]);
    expect(parseCli(['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets=7']).replay?.datasets).toEqual([7]);
    for (const [argv, msg] of [
      [
        ['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets', '12,x'],
        /--replay-datasets wants dataset ids .* got '12,x'/,
      ],
      [['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets', '0'], /--replay-datasets wants dataset ids/],
      [['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets', '12,'], /--replay-datasets wants dataset ids/],
      [
        ['--replay', 'BTCUSDT@2025-01-06', '--replay-datasets', '3,3'],
        /--replay-datasets names a dataset twice: '3,3'/,
      ],
      [['--replay-datasets', '3'], /--replay-datasets goes with --replay/],
    ] as const) {
      expect(() => parseCli([...argv]), argv.join(' ')).toThrow(CliError);
      expect(() => parseCli([...argv]), argv.join(' ')).toThrow(msg);
    }
  });

  it('the headless replay reads the pinned dataset and says so; one it cannot read is one line, exit 2', async () => {
    const base = ['--port', '0', '--data-dir', dir, '--replay', 'BTCUSDT@2025-01-06', '--lockstep'];
    // one after the other: a replay takes the data folder
    const auto = await serve(base, /perpdesk: reading .*\n/);
    const pinned = await serve([...base, '--replay-datasets', String(ids.spot15m)], /perpdesk: reading .*\n/);
    const refused = await serve([...base, '--replay-datasets', '999'], /$^/);
    expect(auto.stdout, auto.stderr).toContain(`perpdesk: reading BTCUSDT: klines um 1h #${ids.um1h}\n`);
    expect(pinned.stdout, pinned.stderr).toContain(`perpdesk: reading BTCUSDT: klines spot 15m #${ids.spot15m}\n`);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      'perpdesk: cannot replay: there is no dataset 999 of BTCUSDT to read (GET /api/v1/datasets lists them)',
    );
  }, 120_000);
});
