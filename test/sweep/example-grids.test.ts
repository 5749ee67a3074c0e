// The example bots' own sweep commands (their --help, docs/sweeps.md "The examples") name the grid
// file of that bot: a grid of another bot's parameters runs every set with the bot's defaults
// (docs/sweeps.md, The grid file), so each set would be the same run under another name.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './fixture.ts';

/** The parameter names a bot reads: those its --help lists as `name (default ...)` or `name (...)`. */
function helpOf(bot: string): { grid: string; params: string[] } {
  const r = spawnSync(process.execPath, [bot, '--help'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const grid = /--grid (\S+)/.exec(r.stdout)![1];
  const line = /Parameters \(PERPDESK_PARAMS, JSON\): ([^\n]+)/.exec(r.stdout)![1];
  const params = [...line.matchAll(/(\w+) \(/g)].map((m) => m[1]);
  return { grid, params };
}

describe("the example bots' sweep commands", () => {
  for (const bot of ['examples/sweep-bot.ts', 'examples/sweep-ccxt-bot.ts']) {
    it(`${bot} names a grid of its own parameters`, () => {
      const { grid, params } = helpOf(bot);
      const file = JSON.parse(readFileSync(path.join(ROOT, grid), 'utf8')) as {
        comment: string;
        grid?: Record<string, unknown>;
        sets?: Array<Record<string, unknown>>;
        defaults?: Record<string, unknown>;
        random?: { params: Record<string, unknown> };
      };
      expect(file.comment).toContain(`Parameter sets of ${bot}`);
      const named = new Set([
        ...Object.keys(file.grid ?? {}),
        ...(file.sets ?? []).flatMap((s) => Object.keys(s)),
        ...Object.keys(file.defaults ?? {}),
        ...Object.keys(file.random?.params ?? {}),
      ]);
      expect(params.length).toBeGreaterThan(0);
      for (const name of named) expect(params, `${grid} sets '${name}', which ${bot} does not read`).toContain(name);
    }, 120_000); // the ccxt bot loads ccxt before it reads --help: seconds on a busy machine
  }
});
