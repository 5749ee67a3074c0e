// `npm test`: lint (ESLint, Prettier's check, knip), type-check, build, unit/route tests
// (vitest), e2e (Playwright in Debian's Chromium), then one closing line `N passed, N failed,
// N skipped` over all of them (each lint tool, type-check and build count as one check each).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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

/** Runs `cmd`, its output kept until it ends: [exit code 0, output]. */
function runQuiet(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => resolve([code === 0, Buffer.concat(out).toString()]));
  });
}

/**
 * The checks that read the tree and write nothing of the others' (each lint tool, the two
 * type-checks, the build), one per core at a time: each is one single-threaded process, and one
 * after the other they took 1.5 to 2 minutes of a 2-core machine. Each one's output is printed
 * whole under its heading, in this order, whatever order they end in.
 */
async function runChecks(steps) {
  let free = Math.max(2, availableParallelism());
  const waiting = [];
  const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise((r) => waiting.push(r)));
  const release = () => {
    const w = waiting.shift();
    if (w) w();
    else free++;
  };
  // started in this order as cores come free
  const results = steps.map(async ([, , cmd, args]) => {
    await acquire();
    try {
      return await runQuiet(cmd, args);
    } finally {
      release();
    }
  });
  const oks = [];
  for (let i = 0; i < steps.length; i++) {
    const [ok, out] = await results[i];
    console.log(`\n=== ${steps[i][0]}`);
    process.stdout.write(out);
    check(steps[i][1], ok);
    oks.push(ok);
  }
  return oks;
}

const buildStep = [
  'build',
  'build',
  process.execPath,
  [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
];
const oks = await runChecks([
  // the house rules as tools (scripts/lint.mjs): each tool one check
  ...LINT_STEPS.map(([label, cmd, args]) => [`lint: ${label}`, `lint: ${label}`, cmd, args]),
  ['typecheck: node', 'typecheck (node)', bin('tsc'), ['-p', 'tsconfig.node.json', '--noEmit']],
  ['typecheck: web', 'typecheck (web)', bin('tsc'), ['-p', 'tsconfig.web.json', '--noEmit']],
  buildStep,
]);
const built = oks[oks.length - 1];

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
