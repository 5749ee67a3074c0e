// The desktop's window opens only once the start can go on (docs/desktop.md): the start on its
// port (desktop/port-start.ts) run as electron-main.ts runs it, with the real startService, its
// onChecked (where the window opens) recorded. A data folder in use by another running perpdesk,
// a database written by a newer version, refuse the start before the window, as a taken --port
// does: the error box alone. Before, the window opened on its start page once the port was
// checked, and the error box came after it (a window flashed on screen, then failed).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { startOnChosenPort } from '../../src-main/desktop/port-start.ts';
import { startService, type ServiceOptions } from '../../src-main/service.ts';
import { DataFolderInUseError } from '../../src-main/store/data-lock.ts';
import { DatabaseRefusedError } from '../../src-main/store/database.ts';
import { openVenue } from '../../src-main/venue.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-start-refused-'));
  dirs.push(d);
  return d;
}

/** The desktop's start on `dir` (electron-main.ts startOnPort): what happened, in order. */
async function desktopStart(
  dir: string,
  more: Partial<ServiceOptions> = {},
): Promise<{ events: string[]; result: unknown }> {
  const events: string[] = [];
  let result: unknown;
  try {
    const { service } = await startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'preferred' },
      dataDir: dir,
      userData: dir,
      isFree: () => Promise.resolve(false), // a free port: no test takes 8787
      onRememberError: () => {},
      onChecked: () => events.push('window'),
      start: (port, onOpened) =>
        startService({ host: '127.0.0.1', port, dataDir: dir, simulate: false, rateLimit: false, onOpened, ...more }),
    });
    events.push('listening');
    await service.close();
  } catch (err) {
    result = err;
  }
  return { events, result };
}

describe('the desktop start refused before its window', () => {
  it('a data folder in use by another running perpdesk: no window, the error', async () => {
    const dir = tempDir();
    const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(c);
    writeFileSync(join(dir, 'perpdesk.lock'), String(c.pid)); // a live process holds the folder
    const r = await desktopStart(dir);
    expect(r.result).toBeInstanceOf(DataFolderInUseError);
    expect((r.result as Error).message).toContain(`is in use by another perpdesk (process ${c.pid})`);
    expect(r.events).toEqual([]);
  });

  it('a database written by a newer version: no window, the error', async () => {
    const dir = tempDir();
    await openVenue({ dataDir: dir, simulate: false }).close();
    const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
    raw.exec('PRAGMA user_version = 999');
    raw.close();
    const r = await desktopStart(dir);
    expect(r.result).toBeInstanceOf(DatabaseRefusedError);
    expect((r.result as Error).message).toMatch(/has schema version 999, newer than this build knows/);
    expect(r.events).toEqual([]);
  });

  it('a start that goes on: the window first, then the history build and the listen', async () => {
    const dir = tempDir();
    expect((await desktopStart(dir)).events).toEqual(['window', 'listening']);
    // a first start's history (15 s to 2 min): the start page carries its progress, so it opens before
    const events: string[] = [];
    const stop = new AbortController();
    await expect(
      startOnChosenPort({
        host: '127.0.0.1',
        port: { kind: 'preferred' },
        dataDir: join(dir, 'new'),
        userData: join(dir, 'new'),
        isFree: () => Promise.resolve(false),
        onRememberError: () => {},
        onChecked: () => events.push('window'),
        start: (port, onOpened) =>
          startService({
            port,
            dataDir: join(dir, 'new'),
            onOpened,
            signal: stop.signal,
            onProgress: (line) => {
              events.push(line.replace(/ \d+\/.*/, ''));
              stop.abort(); // a quit: the build stops after this pair
            },
          }),
      }),
    ).rejects.toThrow();
    expect(events).toEqual(['window', 'perpdesk: building simulated history']);
  }, 60_000);
});
