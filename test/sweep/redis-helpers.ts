// A real redis-server for the queue tests (Debian's; .ci/run installs it): on a free loopback port,
// without persistence (a restart loses every job), and stopping a child process and waiting for it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** redis-server on loopback, no persistence: a restart loses every job. */
export function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const p = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ]);
  return new Promise((resolve, reject) => {
    let out = '';
    p.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('Ready to accept connections')) resolve(p);
    });
    p.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
}

export function stop(p: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p === undefined || p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill(signal);
  });
}

/** Waits until `test` holds (within `ms`), calling `read` before each look (what it reads from). */
export async function until(
  what: string,
  test: () => boolean,
  ms = 90_000,
  read: () => Promise<void> = async () => {},
): Promise<void> {
  const t0 = Date.now();
  await read();
  while (!test()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
    await read();
  }
}
