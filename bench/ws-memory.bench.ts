// WebSocket memory benchmark (not a test). Run: node_modules/.bin/node bench/ws-memory.bench.ts
//   [--clients 2000] [--rounds 2] [--hold 3] [--stream depth_update@BTCUSDT]
//
// The service's RSS before and after N WebSocket clients connect to /ws, subscribe, receive
// pushes for --hold seconds and leave, --rounds times. The service runs in a child process of its
// own (startService: temp data dir, the 12 pairs simulated, as a user runs it) with --expose-gc;
// the clients are this process's raw sockets (lib/ws-load.ts), so their memory is not counted.
// Each figure is taken after a settle of 2 s and two full collections, so what is printed is what
// the service keeps, not garbage not yet collected. Also printed: the V8 heap, external and
// array-buffer memory, and the hub's own counts (connections, streams, feeds), which must be
// back to zero after each round.
//
// Target (DESIGN section 6): after the clients leave, RSS within 64 MB of where it was before
// they came. The structural side (maps emptied, listeners removed) is a test:
// test/api/ws/memory.test.ts.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoadClients } from './lib/ws-load.ts';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const N = Number(arg('clients', '2000'));
const ROUNDS = Number(arg('rounds', '2'));
const HOLD_S = Number(arg('hold', '3'));
const STREAM = arg('stream', 'depth_update@BTCUSDT');
const TARGET_MB = 64;

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  conns: number;
  streams: number;
  feeds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (b: number): string => (b / 1048576).toFixed(1);

async function server(): Promise<void> {
  const { startService } = await import('../src-main/service.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-bench-wsmem-'));
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, rateLimit: false });
  const hub = svc.app.wsHub;
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'sample') {
      await sleep(2000);
      gc?.();
      await sleep(100);
      gc?.();
      const u = process.memoryUsage();
      const s: Sample = {
        rss: u.rss,
        heapUsed: u.heapUsed,
        heapTotal: u.heapTotal,
        external: u.external,
        arrayBuffers: u.arrayBuffers,
        conns: hub.connectionCount,
        streams: hub.subs.footprint.streams,
        feeds: hub.subs.footprint.feeds,
      };
      process.send!({ type: 'sample', s });
    } else if (m.type === 'stop') {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: svc.url });
}

async function main(): Promise<void> {
  const watchdog = setTimeout(
    () => {
      console.error('ws-memory bench: took too long, giving up');
      process.exit(1);
    },
    (120 + ROUNDS * (HOLD_S + 60)) * 1000,
  );
  const child = fork(fileURLToPath(import.meta.url), ['--role', 'server'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      const on = (m: { type: string } & Record<string, unknown>): void => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
    });
  const { url } = await next<{ url: string }>('ready');
  const sample = async (): Promise<Sample> => {
    child.send({ type: 'sample' });
    return (await next<{ s: Sample }>('sample')).s;
  };
  const line = (what: string, s: Sample): void =>
    console.log(
      `  ${what.padEnd(30)} rss ${mb(s.rss).padStart(6)} MiB, heap ${mb(s.heapUsed).padStart(5)} / ${mb(s.heapTotal).padStart(5)} MiB, ` +
        `external ${mb(s.external).padStart(5)} MiB (array buffers ${mb(s.arrayBuffers)}), hub: ${s.conns} connections, ${s.streams} streams, ${s.feeds} feeds`,
    );
  console.log(
    `ws memory bench: node ${process.version}, ${N} clients on ${STREAM}, ${ROUNDS} round(s), ${HOLD_S} s each`,
  );
  await sleep(3000); // the simulated market's first seconds
  const before = await sample();
  line('before any client', before);
  const wsUrl = `${url.replace('http', 'ws')}/ws`;
  let worst = 0;
  let structural = true;
  for (let r = 1; r <= ROUNDS; r++) {
    const clients = new LoadClients();
    await clients.connect(wsUrl, STREAM, N);
    clients.start();
    await sleep(HOLD_S * 1000);
    clients.stop();
    const during = await sample();
    line(`round ${r}: ${clients.size} connected`, during);
    clients.close();
    const after = await sample();
    line(`round ${r}: all left`, after);
    worst = Math.max(worst, after.rss - before.rss);
    if (after.conns !== 0 || after.streams !== 0 || after.feeds !== 0) structural = false;
  }
  child.send({ type: 'stop' });
  await new Promise((r) => child.once('exit', r));
  clearTimeout(watchdog);
  const ok = worst <= TARGET_MB * 1048576 && structural;
  console.log(
    `RSS after the clients left: at most ${mb(worst)} MiB above before (target <= ${TARGET_MB} MB); hub emptied: ${structural ? 'yes' : 'NO'}  ${ok ? 'PASS' : 'MISS'}`,
  );
}

if (process.argv[2] === '--role' && process.argv[3] === 'server') await server();
else await main();
