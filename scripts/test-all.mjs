// `npm test`: lint (ESLint, Prettier's check, knip), type-check, build, unit/route tests
// (vitest), e2e (Playwright in Debian's Chromium), then one closing line `N passed, N failed,
// N skipped` over all of them (each lint tool, type-check and build count as one check each).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LINT_STEPS } from './lint.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

function check(label, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

// the house rules as tools (scripts/lint.mjs): each tool one check
for (const [label, cmd, args] of LINT_STEPS) check(`lint: ${label}`, run(`lint: ${label}`, cmd, args));
check('typecheck (node)', run('typecheck: node', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']));
check('typecheck (web)', run('typecheck: web', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']));
const built = run('build', process.execPath, [
  join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
  'build',
]);
check('build', built);

const vitestJson = join(reports, 'vitest.json');
run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  if (r.numFailedTests > 0 || r.success === false) failures.push('vitest');
  // A suite that fails to load has no failed test but fails the run.
  const broken = (r.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.length === 0);
  for (const f of broken) {
    failed++;
    failures.push(`vitest file failed to run: ${f.name}`);
  }
} else {
  failed++;
  failures.push('vitest (no report)');
}

const pwJson = join(reports, 'playwright.json');
if (built) {
  run('playwright e2e', bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
  });
  if (existsSync(pwJson)) {
    const r = JSON.parse(readFileSync(pwJson, 'utf8'));
    passed += r.stats.expected + r.stats.flaky;
    failed += r.stats.unexpected;
    skipped += r.stats.skipped;
    if (r.stats.unexpected > 0) failures.push('playwright');
    if ((r.errors ?? []).length > 0) {
      failed++;
      failures.push(
        'playwright errors: ' +
          r.errors
            .map((e) => e.message)
            .join('; ')
            .slice(0, 500),
      );
    }
  } else {
    failed++;
    failures.push('playwright (no report)');
  }
} else {
  failed++;
  failures.push('playwright (not run: build failed)');
}

if (failures.length) console.log(`\nFailed: ${failures.join(' | ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
