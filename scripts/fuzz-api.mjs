// `npm run fuzz:api -- [runs] [seed]`: the long run of the generated bad-input suite
// (test/api/generated-input.test.ts), `runs` invalid values per parameter of every operation of
// /openapi.json (default 500; `npm test` runs it with 12). A seed replays a failing run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [runsArg = '500', seedArg] = process.argv.slice(2);
if (!/^[1-9][0-9]*$/.test(runsArg) || (seedArg !== undefined && !/^-?(0|[1-9][0-9]*)$/.test(seedArg))) {
  console.error('usage: npm run fuzz:api -- [runs per parameter, default 500] [seed]');
  process.exit(2);
}
const env = { ...process.env, FUZZ_RUNS: runsArg, ...(seedArg === undefined ? {} : { FUZZ_SEED: seedArg }) };
console.log(`fuzz:api: ${runsArg} runs per parameter${seedArg === undefined ? '' : `, seed ${seedArg}`}`);
const r = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/api/generated-input.test.ts'],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
process.exit(r.status ?? 1);
