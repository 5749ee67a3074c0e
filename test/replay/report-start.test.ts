// A replay report's starting equity is the account's equity before its first command
// (docs/replay.md "Session report"), also when that command moves cash: an --account whose first
// command is a deposit or a reset, and an account made during the session over the admin route
// whose first command is a deposit. Before the fix the report took the deposit as starting cash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseSync } from 'node:sqlite';
import { RestClient } from '../../src-shared/sdk/index.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { trxReplayData } from './harness.ts';

const FIRST_TRADE = 1744588804438;
const UNIT = 100_000_000n;
let db: DatabaseSync;
let data: ReplayData;
let svc: ServiceHandle;

beforeAll(async () => {
  ({ db, data } = await trxReplayData());
  svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    accounts: [
      { apiKey: 'depositfirst', apiSecret: 'depositfirst-secret', balance: 1_000n * UNIT },
      { apiKey: 'resetfirst01', apiSecret: 'resetfirst01-secret', balance: 2_000n * UNIT },
    ],
    replay: { options: { symbols: ['TRXUSDT'], start: FIRST_TRADE }, data, lockstep: true },
  });
});
afterAll(async () => {
  await svc?.close();
  db?.close();
});

const client = (apiKey: string, apiSecret: string) => new RestClient({ baseUrl: svc.url, apiKey, apiSecret });

describe('starting equity when the first command moves cash', () => {
  it('an --account that deposits first, one that resets first, one made later that deposits first', async () => {
    await client('depositfirst', 'depositfirst-secret').deposit('500');
    await client('resetfirst01', 'resetfirst01-secret').resetAccount('7000');
    const made = await fetch(`${svc.url}/admin/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: 'madelater01', api_secret: 'madelater01-secret', balance: '3000' }),
    });
    expect(made.status, await made.clone().text()).toBe(200);
    await client('madelater01', 'madelater01-secret').deposit('250');

    const report = await client('depositfirst', 'depositfirst-secret').replayReport();
    const byKey = new Map<string, (typeof report.accounts)[number]>();
    for (const key of ['depositfirst', 'resetfirst01', 'madelater01']) {
      const id = svc.venue.accounts.byKey(key)!.id;
      const a = report.accounts.find((x) => x.user_id === id);
      expect(a, key).toBeDefined();
      byKey.set(key, a!);
    }
    expect(byKey.get('depositfirst')).toMatchObject({
      starting_equity: '1000.00000000',
      equity: '1500.00000000',
      net_pnl: '0.00000000',
    });
    expect(byKey.get('resetfirst01')).toMatchObject({
      starting_equity: '2000.00000000',
      equity: '7000.00000000',
      net_pnl: '0.00000000',
    });
    expect(byKey.get('madelater01')).toMatchObject({
      starting_equity: '3000.00000000',
      equity: '3250.00000000',
      net_pnl: '0.00000000',
    });
  });
});
