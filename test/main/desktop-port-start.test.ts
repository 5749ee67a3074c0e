// The desktop's start on its port (desktop/port-start.ts, run by electron-main.ts), with a fake
// service start: where it cannot listen is said before the venue opens (a first start builds its
// history before it listens), the port is chosen, a race falls back, the port got is remembered.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOnChosenPort } from '../../src-main/desktop/port-start.ts';

const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-port-start-'));
  dirs.push(d);
  return d;
}

/** Holds a free port of 127.0.0.1 (as another program would). */
function hold(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      servers.push(s);
      resolve((s.address() as { port: number }).port);
    });
  });
}

/** A service start that records the ports it was asked for; `fail` answers a port with an error. */
function fakeStart(fail: (port: number) => Error | null = () => null) {
  const asked: number[] = [];
  return {
    asked,
    start: (port: number) => {
      asked.push(port);
      const err = fail(port);
      return err === null ? Promise.resolve({ port: port === 0 ? 50123 : port }) : Promise.reject(err);
    },
  };
}

const inUse = () => Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });

describe('the desktop start on its port', () => {
  it('opens the window (onChecked) once where to listen is checked and the start has opened its folder, not for a start refused at once', async () => {
    const port = await hold();
    const dir = tempDir();
    const events: string[] = [];
    const refused = startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'explicit', port },
      dataDir: dir,
      userData: dir,
      start: () => Promise.reject(new Error('not to be started')),
      onRememberError: () => {},
      onChecked: () => events.push('window'),
    });
    await expect(refused).rejects.toThrow(`Port ${port} on 127.0.0.1 is in use`);
    expect(events).toEqual([]); // the error box alone: no start page flashed before it
    const started = await startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'preferred' },
      dataDir: dir,
      userData: dir,
      isFree: () => Promise.resolve(true),
      start: (p, onOpened) => {
        events.push(`start ${p}`);
        onOpened(); // the folder taken, its database checked (startService's onOpened)
        onOpened();
        events.push('history');
        return Promise.resolve({ port: p });
      },
      onRememberError: () => {},
      onChecked: () => events.push('window'),
    });
    expect(started.service.port).toBe(8787);
    expect(events).toEqual(['start 8787', 'window', 'history']); // the start page carries the start's progress
  });

  it('refuses a taken --port before the venue opens', async () => {
    const port = await hold();
    const dir = tempDir();
    const s = fakeStart();
    const start = startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'explicit', port },
      dataDir: dir,
      userData: dir,
      start: s.start,
      onRememberError: () => {},
    });
    await expect(start).rejects.toThrow(
      `Port ${port} on 127.0.0.1 is in use (by another program or another perpdesk). ` +
        `Choose another --port, or leave --port out and perpdesk picks one.`,
    );
    expect(s.asked).toEqual([]); // no history built for nothing
  });

  it("names the folder's own service when it holds the --port", async () => {
    const port = await hold();
    const dir = tempDir();
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid }));
    const s = fakeStart();
    const start = startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'explicit', port },
      dataDir: dir,
      userData: dir,
      start: s.start,
      onRememberError: () => {},
    });
    await expect(start).rejects.toThrow(
      `perpdesk is already running on this data folder (process ${process.pid}), at http://127.0.0.1:${port}: ` +
        `open http://127.0.0.1:${port} in a browser`,
    );
    expect(s.asked).toEqual([]);
  });

  it('refuses a --host not of this machine before the venue opens, not after a fall back to a free port', async () => {
    const dir = tempDir();
    const s = fakeStart();
    const start = startOnChosenPort({
      host: '192.0.2.1', // TEST-NET-1: no machine's own address
      port: { kind: 'preferred' },
      dataDir: dir,
      userData: dir,
      start: s.start,
      onRememberError: () => {},
    });
    await expect(start).rejects.toThrow(
      /^cannot listen on 192\.0\.2\.1: 192\.0\.2\.1 is not an address of this machine/,
    );
    expect(s.asked).toEqual([]);
  });

  it('takes the saved port, else 8787, else a free one, and remembers the one it got', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'last-port.json'), JSON.stringify({ port: 41234 }));
    const s = fakeStart();
    const r = await startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'preferred' },
      dataDir: dir,
      userData: dir,
      start: s.start,
      onRememberError: () => {},
      isFree: () => Promise.resolve(false),
      check: () => Promise.resolve(null),
    });
    expect(s.asked).toEqual([0]);
    expect(r.choice).toEqual({ port: 0, fellBack: true, busy: [41234, 8787] });
    expect(JSON.parse(readFileSync(join(dir, 'last-port.json'), 'utf8'))).toEqual({ port: 50123 });
  });

  it('falls back to a free port when the preferred one is taken between the probe and the listen; an explicit one is an error', async () => {
    const dir = tempDir();
    const s = fakeStart((p) => (p === 8787 ? inUse() : null));
    const r = await startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'preferred' },
      dataDir: dir,
      userData: dir,
      start: s.start,
      onRememberError: () => {},
      isFree: () => Promise.resolve(true),
      check: () => Promise.resolve(null),
    });
    expect(s.asked).toEqual([8787, 0]);
    expect(r.choice).toEqual({ port: 0, fellBack: true, busy: [8787] });
    const explicit = startOnChosenPort({
      host: '127.0.0.1',
      port: { kind: 'explicit', port: 9000 },
      dataDir: dir,
      userData: dir,
      start: fakeStart(inUse).start,
      onRememberError: () => {},
      check: () => Promise.resolve(null),
    });
    await expect(explicit).rejects.toThrow('Port 9000 on 127.0.0.1 is in use');
    // an explicit port is not remembered
    expect(JSON.parse(readFileSync(join(dir, 'last-port.json'), 'utf8'))).toEqual({ port: 50123 });
  });
});
