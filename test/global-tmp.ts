// Every temporary folder a test makes (mkdtemp under os.tmpdir(): data folders, archives,
// uploads, Redis's working folders, spawned services' folders) goes into one folder of this run,
// removed when the run ends, passed or failed: a test that forgets its folder, or is killed by
// its timeout before its afterAll, leaves nothing behind in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-vitest-'));
  // set before the workers start: they (and the processes tests spawn) inherit it, and
  // os.tmpdir() reads it
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
