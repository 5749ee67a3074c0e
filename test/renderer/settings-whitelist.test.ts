// Settings' bot whitelist follows the venue's list while the drawer is open: another tab or a bot
// may change it. Until 2026-12-07 it was read once, at opening: a tab kept showing the list of
// before, and its next Save dropped an IP another tab had added.
import { describe, expect, it } from 'vitest';
import { createSettingsStore } from '../../src-renderer/src/features/settings/settings-store.ts';
import {
  editWhitelist,
  followWhitelist,
  whitelistChangedNote,
  whitelistFieldOf,
  whitelistIps,
} from '../../src-renderer/src/features/settings/whitelist-field.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';

const LOOP = ['127.0.0.1', '::1'];

function venue(ips: string[]) {
  const v = { ips, fail: false };
  const api = {
    whitelist: () => (v.fail ? Promise.reject(new Error('down')) : Promise.resolve({ ips: [...v.ips] })),
    sim: () => Promise.reject(new Error('no sim here')),
  } as unknown as RestClient;
  return { v, api };
}

describe('whitelist read again', () => {
  it("takes another tab's change, keeps the same list (no new array) and a list read before on a failure", async () => {
    const { v, api } = venue(LOOP);
    const store = createSettingsStore(api);
    await store.getState().actions.load();
    const first = store.getState().ips;
    await store.getState().actions.refreshWhitelist();
    expect(store.getState().ips).toBe(first);
    v.ips = [...LOOP, '10.0.0.5'];
    await store.getState().actions.refreshWhitelist();
    expect(store.getState().ips).toEqual([...LOOP, '10.0.0.5']);
    v.fail = true;
    await store.getState().actions.refreshWhitelist();
    expect(store.getState().ips).toEqual([...LOOP, '10.0.0.5']);
    expect(store.getState().ipsError).toBeNull();
  });
});

describe('whitelist field', () => {
  it('an unedited field shows the list read again', () => {
    const f = followWhitelist(whitelistFieldOf(LOOP), [...LOOP, '10.0.0.5']);
    expect(f.text).toBe('127.0.0.1\n::1\n10.0.0.5');
    expect(whitelistChangedNote(f)).toBeNull();
  });

  it('an edit is kept, and says so when the venue changed the list meanwhile', () => {
    let f = editWhitelist(whitelistFieldOf(LOOP), '127.0.0.1\n::1\n192.168.1.9');
    f = followWhitelist(f, LOOP);
    expect(f.text).toBe('127.0.0.1\n::1\n192.168.1.9');
    expect(whitelistChangedNote(f)).toBeNull();
    f = followWhitelist(f, [...LOOP, '10.0.0.5']);
    expect(f.text).toBe('127.0.0.1\n::1\n192.168.1.9');
    expect(whitelistChangedNote(f)).toBe(
      'The whitelist changed meanwhile (another tab or a bot): it is now 127.0.0.1, ::1, 10.0.0.5. Save replaces it with the list above.',
    );
    expect(whitelistIps(f.text)).toEqual(['127.0.0.1', '::1', '192.168.1.9']);
  });
});
