// The run's first line says when a grid's random draws repeated (docs/sweeps.md, The grid file):
// asked for 5 draws of one value, the sweep has 1 set, and says why. It said `1 job (1 parameter
// set)` alone, and a user who asked for 5 sets was not told that 4 draws were repeats.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';

let dir: string;

beforeAll(async () => {
  dir = await klinesDataDir();
});

describe("npm run sweep's first line", () => {
  it('says how many sets the random draws gave when they repeat', async () => {
    const grid = path.join(dir, 'grid.json');
    // the test bot's mode exit3 exits at once (a failed job): the line is what is tested
    writeFileSync(grid, JSON.stringify({ random: { count: 5, params: { mode: ['exit3'] } } }));
    const r = await runCli([
      '--data-dir',
      dir,
      '--bot',
      'node test/sweep/bots/test-bot.ts',
      '--replay',
      'BTCUSDT@2025-01-06T00:00Z..2025-01-06T01:00Z',
      '--split',
      'none',
      '--grid',
      grid,
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(
      /^perpdesk sweep sw\w+: 1 job \(1 parameter set; 5 random draws gave 1 distinct set\)$/,
    );
  });
});
