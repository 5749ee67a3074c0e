// The desktop app started on a data folder that `npm run serve` holds (docs/desktop.md, Port and
// data folder): Electron's single-instance lock does not see a headless service, so the start goes
// as far as the folder's lock, and the error box must say where that service listens, as a second
// `npm run serve` does. The desktop path without Electron: the real startService refused by the
// folder's lock, then the box electron-main.ts shows (failStartup).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderHolderOf, startupErrorBox } from '../../src-main/desktop/startup-error.ts';
import { startService } from '../../src-main/service.ts';
import { DataFolderInUseError } from '../../src-main/store/data-lock.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A live Node process standing for the perpdesk that holds the folder (its pid in the lock). */
function holder(): number {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(c);
  if (c.pid === undefined) throw new Error('no child');
  return c.pid;
}

async function refusedStart(dir: string): Promise<unknown> {
  try {
    const s = await startService({ dataDir: dir, port: 0, simulate: false });
    await s.close();
  } catch (err) {
    return err;
  }
  throw new Error('the start was not refused');
}

describe('the desktop app on a folder its headless service holds', () => {
  it('says where that service listens, to open it instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desk-inuse-'));
    dirs.push(dir);
    const pid = holder();
    writeFileSync(join(dir, 'perpdesk.lock'), String(pid));
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: 'http://127.0.0.1:18797', pid }));
    const err = await refusedStart(dir);
    expect(err).toBeInstanceOf(DataFolderInUseError);
    const box = startupErrorBox(err, { dataDir: dir, logFile: null, running: folderHolderOf(err, dir) });
    expect(box.content).toBe(
      `perpdesk is already running on this data folder (process ${pid}), at http://127.0.0.1:18797: ` +
        `open http://127.0.0.1:18797 in a browser, or close it first to start another here (or use --data-dir)\n\n` +
        `Data folder: ${dir}`,
    );
  });

  it("says the lock's words when the holder has not said where it listens, or another process did", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desk-inuse-'));
    dirs.push(dir);
    const pid = holder();
    writeFileSync(join(dir, 'perpdesk.lock'), String(pid));
    const err = await refusedStart(dir);
    expect(folderHolderOf(err, dir)).toBeNull(); // still starting: no service.json yet
    // a service.json of another live process (not the lock's holder) is not taken for it
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: 'http://127.0.0.1:18797', pid: process.pid }));
    expect(folderHolderOf(err, dir)).toBeNull();
    const box = startupErrorBox(err, { dataDir: dir, logFile: null, running: folderHolderOf(err, dir) });
    expect(box.content).toContain(`is in use by another perpdesk (process ${pid}). Close that one first`);
    expect(folderHolderOf(new Error('other'), dir)).toBeNull();
  });
});
