// The build a sweep runs: a checksum of the code that turns a job into its figures (the service
// under src-main and src-shared, the dependencies' locked versions). A queue worker on another
// machine runs its own checkout: one of another commit (or with local edits) would compute the
// jobs it takes with its own code, and the sweep would mix two builds' figures without a word.
// The coordinator hands its build with every job (queue.ts), and a worker of another build gives
// the job back unrun, saying which builds differ (docs/sweeps.md, Many machines).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout this code runs from: the nearest folder up with package.json and src-main (this
 * file is src-main/sweep/build-id.ts, or bundled in the service's out/main/chunks); undefined for
 * code run outside a checkout.
 */
function checkoutRoot(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src-main'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const ROOT = checkoutRoot() ?? fileURLToPath(new URL('../../', import.meta.url));

/** The build of the checkout this code runs from; undefined outside a checkout (nothing to compare). */
export function ownBuild(): string | undefined {
  return checkoutRoot() === undefined ? undefined : buildId();
}
/** What the figures depend on: the service's code and its dependencies' versions. */
const PARTS = ['src-main', 'src-shared', 'package.json', 'package-lock.json'];

function files(root: string, rel: string, into: string[]): void {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return;
  if (!statSync(abs).isDirectory()) {
    into.push(rel);
    return;
  }
  for (const name of readdirSync(abs).sort()) files(root, path.posix.join(rel, name), into);
}

const memo = new Map<string, string>();

/** The build of the checkout at `root` (this one by default): 16 hex digits, the same on any machine. */
export function buildId(root: string = ROOT): string {
  let id = memo.get(root);
  if (id !== undefined) return id;
  id = hashBuild(root);
  memo.set(root, id);
  return id;
}

function hashBuild(root: string): string {
  const all: string[] = [];
  for (const part of PARTS) files(root, part, all);
  const h = createHash('sha256');
  for (const rel of all) {
    const body = readFileSync(path.join(root, rel));
    h.update(`${rel}\0${body.length}\0`).update(body);
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * The build of the code on disk now at `root` (this checkout by default), read again each call: a
 * process started now runs it, whatever build this one loaded; undefined outside a checkout.
 */
export function buildOnDisk(root: string | undefined = checkoutRoot()): string | undefined {
  return root === undefined ? undefined : hashBuild(root);
}

/**
 * Why this checkout cannot run a job of a sweep of build `sweeps` (null: it can). A job with no
 * build (queued by a coordinator from before the check) is taken, as it was.
 */
export function buildMismatch(sweeps: string | undefined, mine: string = buildId()): string | null {
  if (sweeps === undefined || sweeps === mine) return null;
  return (
    `its build ${mine} is not the sweep's ${sweeps} (another commit, or local changes, under src-main, ` +
    "src-shared or package-lock.json): its figures would not be the sweep's"
  );
}

/**
 * Why a sweep of build `sweeps` (stored when it started) cannot be resumed from this checkout
 * (null: it can): the results it stored were computed by that build, and the rest would be by this
 * one. A sweep recorded before builds were is resumed as it is.
 */
export function resumeMismatch(
  id: string,
  spec: { build?: string; replay: string },
  mine: string = buildId(),
): string | null {
  if (spec.build === undefined || spec.build === mine) return null;
  return (
    `sweep ${id} was started by build ${spec.build} and this checkout is build ${mine} (another commit, or ` +
    `local changes, under src-main, src-shared or package-lock.json): resuming it would mix two builds' ` +
    `figures; run it again as a new sweep (npm run sweep -- --like ${id} --replay ${spec.replay}) or resume ` +
    `it from a checkout of build ${spec.build}`
  );
}
