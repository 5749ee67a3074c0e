// The desktop's decisions against a real service on a real data folder: the credentials the
// window gets follow a key regeneration, and an urgent shutdown leaves the database closed
// (committed) before it returns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrapFor } from '../../src-main/desktop/bootstrap.ts';
import { ServiceSlot } from '../../src-main/desktop/service-slot.ts';
import { windowBaseUrl } from '../../src-main/desktop/window-url.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { signed } from '../helpers/signed.ts';

describe('desktop against a real service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-desktop-'));
  const slot = new ServiceSlot<ServiceHandle>();
  afterAll(async () => {
    await slot.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the current key after a regeneration, and closes the database synchronously on session end', async () => {
    const service = await slot.start(() => startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false }));
    const base = windowBaseUrl(service.host, service.port);
    const ask = () =>
      bootstrapFor(
        { frameUrl: `${base}/`, fromOwnWindowMainFrame: true },
        {
          baseUrl: base,
          readCredentials: () => {
            const a = slot.current?.venue.accounts.firstOfKind('local');
            return a && { apiKey: a.apiKey, apiSecret: a.apiSecret };
          },
        },
      );
    const first = ask()!;
    expect(first.baseUrl).toBe(base);
    const who = { id: 0, apiKey: first.apiKey, apiSecret: first.apiSecret };
    const r = await signed(service.app, who, 'POST', '/fapi/v1/account/apiKey/regenerate');
    expect(r.status).toBe(200);
    const second = ask()!;
    expect(second.apiKey).toBe(r.body.data.api_key);
    expect(second.apiKey).not.toBe(first.apiKey);
    // the fresh pair signs; the captured-at-start pair would not
    expect((await signed(service.app, { id: 0, ...second }, 'GET', '/fapi/v1/account')).status).toBe(200);
    expect((await signed(service.app, who, 'GET', '/fapi/v1/account')).status).toBe(401);

    const done = slot.shutdownNow();
    expect(service.venue.db.isOpen).toBe(false);
    expect(ask()).toBeNull(); // a page loading during shutdown gets no session
    expect(await done).toBe('closed');
  });
});
