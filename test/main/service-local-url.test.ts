// The addresses a service bound to every interface (--host 0.0.0.0 or ::) gives out for this
// machine: the one-time login link, service.json (npm run data on the same folder) and a replay's
// way back to it. They said http://0.0.0.0:PORT, which Windows and its browsers refuse to open;
// they now name the loopback, the only caller the login token answers anyway. The ready line
// keeps the address it listens on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { localUrl, startService } from '../../src-main/service.ts';
import { readServiceFile } from '../../src-main/service-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-local-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a wildcard bind is reached at its loopback; any other host as it is', () => {
  expect(localUrl('0.0.0.0', 8787)).toBe('http://127.0.0.1:8787');
  expect(localUrl('::', 8787)).toBe('http://[::1]:8787');
  expect(localUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
  expect(localUrl('::1', 8787)).toBe('http://[::1]:8787');
  expect(localUrl('192.168.1.20', 8787)).toBe('http://192.168.1.20:8787');
});

it('bound to 0.0.0.0, the login link and service.json name 127.0.0.1, and the link logs in', async () => {
  const svc = await startService({ host: '0.0.0.0', port: 0, dataDir: dir, simulate: false, rateLimit: false });
  try {
    expect(svc.url).toBe(`http://0.0.0.0:${svc.port}`);
    const here = `http://127.0.0.1:${svc.port}`;
    expect(svc.loginUrl.startsWith(`${here}/#token=`)).toBe(true);
    expect(readServiceFile(dir)?.url).toBe(here);
    const token = svc.loginUrl.slice(`${here}/#token=`.length);
    const r = await fetch(`${here}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(((await r.json()) as { code: number }).code).toBe(0);
    expect(svc.renewLoginUrl().startsWith(`${here}/#token=`)).toBe(true);
  } finally {
    await svc.close();
  }
});
