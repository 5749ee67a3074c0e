// `service.json` in a data folder: where the venue that holds the folder's lock listens, so a
// second process on the folder (`npm run data -- import`) can hand its work to that venue
// instead of being refused. Written after the service listens, removed when it closes; a file
// left by a killed process is recognised by its pid (no longer alive) and ignored.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVICE_FILE = 'service.json';

export interface ServiceFile {
  readonly url: string;
  readonly pid: number;
  /**
   * The holder is a replay (`npm run serve -- --replay ...`): it reads the folder's datasets but
   * serves no dataset routes, so a `data` command cannot hand it its work (data-folder-hold.ts).
   */
  readonly replay?: boolean;
}

export function writeServiceFile(dataDir: string, url: string, replay = false): void {
  if (dataDir === ':memory:') return;
  const f = { url, pid: process.pid, ...(replay ? { replay } : {}) };
  writeFileSync(join(dataDir, SERVICE_FILE), JSON.stringify(f) + '\n', { mode: 0o600 });
}

export function removeServiceFile(dataDir: string): void {
  if (dataDir === ':memory:') return;
  try {
    const f = readServiceFile(dataDir);
    if (f === null || f.pid === process.pid) rmSync(join(dataDir, SERVICE_FILE), { force: true });
  } catch {
    // gone already
  }
}

/** The running service of a data folder, or null when none is recorded or its process is gone. */
export function readServiceFile(dataDir: string): ServiceFile | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, SERVICE_FILE), 'utf8'));
  } catch {
    return null;
  }
  const f = parsed as Partial<ServiceFile>;
  if (typeof f.url !== 'string' || typeof f.pid !== 'number' || !/^http:\/\/[^/]+$/.test(f.url)) return null;
  try {
    process.kill(f.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { url: f.url, pid: f.pid, ...(f.replay === true ? { replay: true } : {}) };
}

/**
 * What a start refused on a folder says when the folder's holder is its service and listens: where
 * to open it instead (the desktop app and `npm run serve` alike).
 */
export function alreadyRunningMessage(running: ServiceFile): string {
  return (
    `perpdesk is already running on this data folder (process ${running.pid}), at ${running.url}: ` +
    `open ${running.url} in a browser, or close it first to start another here (or use --data-dir)`
  );
}
