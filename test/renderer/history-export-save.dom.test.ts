// A history tab's Export CSV, what the line under the button says (history-export.tsx
// exportRecords): where the file was saved, and, when the desktop's save dialog was cancelled,
// that nothing was; a save the desktop's main process refused, in its own words, without the
// words Electron's ipcRenderer.invoke puts before them (lib/save-file.ts saveTextFile).
import { describe, expect, it } from 'vitest';
import { exportRecords } from '../../src-renderer/src/features/history/history-export.tsx';
import { saveTextFile } from '../../src-renderer/src/lib/save-file.ts';

describe('exportRecords', () => {
  const spec = { name: 'trades', fields: ['id', 'time'], timeFields: ['time'] };
  const collect = async () => ({
    items: [
      { id: '1', time: 0 },
      { id: '2', time: 1 },
    ],
    complete: true,
  });
  const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

  it('says where the records were saved: the path the desktop chose', async () => {
    const asked: string[] = [];
    const out = await exportRecords(
      collect,
      spec,
      async (file: string, text: string) => {
        asked.push(file, text.split('\r\n')[0]!);
        return `/home/u/Downloads/${file}`;
      },
      now,
    );
    expect(asked).toEqual(['perpdesk-trades-20260102-030405.csv', 'id,time,time_utc']);
    expect(out).toEqual({
      bad: false,
      said: '2 records saved to /home/u/Downloads/perpdesk-trades-20260102-030405.csv',
    });
  });

  it('says nothing was saved when the save dialog was cancelled', async () => {
    const out = await exportRecords(collect, spec, async () => null, now);
    expect(out.said).not.toContain('saved to');
    expect(out).toEqual({ bad: false, said: 'Not saved: the save was cancelled' });
  });

  it('says a failed save', async () => {
    const out = await exportRecords(
      collect,
      spec,
      async () => {
        throw new Error('EACCES: permission denied');
      },
      now,
    );
    expect(out).toEqual({ bad: true, said: 'Export failed: EACCES: permission denied' });
  });

  it("says the desktop's refused save in the main process's words, not Electron's", async () => {
    const said = async (message: string) => {
      // the preload's save (src-main/preload/index.ts), rejecting as Electron's ipcRenderer.invoke
      // does when the main process's handler throws: `Error invoking remote method '${channel}': ${String(err)}`
      const w = { perpdeskSaveFile: () => Promise.reject(new Error(message)) };
      Object.assign(globalThis, { window: w });
      try {
        return await exportRecords(collect, spec, (file, text) => saveTextFile(file, text, 'text/csv'), now);
      } finally {
        Reflect.deleteProperty(globalThis, 'window');
      }
    };
    const why = 'Could not save /media/usb/x.csv: the folder /media/usb does not exist (any more)';
    expect(await said(`Error invoking remote method 'perpdesk:save-file': Error: ${why}`)).toEqual({
      bad: true,
      said: `Export failed: ${why}`,
    });
    expect(await said(`Error invoking remote method 'perpdesk:save-file': TypeError: ${why}`)).toEqual({
      bad: true,
      said: `Export failed: ${why}`,
    });
    // the main process's refusal of another page: its words, whatever they say
    expect(
      (await said("Error invoking remote method 'perpdesk:save-file': Error: not allowed to save files")).said,
    ).toBe('Export failed: not allowed to save files');
  });
});
