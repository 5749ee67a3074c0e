// --account KEY:SECRET:BALANCE:one_way creates a one-way account: the mode is the account's,
// so the native API and the facade (GET positionSide/dual) both report it, and it survives a
// restart of the service on the same data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../../src-main/cli-args.ts';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { binanceusdm } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpdesk-oneway-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const creds = { id: 0, apiKey: 'k1234567', apiSecret: 's1234567' };

/** Starts the service on the data folder with `--account ACCOUNT`, runs `fn` on it and closes it. */
async function onService<T>(account: string, fn: (svc: ServiceHandle) => Promise<T>): Promise<T> {
  const accounts = parseCli(['--account', account]).accounts;
  const svc = await startService({ dataDir: dir, port: 0, simulate: false, rateLimit: false, accounts });
  try {
    return await fn(svc);
  } finally {
    await svc.close();
  }
}

/** The facade's GET positionSide/dual for the account. */
const dualSide = (svc: ServiceHandle) => binanceusdm(svc.url, creds).fapiPrivateGetPositionSideDual();

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
    await onService('k1234567:s1234567:10000:one_way', async (svc) => {
      const id = svc.venue.accounts.byKey('k1234567')!.id;
      expect(svc.venue.exchange.summary(id).position_mode).toBe('one_way');
      expect(await dualSide(svc)).toEqual({ dualSidePosition: false });
    });
    // restarted on the same folder with the account named without a mode: still one-way
    expect(await onService('k1234567:s1234567', dualSide)).toEqual({ dualSidePosition: false });
    expect(await onService('k1234567:s1234567::hedge', dualSide)).toEqual({ dualSidePosition: true });
  });
});
