// The complete ccxt bot docs/binance.md points to (examples/ccxt-bot.ts, `npm run example:ccxt`),
// run as a user runs it: its own Node process against a listening service, a hedge-mode account
// it switches to one-way, a book to trade on, its --url given with a trailing slash. Every step
// prints, and the process ends by itself (ccxt's close() leaves the user stream's 20-minute
// listen-key keep-alive timer behind). On a replay of the repository's 2021 BTCUSDT klines the
// same script runs too, its orders sized up to the pair's minimum notional at those prices.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService as startServiceWith } from '../../../src-main/service.ts';
import { openDatabase } from '../../../src-main/store/database.ts';
import { importInto, KLINES, replayDataOf } from '../../replay/harness.ts';
import { ladder } from './book.ts';
import { account, startService, type Service } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Wall time the bot gets to finish and exit (it needs about 10 s on a loaded host). */
const EXIT_WITHIN_MS = 60_000;

let svc: Service;
beforeAll(async () => {
  svc = await startService();
  ladder(svc.venue, 'exmm');
});
afterAll(async () => svc?.close());

/** Runs the example against `base` as a user does (its own process); its exit, stdout lines and stderr. */
async function runBot(base: string, key: string, secret: string) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'examples/ccxt-bot.ts'), '--key', key, '--secret', secret, '--url', `${base}/`],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exit = await new Promise<{ code: number | null; timedOut: boolean }>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, timedOut: true });
    }, EXIT_WITHIN_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false });
    });
  });
  return { exit, out, err, lines: out.trim().split('\n') };
}

describe('examples/ccxt-bot.ts', () => {
  it('runs every step against the service and exits by itself', async () => {
    const c = account(svc.venue, 'exbot'); // hedge mode: the bot switches it to one-way
    const started = Date.now();
    const { exit, out, err, lines } = await runBot(svc.base, c.apiKey, c.apiSecret);
    expect({ ...exit, err }, out).toEqual({ code: 0, timedOut: false, err: '' });
    expect(Date.now() - started).toBeLessThan(EXIT_WITHIN_MS);
    expect(lines[0]).toMatch(/^BTC\/USDT:USDT bid [\d.]+ ask [\d.]+ \(book id \d+\)$/);
    expect(lines).toContain('leverage 5');
    expect(lines.find((l) => l.startsWith('stop-loss '))).toMatch(/^stop-loss \d+ at [\d.]+; 1 stop waiting$/);
    expect(lines.find((l) => l.startsWith('bid ') && l.includes('stream says'))).toMatch(
      /^bid (\d+) open at [\d.]+; stream says .*\b\1:open\b/,
    );
    // at today's prices 0.002 BTC is over the pair's 100 USDT minimum notional
    expect(lines.some((l) => l.startsWith('order size '))).toBe(false);
    expect(lines[lines.length - 1]).toMatch(/^last fills buy 0\.002@[\d.]+ fee [\d.]+, sell 0\.002@[\d.]+ fee [\d.]+$/);
  }, 90_000);

  it("runs on a replay of the 2021 BTCUSDT klines with only its URL changed: its orders sized to the pair's 100 USDT minimum", async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, [
      {
        paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')],
        opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
      },
    ]);
    const replay = await startServiceWith({
      dataDir: ':memory:',
      rateLimit: false,
      accounts: [{ apiKey: 'exreplaybot01', apiSecret: 'exreplaysecret01', balance: 10_000n * 100_000_000n }],
      replay: { options: { symbols: ['BTCUSDT'], start: Date.UTC(2021, 4, 16) }, data: replayDataOf(ds) },
    });
    try {
      const { exit, out, err, lines } = await runBot(replay.url, 'exreplaybot01', 'exreplaysecret01');
      expect({ ...exit, err }, out).toEqual({ code: 0, timedOut: false, err: '' });
      // about 47000 USDT: 0.002 BTC is 94 USDT, under the minimum; the bot trades the least over it
      // (in the replayed pair's steps) 5% under the mid, under its bid's price
      const size = /^order size (0\.\d+) BTC \(the pair's filters at ([\d.]+)\)$/.exec(
        lines.find((l) => l.startsWith('order size ')) ?? '',
      );
      expect(size, out).not.toBeNull();
      const [qty, price] = [Number(size![1]), Number(size![2])];
      const q = size![1].replace('.', '\\.');
      expect(price).toBeGreaterThan(40_000);
      expect(price).toBeLessThan(50_000);
      expect(qty).toBeGreaterThan(0.002);
      expect(qty * price * 0.98).toBeGreaterThanOrEqual(100);
      expect(lines[lines.length - 1]).toMatch(
        new RegExp(`^last fills buy ${q}@[\\d.]+ fee [\\d.]+, sell ${q}@[\\d.]+ fee [\\d.]+$`),
      );
    } finally {
      await replay.close();
      db.close();
    }
  }, 90_000);
});
