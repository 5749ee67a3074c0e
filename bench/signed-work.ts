// The signed order's own work alone (bench/lib/api-work.ts's signedWork: venue.submit with its
// share of the SQLite group commit, the signature check, the market checkpoint's share), with no
// HTTP and no load client: for a CPU profile (`node --cpu-prof`) or an instruction count
// (`valgrind --tool=callgrind`) of that work, and for comparing two trees on a shared host.
//
//   node bench/signed-work.ts [orders] [rounds] [perCommit] [perSecond]
//
// The service as bench/api.bench.ts starts it (a temp data folder on disk, no simulated market,
// rate limits off, the two bench accounts), then `rounds` rounds of `orders` signed orders (4,000,
// 5, 25 orders a commit, the checkpoint's share at 16,000 orders a second: a saturated signed run's
// figures on the current host), each printing the µs an order of the three parts. A first round of
// the same size warms the code and is not printed.
//
// Instructions: `--count=orders` (or `--count=signatures`) after the arguments runs, after the
// rounds, `orders` more orders through venue.submit (a commit every `perCommit`, as signedWork)
// or their signature checks, that loop alone inside a JSON.parse reviver, so that callgrind,
// told to count only inside JSON.parse's reviver, counts that loop and nothing else (not the
// start, the rounds before it, nor the signing of the requests):
//
//   valgrind --tool=callgrind --separate-threads=yes --collect-atstart=no \
//     --toggle-collect='v8::internal::JsonParseInternalizer::Internalize*' \
//     node --no-concurrent-recompilation --perf-basic-prof bench/signed-work.ts 2000 5 25 16000 --count=orders
//
// The event loop's thread's file (`callgrind.out.PID-01`) holds the count (`summary:`): divide it
// by `orders`. Give it rounds enough that V8 has optimised the path first (5 rounds of 2,000:
// with fewer, TurboFan's compiles and Maglev's code land in the count); the synchronous
// recompilation keeps the compiler's work on that thread, where a late compile shows.
// `--perf-basic-prof` writes /tmp/perf-PID.map, which names the JIT code's addresses in
// callgrind's output (JS functions). Each run takes several minutes under valgrind; two trees
// compare in one run of each (instruction counts do not depend on the host's load).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../src-main/service.ts';
import { verifySignature } from '../src-main/api/signature.ts';
import { buildSignedQuery } from '../src-shared/sign.ts';
import { signedInput, signedWork } from './lib/api-work.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--count'));
/** Which loop runs inside the reviver (`--count=orders` or `--count=signatures`; `--count`: both). */
const COUNT =
  process.argv.find((a) => a.startsWith('--count'))?.split('=')[1] ?? (process.argv.includes('--count') ? 'both' : '');
const ORDERS = Number(args[0] ?? 4000);
const ROUNDS = Number(args[1] ?? 5);
const PER_COMMIT = Number(args[2] ?? 25);
const PER_SECOND = Number(args[3] ?? 16_000);
const SYMBOL = 'BTCUSDT';
const P = 960_000;
const ACCOUNTS = [
  { apiKey: 'benchKeyA0001', apiSecret: 'benchSecretA0001' },
  { apiKey: 'benchKeyB0002', apiSecret: 'benchSecretB0002' },
];
const BALANCE = 1_000_000_000n * 100_000_000n;

const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-signed-work-'));
const svc = await startService({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  simulate: false,
  rateLimit: false,
  accounts: ACCOUNTS.map((a) => ({ ...a, balance: BALANCE })),
});
try {
  const accounts = ACCOUNTS.map((a) => ({ id: svc.venue.accounts.byKey(a.apiKey)!.id, apiSecret: a.apiSecret }));
  const run = (): ReturnType<typeof signedWork> =>
    signedWork(svc, {
      symbol: SYMBOL,
      priceTicks: P,
      accounts,
      perCommit: PER_COMMIT,
      perSecond: PER_SECOND,
      n: ORDERS,
    });
  if (ORDERS > 0) {
    run();
    for (let r = 0; r < ROUNDS; r++) {
      const w = run();
      console.log(
        `round ${r + 1}: order ${w.order.toFixed(2)} µs (submit and its share of the group commit), ` +
          `signature ${w.hmac.toFixed(2)}, checkpoint ${w.checkpoint.toFixed(3)}`,
      );
    }
  }
  if (COUNT !== '' && ORDERS > 0) {
    const group = svc.venue.trading.group;
    const inputs = Array.from({ length: ORDERS }, (_, i) => signedInput({ symbol: SYMBOL, priceTicks: P }, i));
    const now = Date.now();
    const checks = inputs.map((input, i) => {
      const body = JSON.stringify(input);
      const secret = accounts[i & 1].apiSecret;
      const q = buildSignedQuery({ timestamp: now, recv_window: 5000 }, secret, body);
      const at = q.lastIndexOf('&signature=');
      return { body, signed: q.slice(0, at), signature: q.slice(at + 11), secret };
    });
    /** Runs fn alone inside JSON.parse's reviver: callgrind's --toggle-collect and --dump-after function. */
    const counted = (fn: () => void): void => {
      JSON.parse('[0]', (key: string, value: unknown) => {
        if (key === '0') fn();
        return value;
      });
    };
    const orders = (): void => {
      for (let i = 0; i < ORDERS; i++) {
        svc.venue.submit({ kind: 'place', accountId: accounts[i & 1].id, input: inputs[i] });
        if ((i + 1) % PER_COMMIT === 0) group.commitNow();
      }
      group.commitNow();
    };
    let refused = 0;
    const signatures = (): void => {
      for (const c of checks) {
        const bad = verifySignature({
          timestamp: String(now),
          recvWindow: '5000',
          signed: c.signed,
          body: c.body,
          signature: c.signature,
          secret: c.secret,
          now,
        });
        if (bad !== null) refused++;
      }
    };
    if (COUNT === 'signatures') orders();
    else counted(orders);
    if (COUNT === 'orders') signatures();
    else counted(signatures);
    if (refused > 0) throw new Error(`signed-work: ${refused} of the bench's own signatures refused`);
    console.log(`counted (${COUNT}): ${ORDERS} orders (${PER_COMMIT} a commit), then their ${ORDERS} signature checks`);
  }
} finally {
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
