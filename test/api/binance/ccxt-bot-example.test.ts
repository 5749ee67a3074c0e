// The complete ccxt bot docs/binance.md points to (examples/ccxt-bot.ts, `npm run example:ccxt`),
// run as a user runs it: its own Node process against a listening service, a hedge-mode account
// it switches to one-way, a book to trade on, its --url given with a trailing slash. Every step
// prints, and the process ends by itself (ccxt's close() leaves the user stream's 20-minute
// listen-key keep-alive timer behind).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('examples/ccxt-bot.ts', () => {
  it('runs every step against the service and exits by itself', async () => {
    const c = account(svc.venue, 'exbot'); // hedge mode: the bot switches it to one-way
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'examples/ccxt-bot.ts'), '--key', c.apiKey, '--secret', c.apiSecret, '--url', `${svc.base}/`],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const started = Date.now();
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
    const lines = out.trim().split('\n');
    expect({ ...exit, err }, out).toEqual({ code: 0, timedOut: false, err: '' });
    expect(Date.now() - started).toBeLessThan(EXIT_WITHIN_MS);
    expect(lines[0]).toMatch(/^BTC\/USDT:USDT bid [\d.]+ ask [\d.]+ \(book id \d+\)$/);
    expect(lines).toContain('leverage 5');
    expect(lines.find((l) => l.startsWith('stop-loss '))).toMatch(/^stop-loss \d+ at [\d.]+; 1 stop waiting$/);
    expect(lines.find((l) => l.startsWith('bid ') && l.includes('stream says'))).toMatch(
      /^bid (\d+) open at [\d.]+; stream says .*\b\1:open\b/,
    );
    expect(lines[lines.length - 1]).toMatch(/^last fills buy 0\.002@[\d.]+ fee [\d.]+, sell 0\.002@[\d.]+ fee [\d.]+$/);
  }, 90_000);
});
