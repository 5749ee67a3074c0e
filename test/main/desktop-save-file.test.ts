// Export CSV's "save as" in the desktop (desktop/save-file.ts, run by electron-main.ts for the
// preload's perpdeskSaveFile): who may ask, the name the dialog starts with, a cancel, and a
// write that fails part-way (writeFileAtomic).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveAllowed, saveFile, saveName, writeFileAtomic } from '../../src-main/desktop/save-file.ts';

const SAVE_FILE_TS = new URL('../../src-main/desktop/save-file.ts', import.meta.url).href;

const OWN = 'http://127.0.0.1:8787';
const REPLAY = 'http://127.0.0.1:51234';

describe('saveFile', () => {
  it('answers null and writes nothing when the user cancels the dialog', async () => {
    const writes: string[] = [];
    const deps = { ask: async () => null, write: async (p: string) => void writes.push(p) };
    expect(await saveFile({ file: 'perpdesk-trades.csv', text: 'id\r\n' }, deps)).toBeNull();
    expect(writes).toEqual([]);
  });

  it('writes the text where the user chose and answers that path', async () => {
    const writes: [string, string][] = [];
    const asked: string[] = [];
    const deps = {
      ask: async (name: string) => (asked.push(name), `/home/u/x/${name}`),
      write: async (p: string, t: string) => void writes.push([p, t]),
    };
    expect(await saveFile({ file: '../../etc/perpdesk-trades.csv', text: 'id\r\n' }, deps)).toBe(
      '/home/u/x/perpdesk-trades.csv',
    );
    expect(asked).toEqual(['perpdesk-trades.csv']); // no folder part from the page
    expect(writes).toEqual([['/home/u/x/perpdesk-trades.csv', 'id\r\n']]);
  });

  it('says in words why the file could not be written: a folder gone since the dialog chose it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-save-'));
    const folder = join(dir, 'usb-stick');
    mkdirSync(folder);
    const deps = {
      ask: async (name: string) => {
        rmSync(folder, { recursive: true }); // unplugged, or removed, while the dialog was open
        return join(folder, name);
      },
      write: writeFileAtomic, // as electron-main.ts writes it
    };
    try {
      await expect(saveFile({ file: 'perpdesk-trades.csv', text: 'id\r\n' }, deps)).rejects.toThrow(
        `Could not save ${join(folder, 'perpdesk-trades.csv')}: the folder ${folder} does not exist (any more)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the file being replaced, and leaves no partial file, when the write fails part-way', () => {
    // a real failure part-way: a process whose files may grow to 8 KiB at most (ulimit -f, as a
    // full disk stops a write) saves 100,000 characters over an existing export
    const dir = mkdtempSync(join(tmpdir(), 'pd-save-'));
    const file = join(dir, 'perpdesk-trades.csv');
    writeFileSync(file, 'id,price\r\n1,100\r\n');
    const child = [
      `import { saveFile, writeFileAtomic } from ${JSON.stringify(SAVE_FILE_TS)};`,
      `const deps = { ask: async () => ${JSON.stringify(file)}, write: writeFileAtomic };`,
      `await saveFile({ file: 'perpdesk-trades.csv', text: 'x'.repeat(100000) }, deps).catch((e) => console.log(e.message));`,
    ].join('\n');
    try {
      const run = spawnSync(
        'bash',
        ['-c', 'ulimit -f 8 && exec "$0" --input-type=module -e "$1"', process.execPath, child],
        {
          encoding: 'utf8',
        },
      );
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe(`Could not save ${file}: the file is larger than this system lets a file be`);
      expect(readFileSync(file, 'utf8')).toBe('id,price\r\n1,100\r\n');
      expect(readdirSync(dir)).toEqual(['perpdesk-trades.csv']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces an existing file whole, keeping its permissions, and writes through a symbolic link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-save-'));
    const file = join(dir, 'a.csv');
    writeFileSync(file, 'old, longer than the new text\r\n');
    chmodSync(file, 0o640);
    symlinkSync(file, join(dir, 'link.csv'));
    try {
      await writeFileAtomic(join(dir, 'link.csv'), 'new\r\n');
      expect(readFileSync(file, 'utf8')).toBe('new\r\n');
      expect(statSync(file).mode & 0o777).toBe(0o640);
      expect(readdirSync(dir).sort()).toEqual(['a.csv', 'link.csv']);
      await writeFileAtomic(join(dir, 'b.csv'), 'é\r\n');
      expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe('é\r\n');
      expect(readdirSync(dir).sort()).toEqual(['a.csv', 'b.csv', 'link.csv']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed request before asking', async () => {
    const deps = { ask: async () => '/x', write: async () => {} };
    await expect(saveFile({ file: 1, text: '' }, deps)).rejects.toThrow('a file name and text');
    await expect(saveFile(null, deps)).rejects.toThrow('a file name and text');
  });
});

describe('saveName', () => {
  it('keeps a plain file name and strips folders and reserved characters', () => {
    expect(saveName('perpdesk-orders-20260102-030405.csv')).toBe('perpdesk-orders-20260102-030405.csv');
    expect(saveName('C:\\Windows\\a?.csv')).toBe('a_.csv');
    expect(saveName('..')).toBe('perpdesk-export.csv');
    expect(saveName('')).toBe('perpdesk-export.csv');
  });
});

describe('saveAllowed', () => {
  const own = { frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true };
  it("lets only the own window's main frame on the service or a hosted replay ask", () => {
    expect(saveAllowed(own, OWN, [])).toBe(true);
    expect(saveAllowed({ ...own, frameUrl: `${REPLAY}/` }, OWN, [REPLAY])).toBe(true);
    expect(saveAllowed({ ...own, frameUrl: `${REPLAY}/` }, OWN, [])).toBe(false);
    expect(saveAllowed({ ...own, fromOwnWindowMainFrame: false }, OWN, [])).toBe(false);
    expect(saveAllowed({ ...own, frameUrl: 'data:text/html,x' }, OWN, [])).toBe(false);
    expect(saveAllowed(own, null, [])).toBe(false);
  });
});
