// examples/market-maker.ts (docs/sdk.md) run as a user runs it, its own Node process against a
// listening service with a book: one round of quotes at a time (its own pull, then a bid and an
// ask: never more than two of its orders open at once, however short --every is), and when it
// stops it waits for the round in flight before it pulls its quotes, so none stays resting.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { ladder } from '../api/binance/book.ts';
import { account, startService, type Service } from '../api/binance/helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let svc: Service;
beforeAll(async () => {
  svc = await startService();
  ladder(svc.venue, 'mmladder');
});
afterAll(async () => svc?.close());

describe('examples/market-maker.ts', () => {
  it('quotes one round at a time and leaves no quote resting once it says it stopped', async () => {
    const c = account(svc.venue, 'mmexample', 50_000);
    const ex = svc.venue.exchange;
    let mostOpen = 0;
    ex.events.on('account', (e: AccountEvent) => {
      if (e.accountId === c.id && e.kind === 'order') mostOpen = Math.max(mostOpen, ex.openOrders(c.id).length);
    });
    const args = ['--key', c.apiKey, '--secret', c.apiSecret, '--url', svc.base, '--every', '0.005', '--duration', '3'];
    const child = spawn(process.execPath, [path.join(ROOT, 'examples/market-maker.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    // a bound for a hung bot only
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    expect({ code, err }, out).toEqual({ code: 0, err: '' });
    expect(out).toMatch(/ mid [\d.]+ {2}bid [\d.]+ {2}ask [\d.]+\n/);
    expect(out).toMatch(/ stopped \(/);
    expect(mostOpen).toBe(2);
    expect(ex.openOrders(c.id)).toEqual([]);
  }, 90_000);
});
