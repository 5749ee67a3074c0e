// Lines a start says about what it found (startService prints them through onProgress, both
// entries alike): a last run that did not stop cleanly and what was put right, and an --account
// that set the wallet of an account that existed (docs/headless.md). Before, a start after a
// kill -9 said nothing of it, and `--account key:secret:100000` set a wallet of 99937.36 back to
// 100000.00 without a word.
import { formatFixed } from '../src-shared/decimal.ts';
import type { ReplaySession } from './replay/session.ts';
import type { StartRecovery } from './venue.ts';

/** 1e-8 USDT units. */
const MONEY_DECIMALS = 8;

/** The recovery line after an unclean stop or a history build cut short; null when there is nothing to say. */
export function recoveryNotice(r: StartRecovery): string | null {
  if (!r.unclean && r.partialHistories.size === 0) return null;
  const done: string[] = [];
  if (r.clockAhead > 0)
    done.push(
      `the market clock goes on ${r.clockAhead} ms past the last saved market time, after the newest stored record`,
    );
  if (r.tapeTradesFolded > 0)
    done.push(`${r.tapeTradesFolded} trade(s) of the public tape put into the 1s candles, which had missed them`);
  if (r.repairedCandles > 0) done.push(`${r.repairedCandles} candle(s) rebuilt from the finer ones`);
  if (r.partialHistories.size > 0) {
    const pairs = [...r.partialHistories].map(([symbol, n]) => `${symbol} (${n} candles)`).join(', ');
    done.push(`the unfinished simulated history of ${pairs} deleted and built again`);
  }
  const found = r.failedStart
    ? 'the previous start failed (its error was said then)'
    : r.unclean
      ? 'the previous run did not stop cleanly (killed, or the machine stopped)'
      : 'a history build was cut short';
  return (
    // nothing to put right: the pairs whose history a killed first start had not reached yet are
    // built as on any first start (its progress lines), which is no rebuilding
    `perpdesk: ${found}; ${done.length > 0 ? done.join('; ') : 'nothing stored needed repair'}; ` +
    'every acknowledged order, fill and balance is as it was committed (docs/reliability.md)'
  );
}

/** The line for an --account whose key existed and whose wallet it set to another balance; null otherwise. */
export function accountNotice(
  apiKey: string,
  before: { walletBalance: bigint; totalDeposits: bigint } | undefined,
  after: { walletBalance: bigint; totalDeposits: bigint },
): string | null {
  if (before === undefined || before.walletBalance === after.walletBalance) return null;
  const usdt = (u: bigint): string => formatFixed(u, MONEY_DECIMALS);
  const delta = after.totalDeposits - before.totalDeposits;
  return (
    `perpdesk: --account ${apiKey}: wallet set to ${usdt(after.walletBalance)} USDT (was ${usdt(before.walletBalance)}); ` +
    `total deposits ${delta >= 0n ? '+' : '-'}${usdt(delta >= 0n ? delta : -delta)} USDT. ` +
    'Give --account only on the first start to keep a wallet (docs/headless.md, --account on an existing key)'
  );
}

/**
 * Says when a replay (`npm run serve -- --replay`) reaches its end (`--until`, else the end of its
 * data), once each time it gets there (a seek back and a second run to the end say it again):
 * before, the terminal said nothing, and the replay sat finished with nobody told. Returns the
 * unsubscribe.
 */
export function sayReplayEnd(
  session: Pick<ReplaySession, 'status' | 'onChange'>,
  url: string,
  say: (line: string) => void,
): () => void {
  let said = false;
  const check = (s: { finished: boolean; time: number }): void => {
    if (!s.finished) {
      said = false;
      return;
    }
    if (said) return;
    said = true;
    say(
      `perpdesk: the replay reached its end, ${new Date(s.time).toISOString()}: its report is at ` +
        `${url}/api/v1/replay/report and in the screen's report panel; seek back to play it again, Ctrl-C closes the service`,
    );
  };
  check(session.status());
  return session.onChange(check);
}
