// A history tab's Export CSV (history-export.tsx): the CSV text of the API's records (lib/csv.ts)
// and the records it holds (paged-store.ts collect: every page the filters select, at the
// route's largest page, at most `max` of them, saying when there were more).
import { describe, expect, it } from 'vitest';
import { csvText } from '../../src-renderer/src/lib/csv.ts';
import { createPagedStore, type Page } from '../../src-renderer/src/features/history/paged-store.ts';

describe('csvText', () => {
  it('a header of the fields, a row a record, quoted where needed, a UTC text beside each time', () => {
    const text = csvText(
      ['id', 'client_order_id', 'price', 'created_at'],
      [
        { id: '7', client_order_id: 'a,b', price: '96000.5', created_at: 1_736_121_600_123 },
        { id: '8', client_order_id: 'say "hi"', price: '0.00000001', created_at: 0, extra: 'left out' },
      ],
      ['created_at'],
    );
    expect(text.split('\r\n')).toEqual([
      'id,client_order_id,price,created_at,created_at_utc',
      '7,"a,b",96000.5,1736121600123,2025-01-06T00:00:00.123Z',
      '8,"say ""hi""",0.00000001,0,',
      '',
    ]);
  });
});

describe('collect', () => {
  /** 1,234 records 1..1234 newest first, paged by a cursor that is the next index; the limits asked. */
  const venue = () => {
    const limits: number[] = [];
    const all = Array.from({ length: 1234 }, (_, i) => 1234 - i);
    const fetchPage = async (_f: object, cursor: string, limit: number): Promise<Page<number>> => {
      limits.push(limit);
      const from = cursor === '' ? 0 : Number(cursor);
      const items = all.slice(from, from + limit);
      const next = from + limit < all.length ? String(from + limit) : '';
      return { items, nextCursor: next, hasMore: next !== '' };
    };
    return { limits, store: createPagedStore(fetchPage, {}, 20, 500) };
  };

  it('reads every page at the largest page size, each record once, newest first', async () => {
    const { limits, store } = venue();
    const r = await store.getState().actions.collect(50_000);
    expect(r.complete).toBe(true);
    expect(r.items).toHaveLength(1234);
    expect(new Set(r.items).size).toBe(1234);
    expect(r.items[0]).toBe(1234);
    expect(r.items[1233]).toBe(1);
    expect(limits).toEqual([500, 500, 500]);
  });

  it('stops at max and says there were more', async () => {
    const { store } = venue();
    const r = await store.getState().actions.collect(1000);
    expect(r.complete).toBe(false);
    expect(r.items).toHaveLength(1000);
    expect(r.items[999]).toBe(235);
  });

  it('a login change while it pages aborts it: one file never mixes two accounts', async () => {
    // Account A's records on the first page; the login changes (clear()) before the second is read.
    let pages = 0;
    const fetchPage = async (_f: object, cursor: string): Promise<Page<string>> => {
      pages++;
      if (cursor === '') {
        store.getState().actions.clear();
        return { items: ['A1', 'A2'], nextCursor: 'c', hasMore: true };
      }
      return { items: ['B1'], nextCursor: '', hasMore: false };
    };
    const store = createPagedStore(fetchPage, {}, 20, 2);
    await expect(store.getState().actions.collect(100)).rejects.toThrow(/login changed/);
    expect(pages).toBe(1);
    // Showing a page meanwhile (a tab's own paging) does not abort an export.
    let shown = 0;
    const quiet = createPagedStore(async (_f: object, cursor: string): Promise<Page<string>> => {
      shown++;
      if (shown === 1) await quiet.getState().actions.load();
      return cursor === ''
        ? { items: ['A1'], nextCursor: 'c', hasMore: true }
        : { items: ['A2'], nextCursor: '', hasMore: false };
    }, {});
    expect((await quiet.getState().actions.collect(100)).items).toEqual(['A1', 'A2']);
  });
});
