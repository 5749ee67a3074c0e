// --account KEY:SECRET:BALANCE:one_way creates a one-way account: the mode is the account's,
// so the native API and the facade (GET positionSide/dual) both report it, and it survives a
// restart of the service on the same data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../../src-main/cli-args.ts';
import { startService } from '../../../src-main/service.ts';
import { binanceusdm } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-oneway-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--account ...:one_way', () => {
  it('parses the mode; a bad mode is refused; an empty balance with a mode keeps the default', () => {
    expect(parseCli(['--account', 'k1234567:s1234567:2500:one_way']).accounts[0]).toMatchObject({
      positionMode: 'one_way',
      balance: 2500_00000000n,
    });
    expect(parseCli(['--account', 'k1234567:s1234567::hedge']).accounts[0]).toMatchObject({
      positionMode: 'hedge',
      balance: 10000_00000000n,
    });
    expect(parseCli(['--account', 'k1234567:s1234567']).accounts[0]).not.toHaveProperty('positionMode');
    expect(() => parseCli(['--account', 'k1234567:s1234567:1:twoway'])).toThrow(CliError);
  });

  it('the service creates it one-way, both surfaces agree, a restart keeps it, :hedge switches back', async () => {
    const creds = { id: 0, apiKey: 'k1234567', apiSecret: 's1234567' };
    let svc = await startService({
      dataDir: dir,
      port: 0,
      simulate: false,
      rateLimit: false,
      accounts: parseCli(['--account', 'k1234567:s1234567:10000:one_way']).accounts,
    });
    try {
      const id = svc.venue.accounts.byKey('k1234567')!.id;
      expect(svc.venue.exchange.summary(id).position_mode).toBe('one_way');
      const ex = binanceusdm(svc.url, creds);
      expect(await ex.fapiPrivateGetPositionSideDual()).toEqual({ dualSidePosition: false });
    } finally {
      await svc.close();
    }
    svc = await startService({
      dataDir: dir,
      port: 0,
      simulate: false,
      rateLimit: false,
      accounts: parseCli(['--account', 'k1234567:s1234567']).accounts,
    });
    try {
      const ex = binanceusdm(svc.url, creds);
      expect(await ex.fapiPrivateGetPositionSideDual()).toEqual({ dualSidePosition: false });
    } finally {
      await svc.close();
    }
    svc = await startService({
      dataDir: dir,
      port: 0,
      simulate: false,
      rateLimit: false,
      accounts: parseCli(['--account', 'k1234567:s1234567::hedge']).accounts,
    });
    try {
      const ex = binanceusdm(svc.url, creds);
      expect(await ex.fapiPrivateGetPositionSideDual()).toEqual({ dualSidePosition: true });
    } finally {
      await svc.close();
    }
  });
});
