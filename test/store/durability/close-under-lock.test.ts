// The service stops (SIGTERM) while another program holds the database's write lock (a sqlite3
// shell in BEGIN IMMEDIATE) and a signed order waits for its commit: the order is answered (5000,
// saying another program holds the lock, of which file), not cut; the close says the same in one
// line, without a stack, and ends within its 5 s bound; the order is not stored. Before: the
// socket was closed with no answer, and `closing the service failed: Error: database is locked`
// with a raw stack after 5040 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { takeWriteLock } from '../../helpers/write-lock.ts';
import { all, kill9, signed, startService, type Creds, type Service } from './service-process.ts';

const CREDS: Creds = { key: 'closelockkey01', secret: 'closelocksecret01' };
const dirs: string[] = [];
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await kill9(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a close while another program holds the write lock', () => {
  it('answers the waiting order, says what holds the close in one line, and stores nothing of the order', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-closelock-'));
    dirs.push(dataDir);
    const db = join(dataDir, 'perpdesk.db');
    const s = await startService([
      '--data-dir',
      dataDir,
      '--no-sim',
      '--account',
      `${CREDS.key}:${CREDS.secret}:100000`,
    ]);
    services.push(s);
    const body = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price: '90000.0',
      qty: '0.002',
    };
    expect(
      (await signed(s.url, CREDS, 'POST', '/fapi/v1/orders', {}, { ...body, client_order_id: 'kept-1' })).code,
    ).toBe(0);
    const shell = new DatabaseSync(db);
    await takeWriteLock(shell);
    try {
      const order = signed(s.url, CREDS, 'POST', '/fapi/v1/orders', {}, { ...body, client_order_id: 'held-1' }).catch(
        (err: unknown) => ({ dropped: String(err) }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      s.child.kill('SIGTERM');
      const answer = await order;
      expect(answer).toMatchObject({ code: 5000 });
      expect(answer.message).toContain(`a write to ${db} failed: the database stayed locked by another connection`);
      expect(answer.message).toContain(`Close the program that has ${db} open`);
      const code = await s.exited;
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(code).toBe(1);
      const err = s.stderr();
      expect(err).toMatch(
        new RegExp(`perpdesk: closing the service failed: a write to ${db} failed: another program holds`),
      );
      expect(err).not.toMatch(/^\s+at /m); // no stack
    } finally {
      shell.exec('ROLLBACK');
      shell.close();
    }
    const again = await startService(['--data-dir', dataDir, '--no-sim']);
    services.push(again);
    const orders = await all(again.url, CREDS, '/fapi/v1/allOrders', { symbol: 'BTCUSDT' });
    expect(orders.map((o) => o.client_order_id)).toEqual(['kept-1']);
  }, 90_000);
});
