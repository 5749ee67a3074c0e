import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src-main/store/migrations.ts';
import { openDatabase, schemaVersion } from '../../src-main/store/database.ts';
import { startService } from '../../src-main/service.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('storage', () => {
  it('a second start on the same folder keeps the catalogue, accounts and seed', async () => {
    const dataDir = tempDir();
    const first = await startService({
      dataDir,
      port: 0,
      seed: 42,
      simulate: false,
      accounts: [{ apiKey: 'restartkey1', apiSecret: 'restartsecret1', balance: 123_45000000n }],
    });
    const before = (await (await fetch(`${first.url}/api/v1/symbols`)).json()) as any;
    // a change made while running must survive too
    first.venue.symbols.setStatus('SOLUSDT', 2, 1_700_000_000_000);
    await first.close();

    const second = await startService({ dataDir, port: 0, simulate: false });
    try {
      const after = (await (await fetch(`${second.url}/api/v1/symbols`)).json()) as any;
      expect(after.data.length).toBe(before.data.length);
      const sol = after.data.find((s: { symbol: string }) => s.symbol === 'SOLUSDT');
      expect(sol.status).toBe(2);
      expect(sol.updated_at).toBe(1_700_000_000_000);
      const btcBefore = before.data.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
      const btcAfter = after.data.find((s: { symbol: string }) => s.symbol === 'BTCUSDT');
      expect(btcAfter).toEqual(btcBefore);
      expect(second.venue.seed).toBe(42);
      const acct = second.venue.accounts.byKey('restartkey1');
      expect(acct?.apiSecret).toBe('restartsecret1');
      expect(acct?.walletBalance).toBe(123_45000000n);
    } finally {
      await second.close();
    }
  });

  it('uses WAL and records the schema version', () => {
    const dataDir = tempDir();
    const db = openDatabase({ dataDir });
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    db.close();
  });

  it('refuses a database written by a newer build', () => {
    const dataDir = tempDir();
    openDatabase({ dataDir }).close();
    const raw = new DatabaseSync(join(dataDir, 'perpdesk.db'));
    raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openDatabase({ dataDir })).toThrow(/newer than this build/);
  });

  it('--account on an existing key updates the secret and books the balance change as a deposit', async () => {
    const dataDir = tempDir();
    const a = await startService({ dataDir, port: 0, simulate: false, accounts: [{ apiKey: 'keykeykey1', apiSecret: 'secret0001', balance: 100_00000000n }] });
    await a.close();
    const b = await startService({ dataDir, port: 0, simulate: false, accounts: [{ apiKey: 'keykeykey1', apiSecret: 'secret0002', balance: 250_00000000n }] });
    try {
      const acct = b.venue.accounts.byKey('keykeykey1')!;
      expect(acct.apiSecret).toBe('secret0002');
      expect(acct.walletBalance).toBe(250_00000000n);
      expect(acct.totalDeposits).toBe(250_00000000n);
    } finally {
      await b.close();
    }
  });
});
