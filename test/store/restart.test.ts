import { placeBotOrder, placeOrder } from '../helpers/exchange-commands.ts';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src-main/store/migrations.ts';
import { openDatabase, schemaVersion } from '../../src-main/store/database.ts';
import { startService } from '../../src-main/service.ts';
import { USAGE } from '../../src-main/cli-args.ts';

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

  // docs/headless.md and --help: without --seed a start keeps the folder's last seed (an explicit
  // --seed replaces it for later starts too), else 1; before, both said "kept from the first start"
  it('a start without --seed keeps the last seed given, not the first', async () => {
    const dataDir = tempDir();
    const starts = [3, 5, undefined];
    const seeds: number[] = [];
    for (const seed of starts) {
      const s = await startService({ dataDir, port: 0, seed, simulate: false });
      seeds.push(s.venue.seed);
      await s.close();
    }
    expect(seeds).toEqual([3, 5, 5]);
    const help = (/--seed N[\s\S]*?(?=\n {2}--)/.exec(USAGE)?.[0] ?? '').replace(/\s+/g, ' ');
    const row =
      readFileSync(join(import.meta.dirname, '../../docs/headless.md'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('| `--seed N`')) ?? '';
    for (const said of [help, row]) {
      expect(said).not.toMatch(/first start/);
      expect(said).toMatch(/last seed/);
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
    const a = await startService({
      dataDir,
      port: 0,
      simulate: false,
      accounts: [{ apiKey: 'keykeykey1', apiSecret: 'secret0001', balance: 100_00000000n }],
    });
    await a.close();
    const b = await startService({
      dataDir,
      port: 0,
      simulate: false,
      accounts: [{ apiKey: 'keykeykey1', apiSecret: 'secret0002', balance: 250_00000000n }],
    });
    try {
      const acct = b.venue.accounts.byKey('keykeykey1')!;
      expect(acct.apiSecret).toBe('secret0002');
      expect(acct.walletBalance).toBe(250_00000000n);
      expect(acct.totalDeposits).toBe(250_00000000n);
    } finally {
      await b.close();
    }
  });

  it('--account on an account with an open position sets the live wallet and the stored one alike', async () => {
    const dataDir = tempDir();
    const spec = { apiKey: 'livekey0001', apiSecret: 'livesecret01', balance: 10_000_00000000n };
    const a = await startService({ dataDir, port: 0, simulate: false, accounts: [spec] });
    const id = a.venue.accounts.byKey(spec.apiKey)!.id;
    // a house ask to take, then a market buy: the position stays open, the taker fee leaves the wallet
    placeBotOrder(a.venue.exchange, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: '96000.0',
      qty: '1.000',
      need_cache: true,
    });
    placeOrder(a.venue.exchange, id, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.100',
    });
    const fee = 480_000_000n; // 9,600 x 0.0005 = 4.8 USDT, in 1e-8 units
    expect(a.venue.exchange.walletOf(id)).toBe(spec.balance - fee);
    await a.close();

    // the restart restores the position (the account is loaded at start), then --account applies
    const b = await startService({ dataDir, port: 0, simulate: false, accounts: [spec] });
    try {
      expect(b.venue.exchange.positions(id)).toHaveLength(1);
      const stored = b.venue.accounts.byKey(spec.apiKey)!;
      expect(stored.walletBalance).toBe(spec.balance);
      expect(stored.totalDeposits).toBe(spec.balance + fee);
      expect(b.venue.exchange.walletOf(id)).toBe(spec.balance);
      expect(b.venue.exchange.summary(id)).toMatchObject({
        wallet_balance: '10000.00000000',
        total_deposits: '10004.80000000',
      });
    } finally {
      await b.close();
    }
  });

  it.skipIf(process.platform === 'win32')(
    'the data folder and database file are private to the user (they hold API secrets)',
    async () => {
      const dataDir = join(tempDir(), 'fresh');
      const v = await startService({ dataDir, port: 0, simulate: false });
      try {
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(statSync(join(dataDir, 'perpdesk.db')).mode & 0o777).toBe(0o600);
        expect(statSync(join(dataDir, 'perpdesk.db-wal')).mode & 0o777).toBe(0o600);
      } finally {
        await v.close();
      }
    },
  );
});
