// The data folder for a `data` command (data-cli.ts): its lock, else the API of the perpdesk that
// holds it, waiting for one that has not said where it listens yet.
import { readServiceFile } from './service-file.ts';
import { DataFolderInUseError, lockDataFolder, type DataLock } from './store/data-lock.ts';

/** How long a command waits for the perpdesk holding the folder to open its API (a service builds its history first). */
const SERVICE_START_WAIT_MS = 90_000;

type Held =
  | { kind: 'lock'; lock: DataLock }
  | { kind: 'service'; url: string }
  | { kind: 'replay'; url: string; pid: number }
  | { kind: 'busy'; error: DataFolderInUseError }
  | { kind: 'unusable'; error: unknown };

/**
 * The folder for this command: its lock, else the API of the venue that holds it. A holder that
 * has not said where it listens yet (a service still building its simulated history, about 15 s,
 * or another data command importing) is waited for, saying so once: the lock comes free or the
 * service file appears; after `waitMs` the holder's refusal is said.
 */
export async function holdFolder(
  dataDir: string,
  out: (line: string) => void,
  waitMs = SERVICE_START_WAIT_MS,
): Promise<Held> {
  const deadline = Date.now() + waitMs;
  for (let said = false; ; said = true) {
    try {
      return { kind: 'lock', lock: lockDataFolder(dataDir) };
    } catch (e) {
      if (!(e instanceof DataFolderInUseError)) return { kind: 'unusable', error: e };
      const running = readServiceFile(dataDir);
      // a replay (--replay) holds it: no dataset routes to go through, and it holds the folder
      // until it is stopped (waiting for it said, after 90 s, that it had not opened its API yet)
      if (running?.replay === true) return { kind: 'replay', url: running.url, pid: running.pid };
      if (running !== null) return { kind: 'service', url: running.url };
      if (Date.now() >= deadline) return { kind: 'busy', error: e };
      if (!said)
        out(
          `The data folder is held by another perpdesk${e.pid === null ? '' : ` (process ${e.pid})`} that has not ` +
            `opened its API yet (a service starting, or another import); waiting for it (up to ${waitMs / 1000} s)...`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
