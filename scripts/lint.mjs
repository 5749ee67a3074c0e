// `npm run lint`: the house rules as tools. ESLint (eslint.config.js: parameter counts, empty
// catches, literal enum codes, file length), Prettier's check (.prettierrc.json) and knip's
// unused exports (knip.json). Exits non-zero when any of them finds something; `npm test` runs
// each as one check.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

export const LINT_STEPS = [
  ['eslint', bin('eslint'), ['.', '--max-warnings', '0']],
  ['prettier', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['knip', bin('knip'), ['--no-progress']],
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = 0;
  for (const [label, cmd, args] of LINT_STEPS) {
    console.log(`\n=== lint: ${label}`);
    const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) failed++;
  }
  process.exit(failed === 0 ? 0 : 1);
}
