// Answers wait for the group commit: an acknowledged order is committed (another connection on
// the same file sees it) when the answer arrives, and when the turn's commit fails the answer is
// error 5000, nothing of the command is on disk, no private push announced it, and the venue
// refuses further commands until it restarts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { Errors } from '../../src-shared/errors.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { dataOf, makeAccount, orderBody, signed } from '../helpers/signed.ts';

let t: TestApp | null = null;
let dir = '';
afterEach(async () => {
  await t?.close();
  t = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function fileApp(): Promise<{ t: TestApp; reader: DatabaseSync }> {
  dir = mkdtempSync(join(tmpdir(), 'perpdesk-durable-'));
  t = await makeApp({ dataDir: dir });
  t.venue.clock.pause();
  return { t, reader: new DatabaseSync(join(dir, 'perpdesk.db'), { readOnly: true }) };
}

const ordersOn = (db: DatabaseSync, accountId: number): number =>
  (db.prepare('SELECT COUNT(*) AS n FROM orders WHERE account_id = ?').get(accountId) as { n: number }).n;

describe('durable answers', () => {
  it('an acknowledged order is committed when its answer arrives', async () => {
    const { t, reader } = await fileApp();
    const a = makeAccount(t.venue, 'durable');
    const group = t.venue.trading.group;
    const commits0 = group.commits;
    const answers = await Promise.all(
      [1, 2, 3].map((i) =>
        signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: `d-${i}` }) }),
      ),
    );
    for (const r of answers) expect(dataOf(r).status).toBe(1);
    expect(ordersOn(reader, a.id)).toBe(3);
    expect(group.commits).toBeGreaterThan(commits0);
    reader.close();
  });

  it('an acknowledged conditional order, and its cancel, are committed when their answers arrive', async () => {
    const { t, reader } = await fileApp();
    const a = makeAccount(t.venue, 'durable-c');
    const mark = t.venue.exchange.pair('BTCUSDT')!.markPrice;
    const body = {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.010',
      trigger_price: (Math.round(mark * 2 * 10) / 10).toFixed(1),
      trigger_direction: 1,
    };
    const placed = dataOf(await signed(t.app, a, 'POST', '/fapi/v1/conditional/order', { json: body }));
    const status = () =>
      (
        reader.prepare('SELECT status FROM conditional_orders WHERE id = ?').get(Number(placed.id)) as {
          status: number;
        }
      )?.status;
    expect(status()).toBe(1);
    dataOf(await signed(t.app, a, 'DELETE', '/fapi/v1/conditional/order', { query: { id: placed.id } }));
    expect(status()).toBe(3);
    reader.close();
  });

  it('a failed commit answers 5000, stores nothing, pushes nothing, and stops the exchange', async () => {
    const { t, reader } = await fileApp();
    const a = makeAccount(t.venue, 'failing');
    const pushes: string[] = [];
    t.venue.exchange.events.on('account', (e) => pushes.push(e.kind));
    // A deferred foreign key fails at COMMIT: written into the same turn as the order (from the
    // order's own level event), it makes the turn's commit fail.
    t.venue.db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const poison = t.venue.db.prepare('INSERT INTO child (pid) VALUES (42)');
    const off = t.venue.exchange.events.on('level', () => {
      t.venue.trading.group.unit(() => poison.run());
    });
    const r = await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'lost-1' }) });
    off();
    expect({ status: r.status, code: r.body.code, data: r.body.data }).toEqual({
      status: Errors.INTERNAL.http,
      code: Errors.INTERNAL.code,
      data: null,
    });
    expect(r.body.message).toMatch(/restart/);
    expect(ordersOn(reader, a.id)).toBe(0);
    expect(pushes).toEqual([]);
    const next = await signed(t.app, a, 'POST', '/fapi/v1/orders', { json: orderBody({ client_order_id: 'after-1' }) });
    expect(next.body.code).toBe(Errors.SERVICE_UNAVAILABLE.code);
    reader.close();
  });
});
