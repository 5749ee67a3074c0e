// WebSocket fan-out benchmark (not a test). Run: node_modules/.bin/node bench/ws.bench.ts
//   [--clients 2000] [--stream depth_update@BTCUSDT] [--seconds 20] [--ops 500] [--client-procs 1]
//
// Separate processes so that the clients do not distort the server's CPU figure: this one
// orchestrates, one child is the server, --client-procs children hold the clients. The
// clients are raw TCP sockets with a hand-made handshake and a minimal frame reader
// (lib/ws-load.ts) rather than `ws` clients: 2,000 full `ws` clients parsing every message in one
// process cost more CPU than the server under test and their queueing showed up as fan-out
// latency. Both servers are measured with the very same client code.
//
// Phase 0  perpdesk service on 127.0.0.1 (startService, in-memory venue) with a continuous random
//          bot-order flow on BTCUSDT (--ops commands/s: resting orders, crossing orders from a
//          second bot account, cancels) and no client: the flow's own CPU.
// Phase 1  the same service with N clients, each subscribed to --stream (default
//          depth_update@BTCUSDT, pushed every 100 ms = 10 Hz; depth@BTCUSDT,20 is 5 Hz).
// Phase 2  baseline: a bare `ws` WebSocketServer in a fresh child broadcasting the very payloads
//          phase 1's clients received (replayed in order, E restamped), one per 100 ms, to N
//          clients, each message turned into a Buffer once and sent to every client as a text
//          frame (the ws README's broadcast).
//
// Measured over --seconds (after a 2 s warm-up) per phase (20 s: p99 over ~200 messages, not the
// second worst of 100):
// - fan-out latency: per message, receipt time at the client minus the server's stamp E (ms,
//   one machine, one clock); "last client" = the slowest of the N receipts of that message.
//   p50/p99 over messages. The perpdesk E is the market clock, which equals the wall clock on a
//   fresh venue at speed 1.
// - server CPU: process.cpuUsage() delta in the server child / wall time (and its user/system
//   split: on loopback the kernel's per-write cost, receive path included, dominates).
// - messages/s: frames received by all clients per second.
// Ratios: perpdesk / baseline CPU (net of the bot flow measured in phase 0, and raw), latency.
// Budget (DESIGN section 6): last-client p99 < 50 ms at 10 Hz; CPU within 1.5x the baseline.
import { cancelBotOrder, placeBotOrder } from '../test/helpers/exchange-commands.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { quantileSorted } from './lib/stats.ts';
import { LoadClients } from './lib/ws-load.ts';

type Msg = Record<string, unknown> & { type: string };

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}

const role = process.argv[2] === '--role' ? process.argv[3] : 'main';
const N = Number(arg('clients', '2000'));
const STREAM = arg('stream', 'depth_update@BTCUSDT');
const SECONDS = Number(arg('seconds', '20'));
const OPS = Number(arg('ops', '500'));
const CLIENT_PROCS = Math.max(1, Number(arg('client-procs', '1')));
const WARMUP_MS = 2000;
const TICK_MS = 100;

const send = (m: Msg): void => {
  process.send!(m);
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Server-side time of each tick that pushed something: first byte built to last send() returned. */
let fanoutMs: number[] = [];

/** Collects the server's CPU between 'measure-start' and 'measure-stop'. */
function cpuMeter(extra: () => Record<string, number> = () => ({})): (m: Msg) => void {
  let cpu0 = process.cpuUsage();
  let t0 = performance.now();
  let x0 = extra();
  return (m) => {
    if (m.type === 'measure-start') {
      cpu0 = process.cpuUsage();
      t0 = performance.now();
      x0 = extra();
      fanoutMs = [];
    } else if (m.type === 'measure-stop') {
      const d = process.cpuUsage(cpu0);
      const x1 = extra();
      const delta: Record<string, number> = {};
      for (const k of Object.keys(x1)) delta[k] = x1[k] - (x0[k] ?? 0);
      send({
        type: 'measured',
        cpuMs: (d.user + d.system) / 1000,
        userMs: d.user / 1000,
        sysMs: d.system / 1000,
        wallMs: performance.now() - t0,
        fanout: pct(fanoutMs),
        ...delta,
      });
    }
  };
}

// ------------------------------------------------------------------ perpdesk server child

async function perpdeskServer(): Promise<void> {
  const { startService } = await import('../src-main/service.ts');
  const { HOUSE_ACCOUNT } = await import('../src-main/trading/exchange.ts');
  const svc = await startService({
    dataDir: ':memory:',
    host: '127.0.0.1',
    port: 0,
    rateLimit: false,
    simulate: false,
  });
  const ex = svc.venue.exchange;
  const hub = svc.app.wsHub;
  let seed = 42;
  const rnd = (): number => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const live: number[] = [];
  const MID = 960_000;
  const step = (): void => {
    if (live.length > 200 || (live.length > 0 && rnd() < 0.4)) {
      const i = Math.floor(rnd() * live.length);
      const id = live[i];
      live[i] = live[live.length - 1];
      live.pop();
      try {
        cancelBotOrder(ex, 'BTCUSDT', id);
      } catch {
        // filled meanwhile
      }
      return;
    }
    const side = rnd() < 0.5 ? 1 : 2;
    const aggressive = rnd() < 0.1;
    const off = Math.floor(rnd() * (aggressive ? 20 : 200));
    const ticks = aggressive ? (side === 1 ? MID + off : MID - off) : side === 1 ? MID - 1 - off : MID + 1 + off;
    const r = placeBotOrder(
      ex,
      {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        price: (ticks / 10).toFixed(1),
        qty: ((2 + Math.floor(rnd() * 50)) / 1000).toFixed(3), // 2 lots and up: the min notional
        time_in_force: aggressive ? 2 : 1,
      },
      aggressive ? HOUSE_ACCOUNT + 1 : HOUSE_ACCOUNT,
    );
    if (r.status === 1 || r.status === 2) live.push(Number(r.order_id));
  };
  for (let i = 0; i < 400; i++) step();
  // the hub's timer calls this.tick(): time each tick that pushed
  const tick = hub.tick.bind(hub);
  hub.tick = () => {
    const before = hub.stats.pushes;
    const t = performance.now();
    tick();
    if (hub.stats.pushes > before) fanoutMs.push(performance.now() - t);
  };
  // the flow: OPS commands per second in 10 ms slices
  const perSlice = Math.max(1, Math.round(OPS / 100));
  let refused = 0;
  const flow = setInterval(() => {
    for (let i = 0; i < perSlice; i++) {
      try {
        step();
      } catch {
        refused++; // an order the exchange refused; the flow goes on
      }
    }
  }, 10);
  const meter = cpuMeter(() => ({
    refused,
    pushes: hub.stats.pushes,
    messages: hub.stats.messages,
    pushBytes: hub.stats.pushBytes,
    updateIds: ex.pairs.get('BTCUSDT')!.book.updateId,
  }));
  process.on('message', async (m: Msg) => {
    meter(m);
    if (m.type === 'exit') {
      clearInterval(flow);
      await svc.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', url: `${svc.url.replace('http', 'ws')}/ws` });
}

// ------------------------------------------------------------------ bare ws server child

async function bareServer(): Promise<void> {
  let payloads: string[] = [];
  const http = createServer();
  const wss = new WebSocketServer({ server: http, path: '/ws', perMessageDeflate: false, maxPayload: 64 * 1024 });
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      // the clients only SUBSCRIBE; answer like the venue does
      const id = (JSON.parse(String(data)) as { id: number }).id;
      socket.send(JSON.stringify({ id, result: null }));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  let k = 0;
  let sent = 0;
  let bytes = 0;
  const timer = setInterval(() => {
    if (payloads.length === 0) return;
    const text = payloads[k++ % payloads.length].replace(/"E":\d+/, `"E":${Date.now()}`);
    const t = performance.now();
    const buf = Buffer.from(text);
    for (const c of wss.clients) {
      if (c.readyState !== WebSocket.OPEN) continue;
      c.send(buf, { binary: false });
      sent++;
      bytes += buf.length;
    }
    if (wss.clients.size > 0) fanoutMs.push(performance.now() - t);
  }, TICK_MS);
  const meter = cpuMeter(() => ({ pushes: sent, pushBytes: bytes }));
  process.on('message', (m: Msg) => {
    meter(m);
    if (m.type === 'payloads') payloads = m.payloads as string[];
    if (m.type === 'exit') {
      clearInterval(timer);
      for (const c of wss.clients) c.terminate();
      http.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', url: `ws://127.0.0.1:${port}/ws` });
}

// ------------------------------------------------------------------ clients children

/** One of CLIENT_PROCS processes holding a share of the clients (lib/ws-load.ts: raw sockets, minimal frame reader). */
async function clients(): Promise<void> {
  const load = new LoadClients();
  let cpu0 = process.cpuUsage();
  let t0 = performance.now();
  process.on('message', async (m: Msg) => {
    if (m.type === 'connect') {
      try {
        await load.connect(m.url as string, STREAM, m.n as number);
      } catch (err) {
        console.error('ws.bench: a client could not connect:', err);
        process.exit(1);
      }
      send({ type: 'connected', n: load.size });
    } else if (m.type === 'measure-start') {
      cpu0 = process.cpuUsage();
      t0 = performance.now();
      load.start();
    } else if (m.type === 'measure-stop') {
      const r = load.stop();
      const d = process.cpuUsage(cpu0);
      send({
        type: 'measured',
        clientCpu: (100 * (d.user + d.system)) / 1000 / (performance.now() - t0),
        ...r,
        errors: load.errors,
      });
    } else if (m.type === 'disconnect') {
      load.close();
      send({ type: 'disconnected' });
    } else if (m.type === 'exit') process.exit(0);
  });
  send({ type: 'ready' });
}

/** The clients' reports of one phase merged: per message the receipts of every process. */
function mergeClients(parts: Msg[]): Msg {
  const perMessage = new Map<number, { n: number; max: number }>();
  const histogram: number[] = [];
  let frames = 0;
  let closedEarly = 0;
  let clientCpu = 0;
  const errors: string[] = [];
  for (const p of parts) {
    for (const [E, n, max] of p.perMessage as Array<[number, number, number]>) {
      const m = perMessage.get(E);
      if (m === undefined) perMessage.set(E, { n, max });
      else {
        m.n += n;
        if (max > m.max) m.max = max;
      }
    }
    (p.histogram as number[]).forEach((c, i) => (histogram[i] = (histogram[i] ?? 0) + c));
    frames += p.frames as number;
    closedEarly += p.closedEarly as number;
    clientCpu += p.clientCpu as number;
    errors.push(...(p.errors as string[]));
  }
  const complete = [...perMessage.values()].filter((x) => x.n === N).map((x) => x.max);
  return {
    type: 'measured',
    clientCpu,
    frames,
    lastClient: pct(complete),
    anyClient: pctHistogram(histogram),
    messages: perMessage.size,
    complete: complete.length,
    closedEarly,
    errors,
    samples: parts[0].samples,
  };
}

function pctHistogram(h: number[]): { p50: number; p99: number; max: number } {
  const total = h.reduce((a, b) => a + (b ?? 0), 0);
  if (total === 0) return { p50: NaN, p99: NaN, max: NaN };
  const at = (q: number): number => {
    const want = Math.min(total - 1, Math.floor(q * total));
    let seen = 0;
    for (let i = 0; i < h.length; i++) {
      seen += h[i] ?? 0;
      if (seen > want) return i;
    }
    return h.length - 1;
  };
  let max = 0;
  for (let i = 0; i < h.length; i++) if ((h[i] ?? 0) > 0) max = i;
  return { p50: at(0.5), p99: at(0.99), max };
}

function pct(xs: number[]): { p50: number; p99: number; max: number } {
  if (xs.length === 0) return { p50: NaN, p99: NaN, max: NaN };
  const s = Float64Array.from(xs).sort();
  return { p50: quantileSorted(s, 0.5), p99: quantileSorted(s, 0.99), max: s[s.length - 1] };
}

// ------------------------------------------------------------------ orchestrator

interface Child {
  proc: ChildProcess;
  next(type: string): Promise<Msg>;
  send(m: Msg): void;
}

let finished = false;

const spawned: ChildProcess[] = [];

/** Ends the run: no child may outlive the orchestrator (they hold sockets and the output). */
function fail(message: string): never {
  console.error(message);
  for (const p of spawned) p.kill('SIGKILL');
  process.exit(1);
}

function spawn(r: string): Child {
  const proc = fork(new URL(import.meta.url).pathname, ['--role', r, ...process.argv.slice(2)], { stdio: 'inherit' });
  spawned.push(proc);
  proc.on('exit', (code) => {
    if (code !== 0 && !finished) fail(`ws.bench: the ${r} process exited with code ${code}`);
  });
  const queue: Msg[] = [];
  const waiters: Array<{ type: string; resolve: (m: Msg) => void }> = [];
  proc.on('message', (m: Msg) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
    else queue.push(m);
  });
  return {
    proc,
    next(type) {
      const i = queue.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
      return new Promise((resolve) => waiters.push({ type, resolve }));
    },
    send(m) {
      proc.send(m);
    },
  };
}

interface PhaseResult {
  server: Msg;
  clients: Msg;
}

/** The client processes as one: a message goes to each, an answer is awaited from each. */
interface ClientGroup {
  send(m: Msg): void;
  all(type: string): Promise<Msg[]>;
  connect(url: string): Promise<void>;
}

function clientGroup(procs: Child[]): ClientGroup {
  const g: ClientGroup = {
    send: (m) => procs.forEach((p) => p.send(m)),
    all: (type) => Promise.all(procs.map((p) => p.next(type))),
    async connect(url) {
      // connections are opened one process after the other (each in batches of 100)
      for (let i = 0; i < procs.length; i++) {
        const n = Math.floor((N * (i + 1)) / procs.length) - Math.floor((N * i) / procs.length);
        procs[i].send({ type: 'connect', url, n });
        await procs[i].next('connected');
      }
    },
  };
  return g;
}

async function measure(server: Child, cl: ClientGroup): Promise<PhaseResult> {
  await sleep(WARMUP_MS);
  server.send({ type: 'measure-start' });
  cl.send({ type: 'measure-start' });
  await sleep(SECONDS * 1000);
  server.send({ type: 'measure-stop' });
  cl.send({ type: 'measure-stop' });
  return { server: await server.next('measured'), clients: mergeClients(await cl.all('measured')) };
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => fail('ws.bench: took too long, giving up'), (4 * (SECONDS + 5) + 120) * 1000);
  console.log(
    `ws.bench: ${N} clients on '${STREAM}', ${SECONDS} s per phase, bot flow ${OPS} commands/s, node ${process.version}`,
  );

  const procs = Array.from({ length: CLIENT_PROCS }, () => spawn('clients'));
  const cl = clientGroup(procs);
  await cl.all('ready');

  // phase 0 and 1: perpdesk
  const pd = spawn('perpdesk');
  const pdUrl = (await pd.next('ready')).url as string;
  await sleep(WARMUP_MS);
  pd.send({ type: 'measure-start' });
  await sleep(Math.min(5, SECONDS) * 1000);
  pd.send({ type: 'measure-stop' });
  const idle = await pd.next('measured');

  let t = performance.now();
  await cl.connect(pdUrl);
  console.log(`  perpdesk: ${N} clients connected and subscribed in ${Math.round(performance.now() - t)} ms`);
  const a = await measure(pd, cl);
  cl.send({ type: 'disconnect' });
  await cl.all('disconnected');
  pd.send({ type: 'exit' });
  await new Promise((r) => pd.proc.once('exit', r));

  // phase 2: bare ws replaying phase 1's payloads
  const bare = spawn('bare');
  const bareUrl = (await bare.next('ready')).url as string;
  bare.send({ type: 'payloads', payloads: a.clients.samples as string[] });
  t = performance.now();
  await cl.connect(bareUrl);
  console.log(`  baseline: ${N} clients connected in ${Math.round(performance.now() - t)} ms`);
  const b = await measure(bare, cl);
  cl.send({ type: 'disconnect' });
  await cl.all('disconnected');
  bare.send({ type: 'exit' });
  finished = true;
  cl.send({ type: 'exit' });
  clearTimeout(watchdog);

  const cpu = (m: Msg): number => (100 * (m.cpuMs as number)) / (m.wallMs as number);
  const lat = (m: Msg, k: string): { p50: number; p99: number; max: number } =>
    m[k] as { p50: number; p99: number; max: number };
  const rate = (m: Msg): number => (m.frames as number) / SECONDS;
  const avgBytes = (m: Msg): number => (m.pushBytes as number) / Math.max(1, m.pushes as number);
  const row = (name: string, r: PhaseResult, cpuPct: number): string =>
    `  ${name.padEnd(22)} ${cpuPct.toFixed(1).padStart(7)}%  ${rate(r.clients).toFixed(0).padStart(8)}  ` +
    `${String(lat(r.clients, 'lastClient').p50).padStart(6)} ${String(lat(r.clients, 'lastClient').p99).padStart(6)} ${String(lat(r.clients, 'lastClient').max).padStart(6)}  ` +
    `${String(lat(r.clients, 'anyClient').p50).padStart(6)} ${String(lat(r.clients, 'anyClient').p99).padStart(6)}  ${avgBytes(r.server).toFixed(0).padStart(6)}  ` +
    `${r.clients.complete}/${r.clients.messages}`;

  const flowCpu = cpu(idle);
  const pdCpu = cpu(a.server);
  const bareCpu = cpu(b.server);
  console.log('');
  console.log(
    `  bot flow alone (phase 0): server CPU ${flowCpu.toFixed(1)}%, ${((idle.updateIds as number) / ((idle.wallMs as number) / 1000)) | 0} book changes/s` +
      ((a.server.refused as number) > 0 ? `, ${a.server.refused as number} orders refused during phase 1` : ''),
  );
  console.log('                            server   msgs/s   last-client ms        any-client ms  bytes/  complete/');
  console.log('                               CPU  received     p50    p99    max     p50    p99     msg   messages');
  console.log(row('perpdesk hub', a, pdCpu));
  console.log(row('bare ws broadcast', b, bareCpu));
  console.log('');
  const net = pdCpu - flowCpu;
  console.log(
    `  CPU ratio perpdesk/bare: ${(pdCpu / bareCpu).toFixed(2)}x raw (with the bot flow), ${(net / bareCpu).toFixed(2)}x net of the flow   (budget <= 1.5x)`,
  );
  const pdP99 = lat(a.clients, 'lastClient').p99;
  console.log(
    `  last-client latency p99: perpdesk ${pdP99} ms vs bare ${lat(b.clients, 'lastClient').p99} ms, ratio ${(pdP99 / Math.max(1, lat(b.clients, 'lastClient').p99)).toFixed(2)}x   (budget p99 < 50 ms)`,
  );
  const fo = (m: Msg): { p50: number; p99: number; max: number } =>
    m.fanout as { p50: number; p99: number; max: number };
  const f2 = (x: number): string => x.toFixed(2);
  console.log(
    `  server fan-out time per tick (build + send to all ${N}): perpdesk p50 ${f2(fo(a.server).p50)} / p99 ${f2(fo(a.server).p99)} ms, bare p50 ${f2(fo(b.server).p50)} / p99 ${f2(fo(b.server).p99)} ms`,
  );
  const split = (m: Msg): string =>
    `${((100 * (m.userMs as number)) / (m.wallMs as number)).toFixed(1)}% user + ${((100 * (m.sysMs as number)) / (m.wallMs as number)).toFixed(1)}% system`;
  console.log(`  server CPU split: perpdesk ${split(a.server)}, bare ${split(b.server)}`);
  console.log(
    `  client CPU (all ${N} clients, ${CLIENT_PROCS} process${CLIENT_PROCS > 1 ? 'es' : ''}): ${(a.clients.clientCpu as number).toFixed(0)}% during perpdesk, ${(b.clients.clientCpu as number).toFixed(0)}% during bare: receipt latency includes its queueing`,
  );
  console.log(
    `  serialisations per push: perpdesk ${a.server.messages as number} messages for ${a.server.pushes as number} pushes (${((a.server.pushes as number) / Math.max(1, a.server.messages as number)).toFixed(0)} pushes per serialisation)`,
  );
  if ((a.clients.closedEarly as number) > 0 || (b.clients.closedEarly as number) > 0) {
    console.log(
      `  WARNING: connections closed during the run: perpdesk ${a.clients.closedEarly as number}, bare ${b.clients.closedEarly as number}`,
    );
  }
  const errs = [...(a.clients.errors as string[]), ...(b.clients.errors as string[])];
  if (errs.length > 0) {
    console.log(`  ERROR: protocol violations seen by the clients: ${[...new Set(errs)].join(', ')}`);
    process.exit(1);
  }
  process.exit(0);
}

const roles: Record<string, () => Promise<void>> = { main, perpdesk: perpdeskServer, bare: bareServer, clients };
// a child whose orchestrator is gone ends too
if (role !== 'main') process.on('disconnect', () => process.exit(1));
roles[role]().catch((err) =>
  role === 'main' ? fail(String(err?.stack ?? err)) : (console.error(err), process.exit(1)),
);
