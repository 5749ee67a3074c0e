// A history tab's Export CSV, what the line under the button says (history-export.tsx
// exportRecords): where the file was saved, and, when the desktop's save dialog was cancelled,
// that nothing was.
import { describe, expect, it } from 'vitest';
import { exportRecords } from '../../src-renderer/src/features/history/history-export.tsx';

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
});
