// What a start says (docs/headless.md, "Start messages"): a line after an unclean stop saying so and
// what was put right, and a line when --account sets the wallet of an account that existed. Before,
// a start after a kill -9 said nothing, and --account reset a wallet (99937.36 -> 100000.00) silently.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../src-main/service.ts';
import { accountNotice, recoveryNotice, sayReplayEnd } from '../../src-main/start-notices.ts';
import { openingLimit, placeOrder } from '../helpers/exchange-commands.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-start-notices-'));
  dirs.push(d);
  return d;
}

describe('start notices', () => {
  it('say nothing after a clean stop, and what was put right after an unclean one', () => {
    const none = {
      unclean: false,
      failedStart: false,
      clockAhead: 0,
      repairedCandles: 0,
      tapeTradesFolded: 0,
      partialHistories: new Map<string, number>(),
    };
    expect(recoveryNotice(none)).toBeNull();
    expect(
      recoveryNotice({
        unclean: true,
        failedStart: false,
        clockAhead: 412,
        repairedCandles: 30,
        tapeTradesFolded: 3,
        partialHistories: new Map([['XRPUSDT', 42_792]]),
      }),
    ).toBe(
      'perpdesk: the previous run did not stop cleanly (killed, or the machine stopped); the market clock goes on 412 ms ' +
        'past the last saved market time, after the newest stored record; 3 trade(s) of the public tape put into the 1s ' +
        'candles, which had missed them; 30 candle(s) rebuilt from the finer ones; the ' +
        'unfinished simulated history of XRPUSDT (42792 candles) deleted and built again; every acknowledged order, fill and ' +
        'balance is as it was committed (docs/reliability.md)',
    );
    // a first start killed before a pair's history had any candle: nothing is repaired, and the
    // pairs not reached yet are built with their progress lines (it once said "nothing needed
    // rebuilding" just before "building simulated history 1/3")
    expect(recoveryNotice({ ...none, unclean: true })).toBe(
      'perpdesk: the previous run did not stop cleanly (killed, or the machine stopped); nothing stored needed repair; ' +
        'every acknowledged order, fill and balance is as it was committed (docs/reliability.md)',
    );
  });

  it('say how --account set an existing wallet and moved the deposits, and nothing for a new or unchanged one', () => {
    const was = { walletBalance: 9_993_736_000_000n, totalDeposits: 10_000_000_000_000n };
    const now = { walletBalance: 10_000_000_000_000n, totalDeposits: 10_006_264_000_000n };
    expect(accountNotice('mybotkey01', was, now)).toBe(
      'perpdesk: --account mybotkey01: wallet set to 100000.00000000 USDT (was 99937.36000000); total deposits ' +
        '+62.64000000 USDT. Give --account only on the first start to keep a wallet (docs/headless.md, --account on an existing key)',
    );
    expect(accountNotice('mybotkey01', undefined, now)).toBeNull();
    expect(accountNotice('mybotkey01', now, now)).toBeNull();
  });

  it('a service start prints them', async () => {
    const dataDir = tempDir();
    const spec = { apiKey: 'noticekey01', apiSecret: 'noticesecret01' };
    const a = await startService({
      dataDir,
      port: 0,
      simulate: false,
      accounts: [{ ...spec, balance: 100_000_00000000n }],
    });
    await a.close();
    // what a kill -9 leaves: the folder still marked open
    const raw = new DatabaseSync(join(dataDir, 'perpdesk.db'));
    raw.exec("UPDATE settings SET value = '1' WHERE key = 'running'");
    raw.close();
    const lines: string[] = [];
    const b = await startService({
      dataDir,
      port: 0,
      simulate: false,
      accounts: [{ ...spec, balance: 250_000_00000000n }],
      onProgress: (l) => lines.push(l),
    });
    await b.close();
    expect(lines[0]).toMatch(/^perpdesk: the previous run did not stop cleanly/);
    expect(lines[1]).toMatch(
      /^perpdesk: --account noticekey01: wallet set to 250000\.00000000 USDT \(was 100000\.00000000\); total deposits \+150000\.00000000 USDT/,
    );
    const c: string[] = [];
    await (await startService({ dataDir, port: 0, simulate: false, onProgress: (l) => c.push(l) })).close();
    expect(c).toEqual([]);
  });

  it('after a start that failed, the next start says that, not that the previous run was killed', async () => {
    const dataDir = tempDir();
    await (await startService({ dataDir, port: 0, simulate: false })).close();
    // what a first start whose history build was cut short leaves: no market time, the history's end
    const raw = new DatabaseSync(join(dataDir, 'perpdesk.db'));
    raw.exec("DELETE FROM settings WHERE key = 'market_time'");
    raw.exec("INSERT OR REPLACE INTO settings (key, value) VALUES ('history_end', '1764979200000')");
    raw.close();
    // refused after the folder was marked open: a --start other than that end
    await expect(startService({ dataDir, port: 0, simulate: false, simStart: 1764892800000 })).rejects.toThrow(
      /--start applies to a new data folder/,
    );
    const lines: string[] = [];
    await (await startService({ dataDir, port: 0, simulate: false, onProgress: (l) => lines.push(l) })).close();
    expect(lines[0]).toMatch(/^perpdesk: the previous start failed \(its error was said then\); /);
    // and a clean stop after it leaves nothing to say
    const again: string[] = [];
    await (await startService({ dataDir, port: 0, simulate: false, onProgress: (l) => again.push(l) })).close();
    expect(again).toEqual([]);
  });

  it('an --account the exchange refuses fails the start naming it, leaves the folder as a failed start, and says no wallet line', async () => {
    const dataDir = tempDir();
    const spec = { apiKey: 'refusedkey01', apiSecret: 'refusedsecret01' };
    const a = await startService({
      dataDir,
      port: 0,
      simulate: false,
      accounts: [{ ...spec, balance: 20_000_00000000n }],
    });
    const id = a.venue.accounts.byKey(spec.apiKey)!.id;
    const bid = (Math.round((a.venue.exchange.pair('BTCUSDT')!.markPrice * 0.95) / 0.1) * 0.1).toFixed(1);
    placeOrder(a.venue.exchange, id, openingLimit(1, bid, '0.01'));
    await a.close();
    const lines: string[] = [];
    // a new wallet and one_way: the open order refuses the mode change
    await expect(
      startService({
        dataDir,
        port: 0,
        simulate: false,
        // an earlier --account that would be taken: refused with the start, it is not applied either
        accounts: [
          { apiKey: 'earlierkey01', apiSecret: 'earliersecret01', balance: 5_000_00000000n },
          { ...spec, balance: 10_000_00000000n, positionMode: 'one_way' },
        ],
        onProgress: (l) => lines.push(l),
      }),
    ).rejects.toThrow(
      /^--account refusedkey01 \(MODE one_way\): Position mode cannot change while the account has 1 open order/,
    );
    expect(lines).toEqual([]);
    // closed: no lock, no WAL left
    expect(existsSync(join(dataDir, 'perpdesk.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'perpdesk.db-wal'))).toBe(false);
    const next: string[] = [];
    const b = await startService({ dataDir, port: 0, simulate: false, onProgress: (l) => next.push(l) });
    // nothing of the refused --account was applied
    expect(b.venue.accounts.byKey(spec.apiKey)!.walletBalance).toBe(20_000_00000000n);
    expect(b.venue.accounts.byKey('earlierkey01')).toBeUndefined();
    await b.close();
    expect(next[0]).toMatch(/^perpdesk: the previous start failed \(its error was said then\); /);
  });
});

describe('the end of a headless replay', () => {
  it('is said once each time the replay gets there; before, the terminal said nothing', () => {
    type S = { finished: boolean; time: number };
    let listener: ((s: S) => void) | null = null;
    let now: S = { finished: false, time: Date.UTC(2025, 3, 14) };
    const session = {
      status: () => now,
      onChange: (l: (s: S) => void) => ((listener = l), () => (listener = null)),
    } as unknown as Parameters<typeof sayReplayEnd>[0];
    const lines: string[] = [];
    const off = sayReplayEnd(session, 'http://127.0.0.1:8787', (l) => lines.push(l));
    const to = (s: S): void => ((now = s), listener?.(s));
    expect(lines).toEqual([]);
    to({ finished: true, time: Date.UTC(2025, 3, 14, 0, 0, 23, 872) });
    to({ finished: true, time: Date.UTC(2025, 3, 14, 0, 0, 23, 872) });
    expect(lines).toEqual([
      "perpdesk: the replay reached its end, 2025-04-14T00:00:23.872Z: its report is at http://127.0.0.1:8787/api/v1/replay/report and in the screen's report panel; seek back to play it again, Ctrl-C closes the service",
    ]);
    // a seek back, and a second run to the end
    to({ finished: false, time: Date.UTC(2025, 3, 14) });
    to({ finished: true, time: Date.UTC(2025, 3, 14, 0, 0, 23, 872) });
    expect(lines).toHaveLength(2);
    off();
    expect(listener).toBeNull();
  });
});
