// The API side of the full-disk rule without root (test/store/durability/full-disk.test.ts fills a real
// tmpfs): a venue whose guard sees less free space than its reserve refuses every change with
// 503 / 5002 naming the folder, changes nothing, and still answers reads and the browser login.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { databaseFile } from '../../../src-main/store/database.ts';
import { guardDiskSpace } from '../../../src-main/store/disk-space.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { Errors } from '../../../src-shared/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-diskguard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('changes while the disk is nearly full', () => {
  it('are refused with 503 / 5002; reads and the login go on; with room the same change goes through', async () => {
    const venue = openVenue({ dataDir: dir, simulate: false });
    // a reserve no disk has: the guard sees "nearly full"
    guardDiskSpace(venue.db, databaseFile(dir), { reserveBytes: Number.MAX_SAFE_INTEGER });
    const full = await buildApp({ venue, rateLimit: false });
    try {
      const r = await full.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        payload: { api_key: 'diskguard01', api_secret: 'diskguardsecret1' },
      });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ code: Errors.STORAGE_FULL.code, data: null });
      expect(r.json().message).toContain(dir);
      expect(r.json().message).toMatch(/MiB free/);
      expect(venue.accounts.byKey('diskguard01')).toBeUndefined();
      for (const method of ['PUT', 'DELETE'] as const) {
        expect((await full.inject({ method, url: '/fapi/v1/order?symbol=BTCUSDT' })).json().code, method).toBe(
          Errors.STORAGE_FULL.code,
        );
      }
      expect((await full.inject({ method: 'GET', url: '/fapi/v1/time' })).json().code).toBe(0);
      const login = await full.inject({ method: 'POST', url: '/api/v1/session', payload: { token: 'x' } });
      expect(login.json().code).toBe(Errors.TOKEN_INVALID.code);
    } finally {
      await full.close();
    }
    // room again (the normal reserve): the same change goes through
    guardDiskSpace(venue.db, databaseFile(dir), { reserveBytes: 0 });
    const roomy = await buildApp({ venue, rateLimit: false });
    try {
      const r = await roomy.inject({
        method: 'POST',
        url: '/admin/v1/accounts',
        payload: { api_key: 'diskguard01', api_secret: 'diskguardsecret1' },
      });
      expect(r.json().code).toBe(0);
      expect(venue.accounts.byKey('diskguard01')).toBeDefined();
    } finally {
      await roomy.close();
      await venue.close();
    }
  });
});
