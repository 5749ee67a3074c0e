// The coordinator's --pack-url (docs/sweeps.md, The data): only http://HOST:PORT, and its port bound
// before the sweep is planned: a port in use, an address not of this machine or another scheme is
// one line and exit 2 with nothing recorded (it was a listen stack trace, exit 1, the sweep left
// interrupted; ftp:// and a URL without its port ran, handing workers a URL they cannot fetch).
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackServer } from '../../src-main/sweep/pack-server.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { runCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';
import { freePort, HAS_REDIS, startRedis, stop } from './redis-helpers.ts';

describe('the pack server', () => {
  it('takes only http://HOST:PORT, and serves the pack at the URL it hands the workers', async () => {
    for (const bad of ['ftp://127.0.0.1:8821', 'http://127.0.0.1', 'https://127.0.0.1:8821', 'http://h:0', 'x'])
      expect(() => PackServer.check(bad), bad).toThrow(
        `--pack-url wants http://HOST:PORT (an address of this machine that the workers reach, and a free port), got '${bad}'`,
      );
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'perpdesk-pack-')), 'data.db');
    writeFileSync(file, 'pack bytes');
    const sha256 = createHash('sha256').update('pack bytes').digest('hex');
    const port = await freePort();
    const server = await PackServer.check(`http://127.0.0.1:${port}/`)();
    try {
      const ref = server.serve({ path: file, sha256 });
      expect(ref.url).toBe(`http://127.0.0.1:${port}/packs/${sha256}.db`);
      expect(await (await fetch(ref.url!)).text()).toBe('pack bytes');
      expect((await fetch(`http://127.0.0.1:${port}/packs/other.db`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!HAS_REDIS)('npm run sweep --pack-url', () => {
  let redis: ChildProcess;
  let queue: string;
  let busy: Server;
  let busyPort: number;

  beforeAll(async () => {
    const port = await freePort();
    queue = `redis://127.0.0.1:${port}`;
    redis = await startRedis(port, mkdtempSync(path.join(tmpdir(), 'perpdesk-redis-')));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => busy.close(r));
    await stop(redis);
  });

  it('refuses a port in use, an address not of this machine and another scheme before anything is recorded', async () => {
    const dir = await klinesDataDir();
    const sweep = (packUrl: string) =>
      runCli([
        '--data-dir',
        dir,
        '--bot',
        'node test/sweep/bots/test-bot.ts',
        '--replay',
        'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z',
        '--queue',
        queue,
        '--pack-url',
        packUrl,
      ]);
    const inUse = `http://127.0.0.1:${busyPort}`;
    const [a, b, c] = await Promise.all([sweep(inUse), sweep('http://10.255.255.1:8821'), sweep('ftp://127.0.0.1:1')]);
    expect([a.code, b.code, c.code], a.stderr + b.stderr + c.stderr).toEqual([2, 2, 2]);
    expect(a.stderr).toBe(
      `perpdesk sweep: --pack-url ${inUse}: cannot serve the data there: port ${busyPort} is in use on 127.0.0.1\n`,
    );
    expect(b.stderr).toBe(
      'perpdesk sweep: --pack-url http://10.255.255.1:8821: cannot serve the data there: ' +
        '10.255.255.1 is not an address of this machine\n',
    );
    expect(c.stderr).toMatch(/^perpdesk sweep: --pack-url wants http:\/\/HOST:PORT .*got 'ftp:\/\/127.0.0.1:1'\n$/);
    for (const r of [a, b, c]) expect(r.stdout).toBe('');
    const s = new SqliteSweepStore(dir);
    expect(s.list()).toEqual([]);
    s.close();
    expect(existsSync(path.join(dir, 'sweeps'))).toBe(false);
  }, 60_000);
});
