// The balance typed into Settings' "Reset balance" field, checked as the venue checks it
// (POST /fapi/v1/account/reset, docs/api.md): a USDT amount above 0, at most 1,000,000,000 and with at
// most 8 decimals. Each bad value gets its message under the field (before, "-5", "0" or too many
// decimals only disabled "Reset account…", with nothing said and the field not marked invalid).
import { parseFixed } from '../../../../src-shared/decimal.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';

/** The venue's most for a paper balance, USDT (src-main/accounts/credentials.ts MAX_PAPER_USDT). */
const MAX_USDT = 1_000_000_000n;
const DECIMALS = 8;

/** What is wrong with the typed balance, said for the trader; null when it is fine or empty. */
export function resetBalanceCheck(amount: DecimalInput): string | null {
  if (amount.kind === 'empty') return null;
  if (amount.kind === 'invalid') return 'Not an amount: use digits and a decimal point, e.g. 10000.';
  if (amount.kind === 'negative') return 'A balance must be above 0.';
  const units = parseFixed(amount.value, DECIMALS);
  if (!units.ok) {
    if (units.reason === 'zero') return 'A balance must be above 0.';
    if (units.reason === 'off_step') return `At most ${DECIMALS} decimals: the venue refuses more.`;
    return 'Not an amount: use digits and a decimal point, e.g. 10000.';
  }
  if (units.value > MAX_USDT * 10n ** BigInt(DECIMALS)) return 'At most 1,000,000,000 USDT: the venue refuses more.';
  return null;
}
