// docs/sweeps.md's first steps, as a new bot author follows them: the data import it gives for
// its example, then the example bot on that data (a two-hour piece of its span, to stay short).
import { mkdtempSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.ts';
import { ROOT } from './fixture.ts';
import { FIRST_SWEEP } from '../../src-renderer/src/features/sweeps/sweeps-view.ts';

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

describe("the Sweeps page's first sweep", () => {
  // the page said only 'npm run sweep -- ...': on a folder without the data (or on another folder
  // than the service's, the default one) it stopped at 'no perpdesk database ... (import data first)'
  it("gives the import and the sweep the docs give (run above), on the service's data folder", () => {
    const doc = readFileSync(path.join(ROOT, 'docs/sweeps.md'), 'utf8');
    const words = (cmd: string, start: string): string[] => cmd.slice(start.length).trim().split(/\s+/);
    expect(words(FIRST_SWEEP.importData, 'npm run data --')).toEqual([
      ...documented(doc, 'npm run data --'),
      '--data-dir',
      'DIR',
    ]);
    expect(words(FIRST_SWEEP.sweep, 'npm run sweep --')).toEqual([
      ...documented(doc, 'npm run sweep --'),
      '--data-dir',
      'DIR',
    ]);
  });
});
