// `npm run soak -- --minutes N [--speed X] [--bots B] [--clients C] [--data-dir DIR]`: runs the
// service with the simulated market at high speed, signed bots placing and cancelling orders and
// WebSocket clients subscribing, reconnecting now and then (a child process, so its memory is
// not counted), and prints every minute the service's RSS and heap, open descriptors, event-loop
// delay (p50/p99/max over that minute), how many orders were placed, and the accounting identity
// of every paper account. At the end it says whether RSS and descriptors stayed flat (the last
// minute against the second: the first one builds caches) and exits 1 when the identity broke.
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startService } from '../src-main/service.ts';

const args = process.argv.slice(2);
function opt(name, def) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`soak: --${name} wants a positive number`);
    process.exit(2);
  }
  return v;
}
const minutes = opt('minutes', 30);
const speed = opt('speed', 100);
const bots = opt('bots', 4);
const clients = opt('clients', 20);
const given = args.indexOf('--data-dir') >= 0 ? args[args.indexOf('--data-dir') + 1] : undefined;
const dataDir = given ?? mkdtempSync(join(tmpdir(), 'perpdesk-soak-'));

const accounts = Array.from({ length: bots }, (_, k) => ({
  apiKey: `soakbot${String(k).padStart(4, '0')}`,
  apiSecret: `soaksecret${k}xx`,
  balance: 1_000_000n * 100_000_000n,
}));
console.log(`soak: ${minutes} min, speed ${speed}x, ${bots} bots, ${clients} WebSocket clients, data ${dataDir}`);
const service = await startService({ dataDir, port: 0, speed, accounts, rateLimit: false, onProgress: () => {} });
console.log(`soak: service at ${service.url}`);

const MiB = (n) => `${(n / 1048576).toFixed(1)} MiB`;
const fds = () => {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return NaN; // not Linux
  }
};

/** deposits = wallet + fees - realized PnL + funding paid, per user and local account. */
function identity() {
  const db = service.venue.db;
  service.venue.trading.group.sync();
  const q = (sql, ...a) => {
    const st = db.prepare(sql);
    st.setReadBigInts(true);
    return st.all(...a);
  };
  const broken = [];
  const rows = q("SELECT id, wallet_balance AS w, total_deposits AS d FROM accounts WHERE kind IN ('user', 'local')");
  for (const a of rows) {
    const [t] = q(
      'SELECT COALESCE(SUM(fee), 0) AS f, COALESCE(SUM(realized_pnl), 0) AS r FROM trades WHERE account_id = ?',
      a.id,
    );
    const [f1] = q('SELECT COALESCE(SUM(funding_fee), 0) AS f FROM positions WHERE account_id = ?', a.id);
    const [f2] = q('SELECT COALESCE(SUM(total_funding_fee), 0) AS f FROM closed_positions WHERE account_id = ?', a.id);
    if (a.d !== a.w + t.f - t.r + f1.f + f2.f)
      broken.push(`account ${a.id}: ${a.d} != ${a.w + t.f - t.r + f1.f + f2.f}`);
  }
  return { accounts: rows.length, broken };
}

const load = fork(
  fileURLToPath(new URL('./soak-load.mjs', import.meta.url)),
  [service.url, String(clients), JSON.stringify(accounts.map((a) => [a.apiKey, a.apiSecret]))],
  { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
let placed = 0;
let failed = 0;
load.on('message', (m) => {
  placed = m.placed;
  failed = m.failed;
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const rows = [];
let identityBroken = false;
const report = (minute) => {
  const m = process.memoryUsage();
  const id = identity();
  if (id.broken.length > 0) identityBroken = true;
  const row = {
    minute,
    rss: m.rss,
    heap: m.heapUsed,
    fds: fds(),
    p50: loop.percentile(50) / 1e6,
    p99: loop.percentile(99) / 1e6,
    max: loop.max / 1e6,
  };
  rows.push(row);
  loop.reset();
  console.log(
    `min ${String(minute).padStart(3)}: rss ${MiB(row.rss)}, heap ${MiB(row.heap)}, fds ${row.fds}, ` +
      `loop delay p50 ${row.p50.toFixed(1)} ms p99 ${row.p99.toFixed(1)} ms max ${row.max.toFixed(1)} ms, ` +
      `orders ${placed} (${failed} refused), market ${new Date(service.venue.clock.now()).toISOString().slice(0, 16)}, ` +
      `identity ${id.broken.length === 0 ? `ok (${id.accounts} accounts)` : `BROKEN: ${id.broken.join('; ')}`}`,
  );
};

report(0);
for (let minute = 1; minute <= minutes; minute++) {
  await new Promise((r) => setTimeout(r, 60_000));
  report(minute);
}
load.kill('SIGTERM');
await service.close();
if (given === undefined) rmSync(dataDir, { recursive: true, force: true });

const base = rows[Math.min(1, rows.length - 1)];
const last = rows[rows.length - 1];
console.log(
  `soak: RSS ${MiB(base.rss)} at minute ${base.minute} -> ${MiB(last.rss)} at minute ${last.minute} (${(((last.rss - base.rss) / base.rss) * 100).toFixed(1)}%), ` +
    `descriptors ${base.fds} -> ${last.fds}, identity ${identityBroken ? 'BROKEN' : 'held every minute'}`,
);
process.exit(identityBroken ? 1 : 0);
