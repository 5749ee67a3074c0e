// docs/sweeps.md's first steps, as a new bot author follows them: the data import it gives for
// its example, then the example bot on that data (a two-hour piece of its span, to stay short).
import { mkdtempSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.ts';
import { ROOT } from './fixture.ts';
import { defaultDataDir } from '../../src-main/paths.ts';
import { sweepResults } from '../../src-main/sweep/reader.ts';

/** The doc's `npm run CMD -- ...` command line (continuation lines joined, [optional] parts dropped). */
function documented(doc: string, start: string): string[] {
  const i = doc.indexOf(start);
  expect(i, `docs/sweeps.md has no '${start}'`).toBeGreaterThanOrEqual(0);
  const line = doc
    .slice(i, doc.indexOf('\n```', i))
    .replace(/\\\n\s*/g, ' ')
    .replace(/\[[^\]]*\]/g, '');
  return line.slice(start.length).trim().split(/\s+/);
}

describe("docs/sweeps.md's example, step by step", () => {
  it('imports the data it names, then runs the example bot on it', async () => {
    const doc = readFileSync(path.join(ROOT, 'docs/sweeps.md'), 'utf8');
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-doc-'));
    const imp = spawnSync(
      process.execPath,
      ['src-main/data-cli.ts', ...documented(doc, 'npm run data --'), '--data-dir', dir],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(imp.status, imp.stderr + imp.stdout).toBe(0);
    const sweep = documented(doc, 'npm run sweep --');
    const bot = /--bot "([^"]+)"/.exec(doc)![1];
    const replay = sweep[sweep.indexOf('--replay') + 1];
    expect(replay).toBe('BTCUSDT@2025-01-06..2025-01-12');
    const r = await runCli([
      ...['--data-dir', dir, '--bot', bot, '--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T02:00Z'],
      ...['--split', 'none', '--workers', '1'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/perpdesk sweep sw\w+: 1\/1 jobs done \(1 ok, 0 failed\)/);
  }, 180_000);
});

describe("the Sweeps page's first sweep (GET /api/v1/sweep-example)", () => {
  /** The words a POSIX shell reads from `cmd` after its `npm run X --` (bash prints them a line each). */
  function shellWords(cmd: string, start: string): string[] {
    expect(cmd.startsWith(start), cmd).toBe(true);
    const r = spawnSync('bash', ['-c', `printf '%s\\n' ${cmd.slice(start.length)}`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.split('\n').slice(0, -1);
  }
  const doc = readFileSync(path.join(ROOT, 'docs/sweeps.md'), 'utf8');
  /** The doc's command as the shell reads it (its quotes are shell quotes too). */
  const documentedWords = (start: string) => shellWords(`${start} ${documented(doc, start).join(' ')}`, start);

  // the page said only 'npm run sweep -- ...': on a folder without the data (or on another folder
  // than the service's, the default one) it stopped at 'no perpdesk database ... (import data first)';
  // then it said '--data-dir DIR', for the reader to fill in
  it("gives the import and the sweep the docs give (run above), on the service's own data folder", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-example- it'));
    const ex = sweepResults(dir).example();
    expect(ex.data_dir).toBe(path.resolve(dir));
    expect(shellWords(ex.import, 'npm run data --')).toEqual([
      ...documentedWords('npm run data --'),
      '--data-dir',
      path.resolve(dir),
    ]);
    expect(shellWords(ex.sweep, 'npm run sweep --')).toEqual([
      ...documentedWords('npm run sweep --'),
      '--data-dir',
      path.resolve(dir),
    ]);
  });

  it('names no folder when the service runs on the default one (the commands use it too)', () => {
    const ex = sweepResults(defaultDataDir()).example();
    expect(ex.data_dir).toBe(path.resolve(defaultDataDir()));
    expect(shellWords(ex.import, 'npm run data --')).toEqual(documentedWords('npm run data --'));
    expect(shellWords(ex.sweep, 'npm run sweep --')).toEqual(documentedWords('npm run sweep --'));
  });
});
