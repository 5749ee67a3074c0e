import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFile, writeJsonFile } from '../../src-main/desktop/json-file.ts';
import {
  addressInUseError,
  choosePort,
  DEFAULT_DESKTOP_PORT,
  fallbackNotice,
  movedPortNotice,
  isAddressInUse,
  parseSavedPort,
  portCandidates,
  rememberPort,
} from '../../src-main/desktop/port-choice.ts';
import { isPortFree } from '../../src-main/desktop/port-probe.ts';

describe('port choice', () => {
  it('tries the last launch port first, then 8787', () => {
    expect(portCandidates({ kind: 'preferred', saved: null })).toEqual([DEFAULT_DESKTOP_PORT]);
    expect(portCandidates({ kind: 'preferred', saved: 8787 })).toEqual([8787]);
    expect(portCandidates({ kind: 'preferred', saved: 41234 })).toEqual([41234, 8787]);
    expect(portCandidates({ kind: 'explicit', port: 9000 })).toEqual([9000]);
  });

  it('takes the first free candidate, without a fall back to a free port', async () => {
    const tried: number[] = [];
    const c = await choosePort({ kind: 'preferred', saved: 41234 }, async (p) => (tried.push(p), p === 8787));
    expect(c).toEqual({ port: 8787, fellBack: false, busy: [41234] });
    expect(tried).toEqual([41234, 8787]);
    // the move from the last launch's port is said (before: silent, bots left on 41234)
    expect(movedPortNotice(c, 'http://127.0.0.1:8787', 'the service')).toBe(
      'Port 41234 is in use (by another program or another perpdesk), so the service listens on ' +
        'http://127.0.0.1:8787 instead. Point bots there; the next launch tries this port first. ' +
        'To choose the port yourself, start with --port N.',
    );
    // nothing busy: nothing to say
    expect(movedPortNotice({ port: 41234, fellBack: false, busy: [] }, 'http://127.0.0.1:41234')).toBeNull();
    expect(movedPortNotice({ port: 9000, fellBack: false, busy: [] }, 'http://127.0.0.1:9000')).toBeNull();
  });

  it('falls back to a free port (0) with a notice when all are busy', async () => {
    const c = await choosePort({ kind: 'preferred', saved: 41234 }, async () => false);
    expect(c).toEqual({ port: 0, fellBack: true, busy: [41234, 8787] });
    const text = fallbackNotice(c, 'http://127.0.0.1:50001');
    expect(text).toContain('Port 41234 and 8787 are in use');
    expect(text).toContain('http://127.0.0.1:50001');
    expect(fallbackNotice({ port: 0, fellBack: true, busy: [8787] }, 'http://127.0.0.1:1')).toContain(
      'Port 8787 is in use',
    );
  });

  it('uses an explicit port as given, untested, and does not remember it', async () => {
    let probed = false;
    const c = await choosePort({ kind: 'explicit', port: 9000 }, async () => ((probed = true), false));
    expect(c).toEqual({ port: 9000, fellBack: false, busy: [] });
    expect(probed).toBe(false);
    expect(rememberPort({ kind: 'explicit', port: 9000 }, 9000)).toBe(false);
    expect(rememberPort({ kind: 'preferred', saved: null }, 50001)).toBe(true);
    expect(rememberPort({ kind: 'preferred', saved: null }, 0)).toBe(false);
  });

  it('reads only a valid saved port', () => {
    expect(parseSavedPort({ port: 8787 })).toBe(8787);
    for (const bad of [{ port: '8787' }, { port: 0 }, { port: 70000 }, { port: 80.5 }, {}, null, 'x', undefined]) {
      expect(parseSavedPort(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('recognises a busy listen and explains it', () => {
    expect(isAddressInUse(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }))).toBe(true);
    expect(isAddressInUse(new Error('other'))).toBe(false);
    expect(isAddressInUse(null)).toBe(false);
    expect(addressInUseError('127.0.0.1', 9000).message).toMatch(/Port 9000 on 127\.0\.0\.1 is in use/);
  });
});

describe('isPortFree', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });

  it('sees a port held by a listener as busy, and a released one as free', async () => {
    const srv = createServer();
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    expect(await isPortFree('127.0.0.1', port)).toBe(false);
    await new Promise<void>((r) => srv.close(() => r()));
    expect(await isPortFree('127.0.0.1', port)).toBe(true);
  });
});

describe('json files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-json-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips, and leaves no temporary file behind', () => {
    const f = join(dir, 'last-port.json');
    writeJsonFile(f, { port: 8787 });
    expect(readJsonFile(f)).toEqual({ port: 8787 });
    writeJsonFile(f, { port: 9000 });
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({ port: 9000 });
    expect(readdirSync(dir)).toEqual(['last-port.json']);
  });

  it('reads a missing or malformed file as undefined', () => {
    expect(readJsonFile(join(dir, 'nope.json'))).toBeUndefined();
    const f = join(dir, 'broken.json');
    writeFileSync(f, '{"width": 14');
    expect(readJsonFile(f)).toBeUndefined();
  });

  it('throws on a write that cannot happen, cleaning up', () => {
    expect(() => writeJsonFile(join(dir, 'missing-folder', 'x.json'), {})).toThrow();
  });
});
